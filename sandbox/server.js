// @ts-check
'use strict';

const http = require('node:http');
const { loadOpenApiDocument } = require('../openapi');
const { SCOPE } = require('./fixtures');

/** @typedef {import('./store').Store} Store */
/** @typedef {import('./auth').Auth} Auth */
/** @typedef {import('./faults').Faults} Faults */
/** @typedef {import('./faults').Fault} Fault */
/** @typedef {import('./clock').SandboxClock} SandboxClock */
/** @typedef {import('./types').ResultsPage} ResultsPage */
/** @typedef {import('./types').ErrorBody} ErrorBody */
/** @typedef {ReturnType<import('./rate-limit').createRateLimiter>} RateLimiter */
/** @typedef {ReturnType<import('./cursor').createCursorCodec>} CursorCodec */

/**
 * @typedef {object} Reply
 * @property {number} status
 * @property {Record<string, string>} headers
 * @property {string} body
 */

/**
 * @typedef {object} RequestLogEntry
 * @property {string} method
 * @property {string} path
 * @property {Record<string, string | string[]>} query repeated parameters as arrays
 * @property {number} status what the client was sent (for a dropped connection, the status in the headers)
 * @property {string | null} clientId results: the x-service-client-id header; token: the client that asked
 * @property {string} at sandbox time, ISO 8601
 * @property {boolean} servedFromCache
 * @property {string | null} fault the injected fault kind, if any
 */

/**
 * @typedef {object} ServerContext
 * @property {Store} store
 * @property {Auth} auth
 * @property {Faults} faults
 * @property {RateLimiter} limiter
 * @property {CursorCodec} cursors
 * @property {SandboxClock} clock
 * @property {number} cacheSeconds
 * @property {() => number} latencyMs
 * @property {(ms: number) => Promise<void>} delay stop() cuts these short
 * @property {(entry: RequestLogEntry) => void} log
 * @property {() => string} url
 * @property {(request: { method: string, segments: string[], query: URLSearchParams, body: unknown }) => Reply} control
 * @property {Map<string, { expiresAt: number, body: string }>} cache
 * @property {import('./raw-entries').RawEntries} rawEntries
 */

const RESULTS_PATH = /^\/api\/supplier\/v1\/companies\/([^/]+)\/speci-finder\/results$/;
const JSON_TYPE = 'application/json; charset=utf-8';
const MAX_BODY_BYTES = 64 * 1024;
const DEFAULT_LIMIT = 25;
const MAX_LIMIT = 100;
const PROXY_ERROR_PAGE =
	'<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

/**
 * @param {number} status
 * @param {unknown} value
 * @param {Record<string, string>} [headers]
 * @returns {Reply}
 */
function json(status, value, headers = {}) {
	return {
		status,
		headers: { 'content-type': JSON_TYPE, ...headers },
		body: JSON.stringify(value),
	};
}

/**
 * @param {number} status
 * @param {string} code
 * @param {string} message
 * @param {Record<string, string>} [headers]
 * @returns {Reply}
 */
function errorReply(status, code, message, headers) {
	/** @type {ErrorBody} */
	const body = { code, message };
	return json(status, body, headers);
}

/**
 * Shows a bad value in an error message without letting a huge one flood it.
 * @param {string} value
 * @returns {string}
 */
function shown(value) {
	return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
}

/**
 * @param {http.IncomingMessage} request
 * @returns {Promise<string | undefined>} undefined when the body is larger than MAX_BODY_BYTES
 */
function readBody(request) {
	return new Promise((resolve, reject) => {
		/** @type {Buffer[]} */
		const chunks = [];
		let size = 0;
		request.on('data', (/** @type {Buffer} */ chunk) => {
			size += chunk.length;
			if (size <= MAX_BODY_BYTES) chunks.push(chunk);
		});
		request.on('end', () =>
			resolve(size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks).toString('utf8')),
		);
		request.on('error', reject);
	});
}

/**
 * @param {URLSearchParams} params
 * @returns {Record<string, string | string[]>}
 */
function queryObject(params) {
	/** @type {Record<string, string | string[]>} */
	const query = {};
	for (const key of new Set(params.keys())) {
		const values = params.getAll(key);
		query[key] = values.length === 1 ? values[0] : values;
	}
	return query;
}

/**
 * @param {string | string[] | undefined} value
 * @returns {string | undefined}
 */
function header(value) {
	return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * The reply a fault gives instead of the real one, for the kinds that answer by themselves.
 * @param {Fault} fault
 * @returns {Reply | undefined}
 */
function faultReply(fault) {
	switch (fault.kind) {
		case 'serverError':
			return errorReply(
				fault.status,
				'INTERNAL_SERVER_ERROR',
				'Internal server error (sandbox fault).',
			);
		case 'fetchFailed':
			return errorReply(
				fault.status,
				'FETCH_FAILED',
				'Fetching matched projects failed (sandbox fault).',
			);
		case 'rateLimited':
			return errorReply(429, 'RATE_LIMITED', 'Rate limit exceeded; retry later (sandbox fault).', {
				'retry-after': String(fault.retryAfterSeconds),
			});
		case 'html':
			return {
				status: fault.status,
				headers: { 'content-type': 'text/html' },
				body: PROXY_ERROR_PAGE,
			};
		default:
			return undefined;
	}
}

/**
 * Writes the reply, mangled the way the fault says.
 * @param {http.ServerResponse} response
 * @param {Reply} reply
 * @param {Fault | undefined} fault
 * @returns {number} the status the client was sent
 */
function send(response, reply, fault) {
	let body = Buffer.from(reply.body, 'utf8');
	let status = reply.status;
	if (fault?.kind === 'drop') {
		// Promise the whole body, deliver half, then cut the connection: the client sees a reset mid-body.
		response.writeHead(status, { ...reply.headers, 'content-length': String(body.length) });
		response.write(body.subarray(0, Math.floor(body.length / 2)), () => response.destroy());
		return status;
	}
	if (fault?.kind === 'malformedJson') {
		status = fault.status;
		body = body.subarray(0, Math.floor(body.length / 2));
	}
	if (fault?.kind === 'emptyBody') {
		status = fault.status;
		body = Buffer.alloc(0);
	}
	response.writeHead(status, { ...reply.headers, 'content-length': String(body.length) });
	response.end(body);
	return status;
}

/**
 * @param {ServerContext} context
 * @param {http.IncomingMessage} request
 * @param {string} companySegment
 * @param {URLSearchParams} query
 * @param {number} at when the request is handled, on the sandbox clock
 * @returns {{ reply: Reply, clientId: string | null, servedFromCache: boolean }}
 */
function resultsReply(context, request, companySegment, query, at) {
	const headerClientId = header(request.headers['x-service-client-id'])?.trim() || null;
	const answer = (/** @type {Reply} */ reply, servedFromCache = false) => ({
		reply,
		clientId: headerClientId,
		servedFromCache,
	});
	if (headerClientId === null) {
		return answer(
			errorReply(
				400,
				'CLIENT_ID_HEADER_MISSING',
				'The x-service-client-id header is required; send the client_id the token was issued to.',
			),
		);
	}
	const authorization = header(request.headers.authorization);
	const bearer =
		authorization === undefined ? undefined : /^Bearer +(\S+) *$/i.exec(authorization)?.[1];
	if (bearer === undefined) {
		return answer(
			errorReply(
				401,
				'Unauthorised',
				'Unauthorised: send Authorization: Bearer <access_token> from the token endpoint.',
			),
		);
	}
	const token = context.auth.verify(bearer);
	if (!token) {
		return answer(
			errorReply(
				401,
				'Unauthorised',
				'Unauthorised: the access token is not valid (unknown, expired or revoked); request a new token.',
			),
		);
	}
	if (token.clientId !== headerClientId) {
		return answer(
			errorReply(
				401,
				'CLIENT_ID_HEADER_MISMATCH',
				'The x-service-client-id header does not match the client the token was issued to.',
			),
		);
	}
	const rate = context.limiter.take(token.clientId, at);
	if (!rate.allowed) {
		return answer(
			errorReply(
				429,
				'RATE_LIMITED',
				`Rate limit exceeded for this credential; retry in ${rate.retryAfterSeconds} s.`,
				{ 'retry-after': String(rate.retryAfterSeconds) },
			),
		);
	}
	if (!token.scopes.includes(SCOPE)) {
		return answer(
			errorReply(401, 'Unauthorised', `Unauthorised: the token does not carry the ${SCOPE} scope.`),
		);
	}
	/** @type {string} */
	let companyId;
	try {
		companyId = decodeURIComponent(companySegment);
	} catch {
		companyId = companySegment;
	}
	const client = context.auth.client(token.clientId);
	if (!client || !client.companyIds.includes(companyId) || !context.store.hasCompany(companyId)) {
		return answer(
			errorReply(
				401,
				'Unauthorised',
				`Unauthorised: company ${shown(companyId)} is not registered to this application.`,
			),
		);
	}

	const limits = query.getAll('limit');
	let limit = DEFAULT_LIMIT;
	if (limits.length > 0) {
		const raw = limits[0];
		limit = /^\d{1,3}$/.test(raw) ? Number(raw) : NaN;
		if (limits.length > 1 || !(limit >= 1 && limit <= MAX_LIMIT)) {
			return answer(
				errorReply(
					400,
					'INVALID_LIMIT',
					limits.length > 1
						? 'limit was sent more than once; send it once, as a whole number from 1 to 100.'
						: `limit must be a whole number from 1 to 100 (got ${shown(raw)}); omit it for the default of ${DEFAULT_LIMIT}.`,
				),
			);
		}
	}

	const cursors = query.getAll('cursor');
	const cursor = cursors[0];
	const after = cursor === undefined || cursor === '' ? undefined : context.cursors.decode(cursor);
	if (
		cursors.length > 1 ||
		cursor === '' ||
		(cursor !== undefined && (!after || after.companyId !== companyId))
	) {
		return answer(
			errorReply(
				400,
				'INVALID_CURSOR',
				cursors.length > 1
					? 'cursor was sent more than once; send the last nextCursor once.'
					: cursor === ''
						? 'cursor is empty; omit it on the first request.'
						: 'cursor is not one this service issued for this company (it may have been changed); pass _metadata.nextCursor back verbatim, or start again without a cursor.',
			),
		);
	}

	const cacheKey = `${companyId}\n${cursor ?? ''}\n${limit}`;
	const now = context.clock.now();
	const cached = context.cache.get(cacheKey);
	if (cached && cached.expiresAt > now) {
		return answer({ status: 200, headers: { 'content-type': JSON_TYPE }, body: cached.body }, true);
	}
	const page = context.store.page(companyId, after, limit);
	/** @type {ResultsPage} */
	const envelope = {
		// Raw entries may be anything (that is what they are for): the envelope is still a page's.
		data: /** @type {ResultsPage['data']} */ (
			context.rawEntries.into(companyId, page.projects, after === undefined)
		),
		_metadata: {
			nextCursor: page.hasNextPage && page.last ? context.cursors.encode(page.last) : null,
			hasNextPage: page.hasNextPage,
		},
	};
	const body = JSON.stringify(envelope);
	if (context.cacheSeconds > 0) {
		for (const [key, entry] of context.cache) if (entry.expiresAt <= now) context.cache.delete(key);
		context.cache.set(cacheKey, { expiresAt: now + context.cacheSeconds * 1000, body });
	}
	return answer({ status: 200, headers: { 'content-type': JSON_TYPE }, body });
}

/**
 * @param {ServerContext} context
 * @returns {Reply}
 */
function openApiReply(context) {
	const document = loadOpenApiDocument();
	const url = context.url();
	// Point every server entry and the token URL at this sandbox, so generated clients work as is.
	document.servers = [{ url, description: 'Local sandbox (resource API and token issuer).' }];
	const paths = /** @type {Record<string, Record<string, unknown>> | undefined} */ (document.paths);
	const tokenPath = paths?.['/oauth2/token'];
	if (tokenPath) tokenPath.servers = [{ url, description: 'Local sandbox token issuer.' }];
	const components =
		/** @type {{ securitySchemes?: Record<string, { flows?: { clientCredentials?: { tokenUrl?: string } } }> } | undefined} */ (
			document.components
		);
	for (const scheme of Object.values(components?.securitySchemes ?? {})) {
		if (scheme.flows?.clientCredentials)
			scheme.flows.clientCredentials.tokenUrl = `${url}/oauth2/token`;
	}
	return json(200, document);
}

/**
 * @param {ServerContext} context
 * @param {string} method
 * @param {URL} url
 * @param {string | undefined} body undefined when it was too large
 * @returns {Reply}
 */
function controlReply(context, method, url, body) {
	if (body === undefined) {
		return errorReply(413, 'PAYLOAD_TOO_LARGE', 'Control requests take at most 64 KiB.');
	}
	/** @type {unknown} */
	let parsed;
	/** @type {string[]} */
	let segments;
	try {
		parsed = body === '' ? undefined : JSON.parse(body);
	} catch {
		return errorReply(400, 'INVALID_JSON', 'The control request body is not valid JSON.');
	}
	try {
		segments = url.pathname
			.split('/')
			.slice(2)
			.filter((segment) => segment !== '')
			.map(decodeURIComponent);
	} catch {
		return errorReply(400, 'INVALID_REQUEST', 'The control path is not valid percent-encoding.');
	}
	return context.control({ method, segments, query: url.searchParams, body: parsed });
}

/**
 * @param {ServerContext} context
 * @returns {http.RequestListener}
 */
function createRequestListener(context) {
	/**
	 * @param {http.IncomingMessage} request
	 * @param {http.ServerResponse} response
	 */
	async function handle(request, response) {
		const method = request.method ?? 'GET';
		const url = new URL(request.url ?? '/', 'http://sandbox.invalid');
		const path = url.pathname;

		if (path === '/__sandbox' || path.startsWith('/__sandbox/')) {
			return send(response, controlReply(context, method, url, await readBody(request)), undefined);
		}

		if (context.latencyMs() > 0) await context.delay(context.latencyMs());
		const resultsMatch = RESULTS_PATH.exec(path);
		const target = path === '/oauth2/token' ? 'token' : resultsMatch ? 'results' : undefined;
		const fault = target === undefined ? undefined : context.faults.next(target);
		if (fault?.kind === 'latencySpike') await context.delay(fault.ms);
		// One instant for the rate limit and the log, so the log shows exactly what the limit counted.
		const at = context.clock.now();

		/** @type {Reply} */
		let reply;
		/** @type {string | null} */
		let clientId = null;
		let servedFromCache = false;
		const answeredByFault = fault && faultReply(fault);
		if (answeredByFault) {
			request.resume();
			reply = answeredByFault;
			clientId = header(request.headers['x-service-client-id']) ?? null;
		} else if (target === 'token') {
			if (method !== 'POST') {
				request.resume();
				reply = errorReply(405, 'METHOD_NOT_ALLOWED', 'The token endpoint takes POST.', {
					allow: 'POST',
				});
			} else {
				const body = await readBody(request);
				if (body === undefined) {
					reply = json(413, {
						error: 'invalid_request',
						error_description: 'the token request body is too large',
					});
				} else {
					const result = context.auth.tokenEndpoint({
						contentType: header(request.headers['content-type']),
						authorization: header(request.headers.authorization),
						body,
					});
					reply = json(result.status, result.body, result.headers);
					clientId = result.clientId ?? null;
				}
			}
		} else if (resultsMatch) {
			request.resume();
			if (method !== 'GET') {
				reply = errorReply(405, 'METHOD_NOT_ALLOWED', 'The results endpoint takes GET.', {
					allow: 'GET',
				});
			} else {
				({ reply, clientId, servedFromCache } = resultsReply(
					context,
					request,
					resultsMatch[1],
					url.searchParams,
					at,
				));
			}
		} else if (path === '/swagger/doc') {
			request.resume();
			reply =
				method === 'GET'
					? openApiReply(context)
					: errorReply(405, 'METHOD_NOT_ALLOWED', 'The description takes GET.', { allow: 'GET' });
		} else {
			request.resume();
			reply = errorReply(
				404,
				'NOT_FOUND',
				`No route for ${method} ${path}; the API lives under /api/supplier/v1.`,
			);
		}

		const status = send(response, reply, fault);
		context.log({
			method,
			path,
			query: queryObject(url.searchParams),
			status,
			clientId,
			at: new Date(at).toISOString(),
			servedFromCache,
			fault: fault?.kind ?? null,
		});
		return status;
	}

	return (request, response) => {
		handle(request, response).catch((/** @type {unknown} */ error) => {
			if (response.headersSent) {
				response.destroy();
				return;
			}
			const message = error instanceof Error ? error.message : String(error);
			send(
				response,
				errorReply(500, 'INTERNAL_SERVER_ERROR', `Sandbox failure: ${message}`),
				undefined,
			);
		});
	};
}

module.exports = { createRequestListener, errorReply, json };
