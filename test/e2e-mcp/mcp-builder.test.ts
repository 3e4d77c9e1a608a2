import {
	EXAMPLE_FILES,
	outputItems,
	startMcpBuilderE2e,
	type McpBuilderEnvironment,
} from '../support/e2e/harness';
import { knownLimit, rankPhrasings, rankTable, type Ranked } from '../support/e2e/mcp-search';
import list from '../support/e2e/phrasings.json';
import { readSpreadsheetRows, sandboxNow, stderrLogger } from '../support/e2e/support';
import { assistantMessage, functionCall } from '../support/e2e/scripted-model';

/**
 * Issue 33 through n8n's own MCP server (the version SMP_N8N_VERSION picks; its builder tools read
 * community nodes from 2.30.8), with this file as the model: it searches the phrasings people use,
 * reads the node types, and builds each example workflow in n8n's Workflow SDK (as n8n's own SDK
 * writes it): validated, created, published and run against the sandbox. One n8n serves every
 * test, in this order.
 */

const ONE_POLL_MS = 75_000;

let env: McpBuilderEnvironment;
/** What this n8n's MCP server offers, by tool name (the names changed between 2.30 and 2.41). */
let tools: Map<string, { inputSchema: { properties?: Record<string, unknown> } }>;
/** The workflows created from SDK code, by example file, with their trigger's name when it polls. */
const created = new Map<string, { workflowId: string; polls?: string }>();
const figures: string[] = [];

type ToolResult = { content: { type: string; text?: string }[]; isError?: boolean };

function textOf(result: ToolResult): string {
	return result.content.map((block) => block.text ?? '').join('\n');
}

/** Calls one of n8n's MCP tools, failing with its answer when it reports an error. */
async function call(name: string, args: Record<string, unknown>): Promise<string> {
	const result = await env.mcp.callTool(name, args);
	if (result.isError) throw new Error(`${name} answered an error: ${textOf(result)}`);
	return textOf(result);
}

/** The first of the names this n8n's MCP server offers. */
function toolNamed(...names: string[]): string {
	const name = names.find((candidate) => tools.has(candidate));
	if (name === undefined) throw new Error(`n8n's MCP server offers none of ${names.join(', ')}`);
	return name;
}

beforeAll(async () => {
	env = await startMcpBuilderE2e(stderrLogger);
	tools = new Map((await env.mcp.listTools()).map((tool) => [tool.name, tool]));
}, 10 * 60_000);

afterAll(async () => {
	if (figures.length > 0)
		stderrLogger.log(`issue 33 on n8n ${env?.n8nVersion}:\n${figures.join('\n')}`);
	await env?.stop();
}, 60_000);

describe('search_nodes, with the words people and models use', () => {
	let ranked: Ranked[];
	let line: { usage: boolean };

	beforeAll(async () => {
		const searchTool = tools.get('search_nodes');
		line = { usage: 'usage' in (searchTool?.inputSchema.properties ?? {}) };
		ranked = await rankPhrasings(env.mcp, list, line);
		figures.push(
			rankTable(
				ranked,
				`search_nodes ranks (${line.usage ? "tool phrasings with usage 'agentTool'" : 'no usage parameter on this line'}):`,
			),
		);
	});

	test('every phrasing finds the node it should find first', () => {
		const notFirst = ranked
			.filter((row) => knownLimit(row.phrase, line) === undefined && row.rank !== 1)
			.map(
				(row) => `"${row.phrase}" (${row.node}): rank ${row.rank ?? '-'}, first ${row.results[0]}`,
			);

		expect(notFirst).toEqual([]);
	});

	test("the phrasings n8n's ranking cannot put first are still not first, for the reason recorded", () => {
		const limited = ranked.filter((row) => knownLimit(row.phrase, line) !== undefined);
		for (const row of limited)
			figures.push(`  "${row.phrase}": ${knownLimit(row.phrase, line)?.why}`);

		expect(limited.filter((row) => row.rank === 1).map((row) => row.phrase)).toEqual([]);
	});
});

describe('get_node_types', () => {
	test('gives clean type definitions for the node, the trigger and the tool', async () => {
		const text = await call('get_node_types', {
			nodeIds: [
				{ nodeId: list.nodes.getMany, resource: 'matchedProject', operation: 'getAll' },
				{ nodeId: list.nodes.trigger },
				{ nodeId: list.nodes.tool, resource: 'matchedProject', operation: 'getAll' },
			],
		});

		expect(text).not.toMatch(/# Errors|not found|could not be generated/);
		for (const nodeType of Object.values(list.nodes)) expect(text).toContain(`type: '${nodeType}'`);
		// What a model needs to set them right the first time: whose ID, what each event and
		// output item holds (the node panel does not show these hints).
		const hints = (start: string) =>
			text.split('\n').filter((line) => line.includes(`@builderHint ${start}`));
		expect(hints("Required: the supplier company's ID")).toHaveLength(3);
		expect(hints('newTender: a tender opens')).toHaveLength(1);
		expect(
			hints("For emails, chat messages and spreadsheet rows use output 'tenders'"),
		).toHaveLength(2);
		expect(hints("For alerts use output 'tenders'")).toHaveLength(1);
		figures.push(`  get_node_types: ${text.length} characters for the three`);
	});
});

describe('each example workflow, written in the Workflow SDK', () => {
	beforeAll(async () => {
		// A model reads the SDK reference before it writes code (named get_sdk_reference on 2.30).
		const reference = await call(toolNamed('get_workflow_sdk_reference', 'get_sdk_reference'), {});
		expect(reference).toContain('@n8n/workflow-sdk');
	});

	test.each(EXAMPLE_FILES)('%s: validates, is created and publishes', async (file) => {
		const { code, name, polls } = env.exampleAsCode(file);

		const validation = await call('validate_workflow', { code });
		expect(validation).toMatch(/valid/i);
		const answer = await call('create_workflow_from_code', { code, name });
		const workflowId = JSON.parse(answer).workflowId as string;
		expect(workflowId).toEqual(expect.any(String));
		created.set(file, { workflowId, polls });
		const publishedAt = sandboxNow(env.sandbox);
		await call('publish_workflow', { workflowId });

		expect((await env.client.getWorkflow(workflowId)).active).toBe(true);
		// A polling trigger's first poll, at publication, records the tenders open then.
		if (polls) await env.waitForPolls(publishedAt, 1, ONE_POLL_MS);
	});
});

describe('the workflows built through MCP, run against the sandbox', () => {
	test('the daily digest (Schedule Trigger, Get Many) emails every open tender', async () => {
		const workflowId = created.get('daily-open-tenders-digest.json')?.workflowId ?? 'not created';
		const openTenders = env.sandbox
			.listOpen(env.fixtures.companyId)
			.flatMap((project) => project.tenders);

		const executionId = await env.client.runManually(workflowId, 'Every Morning');
		const [execution] = await env.client.waitForExecutions(workflowId, 1, 60_000);
		const mail = await env.smtp.waitFor(
			(message) => message.subject.includes('open tenders'),
			30_000,
		);

		expect(execution.id).toBe(executionId);
		expect(execution.status).toBe('success');
		const detail = await env.client.getExecution(executionId);
		expect(outputItems(detail, 'All Open Tenders').map((item) => item.tenderId)).toEqual(
			openTenders.map((tender) => tender.id),
		);
		expect(mail.subject).toBe(`${openTenders.length} open tenders match your keywords`);
		expect(mail.body).toContain(openTenders[openTenders.length - 1].id);
	});

	test('the AI agent answers a chat message through the Matched Projects tool', async () => {
		const workflowId = created.get('ai-agent-tender-assistant.json')?.workflowId ?? 'not created';
		const chatTrigger = (await env.client.getWorkflow(workflowId)).nodes.find(
			(node) => node.type === '@n8n/n8n-nodes-langchain.chatTrigger',
		);
		const soonest = env.sandbox.listOpen(env.fixtures.companyId)[0];
		env.model.script((request) => {
			const toolOutput = request.input.find((item) => item.type === 'function_call_output');
			if (toolOutput === undefined)
				return [functionCall(request.tools?.[0]?.name ?? 'no tool offered', { limit: 1 })];
			return [assistantMessage(`Soonest: ${String(toolOutput.output)}`)];
		});

		const answer = await env.chat(
			chatTrigger?.webhookId ?? 'no chat trigger',
			'Which tender closes first?',
		);

		expect(answer.status).toBe(200);
		expect(JSON.stringify(answer.body)).toContain(soonest.projectId);
	});

	test(
		'the trigger workflows announce a tender opened after their first poll once, and nothing at publication',
		async () => {
			const polling = [...created.values()].filter((workflow) => workflow.polls !== undefined);
			expect(polling).toHaveLength(3);
			for (const { workflowId } of polling) {
				expect(await env.client.listExecutions(workflowId)).toEqual([]);
			}

			// Quotes due in two days: new to the new-tender workflows, and inside the reminder's three days.
			const dueIn2Days = new Date(Date.parse(sandboxNow(env.sandbox)) + 2 * 86_400_000);
			const tender = env.sandbox.openTender({
				companyId: env.fixtures.companyId,
				quotesDueAt: dueIn2Days.toISOString().slice(0, 10),
			});
			const addedAt = sandboxNow(env.sandbox);
			for (const { workflowId, polls } of polling) {
				const [execution] = await env.client.waitForExecutions(workflowId, 1, 2 * ONE_POLL_MS);
				expect(execution?.status).toBe('success');
				const detail = await env.client.getExecution(execution.id);
				expect(outputItems(detail, polls ?? '').map((item) => item.tenderId)).toEqual([tender.id]);
			}
			const digest = await env.smtp.waitFor(
				(mail) => mail.subject === '1 new matching tender',
				30_000,
			);
			expect(digest.body).toContain(tender.id);
			const reminder = await env.smtp.waitFor(
				(mail) => mail.subject.startsWith('Quotes close'),
				30_000,
			);
			expect(reminder.body).toContain(tender.id);
			expect(readSpreadsheetRows(env, 'supplier-tenders-').map((row) => row.tenderId)).toEqual([
				tender.id,
			]);

			// Two polls of each since the tender opened: the one that announced it, and one that must not.
			const ids = polling.map(({ workflowId }) => workflowId);
			const after = await env.executionsAfterPolls(ids, addedAt, 2 * ids.length, 3 * ONE_POLL_MS);
			for (const executions of after) expect(executions).toHaveLength(1);
		},
		8 * 60_000,
	);
});
