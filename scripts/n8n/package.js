// @ts-check
'use strict';

/**
 * Builds this package, packs it the way `npm publish` would, and installs the tarball into an
 * n8n user folder the way a self-hosted user installs a community node by hand.
 */

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { runOrThrow } = require('./processes');

const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** @returns {{ name: string, version: string, n8n: { nodes: string[], credentials: string[] } }} */
function packageJson() {
	return JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
}

/**
 * @param {string[]} args @param {string} cwd @param {number} timeoutMs
 * @returns {Promise<string>} stdout
 */
function npm(args, cwd, timeoutMs) {
	const env = { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false' };
	return runOrThrow('npm', args, { cwd, env: { ...env, npm_config_audit: 'false' }, timeoutMs });
}

/**
 * `npm run build` then `npm pack` into a fresh folder in `parent` (by default the temp folder).
 * @param {{ log: (line: string) => void }} logger @param {string} [parent]
 * @returns {Promise<string>} the tarball's path
 */
async function buildAndPack(logger, parent = os.tmpdir()) {
	logger.log('building the package (npm run build)');
	await npm(['run', 'build'], REPO_ROOT, 300000);
	const destination = fs.mkdtempSync(path.join(parent, 'smp-pack-'));
	logger.log('packing it (npm pack)');
	const output = await npm(
		['pack', '--json', `--pack-destination=${destination}`],
		REPO_ROOT,
		120000,
	);
	const [packed] = /** @type {{ filename: string, files: { path: string }[] }[]} */ (
		JSON.parse(output)
	);
	const tarball = path.join(destination, packed.filename);
	const { n8n } = packageJson();
	const inTarball = new Set(packed.files.map((file) => file.path));
	const missing = [...n8n.nodes, ...n8n.credentials].filter((file) => !inTarball.has(file));
	if (missing.length > 0) {
		throw new Error(
			`the packed tarball lacks files package.json's n8n field names: ${missing.join(', ')}`,
		);
	}
	return tarball;
}

/**
 * Installs the tarball into `<userFolder>/.n8n/nodes`, where n8n looks for community packages at
 * start: n8n's documented manual install (`cd ~/.n8n/nodes && npm install <package>`) with the
 * flags n8n's own installer uses. `--legacy-peer-deps` keeps npm from installing the peer
 * `n8n-workflow`: the nodes must use the running n8n's copy (its error classes are checked with
 * instanceof), which n8n provides through NODE_PATH.
 * @param {string} userFolder @param {string} tarball
 * @returns {Promise<string>} the installed package folder
 */
async function installIntoN8n(userFolder, tarball) {
	const nodesFolder = path.join(userFolder, '.n8n', 'nodes');
	fs.mkdirSync(nodesFolder, { recursive: true });
	const ledger = path.join(nodesFolder, 'package.json');
	if (!fs.existsSync(ledger)) {
		// The same shape n8n writes for its own ledger of installed community packages.
		fs.writeFileSync(
			ledger,
			JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2),
		);
	}
	await npm(
		[
			'install',
			tarball,
			'--legacy-peer-deps',
			'--omit=dev',
			'--ignore-scripts',
			'--bin-links=false',
			'--package-lock=false',
		],
		nodesFolder,
		180000,
	);
	const { name } = packageJson();
	const installed = path.join(nodesFolder, 'node_modules', name);
	if (!fs.existsSync(path.join(installed, 'package.json'))) {
		throw new Error(`npm install did not create ${installed}`);
	}
	const unexpected = fs
		.readdirSync(path.join(nodesFolder, 'node_modules'))
		.filter((entry) => entry !== name && !entry.startsWith('.'));
	if (unexpected.length > 0) {
		// Zero runtime dependencies is a verification rule; anything else here was pulled in by us.
		throw new Error(`installing the package also installed: ${unexpected.join(', ')}`);
	}
	return installed;
}

module.exports = { buildAndPack, installIntoN8n, packageJson, REPO_ROOT };

// `node scripts/n8n/package.js <folder>`: builds, packs into the folder and prints the tarball's
// path, so several real-n8n suites can share one tarball (SMP_E2E_TARBALL).
if (require.main === module) {
	buildAndPack(
		{ log: (line) => process.stderr.write(`[package] ${line}\n`) },
		process.argv[2],
	).then(
		(tarball) => console.log(tarball),
		(error) => {
			console.error(`[package] ${error instanceof Error ? error.message : String(error)}`);
			process.exitCode = 1;
		},
	);
}
