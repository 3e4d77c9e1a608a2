// @ts-check
'use strict';

/**
 * One CPU and memory measurement in a process of its own, so that neither the sandbox (it stays
 * in the parent and serves the pages) nor earlier measurements count: our node, run by n8n-core,
 * turns every project of the bench company into items in one output mode. Two walks: the first
 * in a cold process (its peak RSS is the kernel's high-water mark for the whole process), the
 * second warm, as in an n8n process that has run the workflow before. Started by index.js with
 * fork(); the job comes as JSON in argv[2] and the result goes back over IPC.
 */

const { installRuntime } = require('./runtime');

/**
 * @typedef {object} ItemsJob
 * @property {import('./clients').Target} target
 * @property {'projects' | 'tenders'} output
 * @property {boolean} simplify
 * @property {number} projects what a complete walk must deliver
 */

/**
 * @typedef {object} WalkMeasurement
 * @property {number} items
 * @property {number} cpuMs user + system CPU of this process during the walk
 * @property {number} wallMs
 * @property {number} heapBeforeBytes heapUsed after a full GC, just before the walk
 * @property {number} peakHeapBytes highest heapUsed sampled every 2 ms during the walk
 * @property {number} rssBeforeBytes
 * @property {number} peakRssSampledBytes highest RSS sampled every 2 ms during the walk
 */

/**
 * @typedef {object} ItemsResult
 * @property {WalkMeasurement} cold
 * @property {WalkMeasurement} warm
 * @property {number} maxRssBytes the process's peak RSS over its whole life (getrusage), which
 *   the cold walk set unless loading n8n did
 */

const SAMPLE_EVERY_MS = 2;

/** @returns {void} */
function fullGc() {
	const gc = /** @type {{ gc?: () => void }} */ (/** @type {unknown} */ (globalThis)).gc;
	if (gc === undefined) throw new Error('items-worker needs node --expose-gc');
	gc();
	gc();
}

/**
 * @param {import('./clients').Client} client
 * @param {number} expectedProjects
 * @returns {Promise<WalkMeasurement>}
 */
async function measureWalk(client, expectedProjects) {
	client.freshBudget();
	fullGc();
	const before = process.memoryUsage();
	let peakHeap = before.heapUsed;
	let peakRss = before.rss;
	const sampler = setInterval(() => {
		const now = process.memoryUsage();
		if (now.heapUsed > peakHeap) peakHeap = now.heapUsed;
		if (now.rss > peakRss) peakRss = now.rss;
	}, SAMPLE_EVERY_MS);
	const cpuBefore = process.cpuUsage();
	const start = performance.now();
	const result = await client.walk();
	const wallMs = performance.now() - start;
	const cpu = process.cpuUsage(cpuBefore);
	clearInterval(sampler);
	const after = process.memoryUsage();
	peakHeap = Math.max(peakHeap, after.heapUsed);
	peakRss = Math.max(peakRss, after.rss);
	const delivered = result.projects();
	if (delivered !== expectedProjects) {
		throw new Error(`the walk delivered ${delivered} projects instead of ${expectedProjects}`);
	}
	return {
		items: result.items,
		cpuMs: (cpu.user + cpu.system) / 1000,
		wallMs,
		heapBeforeBytes: before.heapUsed,
		peakHeapBytes: peakHeap,
		rssBeforeBytes: before.rss,
		peakRssSampledBytes: peakRss,
	};
}

/**
 * @param {ItemsJob} job
 * @returns {Promise<ItemsResult>}
 */
async function run(job) {
	await installRuntime();
	const { ourNode } = require('./clients');
	const client = ourNode(job.target, { output: job.output, simplify: job.simplify });
	const cold = await measureWalk(client, job.projects);
	const maxRssBytes = process.resourceUsage().maxRSS * 1024;
	const warm = await measureWalk(client, job.projects);
	return { cold, warm, maxRssBytes };
}

if (require.main === module) {
	const send = process.send?.bind(process);
	if (send === undefined)
		throw new Error('items-worker runs as a child of index.js (fork with IPC)');
	run(/** @type {ItemsJob} */ (JSON.parse(process.argv[2] ?? '{}'))).then(
		(result) => send({ ok: true, result }, () => process.exit(0)),
		(/** @type {unknown} */ error) =>
			send({ ok: false, error: error instanceof Error ? error.message : String(error) }, () =>
				process.exit(1),
			),
	);
}

module.exports = { run };
