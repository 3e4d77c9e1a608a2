// @ts-check
'use strict';

const { spawn } = require('node:child_process');
const path = require('node:path');

const CLI = path.join(__dirname, '..', '..', '..', 'sandbox', 'cli.js');

/**
 * @typedef {object} SandboxProcess
 * @property {string} url
 * @property {() => string} output everything written to stdout so far
 * @property {(signal?: NodeJS.Signals) => Promise<{ code: number | null, signal: NodeJS.Signals | null }>} stop
 */

/**
 * Starts `npm run sandbox`'s program (sandbox/cli.js) as a separate process, and resolves once it
 * prints its URL; one that prints none in 20 s is killed. One that exits first rejects with its
 * exit code and stderr.
 * @param {Record<string, string>} [env] added to the environment; PORT defaults to 0 (any free port)
 * @returns {Promise<SandboxProcess>}
 */
function startSandboxProcess(env = {}) {
	const child = spawn(process.execPath, [CLI], {
		env: { ...process.env, PORT: '0', ...env },
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let stdout = '';
	let stderr = '';
	child.stderr.setEncoding('utf8').on('data', (/** @type {string} */ chunk) => (stderr += chunk));
	const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
	/** @type {Promise<{ code: number | null, signal: NodeJS.Signals | null }>} */
	const exited = new Promise((resolve) =>
		child.once('exit', (code, signal) => resolve({ code, signal })),
	);
	const stop = (/** @type {NodeJS.Signals} */ signal = 'SIGTERM') => {
		if (child.exitCode === null && child.signalCode === null) child.kill(signal);
		return exited;
	};
	return new Promise((resolve, reject) => {
		child.stdout.setEncoding('utf8').on('data', (/** @type {string} */ chunk) => {
			stdout += chunk;
			const match = /listening on (https?:\/\/\S+)/.exec(stdout);
			if (!match) return;
			clearTimeout(timer);
			resolve({ url: match[1], output: () => stdout, stop });
		});
		exited.then(({ code, signal }) => {
			clearTimeout(timer);
			const how = `code ${code}, signal ${signal}`;
			reject(new Error(`sandbox process exited (${how}) before listening; stderr: ${stderr}`));
		});
	});
}

module.exports = { startSandboxProcess };
