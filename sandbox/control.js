// @ts-check
'use strict';

const { SandboxNotFoundError } = require('./errors');
const { errorReply, json } = require('./server');

/** @typedef {import('./server').Reply} Reply */
/** @typedef {import('./index').Sandbox} Sandbox */

/**
 * @typedef {object} ControlRoute
 * @property {string} method
 * @property {string} path segments after /__sandbox; ":name" captures one
 * @property {string} does one line for the route index
 * @property {(call: { params: Record<string, string>, body: Record<string, unknown>, query: URLSearchParams }) => unknown} run
 *   its result is sent as JSON; undefined means 204
 * @property {number} [status] success status when not 200
 */

/**
 * @param {unknown} value
 * @param {string} field
 * @returns {string | undefined}
 */
function optionalString(value, field) {
	if (value === undefined) return undefined;
	if (typeof value !== 'string')
		throw new Error(`${field} must be a string (got ${JSON.stringify(value)})`);
	return value;
}

/**
 * The same control functions as the programmatic API, as JSON over HTTP under /__sandbox, so a
 * separate process (real n8n, the demo) can drive the sandbox.
 * @param {Sandbox} sandbox
 * @returns {(request: { method: string, segments: string[], query: URLSearchParams, body: unknown }) => Reply}
 */
function createControlRouter(sandbox) {
	/** @type {ControlRoute[]} */
	const routes = [
		{ method: 'GET', path: '', does: 'this list of routes', run: () => ({ routes: index() }) },
		{
			method: 'GET',
			path: 'fixtures',
			does: 'SANDBOX_FIXTURES and the sandbox url',
			run: () => ({ ...sandbox.fixtures, url: sandbox.url }),
		},
		{
			method: 'GET',
			path: 'clock',
			does: 'sandbox time: { now (ISO), epochMs }',
			run: () => ({
				now: new Date(sandbox.clock.now()).toISOString(),
				epochMs: sandbox.clock.now(),
			}),
		},
		{
			method: 'POST',
			path: 'clock/set',
			does: '{ at: ISO date-time or epoch ms } jumps the clock',
			run: ({ body }) => {
				sandbox.clock.set(/** @type {string | number} */ (body.at));
				return { now: new Date(sandbox.clock.now()).toISOString(), epochMs: sandbox.clock.now() };
			},
		},
		{
			method: 'POST',
			path: 'clock/advance',
			does: '{ ms } moves the clock forward (negative: back)',
			run: ({ body }) => {
				sandbox.clock.advance(/** @type {number} */ (body.ms));
				return { now: new Date(sandbox.clock.now()).toISOString(), epochMs: sandbox.clock.now() };
			},
		},
		{
			method: 'POST',
			path: 'tenders',
			does: 'openTender({ projectId?, companyId?, name?, type?, builder?, tenderOpenAt?, quotesDueAt? }) -> tender',
			status: 201,
			run: ({ body }) => sandbox.openTender(body),
		},
		{
			method: 'GET',
			path: 'tenders/:tenderId',
			does: 'getTender(tenderId) -> tender',
			run: ({ params }) => sandbox.getTender(params.tenderId),
		},
		{
			method: 'PATCH',
			path: 'tenders/:tenderId',
			does: 'updateTender(tenderId, { name?, type?, builder?, quotesDueAt?, status?, tenderOpenAt? }) -> tender',
			run: ({ params, body }) => sandbox.updateTender(params.tenderId, body),
		},
		{
			method: 'POST',
			path: 'tenders/:tenderId/redate',
			does: 'redateTender(tenderId, { dueInDays }): quotesDueAt = sandbox today + dueInDays -> tender',
			run: ({ params, body }) =>
				sandbox.redateTender(params.tenderId, /** @type {number} */ (body.dueInDays)),
		},
		{
			method: 'POST',
			path: 'tenders/:tenderId/close',
			does: 'closeTender(tenderId, status = Closed | Awarded) -> tender',
			run: ({ params, body }) =>
				sandbox.closeTender(
					params.tenderId,
					/** @type {'Closed' | 'Awarded' | undefined} */ (optionalString(body.status, 'status')),
				),
		},
		{
			method: 'POST',
			path: 'projects/:projectId/tenders',
			does: 'addTenderUnderBuilder(projectId, builder, { companyId?, name?, ... }) -> tender',
			status: 201,
			run: ({ params, body }) => {
				const { builder, ...fields } = body;
				return sandbox.addTenderUnderBuilder(
					params.projectId,
					/** @type {string} */ (builder),
					fields,
				);
			},
		},
		{
			method: 'PUT',
			path: 'projects/:projectId/status',
			does: 'setProjectStatus(projectId, { status: Active | Closed })',
			run: ({ params, body }) => {
				sandbox.setProjectStatus(
					params.projectId,
					/** @type {'Active' | 'Closed'} */ (body.status),
				);
				return undefined;
			},
		},
		{
			method: 'GET',
			path: 'companies/:companyId/open',
			does: 'listOpen(companyId): exactly what a complete walk returns now, in order',
			run: ({ params }) => sandbox.listOpen(params.companyId),
		},
		{
			method: 'POST',
			path: 'companies/:companyId/raw-entries',
			does: 'addRawEntry(companyId, { entry, at? }): entry (any JSON, null too) as given in the first page, at index at -> { entries }',
			status: 201,
			run: ({ params, body }) => ({
				entries: sandbox.addRawEntry(
					params.companyId,
					/** @type {{ entry: unknown, at?: number }} */ (body),
				),
			}),
		},
		{
			method: 'DELETE',
			path: 'companies/:companyId/raw-entries',
			does: 'clearRawEntries(companyId)',
			run: ({ params }) => {
				sandbox.clearRawEntries(params.companyId);
				return undefined;
			},
		},
		{
			method: 'GET',
			path: 'history',
			does: 'history(): tender events',
			run: () => sandbox.history(),
		},
		{
			method: 'POST',
			path: 'tokens/revoke',
			does: 'revokeTokens({ clientId? }) -> { revoked }',
			run: ({ body }) => ({
				revoked: sandbox.revokeTokens({ clientId: optionalString(body.clientId, 'clientId') }),
			}),
		},
		{
			method: 'GET',
			path: 'tokens/issued',
			does: 'tokensIssued({ clientId? from ?clientId= }) -> { count }',
			run: ({ query }) => ({
				count: sandbox.tokensIssued({ clientId: query.get('clientId') ?? undefined }),
			}),
		},
		{
			method: 'GET',
			path: 'requests',
			does: 'requests(): the request log',
			run: () => sandbox.requests(),
		},
		{
			method: 'DELETE',
			path: 'requests',
			does: 'resetRequests()',
			run: () => {
				sandbox.resetRequests();
				return undefined;
			},
		},
		{
			method: 'POST',
			path: 'faults',
			does: 'injectFault({ kind, times?, on?, status?, ms?, retryAfterSeconds? })',
			status: 201,
			run: ({ body }) => {
				sandbox.injectFault(/** @type {import('./faults').FaultRequest} */ (body));
				return { queued: body };
			},
		},
		{
			method: 'PUT',
			path: 'faults/rates',
			does: 'setFaultRates({ rates, rngSeed? }); rates {} turns random faults off',
			run: ({ body }) => {
				sandbox.setFaultRates(
					/** @type {import('./faults').FaultRates} */ (body.rates ?? {}),
					/** @type {number | undefined} */ (body.rngSeed),
				);
				return undefined;
			},
		},
		{
			method: 'GET',
			path: 'faults',
			does: 'faultsInjected(): counts by kind',
			run: () => sandbox.faultsInjected(),
		},
		{
			method: 'DELETE',
			path: 'faults',
			does: 'clearFaults(): drops queued faults and rates (counts stay)',
			run: () => {
				sandbox.clearFaults();
				return undefined;
			},
		},
		{
			method: 'PUT',
			path: 'latency',
			does: 'setLatency({ ms }) added to every API request',
			run: ({ body }) => {
				sandbox.setLatency(/** @type {number} */ (body.ms));
				return undefined;
			},
		},
		{
			method: 'DELETE',
			path: 'cache',
			does: 'clearCache(): forget cached result pages',
			run: () => {
				sandbox.clearCache();
				return undefined;
			},
		},
	];

	function index() {
		return routes.map((route) => ({
			method: route.method,
			path: `/__sandbox${route.path === '' ? '' : `/${route.path}`}`,
			does: route.does,
		}));
	}

	/**
	 * @param {ControlRoute} route
	 * @param {string[]} segments
	 * @returns {Record<string, string> | undefined}
	 */
	function match(route, segments) {
		const pattern = route.path === '' ? [] : route.path.split('/');
		if (pattern.length !== segments.length) return undefined;
		/** @type {Record<string, string>} */
		const params = {};
		for (let position = 0; position < pattern.length; position++) {
			if (pattern[position].startsWith(':'))
				params[pattern[position].slice(1)] = segments[position];
			else if (pattern[position] !== segments[position]) return undefined;
		}
		return params;
	}

	return ({ method, segments, query, body }) => {
		const matching = routes
			.map((route) => ({ route, params: match(route, segments) }))
			.filter((entry) => entry.params);
		const found = matching.find((entry) => entry.route.method === method);
		if (!found || !found.params) {
			if (matching.length > 0) {
				const allow = matching.map((entry) => entry.route.method).join(', ');
				return errorReply(405, 'METHOD_NOT_ALLOWED', `This control route takes ${allow}.`, {
					allow,
				});
			}
			return errorReply(404, 'NOT_FOUND', 'No such control route; GET /__sandbox lists them.');
		}
		if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
			return errorReply(400, 'INVALID_REQUEST', 'The control request body must be a JSON object.');
		}
		try {
			const result = found.route.run({
				params: found.params,
				body: /** @type {Record<string, unknown>} */ (body ?? {}),
				query,
			});
			return result === undefined
				? { status: 204, headers: {}, body: '' }
				: json(found.route.status ?? 200, result);
		} catch (error) {
			const message = error instanceof Error ? error.message : String(error);
			return error instanceof SandboxNotFoundError
				? errorReply(404, 'NOT_FOUND', message)
				: errorReply(400, 'INVALID_REQUEST', message);
		}
	};
}

module.exports = { createControlRouter };
