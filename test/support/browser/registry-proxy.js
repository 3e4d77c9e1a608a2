// @ts-check
'use strict';

/**
 * The way an unlicensed n8n can be pointed at a local registry. Both supported lines read
 * N8N_COMMUNITY_PACKAGES_REGISTRY but refuse any value other than https://registry.npmjs.org
 * without the enterprise licence feature `feat:communityNodes:customRegistry` (community-packages
 * service, getNpmRegistry), and they call npm with `--registry=https://registry.npmjs.org`, which
 * outranks npm_config_registry. What both honour is an outbound proxy (HTTPS_PROXY, for npm and
 * for n8n's own HTTP client) trusted through NODE_EXTRA_CA_CERTS: the set-up of a company network
 * that inspects TLS. This proxy answers for registry.npmjs.org from the local registry, with a
 * certificate made for the run, and refuses every other host, so nothing leaves the machine.
 */

const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const tls = require('node:tls');
const { randomUUID } = require('node:crypto');
const selfsigned = require('selfsigned');

const REGISTRY_HOST = 'registry.npmjs.org';

/**
 * @typedef {object} RegistryProxy
 * @property {string} url the proxy's address, for HTTPS_PROXY
 * @property {string} caFile the certificate to trust (NODE_EXTRA_CA_CERTS)
 * @property {{ method: string, path: string }[]} served requests for registry.npmjs.org answered locally
 * @property {string[]} refused every other destination asked for (host:port or URL)
 * @property {NodeJS.ProcessEnv} env what a process needs to go through it
 * @property {string} npmrc the same for npm as a project configuration (.npmrc), for the npm
 *   commands n8n 1.x runs with an environment of its own (`npm outdated` in its nodes folder keeps
 *   only PATH and NODE_PATH, so it would ask the public registry directly)
 * @property {() => Promise<void>} stop
 */

/** A certificate for registry.npmjs.org valid for two days, its own issuer. */
async function registryCertificate() {
	const notBefore = new Date(Date.now() - 3_600_000);
	const generated = await selfsigned.generate(
		[{ name: 'commonName', value: `Local registry for the browser suite ${randomUUID()}` }],
		{
			keyType: 'ec',
			curve: 'P-256',
			algorithm: 'sha256',
			notBeforeDate: notBefore,
			notAfterDate: new Date(notBefore.getTime() + 2 * 86_400_000),
			extensions: [
				{ name: 'basicConstraints', cA: true, critical: true },
				{ name: 'keyUsage', digitalSignature: true, keyCertSign: true },
				{ name: 'extKeyUsage', serverAuth: true },
				{ name: 'subjectAltName', altNames: [{ type: 2, value: REGISTRY_HOST }] },
			],
		},
	);
	return { cert: generated.cert, key: generated.private };
}

/**
 * Forwards one request to the local registry, as if it had been sent to registry.npmjs.org.
 * @param {string} registryUrl
 * @param {http.IncomingMessage} request
 * @param {http.ServerResponse} response
 * @param {string} pathAndQuery
 */
function forward(registryUrl, request, response, pathAndQuery) {
	const target = new URL(registryUrl);
	const upstream = http.request(
		{
			host: target.hostname,
			port: target.port,
			method: request.method,
			path: pathAndQuery,
			// Verdaccio writes tarball addresses from these: they stay on registry.npmjs.org.
			headers: { ...request.headers, host: REGISTRY_HOST, 'x-forwarded-proto': 'https' },
		},
		(answer) => {
			response.writeHead(answer.statusCode ?? 502, answer.headers);
			answer.pipe(response);
		},
	);
	upstream.on('error', (error) => {
		response.writeHead(502, { 'content-type': 'text/plain' });
		response.end(`local registry unreachable: ${error.message}`);
	});
	request.pipe(upstream);
}

/**
 * What a process (env) and npm (npmrc) need to go through the proxy and trust its certificate.
 * @param {string} url the proxy
 * @param {string} caFile
 * @param {string} npmCache npm's cache, in the run's folder: nothing of the local registry may
 *   land in the user's own cache
 * @returns {Pick<RegistryProxy, 'env' | 'npmrc'>}
 */
function clientSettings(url, caFile, npmCache) {
	// The sandbox, n8n's own editor and its task runner stay direct.
	const noProxy = '127.0.0.1,localhost,::1';
	return {
		npmrc: [
			`proxy=${url}`,
			`https-proxy=${url}`,
			`noproxy=${noProxy}`,
			`cafile=${caFile}`,
			`cache=${npmCache}`,
			'update-notifier=false',
			'',
		].join('\n'),
		env: {
			HTTPS_PROXY: url,
			HTTP_PROXY: url,
			https_proxy: url,
			http_proxy: url,
			NO_PROXY: noProxy,
			no_proxy: noProxy,
			NODE_EXTRA_CA_CERTS: caFile,
			// npm passes its own list of authorities to TLS, so NODE_EXTRA_CA_CERTS does not reach it.
			npm_config_cafile: caFile,
			npm_config_cache: npmCache,
			npm_config_update_notifier: 'false',
		},
	};
}

/**
 * @param {string} registryUrl the local registry (registry.js)
 * @returns {Promise<RegistryProxy>}
 */
async function startRegistryProxy(registryUrl) {
	const { cert, key } = await registryCertificate();
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'smp-registry-proxy-'));
	const caFile = path.join(folder, 'registry-ca.pem');
	fs.writeFileSync(caFile, cert, { mode: 0o600 });
	/** @type {RegistryProxy['served']} */
	const served = [];
	/** @type {string[]} */
	const refused = [];
	/** @type {Set<import('node:stream').Duplex>} */
	const tunnels = new Set();
	/** @type {http.RequestListener} */
	const answerLocally = (request, response) => {
		served.push({ method: request.method ?? 'GET', path: request.url ?? '/' });
		forward(registryUrl, request, response, request.url ?? '/');
	};
	// The decrypted side of tunnels to registry.npmjs.org.
	const inside = http.createServer(answerLocally);
	const proxy = http.createServer((request, response) => {
		// A client that does not tunnel sends the whole address (axios does, for https too).
		const url = new URL(request.url ?? '/', `http://${request.headers.host}`);
		if (url.hostname !== REGISTRY_HOST) {
			refused.push(url.href);
			response.writeHead(403).end();
			return;
		}
		answerLocally(Object.assign(request, { url: `${url.pathname}${url.search}` }), response);
	});
	proxy.on('connect', (request, socket) => {
		const destination = request.url ?? '';
		if (destination !== `${REGISTRY_HOST}:443`) {
			refused.push(destination);
			socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
			return;
		}
		tunnels.add(socket);
		socket.once('close', () => tunnels.delete(socket));
		socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
		inside.emit(
			'connection',
			new tls.TLSSocket(/** @type {import('node:net').Socket} */ (socket), {
				isServer: true,
				cert,
				key,
			}),
		);
	});
	await new Promise((resolve) => proxy.listen(0, '127.0.0.1', () => resolve(undefined)));
	const { port } = /** @type {import('node:net').AddressInfo} */ (proxy.address());
	const url = `http://127.0.0.1:${port}`;
	return {
		url,
		caFile,
		served,
		refused,
		...clientSettings(url, caFile, path.join(folder, 'npm-cache')),
		stop: async () => {
			for (const socket of tunnels) socket.destroy();
			proxy.closeAllConnections();
			await new Promise((resolve) => proxy.close(() => resolve(undefined)));
			fs.rmSync(folder, { recursive: true, force: true });
		},
	};
}

module.exports = { startRegistryProxy, REGISTRY_HOST };
