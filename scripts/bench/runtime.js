// @ts-check
'use strict';

/**
 * Runs our nodes and n8n-nodes-base in this process on ONE copy of n8n-core and n8n-workflow, the
 * cached real n8n install's: two copies would break n8n's instanceof checks (errors, credentials
 * helper) and give each side its own dependency-injection container.
 */

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { ensureRuntime } = require('../n8n/runtime');
const { supportedN8nVersions } = require('../n8n/install');

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const SHARED_PACKAGES = ['n8n-core', 'n8n-workflow'];
/** The one module of test/ that scripts/ uses. */
const ENGINE_HARNESS = 'test/support/harness/engine';
const BUILD_VARIABLE = 'SMP_BENCH_BUILD';

/** @param {string} file */
const readJson = (file) => JSON.parse(fs.readFileSync(path.join(REPO_ROOT, file), 'utf8'));

/**
 * The real n8n install's node_modules, of the supported n8n whose n8n-core is our devDependency
 * (whatever SMP_N8N_VERSION says), so the bench measures what the unit tests run. Installs it
 * when missing (about five minutes, once).
 * @param {(line: string) => void} log
 */
async function n8nModulesFolder(log) {
	const wanted = readJson('package.json').devDependencies['n8n-core'];
	const n8nVersion = supportedN8nVersions().find((version) => {
		const lock = readJson(`scripts/n8n/runtimes/${version}/package-lock.json`);
		return lock.packages['node_modules/n8n-core']?.version === wanted;
	});
	if (n8nVersion === undefined) throw new Error(`no supported n8n runs n8n-core ${wanted}`);
	const runtime = await ensureRuntime({ log }, { n8nVersion });
	return path.join(runtime.n8nHome, 'node_modules');
}

/**
 * A throw-away folder for this process and its workers (they inherit `variable`), removed when
 * the process that made it exits.
 * @param {string} variable
 * @param {string} prefix
 * @returns {string | undefined} the new folder; undefined when inherited
 */
function ownFolder(variable, prefix) {
	if (process.env[variable]) return undefined;
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
	process.env[variable] = folder;
	process.once('exit', () => fs.rmSync(folder, { recursive: true, force: true }));
	return folder;
}

/**
 * Compiles our package with its build's settings, and the engine harness, into a folder whose
 * node_modules is the real n8n install's: a plain require then finds the install's n8n-core from
 * our code as from n8n-nodes-base, with nothing in Node's loader changed. Types are `npm run
 * typecheck`'s job.
 * @param {string} n8nModules
 */
function buildIntoN8n(n8nModules) {
	const folder = ownFolder(BUILD_VARIABLE, 'smp-bench-build-');
	if (folder === undefined) return;
	const ts = require('typescript');
	fs.symlinkSync(n8nModules, path.join(folder, 'node_modules'), 'dir');
	const { config } = ts.readConfigFile(path.join(REPO_ROOT, 'tsconfig.json'), ts.sys.readFile);
	const build = ts.parseJsonConfigFileContent(config, ts.sys, REPO_ROOT);
	const compilerOptions = { ...build.options, declaration: false, sourceMap: false };
	// The nodes' codex files are JSON they import: copied as they are.
	for (const source of [...build.fileNames, path.join(REPO_ROOT, `${ENGINE_HARNESS}.ts`)]) {
		const text = fs.readFileSync(source, 'utf8');
		const { outputText } = source.endsWith('.ts')
			? ts.transpileModule(text, { fileName: source, compilerOptions })
			: { outputText: text };
		const target = path.join(folder, path.relative(REPO_ROOT, source).replace(/\.ts$/, '.js'));
		fs.mkdirSync(path.dirname(target), { recursive: true });
		fs.writeFileSync(target, outputText);
	}
}

/**
 * One of our modules as the bench's build has it (after installRuntime).
 * @param {string} file relative to the repository, without extension
 * @returns {any}
 */
function fromBuild(file) {
	return require(path.join(/** @type {string} */ (process.env[BUILD_VARIABLE]), file));
}

/** @typedef {import('n8n-workflow').IVersionedNodeType} IVersionedNodeType */
/** @typedef {import('n8n-workflow').ICredentialType} ICredentialType */
/** @typedef {{ httpRequestNode: IVersionedNodeType, oauth2Credential: ICredentialType }} N8nBase */

/** @type {Promise<{ versions: Record<string, string>, n8nBase: () => N8nBase }> | undefined} */
let installed;

/**
 * Prepares this process once: finds (or installs) the real n8n and builds our package beside it.
 * n8n-core writes its encryption key into N8N_USER_FOLDER as it loads: a throw-away one.
 * @param {(line: string) => void} [log]
 */
function installRuntime(log = () => undefined) {
	installed ??= (async () => {
		ownFolder('N8N_USER_FOLDER', 'smp-bench-n8n-');
		const n8nModules = await n8nModulesFolder(log);
		buildIntoN8n(n8nModules);
		/** @param {string} file */
		const fromN8n = (file) => require(require.resolve(file, { paths: [n8nModules] }));
		const versions = Object.fromEntries(
			[...SHARED_PACKAGES, 'n8n-nodes-base'].map((name) => {
				const manifest = fs.readFileSync(path.join(n8nModules, name, 'package.json'), 'utf8');
				return [name, JSON.parse(manifest).version];
			}),
		);
		const base = 'n8n-nodes-base/dist';
		const n8nBase = () => ({
			httpRequestNode: new (fromN8n(`${base}/nodes/HttpRequest/HttpRequest.node.js`).HttpRequest)(),
			oauth2Credential: new (fromN8n(`${base}/credentials/OAuth2Api.credentials.js`).OAuth2Api)(),
		});
		return { versions, n8nBase };
	})();
	return installed;
}

/** Fails when n8n-core or n8n-workflow was also loaded from this repository's node_modules. */
function assertSingleN8nTree() {
	const local = path.join(REPO_ROOT, 'node_modules');
	const strays = Object.keys(require.cache).filter((file) =>
		SHARED_PACKAGES.some((name) => file.startsWith(path.join(local, name) + path.sep)),
	);
	if (strays.length > 0) {
		throw new Error(`a second n8n-core/n8n-workflow was loaded: ${strays[0]}; use fromBuild()`);
	}
}

module.exports = { installRuntime, assertSingleN8nTree, fromBuild, ENGINE_HARNESS, REPO_ROOT };
