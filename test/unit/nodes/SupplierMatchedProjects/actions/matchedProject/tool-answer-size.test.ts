/**
 * Issue 19's size targets, measured in-process on the account the real-n8n AI suite serves
 * (test/support/e2e/agent-account.js: the sandbox's own generator, the same options). A model receives
 * JSON.stringify of the array of the tool's output items' json (n8n-core's mapResult), and the
 * tool answers one item. The figures are in the tests' names:
 * `npx jest test/unit/nodes/SupplierMatchedProjects/actions/matchedProject/tool-answer-size.test.ts` lists them; test/e2e/ai-tool.test.ts prints the
 * ones measured in real n8n.
 */
import type { Project } from '../../../../../../nodes/SupplierMatchedProjects/api/types';
import {
	COMPACT_FIELDS,
	DEFAULT_TOOL_LIMIT,
} from '../../../../../../nodes/SupplierMatchedProjects/parameters/tool';
import {
	answerProject,
	toolAnswerOf,
} from '../../../../../../nodes/SupplierMatchedProjects/actions/matchedProject/tool-answer';
import {
	AGENT_ACCOUNT,
	agentAccountProjects,
	startAgentAccountSandbox,
} from '../../../../../support/e2e/agent-account';

const TODAY = '2026-11-25';
const NOW = `${TODAY}T12:00:00.000Z`;
/** The node's Limit before tool mode, which a tool used as its default. */
const NODE_DEFAULT_LIMIT = 50;

const account: Project[] = agentAccountProjects({ now: NOW });

/** The tool's answer with the first `limit` projects, compact or as the API's projects. */
function answerWith(limit: number, mode: 'compact' | 'raw') {
	const projects = account.slice(0, limit);
	const answer = toolAnswerOf(
		// More match whenever the account holds more: the API's page then says it has a next one.
		{
			returned: projects.length,
			moreMatch: account.length > limit,
			limit,
			filtersApplied: [],
			unreadable: 0,
		},
		mode === 'raw'
			? projects
			: projects.map((project) => answerProject(project, COMPACT_FIELDS, TODAY)),
	);
	return { answer, characters: JSON.stringify([answer]).length };
}

const characters = (count: number) => count.toLocaleString('en-US');
const compact = answerWith(DEFAULT_TOOL_LIMIT, 'compact');
const compactFive = answerWith(5, 'compact');
const raw = answerWith(DEFAULT_TOOL_LIMIT, 'raw');
const before = JSON.stringify(account.slice(0, NODE_DEFAULT_LIMIT)).length;
const perProject = {
	compact: Math.round(compact.characters / DEFAULT_TOOL_LIMIT),
	raw: Math.round(raw.characters / DEFAULT_TOOL_LIMIT),
};

describe(`the tool's answer on the AI suite's account of ${AGENT_ACCOUNT.projects} projects`, () => {
	it('is that account: 1-3 open tenders, two consultants and two subcontractors a project', () => {
		expect(account).toHaveLength(AGENT_ACCOUNT.projects);
		const [fewest, most] = AGENT_ACCOUNT.tendersPerProject;
		for (const project of account) {
			expect(project.tenders.length).toBeGreaterThanOrEqual(fewest);
			expect(project.tenders.length).toBeLessThanOrEqual(most);
			expect(project.consultants).toHaveLength(2);
			expect(project.tenderingSubcontractors).toHaveLength(2);
		}
	});

	it('is what the AI suite’s sandbox lists, built the same way', async () => {
		const sandbox = await startAgentAccountSandbox({ now: NOW });
		try {
			expect(sandbox.listOpen(sandbox.fixtures.companyId)).toEqual(account);
		} finally {
			await sandbox.stop();
		}
	});

	it(`by default: ${DEFAULT_TOOL_LIMIT} compact projects in ${characters(compact.characters)} characters (target ≤ 16,000; before, ${NODE_DEFAULT_LIMIT} full projects: ${characters(before)}), saying more match`, () => {
		expect(compact.answer.returned).toBe(DEFAULT_TOOL_LIMIT);
		expect(compact.characters).toBeLessThanOrEqual(16_000);
		expect(compact.answer.summary).toMatch(/More projects match: to see them, call again/);
		// What n8n gave a model before: well over the target.
		expect(before).toBeGreaterThan(16_000);
	});

	it(`five compact projects in ${characters(compactFive.characters)} characters (target ≤ 4,000)`, () => {
		expect(compactFive.answer.returned).toBe(5);
		expect(compactFive.characters).toBeLessThanOrEqual(4_000);
	});

	it(`per project, ${DEFAULT_TOOL_LIMIT} projects: compact ${characters(perProject.compact)} characters, full API projects ${characters(perProject.raw)} (${Math.round((100 * compact.characters) / raw.characters)}%)`, () => {
		expect(raw.answer.projects).toEqual(account.slice(0, DEFAULT_TOOL_LIMIT));
		expect(perProject.compact).toBeLessThan(perProject.raw);
	});
});
