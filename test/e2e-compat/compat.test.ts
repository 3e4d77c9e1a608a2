import { outputItems, startE2e, type E2eEnvironment } from '../support/e2e/harness';
import { companyResultsRequests, sandboxNow, stderrLogger } from '../support/e2e/support';
import { parseToolAnswer } from '../support/engine/tool-answer';

/**
 * The compatibility suite (`npm run test:e2e:compat`): what a user of each supported n8n line
 * relies on, with the packed package installed as a community node into a real n8n of the version
 * SMP_N8N_VERSION picks. CI runs it on every supported version; the full suite (test/e2e/) adds
 * what the newest alone is checked for. One n8n serves every test, in this order.
 */

const ONE_POLL_MS = 75_000;
const TOOL_NAME = 'Matched_Projects';

let env: E2eEnvironment;

const pageRequests = () => companyResultsRequests(env.sandbox, env.fixtures.companyId);

beforeAll(async () => {
	env = await startE2e(stderrLogger);
	stderrLogger.log(`compatibility suite on n8n ${env.n8nVersion}`);
}, 10 * 60_000);

afterAll(async () => {
	await env?.stop();
}, 60_000);

describe('the packed package on this n8n version', () => {
	test("n8n loads the credential, and both nodes with their search aliases, and the tool copy's where n8n keeps them", async () => {
		const credentials = await env.client.servedTypes('credentials.json');
		expect(credentials.map((type) => type.name)).toContain('supplierMatchedProjectsApi');
		const types = await env.client.servedTypes('nodes.json');
		const aliasesOf = new Map(types.map((type) => [type.name, type.codex?.alias]));

		expect(aliasesOf.get(`${env.packageName}.supplierMatchedProjects`)).toContain('Tenders');
		expect(aliasesOf.get(`${env.packageName}.supplierMatchedProjectsTrigger`)).toContain(
			'New Tender',
		);
		// n8n 2.0 and 1.123 give a tool copy a codex of their own, without the node's aliases.
		const toolAliases = aliasesOf.get(`${env.packageName}.supplierMatchedProjectsTool`);
		if (env.features.toolCopyKeepsAliases) {
			expect(toolAliases).toEqual(expect.arrayContaining(['Tenders', 'Tender Lookup']));
		} else expect(toolAliases).toBeUndefined();
		expect(aliasesOf.has(`${env.packageName}.supplierMatchedProjectsTool`)).toBe(true);
	});

	test("the credential's Test passes with the issued client ID and secret", async () => {
		const result = await env.client.testCredential(env.credentials.credential.id);

		expect(result).toEqual({ status: 'OK', message: expect.any(String) });
	});

	test("the credential's Test fails with the mapped message for a wrong client secret", async () => {
		const tokensBefore = env.sandbox.tokensIssued();

		const result = await env.client.testCredential(env.credentials.wrongSecret.id);

		expect(result.status).toBe('Error');
		expect(result.message).toContain('rejected the client ID or client secret (invalid_client)');
		expect(result.message).not.toContain('not-the-issued-secret');
		expect(env.sandbox.tokensIssued()).toBe(tokensBefore);
	});

	test('Get Many returns every page as items, and three runs use one token', async () => {
		const expected = env.sandbox.listOpen(env.fixtures.companyId);
		expect(expected.length).toBeGreaterThan(100);
		await env.client.activateWorkflow(env.workflows.listProjects.id);
		env.sandbox.resetRequests();

		const responses = [];
		for (let run = 0; run < 3; run++) {
			responses.push(await env.client.callWebhook(env.workflows.listProjects.path));
		}

		for (const response of responses) {
			expect(response.status).toBe(200);
			expect(response.body).toEqual(expected);
		}
		const pages = pageRequests();
		expect(pages.length).toBeGreaterThanOrEqual(3 * 2);
		expect(pages.filter((entry) => entry.query.cursor !== undefined).length).toBeGreaterThanOrEqual(
			3,
		);
		// The credential's Test above and these runs share the one token n8n keeps in memory.
		expect(env.sandbox.tokensIssued({ clientId: env.fixtures.client.clientId })).toBe(1);
		expect(env.tokenRecorder.tokens).toHaveLength(1);
	});

	test('pages are asked with an issued token, the client ID header and the largest page size', async () => {
		env.sandbox.resetRequests();

		const response = await env.client.callWebhook(env.workflows.listProjects.path);

		expect(response.status).toBe(200);
		// The sandbox answers 200 only to a Bearer token it issued; clientId is the client ID header.
		expect(pageRequests().every((entry) => entry.clientId === env.fixtures.client.clientId)).toBe(
			true,
		);
		expect(pageRequests()[0].query).toEqual({ limit: '100' });
	});

	test('a revoked token is replaced once and the run succeeds', async () => {
		const expected = env.sandbox.listOpen(env.fixtures.companyId);
		expect(env.sandbox.revokeTokens({ clientId: env.fixtures.client.clientId })).toBeGreaterThan(0);

		const response = await env.client.callWebhook(env.workflows.listProjects.path);

		expect(response.status).toBe(200);
		expect(response.body).toEqual(expected);
		expect(env.tokenRecorder.tokens).toHaveLength(2);
	});

	test('a 500 and a 429 with Retry-After are waited out and the run succeeds', async () => {
		const expected = env.sandbox.listOpen(env.fixtures.companyId);
		env.sandbox.resetRequests();
		env.sandbox.injectFault({ kind: 'serverError' });
		env.sandbox.injectFault({ kind: 'rateLimited', retryAfterSeconds: 2 });

		const response = await env.client.callWebhook(env.workflows.listProjects.path);

		expect(response.status).toBe(200);
		expect(response.body).toEqual(expected);
		const statuses = pageRequests().map((entry) => entry.status);
		expect(statuses.slice(0, 2)).toEqual([500, 429]);
		const [, refused, retried] = pageRequests();
		expect(Date.parse(retried.at) - Date.parse(refused.at)).toBeGreaterThanOrEqual(2_000);
	});

	test('an API error shows in the execution with the mapped message', async () => {
		const { id, path } = env.workflows.apiError;
		await env.client.activateWorkflow(id);

		const response = await env.client.callWebhook(path);
		const [execution] = await env.client.waitForExecutions(id, 1, 30_000);
		const detail = await env.client.getExecution(execution.id);

		expect(response.status).toBeGreaterThanOrEqual(500);
		expect(detail.status).toBe('error');
		const failedRun = detail.runData['Matched Projects']?.[0];
		expect(failedRun?.error?.message).toBe(
			`The API refused access to company "${env.fixtures.unregisteredCompanyId}" (Unauthorised)`,
		);
		expect(failedRun?.error?.description).toContain(
			`the company "${env.fixtures.unregisteredCompanyId}" is not registered to client "${env.fixtures.client.clientId}"`,
		);
	});

	test('a credential whose allowed HTTP Request domains are "None" still reaches its own API', async () => {
		const expected = env.sandbox.listOpen(env.fixtures.companyId);
		await env.client.activateWorkflow(env.workflows.listProjectsNone.id);

		const response = await env.client.callWebhook(env.workflows.listProjectsNone.path);

		expect(response.status).toBe(200);
		expect(response.body).toEqual(expected);
	});

	test(
		'an activated trigger emits nothing at activation, then the tender added between polls, once',
		async () => {
			const { id: workflowId, node } = env.workflows.trigger;
			expect(await env.activateAndPoll([workflowId], ONE_POLL_MS)).toEqual([[]]);

			const tender = env.sandbox.openTender({ companyId: env.fixtures.companyId });
			const addedAt = sandboxNow(env.sandbox);
			const [execution] = await env.client.waitForExecutions(workflowId, 1, 2 * ONE_POLL_MS);
			expect(execution?.status).toBe('success');
			const detail = await env.client.getExecution(execution.id);
			expect(outputItems(detail, node).map((item) => item.tenderId)).toEqual([tender.id]);

			// Two polls since the tender was added: at least one after the poll that emitted it.
			const [after] = await env.executionsAfterPolls([workflowId], addedAt, 2, 3 * ONE_POLL_MS);
			expect(after).toHaveLength(1);
			await env.client.deactivateWorkflow(workflowId);
		},
		8 * 60_000,
	);

	test('an MCP Server Trigger lists the node as a tool and answers a call with projects', async () => {
		await env.client.activateWorkflow(env.workflows.mcp.id);
		const mcp = await env.connectMcp(env.workflows.mcp.path);
		try {
			const tools = await mcp.listTools();
			expect(tools.map((tool) => tool.name)).toEqual([TOOL_NAME]);

			const result = await mcp.callTool(TOOL_NAME, { limit: 5 });

			expect(result.isError).toBeFalsy();
			const answer = parseToolAnswer(result.content[0]?.text ?? '');
			const expected = env.sandbox.listOpen(env.fixtures.companyId).slice(0, 5);
			expect(answer.projects.map((project) => project.projectId)).toEqual(
				expected.map((project) => project.projectId),
			);
		} finally {
			await mcp.close();
		}
	});

	test("neither the client secret nor any issued token is in n8n's database, files or logs", async () => {
		expect(env.tokenRecorder.tokens.length).toBeGreaterThanOrEqual(1);
		await env.stopN8n();

		expect(env.secretsFoundOnDisk()).toEqual([]);
	});
});
