// @ts-check
'use strict';

/**
 * Makes this process able to run our nodes and n8n-nodes-base side by side on ONE copy of n8n-core
 * and n8n-workflow: the one inside the cached real n8n install (the same versions as our
 * devDependencies). Two copies would break n8n's instanceof checks (errors, credentials helper)
 * and give each side its own dependency-injection container.
 */

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { ensureRuntime } = require('../n8n/runtime');
const { supportedN8nVersions } = require('../n8n/install');

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const LOCAL_MODULES = path.join(REPO_ROOT, 'node_modules');
const RUNTIMES_DIR = path.join(REPO_ROOT, 'scripts', 'n8n', 'runtimes');
/** Packages that must exist once per process. */
const SHARED_PACKAGES = ['n8n-core', 'n8n-workflow'];
/** The one module of test/ the bench uses (scripts/ requires nothing else of test/). */
const ENGINE_HARNESS = 'test/support/harness/engine.ts';
const BUILD_VARIABLE = 'SMP_BENCH_BUILD';

/** @typedef {import('n8n-workflow').IVersionedNodeType} IVersionedNodeType */
/** @typedef {import('n8n-workflow').ICredentialType} ICredentialType */
/**
 * The recipe's parts, from n8n-nodes-base: the HTTP Request node and the generic OAuth2 credential.
 * @typedef {{ httpRequestNode: IVersionedNodeType, oauth2Credential: ICredentialType }} N8nBase
 */

/**
 * @typedef {object} BenchRuntime
 * @property {Record<string, string>} versions of the shared packages and n8n-nodes-base in use
 * @property {() => N8nBase} n8nBase loads the recipe's node and credential from the real n8n install
 */

/** @type {BenchRuntime | undefined} */
let installed;

/**
 * The folder holding the real n8n install's node_modules; installs it (about five minutes, once)
 * when it is missing.
 * @param {(line: string) => void} log
 * @returns {Promise<string>}
 */
async function n8nModulesFolder(log) {
	// The supported n8n whose n8n-core is our devDependency's, whatever SMP_N8N_VERSION says, so
	// the bench measures what the unit tests run.
	const wanted = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'))
		.devDependencies['n8n-core'];
	const n8nVersion = supportedN8nVersions().find(
		(version) =>
			JSON.parse(fs.readFileSync(path.join(RUNTIMES_DIR, version, 'package-lock.json'), 'utf8'))
				.packages['node_modules/n8n-core']?.version === wanted,
	);
	if (n8nVersion === undefined) {
		throw new Error(`no supported n8n runs n8n-core ${wanted}, the devDependency the bench needs`);
	}
	const runtime = await ensureRuntime({ log }, { n8nVersion });
	return path.join(runtime.n8nHome, 'node_modules');
}

/**
 * Compiles our package with its build's settings (tsconfig.json), plus the engine harness the
 * bench runs its clients through, into a throw-away folder whose node_modules is the real n8n
 * install's: plain require then finds the install's n8n-core and n8n-workflow from our code as
 * from n8n-nodes-base, with nothing in Node's loader changed. Type checking is `npm run
 * typecheck`'s job. Workers inherit the folder through the environment; only the process that
 * made it removes it.
 * @param {string} n8nModules
 * @returns {string} the folder
 */
function buildIntoN8n(n8nModules) {
	const existing = process.env[BUILD_VARIABLE];
	if (existing) return existing;
	// Loaded here, not at the top: the bench's workers reuse the build and never transpile.
	const ts = require('typescript');
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'smp-bench-build-'));
	process.env[BUILD_VARIABLE] = folder;
	process.once('exit', () => fs.rmSync(folder, { recursive: true, force: true }));
	fs.symlinkSync(n8nModules, path.join(folder, 'node_modules'), 'dir');
	const { config } = ts.readConfigFile(path.join(REPO_ROOT, 'tsconfig.json'), ts.sys.readFile);
	const build = ts.parseJsonConfigFileContent(config, ts.sys, REPO_ROOT);
	const compilerOptions = { ...build.options, declaration: false, sourceMap: false };
	const sources = build.fileNames.filter((file) => file.endsWith('.ts'));
	for (const source of [...sources, path.join(REPO_ROOT, ENGINE_HARNESS)]) {
		const { outputText } = ts.transpileModule(fs.readFileSync(source, 'utf8'), {
			fileName: source,
			compilerOptions,
		});
		const target = path.join(folder, path.relative(REPO_ROOT, source).replace(/\.ts$/, '.js'));
		fs.mkdirSync(path.dirname(target), { recursive: true });
		fs.writeFileSync(target, outputText);
	}
	return folder;
}

/**
 * One of our modules as the bench's build has it (installRuntime first).
 * @param {string} file relative to the repository, without extension, e.g. "nodes/X/runtime"
 * @returns {any}
 */
function fromBuild(file) {
	const folder = process.env[BUILD_VARIABLE];
	if (!folder) throw new Error('installRuntime() builds the package before anything loads it');
	return require(path.join(folder, file));
}

/**
 * n8n-core writes an encryption key into `<N8N_USER_FOLDER>/.n8n/config` as it loads, by default
 * in the user's home; the bench's goes into a folder of its own, removed when the bench exits.
 * Workers inherit the variable, so only the process that made the folder removes it.
 */
function useThrowAwayUserFolder() {
	if (process.env.N8N_USER_FOLDER) return;
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'smp-bench-n8n-'));
	process.env.N8N_USER_FOLDER = folder;
	process.once('exit', () => fs.rmSync(folder, { recursive: true, force: true }));
}

/**
 * Prepares this process once: finds (or installs) real n8n and builds our package beside it.
 * @param {(line: string) => void} [log]
 * @returns {Promise<BenchRuntime>}
 */
async function installRuntime(log = () => undefined) {
	if (installed) return installed;
	useThrowAwayUserFolder();
	const n8nModules = await n8nModulesFolder(log);
	buildIntoN8n(n8nModules);
	/** @param {string} request */
	const requireFromN8n = (request) => require(require.resolve(request, { paths: [n8nModules] }));
	/** @type {Record<string, string>} */
	const versions = {};
	for (const name of [...SHARED_PACKAGES, 'n8n-nodes-base']) {
		const file = path.join(n8nModules, name, 'package.json');
		versions[name] = JSON.parse(fs.readFileSync(file, 'utf8')).version;
	}
	installed = {
		versions,
		n8nBase: () => {
			const { HttpRequest } = requireFromN8n(
				'n8n-nodes-base/dist/nodes/HttpRequest/HttpRequest.node.js',
			);
			const { OAuth2Api } = requireFromN8n(
				'n8n-nodes-base/dist/credentials/OAuth2Api.credentials.js',
			);
			return { httpRequestNode: new HttpRequest(), oauth2Credential: new OAuth2Api() };
		},
	};
	return installed;
}

/**
 * Fails when any module of n8n-core or n8n-workflow was loaded from this repository's own
 * node_modules, that is when two copies are live in this process.
 */
function assertSingleN8nTree() {
	const strays = Object.keys(require.cache).filter((file) =>
		SHARED_PACKAGES.some((name) => file.startsWith(path.join(LOCAL_MODULES, name) + path.sep)),
	);
	if (strays.length > 0) {
		throw new Error(
			`a second copy of n8n-core/n8n-workflow was loaded from ${LOCAL_MODULES} (${strays[0]} and ${strays.length - 1} more); load our code with fromBuild()`,
		);
	}
}

module.exports = { installRuntime, assertSingleN8nTree, fromBuild, ENGINE_HARNESS, REPO_ROOT };
