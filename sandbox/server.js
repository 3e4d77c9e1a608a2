// @ts-check
'use strict';

const http = require('node:http');
const { loadOpenApiDocument } = require('../openapi');
const { errorReply, header, json, methodNotAllowed } = require('./reply');
const { resultsReply } = require('./results');

/** @typedef {import('./faults').Fault} Fault */
/** @typedef {import('./reply').Reply} Reply */

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
 * @property {import('./ordering').Orderings} orderings the results endpoint's view of the store
 * @property {import('./auth').Auth} auth
 * @property {import('./faults').Faults} faults
 * @property {ReturnType<import('./rate-limit').createRateLimiter>} limiter
 * @property {ReturnType<import('./cursor').createCursorCodec>} cursors
 * @property {import('./clock').SandboxClock} clock
 * @property {number} cacheSeconds
 * @property {() => number} latencyMs
 * @property {(ms: number) => Promise<void>} delay stop() cuts these short
 * @property {(entry: RequestLogEntry) => void} log
 * @property {() => string} url
 * @property {(request: { method: string, pathname: string, body: string | undefined }) => Reply} control
 * @property {Map<string, { expiresAt: number, body: string }>} cache
 * @property {import('./raw-entries').RawEntries} rawEntries
 */

const RESULTS_PATH = /^\/api\/supplier\/v1\/companies\/([^/]+)\/speci-finder\/results$/;
const MAX_BODY_BYTES = 64 * 1024;
const PROXY_ERROR_PAGE =
	'<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

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

/** @param {URLSearchParams} params */
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
 * The reply a fault gives instead of the real one, for the kinds that answer by themselves.
 * @param {Fault} fault
 */
function faultReply({ kind, status, retryAfterSeconds }) {
	if (kind === 'serverError')
		return errorReply(status, 'INTERNAL_SERVER_ERROR', 'Internal server error (sandbox fault).');
	if (kind === 'fetchFailed')
		return errorReply(status, 'FETCH_FAILED', 'Fetching matched projects failed (sandbox fault).');
	if (kind === 'rateLimited') {
		const message = 'Rate limit exceeded; retry later (sandbox fault).';
		return errorReply(429, 'RATE_LIMITED', message, { 'retry-after': String(retryAfterSeconds) });
	}
	const html = { status, headers: { 'content-type': 'text/html' }, body: PROXY_ERROR_PAGE };
	return kind === 'html' ? html : undefined;
}

/**
 * Writes the reply, mangled the way the fault says.
 * @param {http.ServerResponse} response
 * @param {Reply} reply
 * @param {Fault | undefined} fault
 * @returns {number} the status the client was sent
 */
function send(response, reply, fault) {
	const whole = Buffer.from(reply.body, 'utf8');
	const halved = fault?.kind === 'drop' || fault?.kind === 'malformedJson';
	const body = halved ? whole.subarray(0, Math.floor(whole.length / 2)) : whole;
	const status = fault?.kind === 'malformedJson' ? fault.status : reply.status;
	// A drop promises the whole body and cuts the connection after half: a reset mid-body.
	const length = fault?.kind === 'drop' ? whole.length : body.length;
	response.writeHead(status, { ...reply.headers, 'content-length': String(length) });
	if (fault?.kind === 'drop') response.write(body, () => response.destroy());
	else response.end(body);
	return status;
}

/** @param {ServerContext} context */
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

/** @param {Reply} reply @param {string | null} [clientId] */
const answer = (reply, clientId = null) => ({ reply, clientId, servedFromCache: false });

/** @param {ServerContext} context @param {http.IncomingMessage} request @param {string} method */
async function tokenReply(context, request, method) {
	if (method !== 'POST') {
		request.resume();
		return answer(methodNotAllowed('The token endpoint', 'POST'));
	}
	const body = await readBody(request);
	if (body === undefined) {
		const description = 'the token request body is too large';
		return answer(json(413, { error: 'invalid_request', error_description: description }));
	}
	const result = context.auth.tokenEndpoint({
		contentType: header(request.headers['content-type']),
		authorization: header(request.headers.authorization),
		body,
	});
	return answer(json(result.status, result.body, result.headers), result.clientId ?? null);
}

/**
 * The answer to an API request that no fault answered.
 * @param {ServerContext} context
 * @param {http.IncomingMessage} request
 * @param {{ method: string, url: URL, resultsMatch: RegExpExecArray | null, at: number }} routed
 */
async function apiReply(context, request, { method, url, resultsMatch, at }) {
	const path = url.pathname;
	if (path === '/oauth2/token') return tokenReply(context, request, method);
	request.resume();
	if (resultsMatch && method === 'GET') {
		return resultsReply(context, request, resultsMatch[1], url.searchParams, at);
	}
	if (resultsMatch) return answer(methodNotAllowed('The results endpoint', 'GET'));
	if (path === '/swagger/doc') {
		return answer(
			method === 'GET' ? openApiReply(context) : methodNotAllowed('The description', 'GET'),
		);
	}
	const where = `No route for ${method} ${path}; the API lives under /api/supplier/v1.`;
	return answer(errorReply(404, 'NOT_FOUND', where));
}

/**
 * @param {ServerContext} context
 * @param {http.IncomingMessage} request
 * @param {http.ServerResponse} response
 * @returns {Promise<number>} the status sent
 */
async function handle(context, request, response) {
	const method = request.method ?? 'GET';
	const url = new URL(request.url ?? '/', 'http://sandbox.invalid');
	const path = url.pathname;
	if (path === '/__sandbox' || path.startsWith('/__sandbox/')) {
		const body = await readBody(request);
		return send(response, context.control({ method, pathname: path, body }), undefined);
	}
	if (context.latencyMs() > 0) await context.delay(context.latencyMs());
	const resultsMatch = RESULTS_PATH.exec(path);
	const target = path === '/oauth2/token' ? 'token' : resultsMatch ? 'results' : undefined;
	const fault = target === undefined ? undefined : context.faults.next(target);
	if (fault?.kind === 'latencySpike') await context.delay(fault.ms);
	// One instant for the rate limit and the log, so the log shows exactly what the limit counted.
	const at = context.clock.now();
	const answeredByFault = fault && faultReply(fault);
	if (answeredByFault) request.resume();
	const { reply, clientId, servedFromCache } = answeredByFault
		? answer(answeredByFault, header(request.headers['x-service-client-id']) ?? null)
		: await apiReply(context, request, { method, url, resultsMatch, at });
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

/** @param {ServerContext} context @returns {http.RequestListener} */
function createRequestListener(context) {
	return (request, response) => {
		handle(context, request, response).catch((/** @type {unknown} */ error) => {
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

module.exports = { createRequestListener };
