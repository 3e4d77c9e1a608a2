// @ts-check
'use strict';

/**
 * The real-n8n AI suite's world (issue 19): the packed package in a real n8n of its own, with
 * the workflows of test/e2e/ai-workflows/, two MCP Server Triggers with the package's node as
 * their tool, and the AI Agent example published: AI Agents whose OpenAI Chat Model talks to a
 * scripted model this process owns. The API is a sandbox holding an account shaped like a real one
 * (agent-account.js). n8n itself starts as every real n8n here does (scripts/n8n/launch.js).
 * The .ts test cannot use Node APIs (community-node lint), so the process and file work is here.
 */

const fs = require('node:fs');
const path = require('node:path');

const { credentialsFor, workflowsIn, EXAMPLES_DIR } = require('../../../scripts/n8n/examples');
const { startAgentAccountSandbox, AGENT_ACCOUNT } = require('./agent-account');
const { startScriptedModel } = require('./scripted-model');
const stack = require('./stack');
const { mcpServerWorkflow } = require('./workflows');

const AI_WORKFLOW_DIR = path.resolve(__dirname, '..', '..', 'e2e', 'ai-workflows');

const AI_WORKFLOWS = Object.freeze({
	mcp: { id: 'smpAiMcpServer', path: 'smp-projects' },
	// The same tool answering the API's full projects, to compare sizes in one run.
	mcpRaw: { id: 'smpAiMcpRawProjects', path: 'smp-projects-raw', parameters: { answer: 'raw' } },
	agent: { id: 'smpAiAgent', path: 'smp-ai-agent' },
});

const OPENAI_CREDENTIAL = Object.freeze({ id: 'smpAiScriptedModel', name: 'Scripted model' });

/** The AI Agent example, and the OpenAI credential it names (pointed here at the scripted model). */
const AGENT_EXAMPLE = Object.freeze({
	file: 'ai-agent-tender-assistant.json',
	id: 'smpExampleTenderAssistant',
	credential: { id: 'smpExampleOpenAi', name: 'OpenAI account' },
});

/**
 * The AI Agent example as published for an embedded chat: its Chat Trigger answers only in the
 * editor until made public, and the editor's chat is not reachable over HTTP. Nothing else changes.
 * @returns {{ workflow: { id: string, nodes: { type: string, webhookId?: string, parameters: Record<string, unknown> }[] }, chatPath: string }}
 */
function agentExample() {
	const workflow = JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, AGENT_EXAMPLE.file), 'utf8'));
	const trigger = workflow.nodes.find(
		(/** @type {{ type: string }} */ node) => node.type === '@n8n/n8n-nodes-langchain.chatTrigger',
	);
	trigger.parameters = { ...trigger.parameters, public: true, mode: 'webhook' };
	return { workflow, chatPath: `${trigger.webhookId}/chat` };
}

/**
 * @typedef {object} AiEnvironment
 * @property {import('../../../sandbox').Sandbox} sandbox
 * @property {import('./scripted-model').ScriptedModel} model
 * @property {import('../../../scripts/n8n/runtime').N8nInstance} n8n
 * @property {import('../../../scripts/n8n/client').N8nClient} client logged in as the owner
 * @property {string} n8nVersion
 * @property {typeof AI_WORKFLOWS} workflows
 * @property {typeof AGENT_ACCOUNT} account
 * @property {(path?: string) => Promise<import('./stack').McpSession>} connectMcp an MCP session with an MCP Server
 *   Trigger (default: the compact tool's), as an assistant opens one
 * @property {(question: string) => Promise<{ status: number, body: unknown, ms: number }>} askAgent
 *   asks the suite's agent (webhook trigger) and returns the webhook's answer
 * @property {(message: string, sessionId: string) => Promise<{ status: number, body: unknown }>} chatWithExample
 *   sends a chat message to the AI Agent example's Chat Trigger, as n8n's chat widget does
 * @property {() => Promise<void>} stop
 */

/**
 * @param {{ log: (line: string) => void }} logger
 * @returns {Promise<AiEnvironment>}
 */
function startAiE2e(logger) {
	return stack.startStack(logger, async (cleanups) => {
		const sandbox = await startAgentAccountSandbox();
		cleanups.push(() => sandbox.stop());
		const model = await startScriptedModel();
		cleanups.push(() => model.stop());

		const example = agentExample();
		const { runtime, n8n, client } = await stack.launchInFolder(cleanups, logger, 'smp-n8n-ai-', {
			logLevel: 'debug',
			owner: { email: 'ai-e2e-owner@example.com', firstName: 'AI', lastName: 'Owner' },
			data: () => {
				const [supplierCredential] = credentialsFor({ baseUrl: sandbox.url });
				const openAi = [OPENAI_CREDENTIAL, AGENT_EXAMPLE.credential].map((credential) => ({
					...credential,
					type: 'openAiApi',
					data: { apiKey: 'sk-scripted-model', url: model.baseUrl },
				}));
				const credential = { id: supplierCredential.id, name: supplierCredential.name };
				const mcpServers = [
					{ ...AI_WORKFLOWS.mcp, name: 'e2e AI: matched projects as MCP tools' },
					{ ...AI_WORKFLOWS.mcpRaw, name: 'e2e AI: full API projects as an MCP tool' },
				].map((workflow) => mcpServerWorkflow({ ...workflow, credential }));
				return {
					credentials: [supplierCredential, ...openAi],
					workflows: [...workflowsIn(AI_WORKFLOW_DIR), ...mcpServers, example.workflow],
				};
			},
		});
		for (const workflow of [...Object.values(AI_WORKFLOWS), AGENT_EXAMPLE]) {
			await client.activateWorkflow(workflow.id);
		}

		return {
			sandbox,
			model,
			n8n,
			client,
			n8nVersion: runtime.n8nVersion,
			workflows: AI_WORKFLOWS,
			account: AGENT_ACCOUNT,
			connectMcp: (mcpPath = AI_WORKFLOWS.mcp.path) =>
				stack.connectMcp(`${n8n.baseUrl}/mcp/${mcpPath}`, 'smp-e2e'),
			askAgent: (question) =>
				client.callWebhook(`${AI_WORKFLOWS.agent.path}?${new URLSearchParams({ question })}`),
			chatWithExample: (message, sessionId) =>
				client.callWebhook(example.chatPath, {
					json: { action: 'sendMessage', sessionId, chatInput: message },
				}),
			stop: cleanups.stopAll,
		};
	});
}

module.exports = { startAiE2e };
