// @ts-check
'use strict';

/**
 * The workflows the real-n8n suites build rather than read from files: Get Many on a webhook call
 * (one per case, credential or company), the trigger, and an MCP server with the node as its tool.
 */

const { packageJson } = require('../../../scripts/n8n/package');

const PACKAGE = packageJson().name;

/**
 * Every matched project of a company (Return All), started by a webhook call (a production
 * execution, which queue mode hands to a worker) or, with `manual`, from the editor too (a manual
 * execution, which stays on the main instance). The webhook answers with the projects, or the error.
 * @param {{ id: string, name: string, path: string, companyId: string, credential: { id: string, name: string }, manual?: boolean }} options
 */
function getManyWorkflow(options) {
	const toProjects = { main: [[{ node: 'Matched Projects', type: 'main', index: 0 }]] };
	const manual = {
		id: `${options.id}-manual`,
		name: 'On Manual Run',
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position: [0, 200],
		parameters: {},
	};
	return {
		id: options.id,
		name: options.name,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: `${options.id}-webhook`,
				name: 'On Call',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2.1,
				position: [0, 0],
				webhookId: `${options.id}-webhook`,
				parameters: {
					httpMethod: 'GET',
					path: options.path,
					responseMode: 'lastNode',
					responseData: 'allEntries',
					options: {},
				},
			},
			...(options.manual ? [manual] : []),
			{
				id: `${options.id}-projects`,
				name: 'Matched Projects',
				type: `${PACKAGE}.supplierMatchedProjects`,
				typeVersion: 1,
				position: [260, 100],
				parameters: {
					resource: 'matchedProject',
					operation: 'getAll',
					companyId: options.companyId,
					returnAll: true,
					output: 'projects',
					simplify: false,
				},
				credentials: { supplierMatchedProjectsApi: options.credential },
			},
		],
		connections: options.manual
			? { 'On Call': toProjects, 'On Manual Run': toProjects }
			: { 'On Call': toProjects },
		pinData: {},
	};
}

/**
 * The package's trigger alone, for company-1: by default New Tender, polled every minute, one
 * simplified item per tender.
 * @param {{ id: string, name: string, credential: { id: string, name: string }, node?: string, pollTimes?: Record<string, unknown>[], parameters?: Record<string, unknown> }} options
 *   parameters: laid over the trigger's defaults (e.g. another event)
 */
function triggerWorkflow(options) {
	return {
		id: options.id,
		name: options.name,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: `${options.id}-trigger`,
				name: options.node ?? 'New Matching Tender',
				type: `${PACKAGE}.supplierMatchedProjectsTrigger`,
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					pollTimes: { item: options.pollTimes ?? [{ mode: 'everyMinute' }] },
					companyId: 'company-1',
					event: 'newTender',
					output: 'tenders',
					simplify: true,
					...options.parameters,
				},
				credentials: { supplierMatchedProjectsApi: options.credential },
			},
		],
		connections: {},
		pinData: {},
	};
}

/**
 * An MCP Server Trigger at `path` whose one tool is the package's node, for company-1.
 * @param {{ id: string, name: string, path: string, credential: { id: string, name: string }, parameters?: Record<string, unknown> }} options
 *   parameters: laid over the tool's (e.g. the answer it gives)
 */
function mcpServerWorkflow(options) {
	return {
		id: options.id,
		name: options.name,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: `${options.id}-mcp`,
				name: 'MCP Server Trigger',
				type: '@n8n/n8n-nodes-langchain.mcpTrigger',
				typeVersion: 2,
				position: [0, 0],
				webhookId: `${options.id}-mcp`,
				parameters: { path: options.path },
			},
			{
				id: `${options.id}-tool`,
				name: 'Matched Projects',
				type: `${PACKAGE}.supplierMatchedProjectsTool`,
				typeVersion: 1,
				position: [0, 220],
				parameters: { companyId: 'company-1', ...options.parameters },
				credentials: { supplierMatchedProjectsApi: options.credential },
			},
		],
		connections: {
			'Matched Projects': {
				ai_tool: [[{ node: 'MCP Server Trigger', type: 'ai_tool', index: 0 }]],
			},
		},
		pinData: {},
	};
}

module.exports = { getManyWorkflow, triggerWorkflow, mcpServerWorkflow };
