// @ts-check
'use strict';

/**
 * The bench's worker process, for what must not share a process with the sandbox (items.js) or
 * must start with another environment (network.js): the parent names the module whose
 * `workerJobs` the worker serves, sends jobs over IPC, one at a time, and the worker answers each
 * with its result or its error.
 */

const { fork } = require('node:child_process');

const { installRuntime } = require('./runtime');

/**
 * Starts a worker and resolves once it is ready for jobs.
 * @param {string} jobsModule the file whose `workerJobs` the worker runs
 * @param {{ env?: NodeJS.ProcessEnv }} [options]
 */
async function startWorker(jobsModule, options = {}) {
	const child = fork(__filename, [jobsModule], {
		...options,
		stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
	});
	/** @type {((message: any) => void) | undefined} */
	let waiting;
	child.on('message', (message) => waiting?.(message));
	const exited = new Promise((resolve) => child.once('exit', resolve));
	/** @returns {Promise<{ result?: any, error?: string }>} */
	const next = () =>
		new Promise((resolve, reject) => {
			waiting = resolve;
			exited.then(() => reject(new Error('the bench worker exited')));
		});
	await next();
	return {
		/** @param {{ kind: string, [key: string]: unknown }} job */
		run: async (job) => {
			const answer = next();
			child.send(job);
			const { result, error } = await answer;
			if (error !== undefined) throw new Error(error);
			return result;
		},
		stop: async () => {
			if (child.connected) child.disconnect();
			await exited;
		},
	};
}

/** In the worker; it exits when the parent lets go (clients may hold sockets and timers). */
async function serveJobs() {
	const send = /** @type {(message: object) => void} */ (process.send?.bind(process));
	await installRuntime();
	/** @type {Record<string, (job: any) => Promise<unknown>>} */
	const jobs = require(process.argv[2]).workerJobs;
	process.on('message', (/** @type {{ kind: string }} */ job) => {
		jobs[job.kind](job).then(
			(result) => send({ result }),
			(error) => send({ error: error instanceof Error ? error.message : String(error) }),
		);
	});
	process.once('disconnect', () => process.exit(0));
	send({ ready: true });
}

if (require.main === module) void serveJobs();

module.exports = { startWorker };
