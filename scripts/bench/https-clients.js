// @ts-check
'use strict';

/**
 * The two plain HTTPS clients of the network bench, written with node:https so that the one
 * difference between them is the connection: one keeps a single connection alive for the whole
 * walk (an Agent with keepAlive and one socket), the other opens a new connection, with a full TLS
 * handshake, for every request (no agent, so no pooled socket and no cached TLS session), as
 * n8n's request helpers do. Both POST the token form once (the token is then kept), and follow
 * nextCursor with limit=100.
 */

const https = require('node:https');
const { tokenRequest } = require('./token-form');

/** @typedef {import('./clients').Target} Target */
/** @typedef {import('./clients').Client} Client */
/** @typedef {import('../../nodes/SupplierMatchedProjects/api/types').ResultsPage} ResultsPage */

/**
 * @param {string} url
 * @param {{ agent: https.Agent | false, method?: string, headers?: Record<string, string>, body?: string }} options
 * @returns {Promise<{ status: number, text: string }>}
 */
function send(url, options) {
	return new Promise((resolve, reject) => {
		const request = https.request(
			url,
			{ method: options.method ?? 'GET', headers: options.headers, agent: options.agent },
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
		request.end(options.body);
	});
}

/**
 * @param {Target} target
 * @param {{ name: string, keepAlive: boolean }} options
 * @returns {Client}
 */
function plainHttpsClient(target, options) {
	/** A new agent per walk: the walk opens its one connection itself, with the TLS version of the moment. */
	const newAgent = () =>
		options.keepAlive ? new https.Agent({ keepAlive: true, maxSockets: 1 }) : false;
	/** @type {https.Agent | false} */
	let agent = false;
	/** @type {string | undefined} */
	let accessToken;
	const resultsUrl = `${target.url}/api/supplier/v1/companies/${encodeURIComponent(target.companyId)}/speci-finder/results`;
	return {
		name: options.name,
		forget: () => {
			accessToken = undefined;
		},
		freshBudget: () => undefined,
		walk: async () => {
			agent = newAgent();
			if (accessToken === undefined) {
				const token = await send(`${target.url}/oauth2/token`, {
					agent,
					...tokenRequest(target),
				});
				const body = /** @type {{ access_token?: unknown }} */ (JSON.parse(token.text));
				if (token.status !== 200 || typeof body.access_token !== 'string') {
					throw new Error(`${options.name}: the token request failed with HTTP ${token.status}`);
				}
				accessToken = body.access_token;
			}
			const headers = {
				authorization: `Bearer ${accessToken}`,
				'x-service-client-id': target.client.clientId,
				accept: 'application/json',
			};
			let projects = 0;
			/** @type {string | null} */
			let cursor = null;
			// Bounded by the company's pages: the sandbox ends the walk with hasNextPage false.
			for (;;) {
				const url = new URL(resultsUrl);
				url.searchParams.set('limit', '100');
				if (cursor !== null) url.searchParams.set('cursor', cursor);
				const answer = await send(url.href, { agent, headers });
				if (answer.status !== 200) {
					throw new Error(`${options.name} got HTTP ${answer.status} from the results endpoint`);
				}
				const page = /** @type {ResultsPage} */ (JSON.parse(answer.text));
				projects += page.data.length;
				if (!page._metadata.hasNextPage) break;
				cursor = page._metadata.nextCursor;
			}
			if (agent) agent.destroy();
			return { projects: () => projects, items: projects };
		},
	};
}

module.exports = { plainHttpsClient };
