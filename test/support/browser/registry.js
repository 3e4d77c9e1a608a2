// @ts-check
'use strict';

/**
 * A throw-away npm registry (Verdaccio, a devDependency) on a free loopback port, with no uplink:
 * it serves only what the suite publishes into it and never asks the public registry. Its
 * storage, configuration and accounts live in a folder removed when it stops (also when the run
 * is killed). Verdaccio 6.10 needs Node 22+, so it runs on the Node 24 that runs n8n.
 */

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { spawnGroup, stopGroup, runGroup } = require('../../../scripts/n8n/processes');
const { freePort } = require('../../../scripts/n8n/runtime');
const { waitUntilServing } = require('../e2e/stack');

const PUBLISHER = { name: 'smp-publisher', password: 'local-registry-only-7' };

/**
 * @typedef {object} Registry
 * @property {string} url e.g. http://127.0.0.1:41234
 * @property {(tarball: string) => Promise<void>} publish `npm publish` of a packed tarball
 * @property {(name: string) => Promise<string[]>} versions what the registry holds of a package
 * @property {() => Promise<void>} stop
 */

/**
 * Verdaccio's configuration (YAML, of which JSON is a subset): anyone may read, the one account
 * publishes, no uplink, no audit proxy, no web UI.
 * @param {string} folder
 */
function configuration(folder) {
	return {
		storage: path.join(folder, 'storage'),
		auth: { htpasswd: { file: path.join(folder, 'htpasswd'), max_users: 1 } },
		uplinks: {},
		packages: { '**': { access: '$all', publish: '$authenticated', unpublish: '$authenticated' } },
		middlewares: { audit: { enabled: false } },
		web: { enable: false },
		log: { type: 'file', path: path.join(folder, 'verdaccio.log'), level: 'warn' },
	};
}

/**
 * @param {string} url
 * @param {string} route
 * @param {RequestInit} [init]
 */
async function registryJson(url, route, init) {
	const response = await fetch(`${url}${route}`, {
		...init,
		headers: { 'content-type': 'application/json', ...init?.headers },
		signal: AbortSignal.timeout(30_000),
	});
	const body = /** @type {Record<string, any>} */ (await response.json().catch(() => ({})));
	return { status: response.status, body };
}

/**
 * Starts Verdaccio and creates the publishing account.
 * @param {{ nodeBin: string }} runtime the Node that runs it (22 or later)
 * @returns {Promise<Registry>}
 */
async function startRegistry(runtime) {
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'smp-registry-'));
	const configFile = path.join(folder, 'config.yaml');
	fs.writeFileSync(configFile, JSON.stringify(configuration(folder), null, 2));
	const port = await freePort();
	const url = `http://127.0.0.1:${port}`;
	const server = spawnGroup(
		runtime.nodeBin,
		[
			path.join(path.dirname(require.resolve('verdaccio/package.json')), 'bin', 'verdaccio'),
			'--config',
			configFile,
			'--listen',
			`127.0.0.1:${port}`,
		],
		{ cwd: folder, stdio: ['ignore', 'ignore', fs.openSync(path.join(folder, 'stderr.log'), 'a')] },
		{ removeIfOrphaned: [folder] },
	);
	const stop = async () => {
		await stopGroup(server, 10_000);
		fs.rmSync(folder, { recursive: true, force: true });
	};
	try {
		await waitUntilServing({
			ready: async () =>
				(await registryJson(url, '/-/ping').catch(() => ({ status: 0 }))).status === 200,
			server,
			failure: 'Verdaccio did not start',
			logFile: path.join(folder, 'stderr.log'),
			timeoutMs: 60_000,
			intervalMs: 300,
		});
		const token = await addPublisher(url);
		return {
			url,
			publish: (tarball) => publish(url, token, tarball, folder),
			versions: async (name) => {
				const { status, body } = await registryJson(url, `/${encodeURIComponent(name)}`);
				return status === 200 ? Object.keys(body.versions ?? {}) : [];
			},
			stop,
		};
	} catch (error) {
		await stop();
		throw error;
	}
}

/**
 * Creates the publishing account (what `npm adduser` sends) and returns its token.
 * @param {string} url
 */
async function addPublisher(url) {
	const { status, body } = await registryJson(url, `/-/user/org.couchdb.user:${PUBLISHER.name}`, {
		method: 'PUT',
		body: JSON.stringify({ ...PUBLISHER, type: 'user', roles: [] }),
	});
	if (status !== 201 || typeof body.token !== 'string') {
		throw new Error(
			`Verdaccio refused the publishing account (HTTP ${status}): ${JSON.stringify(body)}`,
		);
	}
	return body.token;
}

/**
 * `npm publish <tarball>` to the registry, with the token on the command line and an empty user
 * configuration, so nothing is read from or written to the user's ~/.npmrc.
 * @param {string} url
 * @param {string} token
 * @param {string} tarball
 * @param {string} folder the registry's folder (for the empty user configuration)
 */
async function publish(url, token, tarball, folder) {
	const userConfig = path.join(folder, 'publisher.npmrc');
	fs.writeFileSync(userConfig, '');
	const host = new URL(url).host;
	const result = await runGroup(
		'npm',
		[
			'publish',
			tarball,
			`--registry=${url}`,
			`--//${host}/:_authToken=${token}`,
			`--userconfig=${userConfig}`,
			'--provenance=false',
		],
		{
			cwd: folder,
			env: { ...process.env, npm_config_update_notifier: 'false' },
			timeoutMs: 120_000,
		},
	);
	if (result.code !== 0) {
		throw new Error(
			`npm publish ${path.basename(tarball)} failed:\n${result.stdout}\n${result.stderr}`,
		);
	}
}

/**
 * A copy of a packed tarball with another version in its package.json, in `folder`: what the next
 * release of the package would be, without building it again.
 * @param {string} tarball
 * @param {string} version
 * @param {string} folder
 * @returns {Promise<string>} the new tarball's path
 */
async function withVersion(tarball, version, folder) {
	const work = fs.mkdtempSync(path.join(folder, 'repack-'));
	/** @param {string[]} args */
	const tar = async (args) => {
		const result = await runGroup('tar', args, { cwd: work, timeoutMs: 60_000 });
		if (result.code !== 0) throw new Error(`tar ${args.join(' ')} failed: ${result.stderr}`);
	};
	await tar(['-xzf', tarball]);
	const manifestFile = path.join(work, 'package', 'package.json');
	const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
	fs.writeFileSync(manifestFile, `${JSON.stringify({ ...manifest, version }, null, '\t')}\n`);
	const repacked = path.join(folder, `${manifest.name}-${version}.tgz`);
	await tar(['-czf', repacked, 'package']);
	fs.rmSync(work, { recursive: true, force: true });
	return repacked;
}

module.exports = { startRegistry, withVersion };
