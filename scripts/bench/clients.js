// @ts-check
'use strict';

/**
 * The clients the bench compares, each walking every page of one company: ours, the recipe and a
 * plain client (docs/benchmarks.md). The first two run in n8n-core's engine through the engine
 * harness, whose credentials helper keeps OAuth2 tokens as n8n does. Load after installRuntime().
 */

const https = require('node:https');

const { ENGINE_HARNESS, fromBuild } = require('./runtime');

/** @type {typeof import('../../test/support/harness/engine')} */
const { TestCredentialsHelper, runNode } = fromBuild(ENGINE_HARNESS);
/** @type {typeof import('../../nodes/SupplierMatchedProjects/SupplierMatchedProjects.node')} */
const { SupplierMatchedProjects } = fromBuild(
	'nodes/SupplierMatchedProjects/SupplierMatchedProjects.node',
);
/** @type {typeof import('../../credentials/SupplierMatchedProjectsApi.credentials')} */
const { SupplierMatchedProjectsApi } = fromBuild(
	'credentials/SupplierMatchedProjectsApi.credentials',
);
/** @type {typeof import('../../nodes/SupplierMatchedProjects/runtime')} */
const { SupplierRuntime } = fromBuild('nodes/SupplierMatchedProjects/runtime');
/** @type {typeof import('../../nodes/SupplierMatchedProjects/transport/rate-budget')} */
const { API_RATE_LIMIT } = fromBuild('nodes/SupplierMatchedProjects/transport/rate-budget');

/** @typedef {import('n8n-workflow').INodeExecutionData} INodeExecutionData */
/** @typedef {import('../../nodes/SupplierMatchedProjects/api/types').ResultsPage} ResultsPage */
/** @typedef {import('./sandbox').BenchSandbox['target']} Target url: also the token issuer */
/**
 * A client starts as a new process with a new credential would: no token, a fresh rate budget.
 * @typedef {{ name: string, walk: () => Promise<{ items: number, projects: () => number }> }} Client
 *   projects: counted on demand, after the timing
 */
/** @typedef {(url: string, init: { method?: string, headers?: Record<string, string>, body?: string }) => Promise<{ status: number, text: string }>} Send */

const SCOPE = 'speci-finder/read';

/** @param {Target} target */
const resultsUrl = (target) =>
	`${target.url}/api/supplier/v1/companies/${encodeURIComponent(target.companyId)}/speci-finder/results`;

/**
 * A node run by n8n-core's engine, one execution per walk, on one credential.
 * @param {string} name
 * @param {import('n8n-workflow').ICredentialType} credential
 * @param {import('n8n-workflow').ICredentialDataDecryptedObject} data
 * @param {() => Omit<import('../../test/support/harness/engine').RunNodeOptions, 'credentialsHelper'>} run
 * @param {(items: INodeExecutionData[]) => number} countProjects
 * @returns {Client}
 */
function engineClient(name, credential, data, run, countProjects) {
	const credentialsHelper = new TestCredentialsHelper([credential]);
	credentialsHelper.setCredentials(credential.name, data);
	return {
		name,
		walk: async () => {
			const { items, error } = await runNode({ ...run(), credentialsHelper });
			if (items === undefined) throw new Error(`${name} failed: ${error?.message ?? 'no output'}`);
			return { items: items.length, projects: () => countProjects(items) };
		},
	};
}

/**
 * @param {Target} target
 * @param {{ output?: 'projects' | 'tenders', simplify?: boolean }} [shape]
 */
function ourNode({ url, companyId, client }, { output = 'projects', simplify = false } = {}) {
	const runtime = new SupplierRuntime();
	const parameters = {
		resource: 'matchedProject',
		operation: 'getAll',
		companyId,
		returnAll: true,
		output,
		simplify,
	};
	// A project item has projectId, a tender item its project's under project (or projectId).
	const projectOf = (/** @type {INodeExecutionData} */ { json }) =>
		json.projectId ?? /** @type {{ projectId?: unknown }} */ (json.project)?.projectId;
	return engineClient(
		'ours',
		new SupplierMatchedProjectsApi(runtime),
		{ authUrl: url, baseUrl: url, ...client, scope: SCOPE },
		() => {
			// This process's tokens, but each walk a rate budget of its own, without the pace past
			// a burst of 10: the others have no budget, and the bench measures requests, not pace.
			const { rateBudget } = new SupplierRuntime({ rateBudget: { burst: API_RATE_LIMIT } });
			return { nodeType: new SupplierMatchedProjects({ ...runtime, rateBudget }), parameters };
		},
		(items) => new Set(items.map(projectOf)).size,
	);
}

/**
 * The HTTP Request node as n8n adds it today: limit=100 as the API's default is 25, the client id
 * header by hand as the generic credential cannot add it. One item per page.
 * @param {Target} target
 * @param {import('./runtime').N8nBase} n8nBase
 */
function recipe(target, { httpRequestNode: nodeType, oauth2Credential }) {
	const keyPair = (/** @type {string} */ name, /** @type {string} */ value) => ({
		parameters: [{ name, value }],
	});
	const parameters = {
		method: 'GET',
		url: resultsUrl(target),
		authentication: 'genericCredentialType',
		genericAuthType: 'oAuth2Api',
		sendQuery: true,
		specifyQuery: 'keypair',
		queryParameters: keyPair('limit', '100'),
		sendHeaders: true,
		specifyHeaders: 'keypair',
		headerParameters: keyPair('x-service-client-id', target.client.clientId),
		options: {
			pagination: {
				pagination: {
					paginationMode: 'updateAParameterInEachRequest',
					parameters: {
						parameters: [
							{ type: 'qs', name: 'cursor', value: '={{ $response.body._metadata.nextCursor }}' },
						],
					},
					paginationCompleteWhen: 'other',
					completeExpression: '={{ !$response.body._metadata.hasNextPage }}',
					limitPagesFetched: false,
					requestInterval: 0,
				},
			},
		},
	};
	const stored = {
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: nodeType.description.defaultVersion ?? nodeType.currentVersion,
		credentials: { oAuth2Api: { id: 'bench-oauth2', name: 'oAuth2Api' } },
	};
	return engineClient(
		'recipe',
		oauth2Credential,
		{
			grantType: 'clientCredentials',
			accessTokenUrl: `${target.url}/oauth2/token`,
			...target.client,
			scope: SCOPE,
			authentication: 'body',
		},
		() => ({ nodeType, parameters, stored }),
		(pages) =>
			pages.reduce((sum, { json }) => sum + /** @type {ResultsPage} */ (json).data.length, 0),
	);
}

/** @type {Send} */
async function sendWithFetch(url, init) {
	const response = await fetch(url, init);
	return { status: response.status, text: await response.text() };
}

/**
 * @param {https.Agent | false} agent false: a new connection for every request
 * @returns {Send}
 */
const sendWithHttps =
	(agent) =>
	(url, { method = 'GET', headers, body }) =>
		new Promise((resolve, reject) => {
			const request = https.request(url, { method, headers, agent }, (response) => {
				let text = '';
				response.setEncoding('utf8');
				response.on('data', (chunk) => (text += chunk));
				response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
				response.on('error', reject);
			});
			request.on('error', reject);
			request.end(body);
		});

/**
 * The API's quick start: the token form, then every page, following nextCursor. Through fetch, or
 * with a `connection` through node:https: one connection a walk (a new agent, so no TLS session
 * either) or, as n8n's request helpers do, one a request.
 * @param {Target} target
 * @param {{ name: string, pageSize?: number, connection?: 'keepAlive' | 'perRequest', keepBodies?: boolean }} options
 */
function plainClient(target, { name, pageSize, connection, keepBodies = false }) {
	const { clientId, clientSecret } = target.client;
	/** @type {Record<string, string> | undefined} */
	let headers;
	/** @param {Send} send */
	const token = async (send) => {
		const body = new URLSearchParams({
			grant_type: 'client_credentials',
			client_id: clientId,
			client_secret: clientSecret,
			scope: SCOPE,
		});
		const form = { 'content-type': 'application/x-www-form-urlencoded' };
		const answer = await send(`${target.url}/oauth2/token`, {
			method: 'POST',
			headers: form,
			body: body.toString(),
		});
		if (answer.status !== 200) throw new Error(`${name} got HTTP ${answer.status} for a token`);
		const authorization = `Bearer ${JSON.parse(answer.text).access_token}`;
		return { authorization, 'x-service-client-id': clientId, accept: 'application/json' };
	};
	/** @param {Send} send */
	const walk = async (send) => {
		headers ??= await token(send);
		/** @type {string[]} */
		const bodies = [];
		let projects = 0;
		const url = new URL(resultsUrl(target));
		if (pageSize !== undefined) url.searchParams.set('limit', String(pageSize));
		// Bounded by the company's pages: the last one says hasNextPage false.
		for (;;) {
			const answer = await send(url.href, { headers });
			if (answer.status !== 200) throw new Error(`${name} got HTTP ${answer.status}`);
			if (keepBodies) bodies.push(answer.text);
			const page = /** @type {ResultsPage} */ (JSON.parse(answer.text));
			projects += page.data.length;
			if (!page._metadata.hasNextPage) break;
			url.searchParams.set('cursor', String(page._metadata.nextCursor));
		}
		return { items: projects, projects: () => projects, bodies };
	};
	return {
		name,
		walk: async () => {
			if (connection === undefined) return walk(sendWithFetch);
			const agent =
				connection === 'keepAlive' && new https.Agent({ keepAlive: true, maxSockets: 1 });
			try {
				return await walk(sendWithHttps(agent));
			} finally {
				if (agent) agent.destroy();
			}
		},
		/**
		 * Wall ms of `count` requests in a row for a one-project page (about 1.3 KB).
		 * @param {number} count
		 */
		roundTrips: async (count) => {
			headers ??= await token(sendWithFetch);
			const start = performance.now();
			for (let index = 0; index < count; index++) {
				const { status } = await sendWithFetch(`${resultsUrl(target)}?limit=1`, { headers });
				if (status !== 200) throw new Error(`a bare round trip got HTTP ${status}`);
			}
			return performance.now() - start;
		},
	};
}

/**
 * One walk, timed, checked complete.
 * @param {Client} client
 * @param {number} projects what a complete walk delivers
 */
async function timedWalk(client, projects) {
	const cpu = process.cpuUsage();
	const start = performance.now();
	const { items, projects: delivered } = await client.walk();
	const wallMs = performance.now() - start;
	const { user, system } = process.cpuUsage(cpu);
	if (delivered() !== projects) {
		throw new Error(`${client.name} delivered ${delivered()} of ${projects} projects`);
	}
	return { wallMs, cpuMs: (user + system) / 1000, items };
}

module.exports = { ourNode, recipe, plainClient, timedWalk, runNode, TestCredentialsHelper };
