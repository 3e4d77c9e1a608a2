// @ts-check
'use strict';

/**
 * Child processes that must never outlive the script or test that started them.
 *
 * Each child runs in its own process group, so stopping it stops what it started (n8n's task
 * runner, npm's node-gyp). Every group still running when this process exits or gets
 * SIGINT/SIGTERM/SIGHUP is killed. Nothing sees SIGKILL, and jest's test `process` never sees
 * signals, so each group also gets a detached reaper (this file run as a script) that kills it
 * once this process is gone.
 */

const fs = require('node:fs');
const { spawn } = require('node:child_process');

/** @type {Set<import('node:child_process').ChildProcess>} */
const running = new Set();
/** @type {(() => Promise<void>)[]} */
const shutdownHooks = [];
let hooksInstalled = false;
let shuttingDown = false;

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

/** Whether a process exists (EPERM: it does, but belongs to another user). @param {number} pid */
function isAlive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return /** @type {NodeJS.ErrnoException} */ (error).code === 'EPERM';
	}
}

function killAll() {
	for (const child of running) signalGroup(child.pid, 'SIGKILL');
}

/**
 * Runs the shutdown hooks (a graceful stop, at most 30 s), then kills every group still running
 * and exits. A second signal kills at once.
 * @param {NodeJS.Signals} signal
 */
function onSignal(signal) {
	const code = 128 + (signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 1);
	const exit = () => {
		killAll();
		process.exit(code);
	};
	if (shuttingDown || shutdownHooks.length === 0) exit();
	shuttingDown = true;
	const timeout = new Promise((resolve) => setTimeout(resolve, 30000).unref());
	void Promise.race([Promise.allSettled(shutdownHooks.map((hook) => hook())), timeout]).then(exit);
}

function installHooks() {
	if (hooksInstalled) return;
	hooksInstalled = true;
	process.on('exit', killAll);
	for (const signal of /** @type {NodeJS.Signals[]} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
		process.on(signal, onSignal);
	}
}

/** A graceful stop for when a signal stops this process. @param {() => Promise<void>} hook */
function onShutdown(hook) {
	installHooks();
	shutdownHooks.push(hook);
}

/**
 * @param {string} command @param {string[]} args
 * @param {import('node:child_process').SpawnOptions} options
 * @param {{ removeIfOrphaned?: string[] }} [reaping] folders the reaper deletes after killing an orphaned group
 * @returns {import('node:child_process').ChildProcess}
 */
function spawnGroup(command, args, options, reaping = {}) {
	installHooks();
	const child = spawn(command, args, { ...options, detached: true });
	if (child.pid !== undefined) {
		const reaperArgs = [__filename, String(process.pid), String(child.pid)];
		spawn(process.execPath, [...reaperArgs, ...(reaping.removeIfOrphaned ?? [])], {
			detached: true,
			stdio: 'ignore',
		}).unref();
	}
	running.add(child);
	child.once('exit', () => running.delete(child));
	child.once('error', () => running.delete(child));
	return child;
}

/**
 * Resolves once the child has exited (at once if it has).
 * @param {import('node:child_process').ChildProcess} child @returns {Promise<void>}
 */
function exited(child) {
	if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
	return new Promise((resolve) => child.once('exit', () => resolve()));
}

/**
 * Asks the whole group to stop, and kills it after `graceMs`, even after a clean exit of its
 * leader: a grandchild may still run.
 * @param {import('node:child_process').ChildProcess} child @param {number} [graceMs]
 * @returns {Promise<void>}
 */
async function stopGroup(child, graceMs = 15000) {
	signalGroup(child.pid, 'SIGTERM');
	/** @type {NodeJS.Timeout | undefined} */
	let timer;
	await Promise.race([
		exited(child),
		new Promise((resolve) => (timer = setTimeout(resolve, graceMs))),
	]);
	clearTimeout(timer);
	signalGroup(child.pid, 'SIGKILL');
	await exited(child);
	running.delete(child);
}

/**
 * Runs a command to completion in its own process group, capturing its output (or appending it to
 * `logFile`).
 * @param {string} command @param {string[]} args
 * @param {{ cwd?: string, env?: NodeJS.ProcessEnv, timeoutMs: number, input?: string, uid?: number, gid?: number, logFile?: string }} options
 * @returns {Promise<{ code: number | null, signal: NodeJS.Signals | null, stdout: string, stderr: string, timedOut: boolean }>}
 */
function runGroup(command, args, options) {
	return new Promise((resolve, reject) => {
		const log = options.logFile && fs.openSync(options.logFile, 'a');
		if (log) fs.writeSync(log, `\n$ ${command} ${args.join(' ')}\n`);
		const child = spawnGroup(command, args, {
			cwd: options.cwd,
			env: options.env,
			uid: options.uid,
			gid: options.gid,
			stdio: [options.input === undefined ? 'ignore' : 'pipe', log || 'pipe', log || 'pipe'],
		});
		if (log) fs.closeSync(log);
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
			// The leader is gone; nothing it started may linger.
			signalGroup(child.pid, 'SIGKILL');
			resolve({ code, signal, stdout, stderr, timedOut });
		});
	});
}

/**
 * runGroup, failing with the end of the command's output unless it exits 0 in time.
 * @param {string} command @param {string[]} args @param {Parameters<typeof runGroup>[2]} options
 * @returns {Promise<string>} stdout
 */
async function runOrThrow(command, args, options) {
	const result = await runGroup(command, args, options);
	if (result.code === 0 && !result.timedOut) return result.stdout;
	const output = options.logFile
		? `full log: ${options.logFile}\n${fs.readFileSync(options.logFile, 'utf8')}`
		: `${result.stdout}\n${result.stderr}`;
	const how = result.timedOut
		? `did not finish within ${options.timeoutMs} ms`
		: `failed (${result.signal ?? `exit ${result.code}`})`;
	throw new Error(
		`${command} ${args.join(' ')} ${how}:\n${output.trim().split('\n').slice(-40).join('\n')}`,
	);
}

/**
 * The reaper, run detached by spawnGroup: once `watchedPid` is gone, stops the group (SIGTERM,
 * then SIGKILL after 10 s) and deletes the folders. It exits by itself when the group ends first.
 * @param {number} watchedPid @param {number} groupId @param {string[]} folders
 */
function reap(watchedPid, groupId, folders) {
	const timer = setInterval(() => {
		if (isAlive(groupId) && isAlive(watchedPid)) return;
		clearInterval(timer);
		if (!isAlive(groupId)) return;
		signalGroup(groupId, 'SIGTERM');
		setTimeout(() => {
			signalGroup(groupId, 'SIGKILL');
			for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
		}, 10000);
	}, 1000);
}

module.exports = {
	spawnGroup,
	stopGroup,
	runGroup,
	runOrThrow,
	exited,
	onShutdown,
	isAlive,
	signalGroup,
};

if (require.main === module) {
	const [watchedPid, groupId] = process.argv.slice(2, 4).map(Number);
	// -1 or NaN would signal every process of this user.
	if (!(groupId > 1 && watchedPid > 0)) process.exit(2);
	reap(watchedPid, groupId, process.argv.slice(4));
}
