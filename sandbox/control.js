// @ts-check
'use strict';

const { SandboxNotFoundError } = require('./errors');
const { errorReply, json } = require('./reply');

/** @typedef {import('./reply').Reply} Reply */
/** @typedef {import('./index').Sandbox} Sandbox */

/**
 * @typedef {{ params: Record<string, string>, body: Record<string, unknown>, query: URLSearchParams }} ControlCall
 */

/**
 * @typedef {object} ControlRoute
 * @property {string} method
 * @property {string} path segments after /__sandbox; ":name" captures one
 * @property {string} does one line for the route index
 * @property {(sandbox: Sandbox, call: ControlCall) => unknown} run
 *   its result is sent as JSON; undefined means 204
 * @property {number} [status] success status when not 200
 */

/** @param {unknown} value @param {string} field */
function optionalString(value, field) {
	if (value === undefined) return undefined;
	if (typeof value !== 'string')
		throw new Error(`${field} must be a string (got ${JSON.stringify(value)})`);
	return value;
}

/** @param {Sandbox} sandbox */
const clockReading = (sandbox) => ({
	now: new Date(sandbox.clock.now()).toISOString(),
	epochMs: sandbox.clock.now(),
});

/** @type {ControlRoute[]} */
const ROUTES = [
	{ method: 'GET', path: '', does: 'this list of routes', run: () => ({ routes: routeIndex() }) },
	{
		method: 'GET',
		path: 'fixtures',
		does: 'SANDBOX_FIXTURES and the sandbox url',
		run: (sandbox) => ({ ...sandbox.fixtures, url: sandbox.url }),
	},
	{ method: 'GET', path: 'clock', does: 'sandbox time: { now (ISO), epochMs }', run: clockReading },
	{
		method: 'POST',
		path: 'clock/set',
		does: '{ at: ISO date-time or epoch ms } jumps the clock',
		run: (sandbox, { body }) => {
			sandbox.clock.set(/** @type {string | number} */ (body.at));
			return clockReading(sandbox);
		},
	},
	{
		method: 'POST',
		path: 'clock/advance',
		does: '{ ms } moves the clock forward (negative: back)',
		run: (sandbox, { body }) => {
			sandbox.clock.advance(/** @type {number} */ (body.ms));
			return clockReading(sandbox);
		},
	},
	{
		method: 'POST',
		path: 'tenders',
		does: 'openTender({ projectId?, companyId?, name?, type?, builder?, tenderOpenAt?, quotesDueAt? }) -> tender',
		status: 201,
		run: (sandbox, { body }) => sandbox.openTender(body),
	},
	{
		method: 'PUT',
		path: 'tenders/:tenderId',
		does: 'openTenderWithId(tenderId, { projectId?, companyId?, name?, ... }) -> tender',
		status: 201,
		run: (sandbox, { params, body }) => sandbox.openTenderWithId(params.tenderId, body),
	},
	{
		method: 'GET',
		path: 'tenders/:tenderId',
		does: 'getTender(tenderId) -> tender',
		run: (sandbox, { params }) => sandbox.getTender(params.tenderId),
	},
	{
		method: 'PATCH',
		path: 'tenders/:tenderId',
		does: 'updateTender(tenderId, { name?, type?, builder?, quotesDueAt?, status?, tenderOpenAt? }) -> tender',
		run: (sandbox, { params, body }) => sandbox.updateTender(params.tenderId, body),
	},
	{
		method: 'POST',
		path: 'tenders/:tenderId/redate',
		does: 'redateTender(tenderId, { dueInDays }): quotesDueAt = sandbox today + dueInDays -> tender',
		run: (sandbox, { params, body }) =>
			sandbox.redateTender(params.tenderId, /** @type {number} */ (body.dueInDays)),
	},
	{
		method: 'POST',
		path: 'tenders/:tenderId/close',
		does: 'closeTender(tenderId, status = Closed | Awarded) -> tender',
		run: (sandbox, { params, body }) =>
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
		run: (sandbox, { params, body }) => {
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
		run: (sandbox, { params, body }) =>
			void sandbox.setProjectStatus(
				params.projectId,
				/** @type {'Active' | 'Closed'} */ (body.status),
			),
	},
	{
		method: 'GET',
		path: 'companies/:companyId/open',
		does: 'listOpen(companyId): exactly what a complete walk returns now, in order',
		run: (sandbox, { params }) => sandbox.listOpen(params.companyId),
	},
	{
		method: 'POST',
		path: 'companies/:companyId/raw-entries',
		does: 'addRawEntry(companyId, { entry, at? }): entry (any JSON, null too) as given in the first page, at index at -> { entries }',
		status: 201,
		run: (sandbox, { params, body }) => ({
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
		run: (sandbox, { params }) => void sandbox.clearRawEntries(params.companyId),
	},
	{
		method: 'GET',
		path: 'history',
		does: 'history(): tender events',
		run: (sandbox) => sandbox.history(),
	},
	{
		method: 'POST',
		path: 'tokens/revoke',
		does: 'revokeTokens({ clientId? }) -> { revoked }',
		run: (sandbox, { body }) => ({
			revoked: sandbox.revokeTokens({ clientId: optionalString(body.clientId, 'clientId') }),
		}),
	},
	{
		method: 'GET',
		path: 'tokens/issued',
		does: 'tokensIssued({ clientId? from ?clientId= }) -> { count }',
		run: (sandbox, { query }) => ({
			count: sandbox.tokensIssued({ clientId: query.get('clientId') ?? undefined }),
		}),
	},
	{
		method: 'GET',
		path: 'requests',
		does: 'requests(): the request log',
		run: (sandbox) => sandbox.requests(),
	},
	{
		method: 'DELETE',
		path: 'requests',
		does: 'resetRequests()',
		run: (sandbox) => void sandbox.resetRequests(),
	},
	{
		method: 'POST',
		path: 'faults',
		does: 'injectFault({ kind, times?, on?, status?, ms?, retryAfterSeconds? })',
		status: 201,
		run: (sandbox, { body }) => {
			sandbox.injectFault(/** @type {import('./faults').FaultRequest} */ (body));
			return { queued: body };
		},
	},
	{
		method: 'PUT',
		path: 'faults/rates',
		does: 'setFaultRates({ rates, rngSeed? }); rates {} turns random faults off',
		run: (sandbox, { body }) =>
			void sandbox.setFaultRates(
				/** @type {import('./faults').FaultRates} */ (body.rates ?? {}),
				/** @type {number | undefined} */ (body.rngSeed),
			),
	},
	{
		method: 'GET',
		path: 'faults',
		does: 'faultsInjected(): counts by kind',
		run: (sandbox) => sandbox.faultsInjected(),
	},
	{
		method: 'DELETE',
		path: 'faults',
		does: 'clearFaults(): drops queued faults and rates (counts stay)',
		run: (sandbox) => void sandbox.clearFaults(),
	},
	{
		method: 'PUT',
		path: 'latency',
		does: 'setLatency({ ms }) added to every API request',
		run: (sandbox, { body }) => void sandbox.setLatency(/** @type {number} */ (body.ms)),
	},
	{
		method: 'DELETE',
		path: 'cache',
		does: 'clearCache(): forget cached result pages',
		run: (sandbox) => void sandbox.clearCache(),
	},
];

function routeIndex() {
	return ROUTES.map((route) => ({
		method: route.method,
		path: `/__sandbox${route.path === '' ? '' : `/${route.path}`}`,
		does: route.does,
	}));
}

/** @param {ControlRoute} route @param {string[]} segments */
function match(route, segments) {
	const pattern = route.path === '' ? [] : route.path.split('/');
	if (pattern.length !== segments.length) return undefined;
	/** @type {Record<string, string>} */
	const params = {};
	for (let position = 0; position < pattern.length; position++) {
		if (pattern[position].startsWith(':')) params[pattern[position].slice(1)] = segments[position];
		else if (pattern[position] !== segments[position]) return undefined;
	}
	return params;
}

/**
 * @param {string} method
 * @param {string[]} segments
 * @returns {{ route: ControlRoute, params: Record<string, string> } | Reply} the route, or 404/405
 */
function findRoute(method, segments) {
	const matching = ROUTES.flatMap((route) => {
		const params = match(route, segments);
		return params ? [{ route, params }] : [];
	});
	const found = matching.find((entry) => entry.route.method === method);
	if (found) return found;
	if (matching.length === 0) {
		return errorReply(404, 'NOT_FOUND', 'No such control route; GET /__sandbox lists them.');
	}
	const allow = matching.map((entry) => entry.route.method).join(', ');
	return errorReply(405, 'METHOD_NOT_ALLOWED', `This control route takes ${allow}.`, { allow });
}

/**
 * The same control functions as the programmatic API, as JSON over HTTP under /__sandbox, so a
 * separate process (real n8n, the demo) can drive the sandbox.
 * @param {Sandbox} sandbox
 * @returns {(request: { method: string, segments: string[], query: URLSearchParams, body: unknown }) => Reply}
 */
function createControlRouter(sandbox) {
	return ({ method, segments, query, body }) => {
		const found = findRoute(method, segments);
		if (!('route' in found)) return found;
		if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
			return errorReply(400, 'INVALID_REQUEST', 'The control request body must be a JSON object.');
		}
		try {
			const call = {
				params: found.params,
				body: /** @type {ControlCall['body']} */ (body ?? {}),
				query,
			};
			const result = found.route.run(sandbox, call);
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
