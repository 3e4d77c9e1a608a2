// @ts-check
'use strict';

/**
 * A throw-away npm registry (Verdaccio) on a free loopback port, with no uplink: it serves only
 * what the suite publishes into it and never asks the public registry. Its storage, configuration
 * and accounts live in a folder removed when it stops (also when the run is killed). Verdaccio is
 * installed once into the n8n cache from the manifest in verdaccio/ (why not a devDependency: its
 * package.json) and, needing Node 22+, runs on the Node 24 that runs n8n.
 */

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { buildOnce, cacheRoot } = require('../../../scripts/n8n/install');
const { spawnGroup, stopGroup, runGroup } = require('../../../scripts/n8n/processes');
const { freePort } = require('../../../scripts/n8n/runtime');
const { waitUntilServing } = require('../e2e/stack');

const PUBLISHER = { name: 'smp-publisher', password: 'local-registry-only-7' };
const MANIFEST_DIR = path.join(__dirname, 'verdaccio');
/** Part of the cache folder's name: changed with the manifest, so an older install is not used. */
const MANIFEST_VERSION = 'verdaccio-6.10.4-r1';

/**
 * Installs Verdaccio (once, `npm ci` of the committed manifest) into the n8n cache.
 * @param {{ log: (line: string) => void }} logger
 * @returns {Promise<string>} Verdaccio's command-line script
 */
async function ensureVerdaccio(logger) {
	const home = path.join(cacheRoot(), MANIFEST_VERSION);
	await buildOnce(
		home,
		async (dir) => {
			logger.log(`installing ${MANIFEST_VERSION} into ${home} (once)`);
			for (const file of ['package.json', 'package-lock.json']) {
				fs.copyFileSync(path.join(MANIFEST_DIR, file), path.join(dir, file));
			}
			const result = await runGroup(
				'npm',
				['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'],
				{
					cwd: dir,
					env: { ...process.env, npm_config_update_notifier: 'false' },
					timeoutMs: 10 * 60_000,
				},
			);
			if (result.code !== 0) throw new Error(`npm ci of Verdaccio failed:\n${result.stderr}`);
		},
		logger,
	);
	return path.join(home, 'node_modules', 'verdaccio', 'bin', 'verdaccio');
}

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
 * @param {{ log: (line: string) => void }} logger
 * @param {{ nodeBin: string }} runtime the Node that runs it (22 or later)
 * @returns {Promise<Registry>}
 */
async function startRegistry(logger, runtime) {
	const verdaccio = await ensureVerdaccio(logger);
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'smp-registry-'));
	const configFile = path.join(folder, 'config.yaml');
	fs.writeFileSync(configFile, JSON.stringify(configuration(folder), null, 2));
	const port = await freePort();
	const url = `http://127.0.0.1:${port}`;
	const server = spawnGroup(
		runtime.nodeBin,
		[verdaccio, '--config', configFile, '--listen', `127.0.0.1:${port}`],
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
