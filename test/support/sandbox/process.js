// @ts-check
'use strict';

const { spawn } = require('node:child_process');
const path = require('node:path');

const CLI = path.join(__dirname, '..', '..', '..', 'sandbox', 'cli.js');

/**
 * @typedef {object} SandboxProcess
 * @property {string} url
 * @property {number} pid
 * @property {() => string} output everything written to stdout so far
 * @property {(signal?: NodeJS.Signals) => Promise<{ code: number | null, signal: NodeJS.Signals | null }>} stop
 */

/**
 * Starts `npm run sandbox`'s program (sandbox/cli.js) as a separate process, as the demo and the
 * real-n8n tests do, and resolves once it prints its URL.
 * @param {Record<string, string>} [env] added to the environment; PORT defaults to 0 (any free port)
 * @param {number} [timeoutMs]
 * @returns {Promise<SandboxProcess>}
 */
function startSandboxProcess(env = {}, timeoutMs = 20_000) {
	const child = spawn(process.execPath, [CLI], {
		env: { ...process.env, PORT: '0', ...env },
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let stdout = '';
	let stderr = '';
	child.stdout.setEncoding('utf8').on('data', (/** @type {string} */ chunk) => (stdout += chunk));
	child.stderr.setEncoding('utf8').on('data', (/** @type {string} */ chunk) => (stderr += chunk));
	/** @type {Promise<{ code: number | null, signal: NodeJS.Signals | null }>} */
	const exited = new Promise((resolve) =>
		child.once('exit', (code, signal) => resolve({ code, signal })),
	);

	return new Promise((resolve, reject) => {
		const timer = setTimeout(() => {
			child.kill('SIGKILL');
			reject(new Error(`sandbox process printed no URL within ${timeoutMs} ms; stderr: ${stderr}`));
		}, timeoutMs);
		const watch = setInterval(() => {
			const match = /listening on (https?:\/\/\S+)/.exec(stdout);
			if (!match) return;
			clearInterval(watch);
			clearTimeout(timer);
			resolve({
				url: match[1],
				pid: /** @type {number} */ (child.pid),
				output: () => stdout,
				stop: (signal = 'SIGTERM') => {
					if (child.exitCode === null && child.signalCode === null) child.kill(signal);
					return exited;
				},
			});
		}, 20);
		exited.then(({ code, signal }) => {
			clearInterval(watch);
			clearTimeout(timer);
			reject(
				new Error(
					`sandbox process exited (code ${code}, signal ${signal}) before listening; stderr: ${stderr}`,
				),
			);
		});
	});
}

/**
 * Runs sandbox/cli.js to completion (for start-up errors) and returns what it printed.
 * @param {Record<string, string>} env
 * @returns {Promise<{ code: number | null, stdout: string, stderr: string }>}
 */
function runSandboxProcess(env) {
	const child = spawn(process.execPath, [CLI], {
		env: { ...process.env, ...env },
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let stdout = '';
	let stderr = '';
	child.stdout.setEncoding('utf8').on('data', (/** @type {string} */ chunk) => (stdout += chunk));
	child.stderr.setEncoding('utf8').on('data', (/** @type {string} */ chunk) => (stderr += chunk));
	return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

module.exports = { startSandboxProcess, runSandboxProcess };
