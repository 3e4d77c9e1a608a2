// @ts-check
'use strict';

/**
 * Checks, rather than reads from n8n's source, whether a node can make n8n's request helper keep a
 * connection alive: a one-node workflow whose node sends `requests` GETs in a row through
 * this.helpers.httpRequest with agentOptions { keepAlive: true, maxSockets: 1 }, the only
 * connection options IHttpRequestOptions takes. The latency proxy in front of the URL counts the
 * connections. Load it only after runtime.installRuntime().
 */

const { BenchCredentialsHelper, runSingleNode } = require('./engine');

/** @typedef {import('n8n-workflow').INodeType} INodeType */

/**
 * @param {string} url an HTTPS URL this process trusts
 * @param {number} requests
 * @returns {Promise<void>}
 */
async function requestsWithKeepAliveAgentOptions(url, requests) {
	/** @type {INodeType} */
	const nodeType = {
		description: {
			displayName: 'Agent options probe',
			name: 'agentOptionsProbe',
			group: ['transform'],
			version: 1,
			description: 'Sends requests through the helper with keep-alive agent options',
			defaults: { name: 'Agent options probe' },
			inputs: ['main'],
			outputs: ['main'],
			properties: [],
		},
		async execute() {
			for (let index = 0; index < requests; index++) {
				await this.helpers.httpRequest({
					url,
					json: true,
					agentOptions: { keepAlive: true, maxSockets: 1 },
				});
			}
			return [[{ json: {} }]];
		},
	};
	const run = await runSingleNode({
		typeName: 'bench.agentOptionsProbe',
		nodeType,
		typeVersion: 1,
		parameters: {},
		credentials: {},
		credentialsHelper: new BenchCredentialsHelper([]),
	});
	if (run.error !== undefined)
		throw new Error(`the agent options probe failed: ${run.error.message}`);
}

module.exports = { requestsWithKeepAliveAgentOptions };
