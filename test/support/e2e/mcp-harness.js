// @ts-check
'use strict';

/**
 * The world of the MCP builder suite (test/e2e-mcp): the packed package installed as a community
 * package into a real n8n (the version SMP_N8N_VERSION picks) whose own MCP server is switched on
 * through the environment, as an administrator switches it on headless; the sandbox API behind a
 * token recorder; a local SMTP sink for the Send Email nodes; a scripted OpenAI-compatible model
 * for the AI Agent's chat model; and an MCP session as a model's client opens one, with the key
 * the owner gets from /rest/mcp/api-key. Only the credentials are imported: the workflows are the
 * model's to build, through the MCP server.
 * The .ts tests cannot use Node APIs (community-node lint), so the process and file work is here.
 */

const { SANDBOX_FIXTURES } = require('../../../sandbox');
const { credentialsFor } = require('../../../scripts/n8n/examples');
const { selectedN8nVersion } = require('../../../scripts/n8n/install');
const { featuresOf } = require('../../../scripts/n8n/lines');
const { startSmtpSink } = require('../../../scripts/n8n/smtp-sink');
const { startScriptedModel } = require('./scripted-model');
const { waitForPolls } = require('./support');
const stack = require('./stack');

/**
 * n8n's instance-level MCP access, switched on by the environment (n8n 2.30.8 and 2.41.1 read
 * the same two variables; with the first set, the settings page can no longer change it).
 */
const MCP_ACCESS_ENV = Object.freeze({
	N8N_MCP_MANAGED_BY_ENV: 'true',
	N8N_MCP_ACCESS_ENABLED: 'true',
});

/** The OpenAI credential the agent shape names, pointed at the scripted model. */
const OPENAI_CREDENTIAL = Object.freeze({
	id: 'smpMcpScriptedModel',
	name: 'OpenAI account',
	type: 'openAiApi',
});

/**
 * @typedef {object} McpBuilderEnvironment
 * @property {import('../../../sandbox').Sandbox} sandbox
 * @property {import('../../../scripts/n8n/smtp-sink').SmtpSink} smtp
 * @property {import('./scripted-model').ScriptedModel} model what the OpenAI credential points at
 * @property {import('../../../scripts/n8n/runtime').N8nInstance} n8n
 * @property {import('../../../scripts/n8n/client').N8nClient} client logged in as the owner
 * @property {string} n8nVersion
 * @property {string} filesDir the one folder workflows may read and write
 * @property {typeof SANDBOX_FIXTURES} fixtures
 * @property {import('./stack').McpSession} mcp a session with n8n's own MCP server
 * @property {(since: string, count: number, timeoutMs: number) => Promise<void>} waitForPolls
 * @property {(webhookId: string, message: string) => Promise<{ status: number, body: unknown }>} chat
 *   a message to a public Chat Trigger, as n8n's chat widget sends it
 * @property {() => Promise<void>} stop
 */

/**
 * The MCP API key, as the owner gets it from the MCP settings page: n8n creates it on the first
 * request and shows it whole only then.
 * @param {import('../../../scripts/n8n/client').N8nClient} client logged in as the owner
 * @returns {Promise<string>}
 */
async function mcpApiKey(client) {
	/** @type {{ apiKey?: string }} */
	const answer = await client.rest('GET', '/mcp/api-key');
	if (typeof answer?.apiKey !== 'string' || answer.apiKey.includes('*')) {
		throw new Error(`GET /rest/mcp/api-key gave no usable key: ${JSON.stringify(answer)}`);
	}
	return answer.apiKey;
}

/**
 * @param {{ log: (line: string) => void }} logger
 * @returns {Promise<McpBuilderEnvironment>}
 */
function startMcpBuilderE2e(logger) {
	const version = selectedN8nVersion();
	if (!featuresOf(version).mcpBuilder) {
		throw new Error(
			`n8n ${version} has no MCP builder tools (n8n 2.30 and later have them): run this suite with SMP_N8N_VERSION set to one of those`,
		);
	}
	return stack.startStack(logger, async (cleanups) => {
		const { sandbox } = await stack.startRecordedSandbox(cleanups, { projects: 60 });
		const smtp = await startSmtpSink();
		cleanups.push(() => smtp.stop());
		const model = await startScriptedModel();
		cleanups.push(() => model.stop());
		const { runtime, n8n, client, filesDir } = await stack.launchInFolder(
			cleanups,
			logger,
			'smp-n8n-mcp-',
			{
				logLevel: 'info',
				extraEnv: MCP_ACCESS_ENV,
				owner: { email: 'mcp-owner@example.com', firstName: 'MCP', lastName: 'Owner' },
				data: () => ({
					credentials: [
						...credentialsFor({ baseUrl: sandbox.url, smtp: { host: smtp.host, port: smtp.port } }),
						{ ...OPENAI_CREDENTIAL, data: { apiKey: 'sk-scripted-model', url: model.baseUrl } },
					],
					workflows: [],
				}),
			},
		);
		const apiKey = await mcpApiKey(client);
		const mcp = await stack.connectMcp(`${n8n.baseUrl}/mcp-server/http`, 'smp-e2e-mcp', {
			Authorization: `Bearer ${apiKey}`,
		});
		cleanups.push(() => mcp.close());

		return {
			sandbox,
			smtp,
			model,
			n8n,
			client,
			n8nVersion: runtime.n8nVersion,
			filesDir,
			fixtures: SANDBOX_FIXTURES,
			mcp,
			waitForPolls: (since, count, timeoutMs) => waitForPolls(sandbox, { since, count, timeoutMs }),
			chat: (webhookId, message) =>
				client.callWebhook(`${webhookId}/chat`, {
					json: { action: 'sendMessage', sessionId: 'mcp-e2e', chatInput: message },
				}),
			stop: cleanups.stopAll,
		};
	});
}

module.exports = { startMcpBuilderE2e };
