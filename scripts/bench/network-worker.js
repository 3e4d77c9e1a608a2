// @ts-check
'use strict';

/**
 * The clients' side of the network bench, in a process of its own, started by network.js with
 * NODE_EXTRA_CA_CERTS naming a file that holds the sandbox's certificate (after the authorities
 * its parent already trusted): the way an n8n user makes n8n trust a private certificate, with
 * verification on. It walks on request and answers over IPC; the parent keeps the sandbox and
 * the latency proxy, and counts.
 *
 * Jobs (worker.js): { key, target, projects } walks every page with that client and answers its
 * wall time (one client object per key and target, so tokens stay warm between walks);
 * { probe, url, requests } runs the agent options probe.
 */

const https = require('node:https');

const { installRuntime } = require('./runtime');
const { serveJobs } = require('./worker');

/** @typedef {import('./clients').Target} Target */
/** @typedef {import('./clients').Client} Client */
/** @typedef {'keepAlive' | 'perRequest' | 'recipe' | 'ours'} NetworkClientKey */
/** @typedef {{ key: NetworkClientKey, target: Target, projects: number }} WalkJob */
/** @typedef {{ probe: 'agentOptionsKeepAlive', url: string, requests: number }} ProbeJob */

/**
 * One request over node:https, the body read to its end.
 * @param {https.Agent | false} agent
 * @returns {import('./clients').Send}
 */
function sendWith(agent) {
	return (url, init) =>
		new Promise((resolve, reject) => {
			const request = https.request(
				url,
				{ method: init.method ?? 'GET', headers: init.headers, agent },
				(response) => {
					/** @type {Buffer[]} */
					const chunks = [];
					response.on('data', (/** @type {Buffer} */ chunk) => chunks.push(chunk));
					response.on('end', () =>
						resolve({
							status: response.statusCode ?? 0,
							text: Buffer.concat(chunks).toString('utf8'),
						}),
					);
					response.on('error', reject);
				},
			);
			request.on('error', reject);
			request.end(init.body);
		});
}

/**
 * The plain client over node:https, so that the one difference between the two is the connection:
 * one keeps a single connection alive for the walk (a new Agent per walk, keepAlive, one socket),
 * the other opens a new connection with a full TLS handshake for every request (no agent, so no
 * pooled socket and no cached TLS session), as n8n's request helpers do.
 * @param {typeof import('./clients')} clients
 * @param {Target} target
 * @param {{ name: string, keepAlive: boolean }} options
 * @returns {Client}
 */
function plainHttpsClient(clients, target, options) {
	/** @type {https.Agent | false} */
	let agent = false;
	const client = clients.plainClient(target, {
		name: options.name,
		pageSize: 100,
		send: (url, init) => sendWith(agent)(url, init),
	});
	return {
		...client,
		walk: async () => {
			agent = options.keepAlive ? new https.Agent({ keepAlive: true, maxSockets: 1 }) : false;
			try {
				return await client.walk();
			} finally {
				if (agent) agent.destroy();
			}
		},
	};
}

/**
 * Checks, rather than reads from n8n's source, whether a node can make n8n's request helper keep
 * a connection alive: a one-node workflow whose node sends `requests` GETs in a row through
 * this.helpers.httpRequest with agentOptions { keepAlive: true, maxSockets: 1 }, the only
 * connection options IHttpRequestOptions takes. The latency proxy in front of the URL counts.
 * @param {string} url an HTTPS URL this process trusts
 * @param {number} requests
 * @returns {Promise<void>}
 */
async function requestsWithKeepAliveAgentOptions(url, requests) {
	const { BenchCredentialsHelper, runSingleNode } = require('./engine');
	/** @type {import('n8n-workflow').INodeType} */
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

async function main() {
	const runtime = await installRuntime();
	const clients = /** @type {typeof import('./clients')} */ (require('./clients'));
	const n8nBase = runtime.n8nBase();
	/** @type {Map<string, Client>} */
	const made = new Map();
	/**
	 * @param {NetworkClientKey} key
	 * @param {Target} target
	 * @returns {Client}
	 */
	const clientFor = (key, target) => {
		const id = `${key} ${target.url} ${target.companyId}`;
		let client = made.get(id);
		if (client === undefined) {
			if (key === 'ours') client = clients.ourNode(target);
			else if (key === 'recipe') client = clients.recipe(target, n8nBase);
			else
				client = plainHttpsClient(clients, target, { name: key, keepAlive: key === 'keepAlive' });
			made.set(id, client);
		}
		return client;
	};

	serveJobs(async (/** @type {WalkJob | ProbeJob} */ job) => {
		if ('probe' in job) return await requestsWithKeepAliveAgentOptions(job.url, job.requests);
		const client = clientFor(job.key, job.target);
		client.freshBudget();
		const start = performance.now();
		const result = await client.walk().catch((/** @type {unknown} */ error) => {
			throw new Error(`${job.key}: ${error instanceof Error ? error.message : String(error)}`);
		});
		const wallMs = performance.now() - start;
		const delivered = result.projects();
		if (delivered !== job.projects) {
			throw new Error(`${job.key} delivered ${delivered} of ${job.projects} projects`);
		}
		return wallMs;
	});
}

void main();
