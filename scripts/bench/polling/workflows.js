// @ts-check
'use strict';

/**
 * What the polling bench imports into n8n, and its activation: one credential for the partner
 * client, and one workflow per company holding only the trigger (event newTender, polling every
 * minute, one item per tender, simplified), all on that credential.
 */

const crypto = require('node:crypto');

const { SANDBOX_FIXTURES } = require('../../../sandbox');

const TRIGGER_NODE = 'Supplier Matched Projects Trigger';
const TRIGGER_TYPE = 'n8n-nodes-supplier-matched-projects.supplierMatchedProjectsTrigger';
const CREDENTIAL = Object.freeze({
	id: 'smpPollingBenchCredential',
	name: 'Supplier Matched Projects (polling bench)',
});

/**
 * @param {string} url the sandbox's, for tokens and the API
 * @param {{ clientId: string, clientSecret: string }} client
 */
function benchCredentials(url, client) {
	return [
		{
			...CREDENTIAL,
			type: 'supplierMatchedProjectsApi',
			data: { authUrl: url, baseUrl: url, ...client, scope: SANDBOX_FIXTURES.scope },
		},
	];
}

/** @param {number} index from 0 */
const workflowIdOf = (index) => `smpPollBench${String(index + 1).padStart(4, '0')}`;

/**
 * @param {string[]} companyIds
 * @returns {{ workflows: { id: string, name: string, [key: string]: unknown }[], companyOf: Map<string, string> }}
 *   the workflows as n8n imports them, and each workflow's company by its id
 */
function benchWorkflows(companyIds) {
	const workflows = companyIds.map((companyId, index) => ({
		id: workflowIdOf(index),
		name: `polling bench: new tenders of ${companyId}`,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: crypto.randomUUID(),
				name: TRIGGER_NODE,
				type: TRIGGER_TYPE,
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					pollTimes: { item: [{ mode: 'everyMinute' }] },
					companyId,
					event: 'newTender',
					output: 'tenders',
					simplify: true,
				},
				credentials: { supplierMatchedProjectsApi: { ...CREDENTIAL } },
			},
		],
		connections: {},
		pinData: {},
	}));
	return {
		workflows,
		companyOf: new Map(companyIds.map((companyId, index) => [workflowIdOf(index), companyId])),
	};
}

/**
 * @typedef {object} Activation
 * @property {string} workflowId
 * @property {number} startedMs when the activation was asked for (its test poll runs then)
 * @property {number} endedMs
 * @property {string} [error] why it failed
 */

/**
 * Activates (publishes) every workflow, `concurrency` at a time: n8n runs each trigger's first
 * poll as part of its activation. A failed activation is recorded, not thrown.
 * @param {import('../../n8n/client').N8nClient} client
 * @param {string[]} workflowIds
 * @param {{ concurrency: number, log: (line: string) => void }} options
 * @returns {Promise<Activation[]>}
 */
async function activateAll(client, workflowIds, { concurrency, log }) {
	/** @type {Activation[]} */
	const activations = [];
	const queue = [...workflowIds];
	const worker = async () => {
		for (let workflowId = queue.shift(); workflowId; workflowId = queue.shift()) {
			const startedMs = Date.now();
			try {
				await client.activateWorkflow(workflowId);
				activations.push({ workflowId, startedMs, endedMs: Date.now() });
			} catch (error) {
				const message = error instanceof Error ? error.message : String(error);
				log(`activating ${workflowId} failed: ${message}`);
				activations.push({ workflowId, startedMs, endedMs: Date.now(), error: message });
			}
		}
	};
	await Promise.all(Array.from({ length: concurrency }, worker));
	return activations;
}

module.exports = { benchCredentials, benchWorkflows, activateAll, TRIGGER_NODE };
