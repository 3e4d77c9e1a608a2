// @ts-check
'use strict';

/**
 * A loopback HTTP server whose every answer a test scripts, for the answers a real API or proxy
 * can give but the sandbox never does on purpose (an HTML token answer, a page without
 * _metadata, a cursor sent twice, a server that never answers in time). It can also forward a
 * request to the sandbox untouched, and it remembers every access token that went through it, so
 * a test knows exactly which strings must never show up anywhere.
 */

const fs = require('node:fs');
const http = require('node:http');

/**
 * @typedef {object} ScriptedRequest
 * @property {string} method
 * @property {string} path the path as sent, still percent-encoded
 * @property {Record<string, string>} query the last value of each query parameter
 * @property {Record<string, string | string[] | undefined>} headers
 * @property {string} body
 */

/**
 * What to answer. `json` is sent as JSON, `text` as is (with the headers given); `drop` sends the
 * headers and half the body, then cuts the connection; `delayMs` waits before answering;
 * `forward` sends the request on to another server and relays its answer.
 * @typedef {object} ScriptedReply
 * @property {number} [status] default 200
 * @property {Record<string, string>} [headers]
 * @property {unknown} [json]
 * @property {string} [text]
 * @property {number} [delayMs]
 * @property {boolean} [drop]
 * @property {string} [forward] base URL to forward to
 * @property {string} [forwardPath] the path to forward to there; by default the request's
 */

/**
 * @callback ScriptedHandler
 * @param {ScriptedRequest} request
 * @param {number} index how many requests came before this one
 * @returns {ScriptedReply}
 */

/**
 * @typedef {object} ScriptedServer
 * @property {string} url
 * @property {ScriptedRequest[]} requests every request, in arrival order
 * @property {string[]} tokens every access_token this server sent, scripted or forwarded
 * @property {(handler: ScriptedHandler) => void} handle replaces the handler
 * @property {() => Promise<void>} stop closes the server, its connections and pending delays
 */

/**
 * @param {string} text
 * @param {string[]} tokens
 */
function rememberToken(text, tokens) {
	try {
		const parsed = JSON.parse(text);
		if (parsed && typeof parsed.access_token === 'string') tokens.push(parsed.access_token);
	} catch {
		// Not JSON, so it carries no token to remember.
	}
}

/** @typedef {{ status: number, headers: Record<string, string>, body: string }} SentAnswer */

/**
 * @param {http.IncomingMessage} incoming
 * @returns {Promise<ScriptedRequest>}
 */
function readRequest(incoming) {
	return new Promise((resolve, reject) => {
		/** @type {Buffer[]} */
		const chunks = [];
		incoming.on('data', (/** @type {Buffer} */ chunk) => chunks.push(chunk));
		incoming.on('error', reject);
		incoming.on('end', () =>
			resolve({
				method: incoming.method ?? 'GET',
				path: incoming.url ?? '/',
				query: Object.fromEntries(
					new URL(incoming.url ?? '/', 'http://scripted.invalid').searchParams,
				),
				headers: { ...incoming.headers },
				body: Buffer.concat(chunks).toString('utf8'),
			}),
		);
	});
}

/**
 * @param {ScriptedRequest} request
 * @param {string} target
 * @param {string} path
 * @returns {Promise<SentAnswer>}
 */
async function forward(request, target, path) {
	/** @type {Record<string, string>} */
	const headers = {};
	for (const [name, value] of Object.entries(request.headers)) {
		if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name))
			headers[name] = value;
	}
	const answer = await fetch(`${target}${path}`, {
		method: request.method,
		headers,
		body: request.method === 'GET' || request.method === 'HEAD' ? undefined : request.body,
	});
	/** @type {Record<string, string>} */
	const answerHeaders = {};
	answer.headers.forEach((value, name) => {
		if (!['content-length', 'connection', 'keep-alive', 'transfer-encoding'].includes(name))
			answerHeaders[name] = value;
	});
	return { status: answer.status, headers: answerHeaders, body: await answer.text() };
}

/**
 * @param {ScriptedReply} reply
 * @param {ScriptedRequest} request
 * @returns {Promise<SentAnswer>}
 */
async function compose(reply, request) {
	if (reply.forward !== undefined) {
		return forward(request, reply.forward, reply.forwardPath ?? request.path);
	}
	if (reply.json !== undefined) {
		return {
			status: reply.status ?? 200,
			headers: { 'content-type': 'application/json; charset=utf-8', ...reply.headers },
			body: JSON.stringify(reply.json),
		};
	}
	return { status: reply.status ?? 200, headers: { ...reply.headers }, body: reply.text ?? '' };
}

/**
 * @param {http.ServerResponse} response
 * @param {SentAnswer} sent
 * @param {boolean} [drop] cut the connection half way through the body
 */
function writeAnswer(response, sent, drop) {
	const bytes = Buffer.from(sent.body, 'utf8');
	response.writeHead(sent.status, { ...sent.headers, 'content-length': String(bytes.length) });
	if (drop) {
		response.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => response.destroy());
		return;
	}
	response.end(bytes);
}

/**
 * @param {http.ServerResponse} response
 * @param {unknown} error
 */
function writeFailure(response, error) {
	if (response.headersSent) {
		response.destroy();
		return;
	}
	response.writeHead(500, { 'content-type': 'text/plain' });
	response.end(`scripted server failed: ${error instanceof Error ? error.message : String(error)}`);
}

/** Delays that stopping the server cancels, so no timer outlives a test. */
function cancellableDelays() {
	/** @type {Set<NodeJS.Timeout>} */
	const timers = new Set();
	return {
		/** @param {number} ms */
		wait: (ms) =>
			new Promise((resolve) => {
				const timer = setTimeout(() => {
					timers.delete(timer);
					resolve(undefined);
				}, ms);
				timers.add(timer);
			}),
		cancel: () => {
			for (const timer of timers) clearTimeout(timer);
			timers.clear();
		},
	};
}

/**
 * @param {http.Server} server
 * @returns {Promise<number>} the loopback port it listens on
 */
async function listenOnLoopback(server) {
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => resolve(undefined));
	});
	const address = server.address();
	if (address === null || typeof address === 'string') throw new Error('no TCP address');
	return address.port;
}

/**
 * @param {ScriptedHandler} [initial] default: 404 for everything
 * @returns {Promise<ScriptedServer>}
 */
async function startScriptedServer(initial) {
	/** @type {ScriptedHandler} */
	let handler = initial ?? (() => ({ status: 404, json: { code: 'NOT_FOUND' } }));
	/** @type {ScriptedRequest[]} */
	const requests = [];
	/** @type {string[]} */
	const tokens = [];
	const delays = cancellableDelays();

	/**
	 * @param {http.IncomingMessage} incoming
	 * @param {http.ServerResponse} response
	 */
	async function answer(incoming, response) {
		const request = await readRequest(incoming);
		const reply = handler(request, requests.push(request) - 1);
		if (reply.delayMs) await delays.wait(reply.delayMs);
		if (response.destroyed) return;
		const sent = await compose(reply, request);
		rememberToken(sent.body, tokens);
		writeAnswer(response, sent, reply.drop);
	}

	const server = http.createServer((incoming, response) => {
		answer(incoming, response).catch((/** @type {unknown} */ error) =>
			writeFailure(response, error),
		);
	});
	const port = await listenOnLoopback(server);
	return {
		url: `http://127.0.0.1:${port}`,
		requests,
		tokens,
		handle: (next) => {
			handler = next;
		},
		stop: () =>
			new Promise((resolve) => {
				delays.cancel();
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}

/** Where the OS picks ports for `listen(0)`: Linux says; elsewhere, IANA's dynamic range. */
function ephemeralRangeStart() {
	try {
		const range = fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8');
		const low = Number(range.trim().split(/\s+/)[0]);
		if (Number.isInteger(low)) return low;
	} catch {
		// Not Linux.
	}
	return 49152;
}

/** @param {number} port @returns {Promise<boolean>} whether nothing listens on it now */
function isFree(port) {
	return new Promise((resolve) => {
		const server = http.createServer();
		server.once('error', () => resolve(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
	});
}

/**
 * A port on the loopback interface where nothing listens, for "connection refused". It lies
 * below the range the OS hands out for `listen(0)`, so no server a parallel test starts can take
 * it while a test relies on it (a freed ephemeral port can be, and once answered as another
 * test's token issuer).
 * @returns {Promise<number>}
 */
async function closedPort() {
	const floor = 20000;
	const top = Math.min(ephemeralRangeStart(), 32768);
	if (top <= floor) throw new Error(`the ephemeral port range starts at ${top}, below ${floor}`);
	for (let attempt = 1; attempt <= 50; attempt++) {
		const port = floor + Math.floor(Math.random() * (top - floor));
		if (await isFree(port)) return port;
	}
	throw new Error(`no free loopback port between ${floor} and ${top}`);
}

module.exports = { startScriptedServer, closedPort };
