// @ts-check
'use strict';

/**
 * The npm registry the Community Nodes test installs from, and the one way an unlicensed n8n can be
 * pointed at it. N8N_COMMUNITY_PACKAGES_REGISTRY takes only https://registry.npmjs.org without the
 * enterprise feature `feat:communityNodes:customRegistry` (getNpmRegistry), and n8n's
 * `--registry=https://registry.npmjs.org` outranks npm_config_registry. What both lines honour is
 * an outbound proxy (HTTPS_PROXY) trusted through NODE_EXTRA_CA_CERTS, as on a company network
 * that inspects TLS. This proxy answers for registry.npmjs.org, with a certificate made for the
 * run, from a throw-away Verdaccio with no uplink, and refuses every other host, so nothing leaves
 * the machine. Verdaccio is installed once into the n8n cache from verdaccio/ (why not a
 * devDependency: its package.json) and runs on n8n's Node 24 (it needs 22+).
 */

const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const tls = require('node:tls');
const { execFileSync } = require('node:child_process');
const selfsigned = require('selfsigned');

const { buildOnce, cacheRoot, ensureRuntime } = require('../../../scripts/n8n/install');
const { runOrThrow } = require('../../../scripts/n8n/processes');
const { freePort } = require('../../../scripts/n8n/runtime');
const { serve } = require('../e2e/stores');

/** @typedef {{ log: (line: string) => void }} Logger */

const REGISTRY_HOST = 'registry.npmjs.org';
const PUBLISHER = { name: 'smp-publisher', password: 'local-registry-only-7' };
/** Part of the cache folder's name: changed with the manifest, so an older install is not used. */
const VERDACCIO = 'verdaccio-6.10.4-r1';

/** A certificate for registry.npmjs.org, made for the run and trusted as its own issuer. */
async function registryCertificate() {
	const generated = await selfsigned.generate([{ name: 'commonName', value: REGISTRY_HOST }], {
		keyType: 'ec',
		curve: 'P-256',
		algorithm: 'sha256',
		extensions: [
			{ name: 'basicConstraints', cA: true, critical: true },
			{ name: 'keyUsage', digitalSignature: true, keyCertSign: true },
			{ name: 'extKeyUsage', serverAuth: true },
			{ name: 'subjectAltName', altNames: [{ type: 2, value: REGISTRY_HOST }] },
		],
	});
	return { cert: generated.cert, key: generated.private };
}

/**
 * What a process (env) and npm (npmrc, or its environment) need to go through the proxy and trust
 * its certificate; npm's cache is the run's, so nothing of this registry lands in the user's.
 * @param {string} url the proxy
 * @param {string} folder the run's
 * @param {string} caFile
 */
function clientSettings(url, folder, caFile) {
	// The sandbox, n8n's own editor and its task runner stay direct.
	const noProxy = '127.0.0.1,localhost,::1';
	// npm passes its own list of authorities to TLS, so NODE_EXTRA_CA_CERTS does not reach it.
	const npm = {
		proxy: url,
		'https-proxy': url,
		noproxy: noProxy,
		cafile: caFile,
		cache: path.join(folder, 'npm-cache'),
		'update-notifier': 'false',
	};
	const entries = Object.entries(npm);
	return {
		npmrc: entries.map(([key, value]) => `${key}=${value}\n`).join(''),
		env: {
			...Object.fromEntries(
				entries.map(([key, value]) => [`npm_config_${key.replace(/-/g, '_')}`, value]),
			),
			HTTPS_PROXY: url,
			HTTP_PROXY: url,
			https_proxy: url,
			http_proxy: url,
			NO_PROXY: noProxy,
			no_proxy: noProxy,
			NODE_EXTRA_CA_CERTS: caFile,
		},
	};
}

/** Verdaccio's command-line script, installed once (`npm ci`). @param {Logger} logger */
async function ensureVerdaccio(logger) {
	const home = path.join(cacheRoot(), VERDACCIO);
	const build = async (/** @type {string} */ dir) => {
		logger.log(`installing ${VERDACCIO} into ${home} (once)`);
		for (const file of ['package.json', 'package-lock.json']) {
			fs.copyFileSync(path.join(__dirname, 'verdaccio', file), path.join(dir, file));
		}
		const ci = ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'];
		const env = { ...process.env, npm_config_update_notifier: 'false' };
		await runOrThrow('npm', ci, { cwd: dir, env, timeoutMs: 10 * 60_000 });
	};
	await buildOnce(home, build, logger);
	return path.join(home, 'node_modules', 'verdaccio', 'bin', 'verdaccio');
}

/**
 * Verdaccio on a free loopback port, its storage and account in `folder`, with its publishing
 * token: anyone may read, the one account publishes, no uplink, no audit, no web UI.
 * @param {Logger} logger @param {string} folder
 */
async function startVerdaccio(logger, folder) {
	const [script, { nodeBin }] = await Promise.all([ensureVerdaccio(logger), ensureRuntime(logger)]);
	const config = {
		storage: path.join(folder, 'storage'),
		auth: { htpasswd: { file: path.join(folder, 'htpasswd'), max_users: 1 } },
		uplinks: {},
		packages: { '**': { access: '$all', publish: '$authenticated', unpublish: '$authenticated' } },
		middlewares: { audit: { enabled: false } },
		web: { enable: false },
		log: { type: 'file', path: path.join(folder, 'verdaccio.log'), level: 'warn' },
	};
	// YAML, of which JSON is a subset.
	fs.writeFileSync(path.join(folder, 'config.yaml'), JSON.stringify(config));
	const url = `http://127.0.0.1:${await freePort()}`;
	const logFile = path.join(folder, 'stderr.log');
	const out = fs.openSync(logFile, 'a');
	const stop = await serve({
		name: 'Verdaccio',
		folder,
		logFile,
		command: nodeBin,
		args: [script, '--config', path.join(folder, 'config.yaml'), '--listen', new URL(url).host],
		options: { cwd: folder, stdio: ['ignore', 'ignore', out] },
		ready: async () => (await fetch(`${url}/-/ping`).catch(() => undefined))?.ok === true,
	});
	fs.closeSync(out);
	try {
		// What `npm adduser` sends.
		const account = await fetch(`${url}/-/user/org.couchdb.user:${PUBLISHER.name}`, {
			method: 'PUT',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ ...PUBLISHER, type: 'user', roles: [] }),
		});
		const { token } = /** @type {{ token?: string }} */ (await account.json());
		if (!token) throw new Error(`Verdaccio refused the publishing account (${account.status})`);
		return { url, token, stop };
	} catch (error) {
		await stop();
		throw error;
	}
}

/**
 * `npm publish` of a packed tarball, with `version` in its package.json when given (the next
 * release, without building it again). The token is on the command line and the user
 * configuration and cache are throw-away, so nothing is read from or written to the user's own.
 * @param {{ url: string, token: string }} verdaccio
 * @param {string} folder the run's
 * @param {string} tarball @param {string} [version]
 */
async function publish(verdaccio, folder, tarball, version) {
	const work = fs.mkdtempSync(path.join(folder, 'publish-'));
	if (version) {
		execFileSync('tar', ['-xzf', tarball, '-C', work]);
		const manifestFile = path.join(work, 'package', 'package.json');
		const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
		fs.writeFileSync(manifestFile, JSON.stringify({ ...manifest, version }, null, '\t'));
		tarball = path.join(work, 'repacked.tgz');
		execFileSync('tar', ['-czf', tarball, '-C', work, 'package']);
	}
	const userConfig = path.join(work, 'publisher.npmrc');
	fs.writeFileSync(userConfig, '');
	const args = [
		`--registry=${verdaccio.url}`,
		`--//${new URL(verdaccio.url).host}/:_authToken=${verdaccio.token}`,
		`--userconfig=${userConfig}`,
		// Not n8n's npm cache: there the tarball would be found without asking the registry.
		`--cache=${path.join(work, 'npm-cache')}`,
		'--provenance=false',
		'--update-notifier=false',
	];
	await runOrThrow('npm', ['publish', tarball, ...args], { cwd: work, timeoutMs: 120_000 });
	fs.rmSync(work, { recursive: true, force: true });
}

/**
 * Forwards a request for registry.npmjs.org to Verdaccio, which writes tarball addresses from the
 * host and protocol headers: they stay on registry.npmjs.org, so npm fetches them through here.
 * @param {string} target Verdaccio
 * @param {http.IncomingMessage} request @param {http.ServerResponse} response
 */
function forward(target, request, response) {
	const upstream = http.request(`${target}${request.url ?? '/'}`, {
		method: request.method,
		headers: { ...request.headers, host: REGISTRY_HOST, 'x-forwarded-proto': 'https' },
	});
	upstream.on('response', (answer) => {
		response.writeHead(answer.statusCode ?? 502, answer.headers);
		answer.pipe(response);
	});
	upstream.on('error', (error) => response.writeHead(502).end(error.message));
	request.pipe(upstream);
}

/**
 * The proxy and Verdaccio behind it, with `served`, the paths asked of registry.npmjs.org, and
 * `refused`, every other destination asked for (host:port or URL).
 * @param {Logger} logger
 */
async function startRegistry(logger) {
	const { cert, key } = await registryCertificate();
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'smp-registry-'));
	const caFile = path.join(folder, 'registry-ca.pem');
	fs.writeFileSync(caFile, cert, { mode: 0o600 });
	const verdaccio = await startVerdaccio(logger, folder).catch((error) => {
		fs.rmSync(folder, { recursive: true, force: true });
		throw error;
	});
	/** @type {string[]} */
	const served = [];
	/** @type {string[]} */
	const refused = [];
	/** @type {Set<import('node:stream').Duplex>} */
	const tunnels = new Set();
	/** @type {http.RequestListener} */
	const answerLocally = (request, response) => {
		served.push(request.url ?? '/');
		forward(verdaccio.url, request, response);
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
		const tlsSocket = /** @type {import('node:net').Socket} */ (socket);
		inside.emit('connection', new tls.TLSSocket(tlsSocket, { isServer: true, cert, key }));
	});
	await new Promise((resolve) => proxy.listen(0, '127.0.0.1', () => resolve(undefined)));
	const { port } = /** @type {import('node:net').AddressInfo} */ (proxy.address());
	return {
		served,
		refused,
		...clientSettings(`http://127.0.0.1:${port}`, folder, caFile),
		/** @param {string} tarball @param {string} [version] */
		publish: (tarball, version) => publish(verdaccio, folder, tarball, version),
		/** @param {string} name @returns {Promise<string[]>} the versions Verdaccio holds */
		versions: async (name) => {
			const response = await fetch(`${verdaccio.url}/${encodeURIComponent(name)}`);
			const packument = /** @type {{ versions?: object }} */ (await response.json());
			return response.ok ? Object.keys(packument.versions ?? {}) : [];
		},
		stop: async () => {
			for (const socket of tunnels) socket.destroy();
			proxy.closeAllConnections();
			await new Promise((resolve) => proxy.close(() => resolve(undefined)));
			// Its folder, the run's, goes with it.
			await verdaccio.stop();
		},
	};
}

module.exports = { startRegistry };
