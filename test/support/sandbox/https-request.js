// @ts-check
'use strict';

/**
 * HTTPS requests for the sandbox's HTTPS tests, which (as .ts tests under the community lint)
 * cannot import Node's modules: a request (on a connection of its own unless given a keep-alive
 * agent) saying which TLS version was spoken, and a token request from a separate Node process that
 * trusts the certificate only through NODE_EXTRA_CA_CERTS.
 */

const { execFile } = require('node:child_process');
const fs = require('node:fs');
const https = require('node:https');

/**
 * body: parsed JSON; protocol: the TLS version of the connection, e.g. "TLSv1.3"
 * @typedef {{ status: number, body: unknown, protocol: string | null }} HttpsAnswer
 */

/**
 * @param {string} url
 * @param {{ ca?: string, agent?: https.Agent, method?: string, headers?: Record<string, string>, body?: string, maxVersion?: 'TLSv1.2' | 'TLSv1.3' }} [options]
 *   without an agent, the request has a connection of its own
 * @returns {Promise<HttpsAnswer>}
 */
function httpsRequest(url, options = {}) {
	return new Promise((resolve, reject) => {
		const request = https.request(
			url,
			{
				method: options.method ?? 'GET',
				headers: options.headers,
				agent: options.agent ?? false,
				...(options.ca === undefined ? {} : { ca: options.ca }),
				...(options.maxVersion === undefined ? {} : { maxVersion: options.maxVersion }),
			},
			(response) => {
				const protocol = /** @type {import('node:tls').TLSSocket} */ (
					response.socket
				).getProtocol();
				let text = '';
				response.setEncoding('utf8');
				response.on('data', (/** @type {string} */ chunk) => (text += chunk));
				response.on('end', () =>
					resolve({ status: response.statusCode ?? 0, body: JSON.parse(text), protocol }),
				);
				response.on('error', reject);
			},
		);
		request.on('error', reject);
		request.end(options.body);
	});
}

/**
 * Asks the sandbox for a token from a new Node process (global fetch) whose environment sets
 * NODE_EXTRA_CA_CERTS to `caFile`; nothing else makes it trust the certificate.
 * @param {string} url the sandbox's base URL
 * @param {{ clientId: string, clientSecret: string }} client
 * @param {string} caFile
 * @returns {Promise<{ status: number, tokenType: unknown }>}
 */
function tokenFromChildProcess(url, client, caFile) {
	const script = `
		fetch(process.argv[1] + '/oauth2/token', {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams({ grant_type: 'client_credentials', client_id: process.argv[2], client_secret: process.argv[3] }),
		}).then(async (response) => {
			const body = await response.json();
			process.stdout.write(JSON.stringify({ status: response.status, tokenType: body.token_type }));
		}, (error) => {
			process.stdout.write(JSON.stringify({ error: String(error.cause?.code ?? error.message) }));
		});
	`;
	return new Promise((resolve, reject) => {
		execFile(
			process.execPath,
			['-e', script, url, client.clientId, client.clientSecret],
			{ env: { ...process.env, NODE_EXTRA_CA_CERTS: caFile }, timeout: 20_000 },
			(error, stdout) => {
				if (error) return reject(error);
				const answer = JSON.parse(stdout);
				if ('error' in answer)
					return reject(new Error(`the child process failed: ${answer.error}`));
				resolve(answer);
			},
		);
	});
}

/**
 * An agent that keeps one connection open for the requests given it; destroy() it when done.
 * @param {string | undefined} ca
 * @returns {https.Agent}
 */
function keepAliveAgent(ca) {
	return new https.Agent({ keepAlive: true, maxSockets: 1, ca });
}

/**
 * Whether a trust file the sandbox CLI wrote is still there.
 * @param {string} file
 * @returns {boolean}
 */
function fileExists(file) {
	return fs.existsSync(file);
}

module.exports = { httpsRequest, keepAliveAgent, tokenFromChildProcess, fileExists };
