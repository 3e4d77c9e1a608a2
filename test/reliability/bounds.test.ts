/**
 * Bounds through n8n's real engine: the Get Many node, the trigger and the tool against the
 * sandbox. A value past its bound fails before any request, quoting no more than a prefix of what
 * was given; a value at its bound works. Each filter's own bound and message is asserted in
 * test/unit/.../projects/bounds.test.ts and parameters/; here, what needs the engine or a server.
 */
import type { INodeParameters } from 'n8n-workflow';

import { startSandbox } from '../../sandbox';
import {
	n8nProcess,
	type CredentialFields,
	type N8nProcess,
	type NodeRun,
} from '../support/harness';
import { freshPollWorldEachTest, type PollWorld, type Sandbox } from '../support/engine/poll-world';
import { parseToolAnswer } from '../support/engine/tool-answer';

let proc: N8nProcess;

const companyId = 'company-1';
const LONG_COMPANY_ID = `Company ID "${'c'.repeat(100)}…" (10,000 characters) is longer than 256 characters, the most the node sends: enter the supplier company's ID, or check the expression that gives it`;

let sandbox: Sandbox;
let credential: CredentialFields;

beforeAll(async () => {
	sandbox = await startSandbox({ projects: 120 });
	credential = { authUrl: sandbox.url, baseUrl: sandbox.url, ...sandbox.fixtures.client };
});

afterAll(async () => {
	await sandbox.stop();
});

beforeEach(() => {
	proc = n8nProcess();
	sandbox.resetRequests();
});

async function node(parameters: INodeParameters): Promise<NodeRun> {
	return await proc.withCredential(credential).getMany({ companyId, ...parameters });
}

/** The error n8n shows, and that nothing reached the API or the token issuer. */
function refusedBeforeAnyRequest(run: NodeRun): { message: string; description: string } {
	expect(run.items).toBeUndefined();
	expect(sandbox.requests()).toEqual([]);
	const message = run.error?.message ?? '';
	const description = (run.error as { description?: string | null } | undefined)?.description;
	return { message, description: description ?? '' };
}

describe('the node: a value past its bound is refused before any request', () => {
	it('a builder word of 101 characters', async () => {
		const run = await node({ filters: { builders: `Acme, ${'b'.repeat(101)}` } });
		expect(refusedBeforeAnyRequest(run).message).toMatch(
			/^Builder filter: the entry "b{100}…" \(101 characters\) is longer than 100 characters; enter words of builder names of at most 100 characters each, separated by commas$/,
		);
	});

	it('a 10 kB company ID: named by its first 100 characters and its length, not echoed', async () => {
		const run = await node({ companyId: 'c'.repeat(10_000) });
		const refused = refusedBeforeAnyRequest(run);
		expect(refused.message).toBe(LONG_COMPANY_ID);
		// n8n itself keeps the node's parameters with the error; the node's own words are short.
		expect(`${refused.message} ${refused.description}`.includes('c'.repeat(101))).toBe(false);
	});

	it('a Limit from an expression that gives 1 MB of text: cut in the message', async () => {
		const run = await node({ returnAll: false, limit: '={{ "9".repeat(1048576) }}' });
		const refused = refusedBeforeAnyRequest(run);
		expect(refused.message.length).toBeLessThan(300);
		expect(refused.message).toMatch(/Limit/);
	});

	it('values at their bounds work', async () => {
		const open = sandbox.listOpen(companyId);
		const run = await node({
			returnAll: false,
			limit: 10_000,
			filters: {
				quotesDueWithinDays: 3650,
				budgetAtMost: 1_000_000_000_000,
				projectsWithoutBudget: 'keep',
				projectIds: [
					...open.map((project) => project.projectId),
					...Array.from({ length: 500 - open.length }, (_, index) => `p${'0'.repeat(95)}${index}`),
				].join(','),
			},
		});
		expect(run.error).toBeUndefined();
		const dated = open.filter((project) =>
			project.tenders.some((tender) => tender.quotesDueAt !== null),
		);
		expect(run.items?.length).toBe(dated.length);
		expect(dated.length).toBeGreaterThan(0);
	});

	it('a company ID of 256 characters is sent (the API then says it is not registered)', async () => {
		const run = await node({ companyId: 'c'.repeat(256) });
		expect(run.error?.message).toMatch(/refused access to company/);
		const sent = sandbox
			.requests()
			.filter((request) => request.path.endsWith('/speci-finder/results'));
		expect(sent.length).toBeGreaterThan(0);
		expect(sent.every((request) => request.path.includes(`/companies/${'c'.repeat(256)}/`))).toBe(
			true,
		);
	});
});

describe('the trigger: a value past its bound stops the activation before any request', () => {
	let world: PollWorld;

	freshPollWorldEachTest((fresh) => (world = fresh));

	it('a 10 kB company ID', async () => {
		const trigger = world.trigger({ companyId: 'c'.repeat(10_000) });
		await expect(trigger.activate()).rejects.toThrow(LONG_COMPANY_ID);
		expect(world.sandbox.requests()).toEqual([]);
	});

	it('3650 days before quotes due works', async () => {
		const trigger = world.trigger({ event: 'quotesDueSoon', daysBeforeQuotesDue: 3650 });
		expect(await trigger.activate()).toEqual({ kind: 'nothing' });
	});
});

describe('the tool: a value the model gives past its bound is refused before any request', () => {
	async function call(args: Record<string, unknown>) {
		return await proc
			.withCredential(credential)
			.tool({ resource: 'matchedProject', operation: 'getAll', companyId }, args);
	}

	it('40 project IDs: the answer repeats ten of them, not all, in its summary and filters', async () => {
		const ids = sandbox
			.listOpen(companyId)
			.slice(0, 40)
			.map((project) => project.projectId);
		const result = await call({ projectIds: ids.join(', '), limit: 50 });
		const answer = parseToolAnswer(result.answer ?? 'null');
		expect(answer.returned).toBe(40);
		const phrase = `project ID is ${ids.slice(0, 10).join(' or ')} or 30 more`;
		expect(answer.filtersApplied).toEqual([phrase]);
		expect(answer.summary).toContain(phrase);
		expect(answer.summary).not.toContain(ids[10]);
	});
});
