// @ts-check
'use strict';

/**
 * The bench's child processes (item-costs-worker.js, network-worker.js): the parent sends jobs
 * over IPC, one at a time, and the child answers each with its result or its error.
 */

const { fork } = require('node:child_process');
const path = require('node:path');

/** @typedef {{ ok: true, result: any } | { ok: false, error: string }} Answer */

/** @param {unknown} error */
const messageOf = (error) => (error instanceof Error ? error.message : String(error));

/**
 * Starts a worker of this folder and resolves once it is ready for jobs.
 * @param {string} script e.g. "item-costs-worker.js"
 * @param {{ env?: NodeJS.ProcessEnv, execArgv?: string[] }} [options]
 * @returns {Promise<{ run: (job: object) => Promise<any>, stop: () => Promise<void> }>}
 */
async function startWorker(script, options = {}) {
	const child = fork(path.join(__dirname, script), [], {
		...options,
		stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
	});
	/** @type {((message: any) => void) | undefined} */
	let waiting;
	child.on('message', (message) => waiting?.(message));
	const exited = new Promise((resolve) => child.once('exit', resolve));
	/** @returns {Promise<any>} */
	const next = () =>
		new Promise((resolve, reject) => {
			waiting = resolve;
			exited.then(() => reject(new Error(`the bench worker ${script} exited`)));
		});
	await next();
	return {
		run: async (job) => {
			const answer = /** @type {Promise<Answer>} */ (next());
			child.send(job);
			const settled = await answer;
			if (!settled.ok) throw new Error(settled.error);
			return settled.result;
		},
		stop: async () => {
			if (child.connected) child.disconnect();
			await exited;
		},
	};
}

/**
 * In a worker: says it is ready, then answers every job the parent sends with `handle`'s result,
 * and exits when the parent lets go (clients may hold sockets and timers that would keep it up).
 * @param {(job: any) => Promise<unknown>} handle
 */
function serveJobs(handle) {
	const send = process.send?.bind(process);
	if (send === undefined)
		throw new Error(`${process.argv[1]} runs as a bench worker (fork with IPC)`);
	process.on('message', (job) => {
		handle(job).then(
			(result) => send({ ok: true, result }),
			(error) => send({ ok: false, error: messageOf(error) }),
		);
	});
	process.once('disconnect', () => process.exit(0));
	send({ ready: true });
}

module.exports = { startWorker, serveJobs };
