// @ts-check
'use strict';

/**
 * The workflows of the queue-mode suite, one credential each so that every scenario has its own
 * token and its own share of the API's rate limit.
 */

const { packageJson } = require('../../../scripts/n8n/package');

const PACKAGE = packageJson().name;

/**
 * @param {string} credentialId
 * @returns {Record<string, { id: string, name: string }>}
 */
function supplierCredential(credentialId) {
	return { supplierMatchedProjectsApi: { id: credentialId, name: credentialId } };
}

/**
 * Every matched project of company-1 (Return All), started by a webhook call (a production
 * execution, which queue mode hands to a worker) or from the editor (a manual execution, which
 * stays on the main instance). The webhook answers with the projects.
 * @param {{ id: string, path: string, credentialId: string }} options
 */
function getManyWorkflow(options) {
	return {
		id: options.id,
		name: `queue: every matched project (${options.path})`,
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
			{
				id: `${options.id}-manual`,
				name: 'On Manual Run',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 200],
				parameters: {},
			},
			{
				id: `${options.id}-projects`,
				name: 'Matched Projects',
				type: `${PACKAGE}.supplierMatchedProjects`,
				typeVersion: 1,
				position: [260, 100],
				parameters: {
					resource: 'matchedProject',
					operation: 'getAll',
					companyId: 'company-1',
					returnAll: true,
					output: 'projects',
					simplify: false,
				},
				credentials: supplierCredential(options.credentialId),
			},
		],
		connections: {
			'On Call': { main: [[{ node: 'Matched Projects', type: 'main', index: 0 }]] },
			'On Manual Run': { main: [[{ node: 'Matched Projects', type: 'main', index: 0 }]] },
		},
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
				credentials: supplierCredential(options.credentialId),
			},
		],
		connections: {},
		pinData: {},
	};
}

module.exports = { getManyWorkflow, newTenderWorkflow };
