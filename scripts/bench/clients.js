// @ts-check
'use strict';

/**
 * The clients the bench compares, each able to walk every page of one company:
 * - ours: the package's node with its credential, run by n8n-core's WorkflowExecute;
 * - the recipe: n8n-nodes-base's HTTP Request node with the generic OAuth2 credential and its
 *   pagination options, as a careful n8n user would build it without this package;
 * - a plain HTTP client (fetch) that asks for a token and follows the cursors, either at the API's
 *   default page size (what a client that does not set `limit` gets) or at the maximum of 100;
 * - bare round trips: the same first page of one project, requested again and again with fetch,
 *   which is what one request costs beyond the latency before any page of real size.
 * Load this module only after runtime.installRuntime().
 */

const { BenchCredentialsHelper, runSingleNode } = require('./engine');
const { fromBuild } = require('./runtime');

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

/**
 * What a client needs to know of the API it walks.
 * @typedef {object} Target
 * @property {string} url the sandbox's base URL, also its token issuer
 * @property {string} companyId
 * @property {{ clientId: string, clientSecret: string }} client
 */
/** @typedef {import('n8n-workflow').INodeExecutionData} INodeExecutionData */
/** @typedef {import('n8n-workflow').INodeParameters} INodeParameters */
/** @typedef {import('n8n-workflow').IVersionedNodeType} IVersionedNodeType */
/** @typedef {import('n8n-workflow').ICredentialType} ICredentialType */
/** @typedef {import('../../nodes/SupplierMatchedProjects/api/types').ResultsPage} ResultsPage */

const OUR_CREDENTIAL = 'supplierMatchedProjectsApi';
const OUR_NODE_TYPE = 'n8n-nodes-supplier-matched-projects.supplierMatchedProjects';
const HTTP_REQUEST_NODE_TYPE = 'n8n-nodes-base.httpRequest';
const OAUTH2_CREDENTIAL = 'oAuth2Api';

/**
 * @typedef {object} WalkResult
 * @property {() => number} projects projects the walk delivered, counted on demand (outside any
 *   timed section) to check the walk was complete
 * @property {number} items items the node output
 */

/**
 * @typedef {object} Client
 * @property {string} name
 * @property {() => Promise<WalkResult>} walk one execution: every page of the company
 * @property {() => void} forget starts over as a new process with a new credential: no token
 *   in memory or in the credential, a fresh rate budget
 * @property {() => void} freshBudget empties our process-wide rate budget (a no-op for others)
 */

/**
 * @param {Target} target
 */
function resultsUrl(target) {
	return `${target.url}/api/supplier/v1/companies/${encodeURIComponent(target.companyId)}/speci-finder/results`;
}

/**
 * @param {import('../../test/support/harness/engine').NodeRun} run
 * @param {string} who
 * @returns {INodeExecutionData[]}
 */
function outputOf(run, who) {
	if (run.error !== undefined || run.items === undefined) {
		throw new Error(`${who} failed: ${run.error?.message ?? 'no output'}`);
	}
	return run.items;
}

/**
 * Distinct projects among our node's items, whatever the output mode: a project item has
 * projectId, a tender item its project's under project (or projectId when simplified).
 * @param {INodeExecutionData[]} items
 */
function countProjects(items) {
	const projectIds = new Set();
	for (const { json } of items) {
		const project = /** @type {{ projectId?: unknown } | undefined} */ (json.project);
		projectIds.add(json.projectId ?? project?.projectId);
	}
	return projectIds.size;
}

/**
 * Our node: Get Many with Return All, in the given output mode.
 * @param {Target} target
 * @param {{ output?: 'projects' | 'tenders', simplify?: boolean }} [shape]
 * @returns {Client}
 */
function ourNode(target, shape = {}) {
	const output = shape.output ?? 'projects';
	/** @type {InstanceType<typeof SupplierRuntime>} */
	let runtime;
	/** @type {InstanceType<typeof SupplierMatchedProjects>} */
	let nodeType;
	/** @type {InstanceType<typeof BenchCredentialsHelper>} */
	let helper;
	const forget = () => {
		runtime = new SupplierRuntime();
		nodeType = new SupplierMatchedProjects(runtime);
		helper = new BenchCredentialsHelper([new SupplierMatchedProjectsApi(runtime)]);
		helper.setCredentials(OUR_CREDENTIAL, {
			authUrl: target.url,
			baseUrl: target.url,
			clientId: target.client.clientId,
			clientSecret: target.client.clientSecret,
			scope: 'speci-finder/read',
		});
	};
	forget();
	return {
		name: 'ours',
		forget,
		// This process's tokens, a new process's rate budget: the alternatives have no budget at all.
		freshBudget: () => {
			nodeType = new SupplierMatchedProjects({
				...runtime,
				rateBudget: new SupplierRuntime().rateBudget,
			});
		},
		walk: async () => {
			const run = await runSingleNode({
				typeName: OUR_NODE_TYPE,
				nodeType,
				typeVersion: 1,
				parameters: {
					resource: 'matchedProject',
					operation: 'getAll',
					companyId: target.companyId,
					returnAll: true,
					output,
					simplify: shape.simplify ?? false,
				},
				credentials: { [OUR_CREDENTIAL]: 'bench-credential' },
				credentialsHelper: helper,
			});
			const items = outputOf(run, 'our node');
			return { projects: () => countProjects(items), items: items.length };
		},
	};
}

/**
 * The HTTP Request node parameters a careful user sets up for this API: GET the results URL with
 * limit=100 (the API's default is 25), the x-service-client-id header added by hand (the generic
 * OAuth2 credential cannot add it), and "update a parameter in each request" pagination that sends
 * the previous response's nextCursor and stops when hasNextPage is false. On the first request
 * $response is still empty, so the cursor expression gives undefined and no cursor is sent.
 * @param {Target} target
 * @returns {INodeParameters}
 */
function recipeParameters(target) {
	return {
		method: 'GET',
		url: resultsUrl(target),
		authentication: 'genericCredentialType',
		genericAuthType: OAUTH2_CREDENTIAL,
		sendQuery: true,
		specifyQuery: 'keypair',
		queryParameters: { parameters: [{ name: 'limit', value: '100' }] },
		sendHeaders: true,
		specifyHeaders: 'keypair',
		headerParameters: {
			parameters: [{ name: 'x-service-client-id', value: target.client.clientId }],
		},
		options: {
			pagination: {
				pagination: {
					paginationMode: 'updateAParameterInEachRequest',
					parameters: {
						parameters: [
							{
								type: 'qs',
								name: 'cursor',
								value: '={{ $response.body._metadata.nextCursor }}',
							},
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
}

/**
 * The recipe: n8n-nodes-base's HTTP Request node (the version n8n adds today) with a generic
 * OAuth2 credential, client credentials grant, credentials sent in the body.
 * @param {Target} target
 * @param {{ httpRequestNode: IVersionedNodeType, oauth2Credential: ICredentialType }} n8nBase
 * @returns {Client}
 */
function recipe(target, n8nBase) {
	const nodeType = n8nBase.httpRequestNode;
	const typeVersion = nodeType.description.defaultVersion ?? nodeType.currentVersion;
	const parameters = recipeParameters(target);
	/** @type {InstanceType<typeof BenchCredentialsHelper>} */
	let helper;
	const forget = () => {
		helper = new BenchCredentialsHelper([n8nBase.oauth2Credential]);
		helper.setCredentials(OAUTH2_CREDENTIAL, {
			grantType: 'clientCredentials',
			accessTokenUrl: `${target.url}/oauth2/token`,
			clientId: target.client.clientId,
			clientSecret: target.client.clientSecret,
			scope: 'speci-finder/read',
			authentication: 'body',
		});
	};
	forget();
	return {
		name: 'recipe',
		forget,
		freshBudget: () => undefined,
		walk: async () => {
			const run = await runSingleNode({
				typeName: HTTP_REQUEST_NODE_TYPE,
				nodeType,
				typeVersion,
				parameters,
				credentials: { [OAUTH2_CREDENTIAL]: 'bench-oauth2-credential' },
				credentialsHelper: helper,
			});
			const items = outputOf(run, 'the HTTP Request recipe');
			const projects = () => {
				let count = 0;
				for (const item of items) {
					const page = /** @type {Partial<ResultsPage>} */ (item.json);
					if (!Array.isArray(page.data)) {
						throw new Error(
							`the HTTP Request recipe output an item that is not a results page: ${JSON.stringify(item.json).slice(0, 200)}`,
						);
					}
					count += page.data.length;
				}
				return count;
			};
			return { projects, items: items.length };
		},
	};
}

/** @typedef {(url: string, init: { method?: string, headers?: Record<string, string>, body?: string }) => Promise<{ status: number, text: string }>} Send */

/** @type {Send} */
async function sendWithFetch(url, init) {
	const response = await fetch(url, init);
	return { status: response.status, text: await response.text() };
}

/**
 * The token request of the API's quick start, as every hand-written bench client sends it.
 * @param {Target} target
 * @param {Send} send
 * @returns {Promise<string>} an access token
 */
async function plainToken(target, send) {
	const answer = await send(`${target.url}/oauth2/token`, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams({
			grant_type: 'client_credentials',
			client_id: target.client.clientId,
			client_secret: target.client.clientSecret,
			scope: 'speci-finder/read',
		}).toString(),
	});
	const body = /** @type {{ access_token?: unknown }} */ (JSON.parse(answer.text));
	if (answer.status !== 200 || typeof body.access_token !== 'string') {
		throw new Error(`a plain client's token request failed with HTTP ${answer.status}`);
	}
	return body.access_token;
}

/**
 * @param {Target} target
 * @param {string} accessToken
 * @returns {Record<string, string>}
 */
function plainHeaders(target, accessToken) {
	return {
		authorization: `Bearer ${accessToken}`,
		'x-service-client-id': target.client.clientId,
		accept: 'application/json',
	};
}

/**
 * A plain client as the API's quick start describes it: POST the token form, then GET pages with
 * the two headers, following nextCursor. `pageSize` undefined leaves `limit` out (25 per page);
 * `send` is fetch unless given; `keepBodies` keeps every page's text for the caller.
 * @param {Target} target
 * @param {{ name: string, pageSize?: number, send?: Send, keepBodies?: boolean }} options
 * @returns {Omit<Client, 'walk'> & { walk: () => Promise<WalkResult & { bodies: string[] }> }}
 */
function plainClient(target, options) {
	const send = options.send ?? sendWithFetch;
	/** @type {string | undefined} */
	let accessToken;
	return {
		name: options.name,
		forget: () => {
			accessToken = undefined;
		},
		freshBudget: () => undefined,
		walk: async () => {
			accessToken ??= await plainToken(target, send);
			const headers = plainHeaders(target, accessToken);
			/** @type {string[]} */
			const bodies = [];
			let projects = 0;
			/** @type {string | null} */
			let cursor = null;
			// Bounded by the company's pages: the sandbox ends the walk with hasNextPage false.
			for (;;) {
				const url = new URL(resultsUrl(target));
				if (options.pageSize !== undefined) url.searchParams.set('limit', String(options.pageSize));
				if (cursor !== null) url.searchParams.set('cursor', cursor);
				const answer = await send(url.href, { headers });
				if (answer.status !== 200) {
					throw new Error(`${options.name} got HTTP ${answer.status} from the results endpoint`);
				}
				if (options.keepBodies) bodies.push(answer.text);
				const page = /** @type {ResultsPage} */ (JSON.parse(answer.text));
				projects += page.data.length;
				if (!page._metadata.hasNextPage) break;
				cursor = page._metadata.nextCursor;
			}
			return { projects: () => projects, items: projects, bodies };
		},
	};
}

/**
 * Bare round trips: `count` requests in a row for the first page with one project (about 1.3 KB),
 * each read to its end. Returns their wall time in ms.
 * @param {Target} target
 * @returns {{ inARow: (count: number) => Promise<number> }}
 */
function roundTrips(target) {
	/** @type {string | undefined} */
	let accessToken;
	return {
		inARow: async (count) => {
			accessToken ??= await plainToken(target, sendWithFetch);
			const url = new URL(resultsUrl(target));
			url.searchParams.set('limit', '1');
			const headers = plainHeaders(target, accessToken);
			const start = performance.now();
			for (let index = 0; index < count; index++) {
				const response = await fetch(url, { headers });
				await response.text();
				if (response.status !== 200) {
					throw new Error(
						`a bare round trip got HTTP ${response.status} from the results endpoint`,
					);
				}
			}
			return performance.now() - start;
		},
	};
}

module.exports = { ourNode, recipe, plainClient, roundTrips };
