// @ts-check
'use strict';

/**
 * Child processes that must never outlive the script or test that started them.
 *
 * Each child is started in its own process group (detached), so stopping it also stops what it
 * started (n8n's task runner, npm's node-gyp, ...). Every group still running when this process
 * exits, normally or on SIGINT/SIGTERM/SIGHUP, is killed. Signal handlers cannot cover SIGKILL,
 * nor code running inside jest (whose test `process` is a copy that never sees signals), so each
 * group also gets a detached reaper that kills it once this process is gone.
 */

const path = require('node:path');
const { spawn } = require('node:child_process');

/** @type {Set<import('node:child_process').ChildProcess>} */
const running = new Set();
let hooksInstalled = false;

/**
 * @param {number | undefined} groupId the group leader's pid
 * @param {NodeJS.Signals} signal
 */
function signalGroup(groupId, signal) {
	if (groupId === undefined) return;
	try {
		process.kill(-groupId, signal);
	} catch (error) {
		// ESRCH: the group is already gone.
		if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'ESRCH') throw error;
	}
}

/**
 * Whether a process exists (EPERM: it does, but belongs to another user).
 * @param {number} pid
 */
function isAlive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return /** @type {NodeJS.ErrnoException} */ (error).code === 'EPERM';
	}
}

/** @type {(() => Promise<void>)[]} */
const shutdownHooks = [];
let shuttingDown = false;

function killAll() {
	for (const child of running) signalGroup(child.pid, 'SIGKILL');
}

/**
 * On SIGINT/SIGTERM/SIGHUP: run the shutdown hooks (a graceful stop, at most `graceMs`), then kill
 * every group still running and exit. A second signal kills at once.
 * @param {NodeJS.Signals} signal
 */
function onSignal(signal) {
	const code = 128 + (signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 1);
	if (shuttingDown || shutdownHooks.length === 0) {
		killAll();
		process.exit(code);
	}
	shuttingDown = true;
	const graceMs = 30000;
	const timeout = new Promise((resolve) => setTimeout(resolve, graceMs).unref());
	void Promise.race([Promise.allSettled(shutdownHooks.map((hook) => hook())), timeout]).then(() => {
		killAll();
		process.exit(code);
	});
}

function installHooks() {
	if (hooksInstalled) return;
	hooksInstalled = true;
	process.on('exit', killAll);
	for (const signal of /** @type {NodeJS.Signals[]} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
		process.on(signal, onSignal);
	}
}

/**
 * Registers a graceful stop to run when the process is asked to stop by a signal.
 * @param {() => Promise<void>} hook
 */
function onShutdown(hook) {
	installHooks();
	shutdownHooks.push(hook);
}

/**
 * @param {string} command
 * @param {string[]} args
 * @param {import('node:child_process').SpawnOptions} options
 * @param {{ removeIfOrphaned?: string[] }} [reaping] folders the reaper deletes after killing an orphaned group
 * @returns {import('node:child_process').ChildProcess}
 */
function spawnGroup(command, args, options, reaping = {}) {
	installHooks();
	const child = spawn(command, args, { ...options, detached: true });
	if (child.pid !== undefined) {
		const reaper = spawn(
			process.execPath,
			[
				path.join(__dirname, 'reaper.js'),
				String(process.pid),
				String(child.pid),
				...(reaping.removeIfOrphaned ?? []),
			],
			{ detached: true, stdio: 'ignore' },
		);
		reaper.unref();
	}
	running.add(child);
	child.once('exit', () => running.delete(child));
	child.once('error', () => running.delete(child));
	return child;
}

/**
 * Resolves once the child has exited (immediately if it already has).
 * @param {import('node:child_process').ChildProcess} child
 * @returns {Promise<void>}
 */
function exited(child) {
	if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
	return new Promise((resolve) => child.once('exit', () => resolve()));
}

/**
 * Asks the whole group to stop, and kills it after `graceMs`. The group (not just the child) is
 * signalled both times, so grandchildren that ignore the first signal are still killed.
 * @param {import('node:child_process').ChildProcess} child
 * @param {number} [graceMs]
 * @returns {Promise<void>}
 */
async function stopGroup(child, graceMs = 15000) {
	signalGroup(child.pid, 'SIGTERM');
	/** @type {NodeJS.Timeout | undefined} */
	let timer;
	const timedOut = new Promise((resolve) => {
		timer = setTimeout(resolve, graceMs);
	});
	await Promise.race([exited(child), timedOut]);
	clearTimeout(timer);
	// SIGKILL the group even after a clean exit of the leader: a grandchild may still run.
	signalGroup(child.pid, 'SIGKILL');
	await exited(child);
	running.delete(child);
}

/**
 * Runs a command to completion in its own process group, capturing its output.
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd?: string, env?: NodeJS.ProcessEnv, timeoutMs: number, input?: string, uid?: number, gid?: number }} options
 * @returns {Promise<{ code: number | null, signal: NodeJS.Signals | null, stdout: string, stderr: string, timedOut: boolean }>}
 */
function runGroup(command, args, options) {
	return new Promise((resolve, reject) => {
		const child = spawnGroup(command, args, {
			cwd: options.cwd,
			env: options.env,
			uid: options.uid,
			gid: options.gid,
			stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
		});
		let stdout = '';
		let stderr = '';
		let timedOut = false;
		child.stdout?.on('data', (chunk) => (stdout += chunk));
		child.stderr?.on('data', (chunk) => (stderr += chunk));
		if (options.input !== undefined) child.stdin?.end(options.input);
		const timer = setTimeout(() => {
			timedOut = true;
			signalGroup(child.pid, 'SIGKILL');
		}, options.timeoutMs);
		child.once('error', (error) => {
			clearTimeout(timer);
			reject(error);
		});
		child.once('exit', (code, signal) => {
			clearTimeout(timer);
			// The leader is gone; make sure nothing it started lingers.
			signalGroup(child.pid, 'SIGKILL');
			resolve({ code, signal, stdout, stderr, timedOut });
		});
	});
}

module.exports = { spawnGroup, stopGroup, runGroup, exited, onShutdown, isAlive, signalGroup };
