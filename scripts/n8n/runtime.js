// @ts-check
'use strict';

/**
 * A real n8n on loopback with a throw-away user folder: start, wait until ready, run its CLI
 * against the same database, stop (the whole process group, always).
 */

const crypto = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { setTimeout: delay } = require('node:timers/promises');

const { ensureRuntime, cacheRoot } = require('./install');
const { afterWorkflowImport, featuresOf, workflowsForImport } = require('./lines');
const { spawnGroup, stopGroup, runOrThrow, exited } = require('./processes');

/** @typedef {import('./install').Runtime} Runtime */

/**
 * @typedef {Awaited<ReturnType<typeof prepareN8n>> & { logFile: string, child: import('node:child_process').ChildProcess, stop: () => Promise<void> }} N8nInstance
 *   logFile: n8n's console output
 */

/**
 * Binds a TCP port on 127.0.0.1 and lets it go again: `port`, or a free one the system picks.
 * @param {number} [port]
 * @returns {Promise<number | undefined>} undefined when it cannot be bound
 */
function tryPort(port = 0) {
	return new Promise((resolve) => {
		const server = net.createServer();
		server.unref();
		server.once('error', () => resolve(undefined));
		server.listen(port, '127.0.0.1', () => {
			const address = /** @type {net.AddressInfo} */ (server.address());
			server.close(() => resolve(address.port));
		});
	});
}

/** @returns {Promise<number>} a free TCP port on 127.0.0.1 */
async function freePort() {
	const port = await tryPort();
	if (port === undefined) throw new Error('no TCP port on 127.0.0.1 could be bound');
	return port;
}

/**
 * The environment of a private n8n: loopback only, a random encryption key, and every feature
 * that would call out to n8n's servers (telemetry, version checks, templates, banners, AI,
 * license renewal) switched off.
 * @param {{ n8nVersion: string, userFolder: string, tmpDir: string, port: number, brokerPort: number, encryptionKey: string, logLevel: string, extra?: NodeJS.ProcessEnv }} options
 * @returns {NodeJS.ProcessEnv}
 */
function n8nEnvironment(options) {
	/** @type {NodeJS.ProcessEnv} */
	const env = {};
	// Keep only what a process needs to run; n8n reads many variables by prefix, and none of the
	// caller's N8N_* or DB_* settings may leak into a throw-away instance.
	for (const name of ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TZ', 'SHELL', 'USER']) {
		if (process.env[name] !== undefined) env[name] = process.env[name];
	}
	const origin = `http://127.0.0.1:${options.port}`;
	Object.assign(env, {
		// n8n writes into the temp folder (data-table uploads, binary data) and leaves it there;
		// one inside the user folder goes when the folder does. Compiled code is kept for later starts.
		TMPDIR: options.tmpDir,
		NODE_COMPILE_CACHE: path.join(cacheRoot(), 'node-compile-cache'),
		N8N_USER_FOLDER: options.userFolder,
		N8N_ENCRYPTION_KEY: options.encryptionKey,
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PORT: String(options.port),
		N8N_PROTOCOL: 'http',
		N8N_EDITOR_BASE_URL: `${origin}/`,
		N8N_WEBHOOK_URL: `${origin}/`,
		// The cookie must work over plain http on 127.0.0.1 (browsers refuse secure cookies there).
		N8N_SECURE_COOKIE: 'false',
		N8N_RUNNERS_MODE: 'internal',
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		N8N_RUNNERS_BROKER_PORT: String(options.brokerPort),
		DB_TYPE: 'sqlite',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_DIAGNOSTICS_CONFIG_FRONTEND: '',
		N8N_DIAGNOSTICS_CONFIG_BACKEND: '',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_WHATS_NEW_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_DYNAMIC_BANNERS_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_AI_ENABLED: 'false',
		N8N_LICENSE_AUTO_RENEW_ENABLED: 'false',
		N8N_REINSTALL_MISSING_PACKAGES: 'false',
		// The verified-nodes list and the MCP server registry are fetched from n8n's servers.
		N8N_VERIFIED_PACKAGES_ENABLED: 'false',
		...(featuresOf(options.n8nVersion).mcpRegistryModule && {
			N8N_DISABLED_MODULES: 'mcp-registry',
		}),
		EXTERNAL_FRONTEND_HOOKS_URLS: '',
		EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'all',
		EXECUTIONS_DATA_SAVE_ON_ERROR: 'all',
		EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS: 'true',
		// Schedules and $now follow this machine's time zone, as a user's own n8n would be set up.
		GENERIC_TIMEZONE: Intl.DateTimeFormat().resolvedOptions().timeZone,
		N8N_LOG_LEVEL: options.logLevel,
		N8N_LOG_OUTPUT: 'console,file',
		N8N_LOG_FILE_LOCATION: path.join(options.userFolder, '.n8n', 'logs', 'n8n.log'),
		NODE_ENV: 'production',
	});
	return { ...env, ...options.extra };
}

/**
 * Waits until `check` returns something other than undefined, and returns it.
 * @template T
 * @param {() => T | undefined | Promise<T | undefined>} check
 * @param {{ timeoutMs: number, intervalMs?: number, failure: () => string }} options
 * @returns {Promise<T>}
 */
async function waitUntil(check, { timeoutMs, intervalMs = 500, failure }) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const found = await check();
		if (found !== undefined) return found;
		if (Date.now() > deadline) throw new Error(`${failure()} within ${timeoutMs} ms`);
		await delay(intervalMs);
	}
}

/** @param {string} url @param {number} timeoutMs */
async function isReady(url, timeoutMs) {
	try {
		const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
		await response.arrayBuffer();
		return response.status === 200;
	} catch {
		return false;
	}
}

/** @param {string} file @param {number} lines */
function tail(file, lines) {
	if (!fs.existsSync(file)) return '(no output)';
	return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
}

/**
 * A user folder and environment, nothing started: the CLI can import before (or while) n8n runs.
 * @param {{ runtime: Runtime, userFolder: string, port?: number, logLevel?: string, extraEnv?: NodeJS.ProcessEnv }} options
 * @returns {Promise<{ runtime: Runtime, userFolder: string, n8nFolder: string, port: number, baseUrl: string, env: NodeJS.ProcessEnv, databaseFile: string }>}
 */
async function prepareN8n(options) {
	const { userFolder } = options;
	const n8nFolder = path.join(userFolder, '.n8n');
	fs.mkdirSync(n8nFolder, { recursive: true });
	const port = options.port ?? (await freePort());
	let brokerPort = await freePort();
	while (brokerPort === port) brokerPort = await freePort();
	const tmpDir = path.join(userFolder, 'tmp');
	fs.mkdirSync(tmpDir, { recursive: true });
	const env = n8nEnvironment({
		n8nVersion: options.runtime.n8nVersion,
		userFolder,
		tmpDir,
		port,
		brokerPort,
		encryptionKey: crypto.randomBytes(24).toString('hex'),
		logLevel: options.logLevel ?? 'info',
		extra: options.extraEnv,
	});
	return {
		runtime: options.runtime,
		userFolder,
		n8nFolder,
		port,
		baseUrl: `http://127.0.0.1:${port}`,
		env,
		databaseFile: path.join(n8nFolder, 'database.sqlite'),
	};
}

/**
 * Imports credentials and workflows with n8n's CLI (each command boots n8n: none for an empty
 * list). The files hold secrets in clear, so they live outside n8n's folder, deleted at once.
 * @param {Awaited<ReturnType<typeof prepareN8n>>} prepared
 * @param {{ credentials: unknown[], workflows: unknown[] }} data
 * @returns {Promise<string>} output
 */
async function importIntoN8n(prepared, { credentials, workflows }) {
	const importDir = fs.mkdtempSync(path.join(os.tmpdir(), 'smp-n8n-import-'));
	const { n8nVersion, command } = prepared.runtime;
	const output = [];
	/** @type {[string, unknown[]][]} */
	const imports = [
		['credentials', credentials],
		['workflow', workflowsForImport(n8nVersion, workflows)],
	];
	try {
		for (const [kind, items] of imports) {
			if (items.length === 0) continue;
			const file = path.join(importDir, `${kind}.json`);
			fs.writeFileSync(file, JSON.stringify(items));
			const args = [...command.slice(1), `import:${kind}`, `--input=${file}`];
			output.push(await runOrThrow(command[0], args, { env: prepared.env, timeoutMs: 180000 }));
		}
	} finally {
		fs.rmSync(importDir, { recursive: true, force: true });
	}
	if (workflows.length > 0) await afterWorkflowImport(prepared);
	return output.join('\n');
}

/**
 * Starts `n8n start` (or, in queue mode, `n8n worker`) and waits until it is ready: the editor and
 * REST API for a main instance, the health check at `readyUrl` for a worker.
 * @param {Awaited<ReturnType<typeof prepareN8n>>} prepared
 * @param {{ removeFolderIfOrphaned?: string, command?: 'start' | 'worker', name?: string, env?: NodeJS.ProcessEnv, readyUrl?: string }} [options]
 *   the folder is deleted if this process dies without stopping n8n; `name` tells processes of
 *   one user folder apart (their console logs); `env` is laid over the prepared one
 * @returns {Promise<N8nInstance>}
 */
async function startN8n(prepared, options = {}) {
	const command = options.command ?? 'start';
	const logFile = path.join(
		prepared.userFolder,
		options.name ? `n8n-${options.name}-console.log` : 'n8n-console.log',
	);
	const env = { ...prepared.env, ...options.env };
	const out = fs.openSync(logFile, 'a');
	const [program, ...programArgs] = prepared.runtime.command;
	const child = spawnGroup(
		program,
		[...programArgs, command],
		{ env, cwd: prepared.userFolder, stdio: ['ignore', out, out] },
		{ removeIfOrphaned: options.removeFolderIfOrphaned ? [options.removeFolderIfOrphaned] : [] },
	);
	fs.closeSync(out);
	let stopped = false;
	const stop = async () => {
		if (stopped) return;
		stopped = true;
		await stopGroup(child, 20000);
	};
	/** @type {N8nInstance} */
	const instance = { ...prepared, env, logFile, child, stop };
	const isUp = async () =>
		options.readyUrl
			? await isReady(options.readyUrl, 2000)
			: // Readiness means the database is up; the REST API answers once routes are mounted.
				(await isReady(`${prepared.baseUrl}/healthz/readiness`, 2000)) &&
				(await isReady(`${prepared.baseUrl}/rest/settings`, 5000));
	let exitedEarly = false;
	void exited(child).then(() => (exitedEarly = true));
	const ready = async () => {
		if (exitedEarly) {
			throw new Error(`n8n ${command} exited while starting (code ${child.exitCode})`);
		}
		return (await isUp()) || undefined;
	};
	try {
		await waitUntil(ready, {
			timeoutMs: 180000,
			failure: () => `n8n ${command} did not become ready`,
		});
		return instance;
	} catch (error) {
		await stop();
		const why = error instanceof Error ? error.message : String(error);
		throw new Error(`${why}. Its output:\n${tail(logFile, 60)}`);
	}
}

module.exports = {
	ensureRuntime,
	prepareN8n,
	startN8n,
	importIntoN8n,
	freePort,
	tryPort,
	delay,
	waitUntil,
	tail,
};
