// @ts-check
'use strict';

/**
 * A pass-through HTTP proxy placed in front of the token issuer: the e2e credential's Auth URL
 * points here, so the suite knows every access token the issuer handed to n8n and can prove none
 * of them reached n8n's database or logs. Loopback only.
 */

const http = require('node:http');

/**
 * @typedef {object} TokenRecorder
 * @property {string} url
 * @property {string[]} tokens every access_token seen in a response, in order
 * @property {number} requests token requests forwarded
 * @property {() => Promise<void>} stop
 */

/**
 * @param {string} targetUrl where requests are forwarded (the sandbox)
 * @returns {Promise<TokenRecorder>}
 */
async function startTokenRecorder(targetUrl) {
	/** @type {string[]} */
	const tokens = [];
	const recorder = { url: '', tokens, requests: 0, stop: async () => {} };
	const server = http.createServer((request, response) => {
		/** @type {Buffer[]} */
		const chunks = [];
		request.on('data', (chunk) => chunks.push(chunk));
		request.on('end', () => {
			recorder.requests++;
			/** @type {Record<string, string>} */
			const headers = {};
			for (const [name, value] of Object.entries(request.headers)) {
				if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name)) {
					headers[name] = value;
				}
			}
			const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
			fetch(`${targetUrl}${request.url ?? '/'}`, { method: request.method, headers, body })
				.then(async (answer) => {
					const text = await answer.text();
					try {
						const parsed = JSON.parse(text);
						if (parsed && typeof parsed.access_token === 'string') tokens.push(parsed.access_token);
					} catch {
						// Not JSON: nothing to record, forwarded as is.
					}
					const contentType = answer.headers.get('content-type');
					response.writeHead(answer.status, contentType ? { 'content-type': contentType } : {});
					response.end(text);
				})
				.catch((error) => {
					response.writeHead(502, { 'content-type': 'text/plain' });
					response.end(
						`token recorder could not reach ${targetUrl}: ${error instanceof Error ? error.message : String(error)}`,
					);
				});
		});
	});
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => resolve(undefined));
	});
	const address = server.address();
	if (!address || typeof address !== 'object') throw new Error('token recorder has no TCP address');
	recorder.url = `http://127.0.0.1:${address.port}`;
	recorder.stop = () =>
		new Promise((resolve) => {
			server.close(() => resolve());
			server.closeAllConnections();
		});
	return recorder;
}

module.exports = { startTokenRecorder };
