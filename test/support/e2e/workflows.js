// @ts-check
'use strict';

/**
 * The workflows of the queue-mode suite (one credential each, so that every scenario has its own
 * token and its own share of the API's rate limit) and of the redirect suite.
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
 * New tenders of company-1, polled every minute, one item per tender.
 * @param {{ id: string, credentialId: string }} options
 */
function newTenderWorkflow(options) {
	return {
		id: options.id,
		name: 'queue: new matching tenders',
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: `${options.id}-trigger`,
				name: 'New Matching Tender',
				type: `${PACKAGE}.supplierMatchedProjectsTrigger`,
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					pollTimes: { item: [{ mode: 'everyMinute' }] },
					companyId: 'company-1',
					event: 'newTender',
					output: 'tenders',
					simplify: true,
				},
				credentials: {
					supplierMatchedProjectsApi: { id: options.credentialId, name: options.credentialId },
				},
			},
		],
		connections: {},
		pinData: {},
	};
}

module.exports = { getManyWorkflow, newTenderWorkflow };
