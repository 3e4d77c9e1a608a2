// @ts-check
'use strict';

/**
 * The one start-up sequence of every real n8n this repository runs (the demo, the bench, the
 * real-n8n suites): a throw-away folder, the packed package installed as a community node,
 * credentials and workflows imported through n8n's CLI, n8n started, the owner set up. Whatever
 * it starts goes on the caller's cleanup stack, so a failure half-way stops it all as well.
 */

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { N8nClient, generatePassword } = require('./client');
const { buildAndPack, installIntoN8n } = require('./package');
const { onShutdown } = require('./processes');
const { ensureRuntime, importIntoN8n, prepareN8n, startN8n } = require('./runtime');

/** @typedef {{ log: (line: string) => void }} Logger */
/** @typedef {{ push: (cleanup: () => Promise<void>) => void, stopAll: () => Promise<void> }} Cleanups */
/** @typedef {Awaited<ReturnType<typeof prepareN8n>>} PreparedN8n */
/** @typedef {import('./runtime').N8nInstance} N8nInstance */

/**
 * What a script started, stopped in reverse order by `stopAll`: at its end, when starting fails
 * half-way, and when it is stopped from outside (Ctrl-C, a CI timeout).
 * @param {Logger} logger
 * @returns {Cleanups}
 */
function cleanupStack(logger) {
	/** @type {(() => Promise<void>)[]} */
	const cleanups = [];
	const stopAll = async () => {
		for (const cleanup of cleanups.reverse()) {
			try {
				await cleanup();
			} catch (error) {
				logger.log(`cleanup failed: ${error instanceof Error ? error.message : String(error)}`);
			}
		}
		cleanups.length = 0;
	};
	onShutdown(async () => {
		logger.log('stopping everything it started ...');
		await stopAll();
		logger.log('stopped.');
	});
	return { push: (cleanup) => cleanups.push(cleanup), stopAll };
}

/**
 * A new folder under the OS temp folder, removed by the cleanups unless `keep`.
 * @param {{ cleanups: Cleanups, logger: Logger, prefix: string, keep: boolean }} options
 */
function throwAwayFolder({ cleanups, logger, prefix, keep }) {
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
	cleanups.push(async () => {
		if (keep) logger.log(`kept ${folder}`);
		else fs.rmSync(folder, { recursive: true, force: true });
	});
	return folder;
}

/**
 * @typedef {object} LaunchOptions
 * @property {Logger} logger
 * @property {Cleanups} cleanups
 * @property {string} folder the run's folder (throwAwayFolder): n8n's user folder is `n8n`
 *   inside it, and `files` the one folder workflows may read and write
 * @property {boolean} keep the folder stays after the run (it is not removed if orphaned either)
 * @property {(filesDir: string) => { credentials: unknown[], workflows: unknown[] }} data
 *   what to import
 * @property {{ email: string, firstName: string, lastName: string }} owner
 * @property {number} [port] the editor's port (default: a free one)
 * @property {string} [logLevel]
 * @property {NodeJS.ProcessEnv} [extraEnv]
 * @property {boolean} [withoutPackage] start n8n without the package, for a test that installs it
 *   as users do (from the Community Nodes panel)
 * @property {(prepared: PreparedN8n, removeFolderIfOrphaned: string | undefined) => Promise<N8nInstance>} [start]
 *   starts n8n's processes and puts their stop on the cleanups, returning the main instance
 *   (queue mode); by default one `n8n start`
 */

/**
 * @param {LaunchOptions} options
 * @returns {Promise<{ runtime: import('./runtime').Runtime, prepared: PreparedN8n, filesDir: string, cliLog: string, n8n: N8nInstance, client: N8nClient, owner: import('./client').Owner }>}
 *   the client logged in as the owner
 */
async function launchN8n(options) {
	const { logger, cleanups, folder } = options;
	const runtime = await ensureRuntime(logger);
	const filesDir = path.join(folder, 'files');
	fs.mkdirSync(filesDir, { recursive: true });
	const prepared = await prepareN8n({
		runtime,
		userFolder: path.join(folder, 'n8n'),
		port: options.port,
		logLevel: options.logLevel,
		extraEnv: { N8N_RESTRICT_FILE_ACCESS_TO: filesDir, ...options.extraEnv },
	});
	if (!options.withoutPackage) {
		// The e2e global setup packs once for every suite (SMP_E2E_TARBALL).
		let tarball = process.env.SMP_E2E_TARBALL;
		if (!tarball) {
			const packed = (tarball = await buildAndPack(logger));
			cleanups.push(async () => fs.rmSync(path.dirname(packed), { recursive: true, force: true }));
		}
		logger.log(`installing ${path.basename(tarball)} into ${prepared.n8nFolder}/nodes`);
		await installIntoN8n(prepared.userFolder, tarball);
	}
	logger.log('importing credentials and workflows (n8n import:credentials, import:workflow)');
	const cliLog = await importIntoN8n(prepared, options.data(filesDir));

	logger.log('starting n8n');
	const removeFolderIfOrphaned = options.keep ? undefined : folder;
	/** @type {N8nInstance} */
	let n8n;
	if (options.start) n8n = await options.start(prepared, removeFolderIfOrphaned);
	else {
		n8n = await startN8n(prepared, { removeFolderIfOrphaned });
		cleanups.push(() => n8n.stop());
	}
	const owner = { ...options.owner, password: generatePassword() };
	const client = new N8nClient(n8n.baseUrl, runtime);
	await client.setupOwner(owner);
	return { runtime, prepared, filesDir, cliLog, n8n, client, owner };
}

module.exports = { cleanupStack, throwAwayFolder, launchN8n };
