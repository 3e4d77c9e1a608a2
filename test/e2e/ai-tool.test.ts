import type { Project } from '../../nodes/SupplierMatchedProjects/api/types';
import { TOOL_DESCRIPTION } from '../../nodes/SupplierMatchedProjects/descriptions/tool';
import { DEFAULT_TOOL_LIMIT } from '../../nodes/SupplierMatchedProjects/parameters/tool';
import { companyResultsRequests, stderrLogger } from '../support/e2e/support';
import { startAiE2e, type AiEnvironment } from '../support/e2e/harness';
import { assistantMessage, functionCall } from '../support/e2e/scripted-model';
import {
	expectCompactKeys,
	MODEL_FILLED_KEYS,
	parseToolAnswer,
} from '../support/engine/tool-answer';

/**
 * Issue 19 in a real n8n (the version SMP_N8N_VERSION picks): the package's node as a tool of an
 * MCP Server Trigger, driven by the official MCP TypeScript SDK client, and as the tool of an AI
 * Agent whose OpenAI Chat Model talks to a scripted model, on an account shaped like a real one
 * (test/support/e2e/agent-account.js). One n8n serves every test, in this order; the API refusal
 * comes last, since the node then holds the credential back for as long as the API asked.
 */

const TOOL_NAME = 'Matched_Projects';

let env: AiEnvironment;
/** The agent test's tool call and the tool message its model received, compared with MCP's answer. */
let agentToolCall: { args: Record<string, unknown>; message: string } | undefined;
/** Printed after the last test, so a CI log shows the sizes and requests measured. */
const figures: string[] = [];

function openProjects(): Project[] {
	return env.sandbox.listOpen(env.sandbox.fixtures.companyId);
}

const resultsRequests = () => companyResultsRequests(env.sandbox, env.sandbox.fixtures.companyId);

/** The account's most common category (held by some projects, not all) and its projects. */
function someCategory(): { category: string; projects: Project[] } {
	const projects = openProjects();
	const counts = new Map<string, number>();
	for (const project of projects) {
		if (project.category) counts.set(project.category, (counts.get(project.category) ?? 0) + 1);
	}
	const [category] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0];
	return { category, projects: projects.filter((project) => project.category === category) };
}

beforeAll(async () => {
	env = await startAiE2e(stderrLogger);
}, 10 * 60_000);

afterAll(async () => {
	if (figures.length > 0)
		stderrLogger.log(`issue 19 figures on n8n ${env?.n8nVersion}:\n${figures.join('\n')}`);
	await env?.stop();
}, 60_000);

describe('an AI Agent with the node as its tool and a scripted OpenAI-compatible model', () => {
	test('the model calls the tool with arguments, receives the compact answer as the tool message, and the agent answers from it', async () => {
		const { category, projects: expected } = someCategory();
		const limit = 3;
		env.model.script((request) => {
			const toolOutput = request.input.find((item) => item.type === 'function_call_output');
			if (toolOutput === undefined) {
				return [functionCall(request.tools?.[0]?.name ?? 'no tool offered', { category, limit })];
			}
			// The answer is built from the tool message, so the test sees it went round the loop.
			const answer = parseToolAnswer(String(toolOutput.output));
			const first = answer.projects[0];
			return [
				assistantMessage(
					`${answer.returned} ${category} projects; first ${String(first.projectName)} (${first.projectId})`,
				),
			];
		});
		env.model.requests.length = 0;
		env.sandbox.resetRequests();

		const response = await env.askAgent(`Which ${category} tenders close first?`);

		expect(response.status).toBe(200);
		expect(env.model.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
			'POST /v1/responses',
			'POST /v1/responses',
		]);
		const [firstTurn, secondTurn] = env.model.turns();
		expect(firstTurn.stream).toBeFalsy();
		// What the model is told about the tool.
		expect(firstTurn.tools).toHaveLength(1);
		const [offered] = firstTurn.tools ?? [];
		expect(offered.name).toBe(TOOL_NAME);
		expect(offered.description).toBe(TOOL_DESCRIPTION);
		const parameters = offered.parameters as {
			properties: Record<string, unknown>;
			required?: string[];
		};
		expect(Object.keys(parameters.properties).sort()).toEqual(MODEL_FILLED_KEYS);
		expect(parameters.required ?? []).toEqual([]);

		// The exact tool message the model received back.
		const toolMessages = secondTurn.input.filter((item) => item.type === 'function_call_output');
		expect(toolMessages).toHaveLength(1);
		const toolMessage = String(toolMessages[0].output);
		const answer = parseToolAnswer(toolMessage);
		expect(answer.returned).toBe(limit);
		expect(answer.moreMatch).toBe(true);
		expect(answer.filtersApplied).toEqual([`category is ${category}`]);
		expect(answer.projects.map((project) => project.projectId)).toEqual(
			expected.slice(0, limit).map((project) => project.projectId),
		);
		expect(answer.summary).toContain(category);

		expect(resultsRequests()).toHaveLength(1);
		agentToolCall = { args: { category, limit }, message: toolMessage };

		const first = expected[0];
		expect(response.body).toEqual({
			output: `${limit} ${category} projects; first ${first.projectName} (${first.projectId})`,
		});
		figures.push(
			`  agent: tool message for ${limit} ${category} projects: ${toolMessage.length} characters; ${resultsRequests().length} API page request(s)`,
		);
	});
});

describe('the AI Agent example (examples/ai-agent-tender-assistant.json)', () => {
	test('answers a chat message through its agent and its Matched Projects tool', async () => {
		const soonest = openProjects()[0];
		env.model.script((request) => {
			const toolOutput = request.input.find((item) => item.type === 'function_call_output');
			if (toolOutput === undefined) {
				return [functionCall(request.tools?.[0]?.name ?? 'no tool offered', { limit: 1 })];
			}
			const answer = parseToolAnswer(String(toolOutput.output));
			return [assistantMessage(`Soonest: ${answer.projects[0].projectId}. ${answer.summary}`)];
		});
		env.model.requests.length = 0;

		const response = await env.chatWithExample('Which tender closes first?', 'example-session');

		expect(response.status).toBe(200);
		const [firstTurn, secondTurn] = env.model.turns();
		expect(env.model.requests).toHaveLength(2);
		expect(firstTurn.tools?.map((tool) => [tool.name, tool.description])).toEqual([
			[TOOL_NAME, TOOL_DESCRIPTION],
		]);
		expect(firstTurn.input).toEqual(
			expect.arrayContaining([
				expect.objectContaining({ role: 'user', content: 'Which tender closes first?' }),
			]),
		);
		const toolMessage = secondTurn.input.find((item) => item.type === 'function_call_output');
		const answer = parseToolAnswer(String(toolMessage?.output));
		expect(answer.projects.map((project) => project.projectId)).toEqual([soonest.projectId]);
		expect(answer.moreMatch).toBe(true);
		expect(response.body).toEqual({ output: `Soonest: ${soonest.projectId}. ${answer.summary}` });
	});
});

describe('an MCP Server Trigger with the node as a tool, driven by the MCP TypeScript SDK client', () => {
	let mcp: Awaited<ReturnType<AiEnvironment['connectMcp']>>;

	beforeAll(async () => {
		mcp = await env.connectMcp(env.workflows.mcp.path);
	});

	afterAll(async () => {
		await mcp?.close();
	});

	async function call(args: Record<string, unknown>) {
		env.sandbox.resetRequests();
		const result = await mcp.callTool(TOOL_NAME, args);
		expect(result.content).toHaveLength(1);
		expect(result.content[0].type).toBe('text');
		return { result, text: result.content[0].text ?? '', requests: resultsRequests() };
	}

	test('lists the tool with a description that says what it returns, and every model-filled field optional', async () => {
		const tools = await mcp.listTools();

		expect(tools.map((tool) => tool.name)).toEqual([TOOL_NAME]);
		const [tool] = tools;
		expect(tool.description).toBe(TOOL_DESCRIPTION);
		const schema = tool.inputSchema as {
			properties: Record<string, { type: string; description?: string; default?: unknown }>;
			required?: string[];
		};
		expect(Object.keys(schema.properties).sort()).toEqual(MODEL_FILLED_KEYS);
		expect(schema.required ?? []).toEqual([]);
		for (const [key, property] of Object.entries(schema.properties)) {
			expect([key, (property.description ?? '').length > 20]).toEqual([key, true]);
		}
		expect(schema.properties.limit).toEqual(
			expect.objectContaining({ type: 'number', default: DEFAULT_TOOL_LIMIT }),
		);
		figures.push(`  MCP tool list: ${JSON.stringify(tools)}`);
	});

	test('with the defaults: the compact answer of the earliest-due projects, saying more match, in one page request sized to the limit', async () => {
		const { result, text, requests } = await call({});

		expect(result.isError).toBeFalsy();
		const answer = parseToolAnswer(text);
		const expected = openProjects().slice(0, DEFAULT_TOOL_LIMIT);
		expect(answer.returned).toBe(DEFAULT_TOOL_LIMIT);
		expect(answer.moreMatch).toBe(true);
		expect(answer.filtersApplied).toEqual([]);
		expect(answer.projects.map((project) => project.projectId)).toEqual(
			expected.map((project) => project.projectId),
		);
		expectCompactKeys(answer);
		expect(answer.summary).toMatch(/more/i);
		expect(text.length).toBeLessThanOrEqual(16_000);
		expect(requests.map((entry) => entry.query)).toEqual([{ limit: String(DEFAULT_TOOL_LIMIT) }]);
		figures.push(
			`  MCP default call: ${answer.returned} projects, ${text.length} characters (target <= 16,000), ${Math.round(text.length / answer.returned)} per project; ${requests.length} page request(s) of limit ${requests[0]?.query.limit}`,
		);
	});

	test('five projects stay within 4,000 characters', async () => {
		const { result, text, requests } = await call({ limit: 5 });

		expect(result.isError).toBeFalsy();
		const answer = parseToolAnswer(text);
		expect(answer.returned).toBe(5);
		expect(answer.moreMatch).toBe(true);
		expect(text.length).toBeLessThanOrEqual(4_000);
		expect(requests.map((entry) => entry.query)).toEqual([{ limit: '5' }]);
		figures.push(
			`  MCP five projects: ${text.length} characters (target <= 4,000); ${requests.length} page request(s) of limit ${requests[0]?.query.limit}`,
		);
	});

	test('the compact answer costs less per project than the full API projects, side by side', async () => {
		const compact = parseToolAnswer((await call({})).text);
		const rawSession = await env.connectMcp(env.workflows.mcpRaw.path);
		try {
			env.sandbox.resetRequests();
			const result = await rawSession.callTool(TOOL_NAME, {});
			const rawText = result.content[0]?.text ?? '';
			const raw = parseToolAnswer(rawText);
			const expected = openProjects().slice(0, DEFAULT_TOOL_LIMIT);
			expect(raw.projects).toEqual(expected);
			expect(compact.projects.map((project) => project.projectId)).toEqual(
				raw.projects.map((project) => project.projectId),
			);
			const compactText = JSON.stringify([compact]);
			const perProject = (text: string) => Math.round(text.length / DEFAULT_TOOL_LIMIT);
			expect(perProject(compactText)).toBeLessThan(perProject(rawText));
			figures.push(
				`  characters per project, ${DEFAULT_TOOL_LIMIT} projects: compact ${perProject(compactText)} (${compactText.length} in all), full API projects ${perProject(rawText)} (${rawText.length} in all): ${Math.round((100 * compactText.length) / rawText.length)}%`,
			);
		} finally {
			await rawSession.close();
		}
	});

	test('model-filled filters narrow the answer, and the answer says which applied', async () => {
		const { category, projects: expected } = someCategory();

		const { result, text, requests } = await call({ category, limit: 5 });

		expect(result.isError).toBeFalsy();
		const answer = parseToolAnswer(text);
		expect(answer.projects.map((project) => project.projectId)).toEqual(
			expected.slice(0, 5).map((project) => project.projectId),
		);
		expect(answer.projects.every((project) => project.category === category)).toBe(true);
		expect(answer.filtersApplied).toEqual([`category is ${category}`]);
		expect(answer.moreMatch).toBe(expected.length > 5);
		expect(answer.summary).toContain(category);
		figures.push(
			`  MCP category "${category}" (${expected.length} of ${env.account.projects} match), limit 5: ${text.length} characters; page requests: ${JSON.stringify(requests.map((entry) => entry.query))}`,
		);
	});

	test("answers the agent's arguments with exactly the tool message the agent's model received", async () => {
		expect(agentToolCall).toBeDefined();
		const { args, message } = agentToolCall ?? { args: {}, message: '' };

		const { text } = await call(args);

		expect(text).toBe(message);
	});

	test('project IDs fetch the records the model picked', async () => {
		const picked = [openProjects()[7], openProjects()[100]];

		const { result, text } = await call({
			projectIds: picked.map((project) => project.projectId).join(', '),
		});

		expect(result.isError).toBeFalsy();
		const answer = parseToolAnswer(text);
		expect(answer.projects.map((project) => project.projectId)).toEqual(
			picked.map((project) => project.projectId),
		);
		expect(answer.returned).toBe(2);
	});

	test('a filter nothing matches answers in words, naming the filter, not with []', async () => {
		const { result, text, requests } = await call({ location: 'Atlantis' });

		expect(result.isError).toBeFalsy();
		expect(text).not.toBe('[]');
		const answer = parseToolAnswer(text);
		expect(answer.returned).toBe(0);
		expect(answer.moreMatch).toBe(false);
		expect(answer.projects).toEqual([]);
		expect(answer.filtersApplied).toEqual(['address contains Atlantis']);
		expect(answer.summary).toContain('Atlantis');
		figures.push(
			`  MCP nothing matches: ${text.length} characters; ${requests.length} page request(s) (every page read to be sure); summary: ${answer.summary}`,
		);
	});

	test('an API refusal reaches the client as a short error a model can act on, with no secret', async () => {
		env.sandbox.injectFault({ kind: 'rateLimited', retryAfterSeconds: 600 });

		const { result, text, requests } = await call({});

		expect(result.isError).toBe(true);
		// The cause, and what the model (or its user) can do about it.
		expect(text).toMatch(/rate limit/i);
		expect(text).toMatch(/wait/i);
		expect(text.length).toBeLessThan(400);
		expect(text).not.toContain(env.sandbox.fixtures.client.clientSecret);
		expect(requests.map((entry) => entry.status)).toEqual([429]);
		figures.push(`  MCP API refusal (429, Retry-After 600): ${text.length} characters: ${text}`);
	});
});
