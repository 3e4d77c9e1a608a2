// @ts-check
'use strict';

/**
 * Installs the pinned Node 24 and n8n into a cache outside the clone, once.
 *
 * Each install is built in a `*.partial-<pid>` folder and renamed into place only after its
 * completion marker is written, so an interrupted install is never mistaken for a finished one and
 * two runs installing at the same time cannot see each other's half-built tree.
 */

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { compareVersions } = require('./lines');
const { isAlive, runOrThrow } = require('./processes');

/** n8n 2.38+ refuses to start on Node 20; Node 24 ships on npm as the package `node`. */
const NODE_VERSION = '24.21.0';
/** In the cache's folder names: bumped when the recipe below or a runtimes/ manifest changes. */
const RECIPE = 2;

/**
 * One folder per supported n8n version with the package.json and package-lock.json of its install
 * (`npm install --package-lock-only`): a fresh machine gets the ~2,400 packages that were tested.
 */
const RUNTIMES_DIR = path.join(__dirname, 'runtimes');

/** Chooses the n8n version of every real-n8n run (e2e, demo, screenshots); unset = the newest. */
const VERSION_VARIABLE = 'SMP_N8N_VERSION';

/** The n8n versions that have a committed manifest, oldest first. */
function supportedN8nVersions() {
	return fs
		.readdirSync(RUNTIMES_DIR)
		.filter((entry) => /^\d+\.\d+\.\d+$/.test(entry))
		.sort(compareVersions);
}

/** SMP_N8N_VERSION, else the newest: what users installing from the Community Nodes panel run. */
function selectedN8nVersion() {
	const versions = supportedN8nVersions();
	const wanted = process.env[VERSION_VARIABLE]?.trim();
	if (!wanted) return versions[versions.length - 1];
	if (versions.includes(wanted)) return wanted;
	throw new Error(
		`${VERSION_VARIABLE}=${wanted} is not a supported n8n version; use one of ${versions.join(', ')} (or leave it unset for ${versions[versions.length - 1]})`,
	);
}

const MARKER = '.install-complete.json';

/**
 * @typedef {{ log: (line: string) => void }} Logger
 * @typedef {{ command: string[], nodeBin: string, n8nHome: string, nodeVersion: string, n8nVersion: string }} Runtime
 *   command: the program and arguments that run n8n's CLI (`n8n start`, `n8n import:workflow`)
 */

function cacheRoot() {
	const explicit = process.env.SMP_N8N_CACHE_DIR;
	if (explicit) return path.resolve(explicit);
	const xdg = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
	return path.join(xdg, 'n8n-nodes-supplier-matched-projects');
}

/**
 * Runs a command with its output appended to a log file, and a temp folder of its own (native
 * builds leave folders there) removed when it ends.
 * @param {string} command @param {string[]} args
 * @param {{ cwd: string, env: NodeJS.ProcessEnv, logFile: string }} options
 */
async function run(command, args, { cwd, env, logFile }) {
	const tmpDir = fs.mkdtempSync(path.join(cwd, '.tmp-'));
	try {
		const options = { cwd, env: { ...env, TMPDIR: tmpDir }, logFile, timeoutMs: 60 * 60_000 };
		await runOrThrow(command, args, options);
	} finally {
		fs.rmSync(tmpDir, { recursive: true, force: true });
	}
}

/** @param {string} dir */
function isComplete(dir) {
	return fs.existsSync(path.join(dir, MARKER));
}

/**
 * Builds `finalDir` through `build(partialDir)` unless it is already complete.
 * @param {string} finalDir @param {(partialDir: string) => Promise<void>} build
 * @param {Logger} logger @returns {Promise<void>}
 */
async function buildOnce(finalDir, build, logger) {
	fs.mkdirSync(path.dirname(finalDir), { recursive: true });
	// One install at a time: a second run (the demo while the e2e suite installs) waits for it.
	let announced = false;
	for (;;) {
		if (isComplete(finalDir)) return;
		const owner = partialsOf(finalDir).find((partial) => partial.active);
		if (owner === undefined) break;
		if (!announced) {
			logger.log(
				`another process (${owner.pid}) is installing ${path.basename(finalDir)}; waiting for it`,
			);
			announced = true;
		}
		await new Promise((resolve) => setTimeout(resolve, 5000));
	}
	// A folder without the marker is a leftover of an interrupted install: redo it.
	if (fs.existsSync(finalDir)) fs.rmSync(finalDir, { recursive: true, force: true });
	// Partial folders nobody is working on any more are interrupted installs.
	for (const partial of partialsOf(finalDir)) {
		if (!partial.active) fs.rmSync(partial.dir, { recursive: true, force: true });
	}
	const partialDir = `${finalDir}.partial-${process.pid}`;
	fs.rmSync(partialDir, { recursive: true, force: true });
	fs.mkdirSync(partialDir, { recursive: true });
	try {
		await build(partialDir);
		fs.writeFileSync(
			path.join(partialDir, MARKER),
			JSON.stringify({ finishedAt: new Date().toISOString(), recipe: RECIPE }, null, '\t'),
		);
		try {
			fs.renameSync(partialDir, finalDir);
		} catch (error) {
			// Another run finished the same install first; theirs is as good as ours.
			if (!isComplete(finalDir)) throw error;
			fs.rmSync(partialDir, { recursive: true, force: true });
		}
	} catch (error) {
		logger.log(
			`install failed; leaving ${partialDir} for inspection (it is removed on the next run)`,
		);
		throw error;
	}
}

/** A partial install whose folder has not changed for this long is abandoned, whatever its pid. */
const STALE_AFTER_MS = 15 * 60 * 1000;

/**
 * The partial installs of `finalDir`; active: another live process is still working on it.
 * @param {string} finalDir @returns {{ dir: string, pid: number, active: boolean }[]}
 */
function partialsOf(finalDir) {
	const parent = path.dirname(finalDir);
	const prefix = `${path.basename(finalDir)}.partial-`;
	return fs
		.readdirSync(parent)
		.filter((entry) => entry.startsWith(prefix))
		.map((entry) => {
			const dir = path.join(parent, entry);
			const pid = Number(entry.slice(prefix.length));
			const log = path.join(dir, 'install.log');
			const changedAt = fs.statSync(fs.existsSync(log) ? log : dir).mtimeMs;
			const active =
				Number.isInteger(pid) &&
				pid !== process.pid &&
				isAlive(pid) &&
				Date.now() - changedAt < STALE_AFTER_MS;
			return { dir, pid, active };
		});
}

/** @param {string} nodeHome */
function nodeBinOf(nodeHome) {
	return path.join(nodeHome, 'node_modules', 'node', 'bin', 'node');
}

/** The Node distribution (bin/, include/ with node-gyp's headers). @param {string} nodeHome */
function nodeDistOf(nodeHome) {
	const platform = `node-${process.platform}-${process.arch}`;
	return path.join(nodeHome, 'node_modules', 'node', 'node_modules', platform);
}

/**
 * Environment for npm/node-gyp that runs under Node 24 and builds native addons against its
 * headers (the user's npmrc may point `nodedir` at the system Node's headers).
 * @param {string} nodeHome
 * @returns {NodeJS.ProcessEnv}
 */
function node24Env(nodeHome) {
	return {
		...process.env,
		PATH: `${path.dirname(nodeBinOf(nodeHome))}${path.delimiter}${process.env.PATH ?? ''}`,
		npm_config_nodedir: nodeDistOf(nodeHome),
		npm_config_update_notifier: 'false',
		npm_config_fund: 'false',
		npm_config_audit: 'false',
	};
}

/**
 * @param {Logger} logger
 * @returns {Promise<string>} the Node 24 home folder
 */
async function ensureNode(logger) {
	const home = path.join(cacheRoot(), `node-${NODE_VERSION}-r${RECIPE}`);
	await buildOnce(
		home,
		async (dir) => {
			logger.log(`installing Node ${NODE_VERSION} from the npm package "node" into ${home}`);
			fs.writeFileSync(
				path.join(dir, 'package.json'),
				JSON.stringify({ private: true, name: 'smp-node-runtime' }, null, '\t'),
			);
			// The package's preinstall script is what fetches the platform binary package.
			const install = ['install', '--no-audit', '--no-fund', '--ignore-scripts=false'];
			await run('npm', [...install, '--save-exact', `node@${NODE_VERSION}`], {
				cwd: dir,
				env: { ...process.env, npm_config_update_notifier: 'false' },
				logFile: path.join(dir, 'install.log'),
			});
			const version = await runOrThrow(nodeBinOf(dir), ['--version'], { timeoutMs: 60000 });
			if (version.trim() !== `v${NODE_VERSION}`) {
				throw new Error(`installed Node reports ${version.trim()}, expected v${NODE_VERSION}`);
			}
			if (!fs.existsSync(path.join(nodeDistOf(dir), 'include', 'node', 'node_api.h'))) {
				throw new Error(
					`Node headers missing under ${nodeDistOf(dir)}; native addons cannot be built`,
				);
			}
		},
		logger,
	);
	return home;
}

/**
 * Puts a sqlite3 addon built for Node 24 into an n8n install. Every supported n8n pins the same
 * sqlite3, so the first install builds it (about three minutes of both cores) into the cache and
 * the others copy the one file it makes.
 * @param {Logger} logger
 * @param {string} dir the n8n install being built
 * @param {{ env: NodeJS.ProcessEnv, logFile: string }} options
 */
async function addSqlite3(logger, dir, { env, logFile }) {
	const sqlite3Dir = path.join(dir, 'node_modules', 'sqlite3');
	const { version } = JSON.parse(fs.readFileSync(path.join(sqlite3Dir, 'package.json'), 'utf8'));
	const addon = path.join('build', 'Release', 'node_sqlite3.node');
	const built = path.join(cacheRoot(), `sqlite3-${version}-node-${NODE_VERSION}-r${RECIPE}`);
	await buildOnce(
		built,
		async (partialDir) => {
			logger.log(
				`building sqlite3 ${version} for Node ${NODE_VERSION} from source (about three minutes, once)`,
			);
			const rebuild = ['rebuild', 'sqlite3', '--ignore-scripts=false'];
			await run('npm', rebuild, { cwd: dir, env, logFile });
			fs.mkdirSync(path.join(partialDir, path.dirname(addon)), { recursive: true });
			fs.copyFileSync(path.join(sqlite3Dir, addon), path.join(partialDir, addon));
		},
		logger,
	);
	if (!fs.existsSync(path.join(sqlite3Dir, addon))) {
		fs.mkdirSync(path.join(sqlite3Dir, path.dirname(addon)), { recursive: true });
		fs.copyFileSync(path.join(built, addon), path.join(sqlite3Dir, addon));
	}
}

/**
 * Installs (once) and describes the n8n of the given version, by default the one SMP_N8N_VERSION
 * selects: from the npm registry as its committed lockfile pins it, under Node 24.
 * @param {Logger} logger @param {{ n8nVersion?: string }} [options] @returns {Promise<Runtime>}
 */
async function ensureRuntime(logger, options = {}) {
	const n8nVersion = options.n8nVersion ?? selectedN8nVersion();
	const manifestDir = path.join(RUNTIMES_DIR, n8nVersion);
	if (!fs.existsSync(path.join(manifestDir, 'package-lock.json'))) {
		throw new Error(
			`no committed manifest for n8n ${n8nVersion} (supported: ${supportedN8nVersions().join(', ')})`,
		);
	}
	const nodeHome = await ensureNode(logger);
	const nodeBin = nodeBinOf(nodeHome);
	const n8nHome = path.join(cacheRoot(), `n8n-${n8nVersion}-node-${NODE_VERSION}-r${RECIPE}`);
	await buildOnce(
		n8nHome,
		async (dir) => {
			const logFile = path.join(dir, 'install.log');
			logger.log(
				`installing n8n ${n8nVersion} into ${n8nHome} (about five minutes; log: ${logFile})`,
			);
			// A manifest may carry overrides (2.40.7: linkedom 0.18.15+ depended on a package version
			// the registry lacked when its lock was made).
			for (const file of ['package.json', 'package-lock.json']) {
				fs.copyFileSync(path.join(manifestDir, file), path.join(dir, file));
			}
			const env = node24Env(nodeHome);
			// Install scripts are off: a Kafka addon's script downloads a binary n8n does not need;
			// sqlite3 is the one addon n8n needs built.
			const install = ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--omit=dev'];
			await run('npm', install, { cwd: dir, env, logFile });
			await addSqlite3(logger, dir, { env, logFile });
			const script =
				"require('sqlite3'); process.stdout.write(require('n8n/package.json').version)";
			const installed = await runOrThrow(nodeBin, ['-e', script], { cwd: dir, timeoutMs: 60000 });
			if (installed !== n8nVersion) {
				throw new Error(`the install holds n8n ${installed}, expected ${n8nVersion}`);
			}
		},
		logger,
	);
	const n8nBin = path.join(n8nHome, 'node_modules', 'n8n', 'bin', 'n8n');
	return { command: [nodeBin, n8nBin], nodeBin, n8nHome, nodeVersion: NODE_VERSION, n8nVersion };
}

module.exports = { ensureRuntime, buildOnce, cacheRoot, supportedN8nVersions, selectedN8nVersion };

if (require.main === module) {
	const logger = { log: (/** @type {string} */ line) => console.log(`[n8n-runtime] ${line}`) };
	ensureRuntime(logger).then(
		(runtime) => console.log(JSON.stringify(runtime, null, '\t')),
		(error) => {
			console.error(`[n8n-runtime] ${error instanceof Error ? error.message : String(error)}`);
			process.exitCode = 1;
		},
	);
}
