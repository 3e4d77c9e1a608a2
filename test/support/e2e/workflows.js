// @ts-check
'use strict';

/**
 * The workflows the real-n8n suites build rather than read from files: Get Many on a webhook call
 * (one per case, credential or company), the trigger, and an MCP server with the node as its tool.
 */

const { packageJson } = require('../../../scripts/n8n/package');

const PACKAGE = packageJson().name;

/**
 * @typedef {{ name: string, type: string, typeVersion: number, parameters: Record<string, unknown>, webhook?: true, credential?: { id: string, name: string } }} NodeSpec
 *   webhook: the node gets a webhook id; credential: the package's, for its node
 */

/**
 * A workflow as n8n imports it, inactive; each node's id (and webhook id) is the workflow's id
 * and its role.
 * @param {{ id: string, name: string }} named
 * @param {Record<string, NodeSpec>} nodes by role
 * @param {Record<string, unknown>} connections
 */
function workflow({ id, name }, nodes, connections) {
	const built = Object.entries(nodes).map(([role, { webhook, credential, ...node }], index) => ({
		id: `${id}-${role}`,
		position: [0, 220 * index],
		...node,
		...(webhook && { webhookId: `${id}-${role}` }),
		...(credential && { credentials: { supplierMatchedProjectsApi: credential } }),
	}));
	const settings = { executionOrder: 'v1' };
	return { id, name, active: false, settings, nodes: built, connections, pinData: {} };
}

/**
 * Every matched project of a company (Return All), started by a webhook call (a production
 * execution, which queue mode hands to a worker) or, with `manual`, from the editor too (a manual
 * execution, which stays on the main instance). The webhook answers with the projects, or the error.
 * @param {{ id: string, name: string, path: string, companyId: string, credential: { id: string, name: string }, manual?: boolean }} options
 */
function getManyWorkflow(options) {
	const toProjects = { main: [[{ node: 'Matched Projects', type: 'main', index: 0 }]] };
	/** @type {Record<string, NodeSpec>} */
	const triggers = {
		webhook: {
			name: 'On Call',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2.1,
			webhook: true,
			parameters: {
				httpMethod: 'GET',
				path: options.path,
				responseMode: 'lastNode',
				responseData: 'allEntries',
				options: {},
			},
		},
	};
	if (options.manual) {
		const manual = { type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, parameters: {} };
		triggers.manual = { name: 'On Manual Run', ...manual };
	}
	const projects = {
		name: 'Matched Projects',
		type: `${PACKAGE}.supplierMatchedProjects`,
		typeVersion: 1,
		credential: options.credential,
		parameters: {
			resource: 'matchedProject',
			operation: 'getAll',
			companyId: options.companyId,
			returnAll: true,
			output: 'projects',
			simplify: false,
		},
	};
	const connections = Object.fromEntries(
		Object.values(triggers).map((trigger) => [trigger.name, toProjects]),
	);
	return workflow(options, { ...triggers, projects }, connections);
}

/**
 * The package's trigger alone, for company-1: by default New Tender, polled every minute, one
 * simplified item per tender.
 * @param {{ id: string, name: string, credential: { id: string, name: string }, node?: string, pollTimes?: Record<string, unknown>[], parameters?: Record<string, unknown> }} options
 *   parameters: laid over the trigger's defaults (e.g. another event)
 */
function triggerWorkflow(options) {
	const trigger = {
		name: options.node ?? 'New Matching Tender',
		type: `${PACKAGE}.supplierMatchedProjectsTrigger`,
		typeVersion: 1,
		credential: options.credential,
		parameters: {
			pollTimes: { item: options.pollTimes ?? [{ mode: 'everyMinute' }] },
			companyId: 'company-1',
			event: 'newTender',
			output: 'tenders',
			simplify: true,
			...options.parameters,
		},
	};
	return workflow(options, { trigger }, {});
}

/**
 * An MCP Server Trigger at `path` whose one tool is the package's node, for company-1.
 * @param {{ id: string, name: string, path: string, credential: { id: string, name: string }, parameters?: Record<string, unknown> }} options
 *   parameters: laid over the tool's (e.g. the answer it gives)
 */
function mcpServerWorkflow(options) {
	return workflow(
		options,
		{
			mcp: {
				name: 'MCP Server Trigger',
				type: '@n8n/n8n-nodes-langchain.mcpTrigger',
				typeVersion: 2,
				webhook: true,
				parameters: { path: options.path },
			},
			tool: {
				name: 'Matched Projects',
				type: `${PACKAGE}.supplierMatchedProjectsTool`,
				typeVersion: 1,
				credential: options.credential,
				parameters: { companyId: 'company-1', ...options.parameters },
			},
		},
		{
			'Matched Projects': {
				ai_tool: [[{ node: 'MCP Server Trigger', type: 'ai_tool', index: 0 }]],
			},
		},
	);
}

/**
 * Makes the workflow's Chat Trigger public, as published for an embedded chat: it answers only in
 * the editor until then, and the editor's chat is not reachable over HTTP.
 * @param {{ nodes: { type: string, webhookId?: string, parameters: Record<string, unknown> }[] }} workflow
 * @returns {string | undefined} the Chat Trigger's webhook id
 */
function publicChat(workflow) {
	const chat = workflow.nodes.find((node) => node.type === '@n8n/n8n-nodes-langchain.chatTrigger');
	if (chat) chat.parameters = { ...chat.parameters, public: true, mode: 'webhook' };
	return chat?.webhookId;
}

module.exports = { getManyWorkflow, triggerWorkflow, mcpServerWorkflow, publicChat };
