// @ts-check
'use strict';

/**
 * CPU and memory of turning every project of the bench company into items, in a process of its
 * own so that neither the sandbox (it stays in the parent and serves the pages) nor other
 * measurements count. First our node's walk in the cold process: its peak RSS is the kernel's
 * high-water mark for the process. Then, warm, three walks take turns under the same load: a plain
 * client (fetch + JSON.parse of the same pages: what any client spends), our node in the default
 * output (projects, not simplified) and our node in the output mode measured, so that the CPU the
 * mode itself costs (splitting, simplifying) is the difference between the last two. Started by
 * item-costs.js, one job per process (worker.js).
 */

const { assertSingleN8nTree, installRuntime } = require('./runtime');
const { serveJobs } = require('./worker');

/**
 * @typedef {object} ItemsJob
 * @property {import('./clients').Target} target
 * @property {'projects' | 'tenders'} output
 * @property {boolean} simplify
 * @property {number} projects what a complete walk must deliver
 * @property {number} repetitions warm walks of each client
 */

/**
 * @typedef {object} WalkMeasurement
 * @property {number} items
 * @property {number} cpuMs user + system CPU of this process during the walk
 * @property {number} heapBeforeBytes heapUsed after a full GC, just before the walk
 * @property {number} peakHeapBytes highest heapUsed sampled every 2 ms during the walk
 * @property {number} rssBeforeBytes
 */

/**
 * @typedef {object} ItemsResult
 * @property {WalkMeasurement} cold our node's first walk in this process
 * @property {number} maxRssBytes the process's peak RSS over its whole life (getrusage), right
 *   after the cold walk
 * @property {WalkMeasurement[]} ours warm walks of our node in the mode measured
 * @property {WalkMeasurement[]} projects warm walks of our node in the default output, each right
 *   before one of `ours` (the same walks as `ours` when that is the mode measured)
 * @property {WalkMeasurement[]} plain warm walks of the plain client, each right before those
 */

const SAMPLE_EVERY_MS = 2;

/** @returns {void} */
function fullGc() {
	const gc = /** @type {{ gc?: () => void }} */ (/** @type {unknown} */ (globalThis)).gc;
	if (gc === undefined) throw new Error('item-costs-worker needs node --expose-gc');
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
	const sampler = setInterval(() => {
		peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
	}, SAMPLE_EVERY_MS);
	const cpuBefore = process.cpuUsage();
	const result = await client.walk();
	const cpu = process.cpuUsage(cpuBefore);
	clearInterval(sampler);
	peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
	const delivered = result.projects();
	if (delivered !== expectedProjects) {
		throw new Error(
			`${client.name} delivered ${delivered} projects instead of ${expectedProjects}`,
		);
	}
	return {
		items: result.items,
		cpuMs: (cpu.user + cpu.system) / 1000,
		heapBeforeBytes: before.heapUsed,
		peakHeapBytes: peakHeap,
		rssBeforeBytes: before.rss,
	};
}

/**
 * @param {ItemsJob} job
 * @returns {Promise<ItemsResult>}
 */
async function run(job) {
	const { ourNode, plainClient } = require('./clients');
	const ours = ourNode(job.target, { output: job.output, simplify: job.simplify });
	const isDefaultOutput = job.output === 'projects' && !job.simplify;
	const projects = isDefaultOutput ? ours : ourNode(job.target, { output: 'projects' });
	const plain = plainClient(job.target, { name: 'plain client', pageSize: 100 });
	const cold = await measureWalk(ours, job.projects);
	const maxRssBytes = process.resourceUsage().maxRSS * 1024;
	// Unmeasured walks, so that every measured one is warm.
	await plain.walk();
	if (!isDefaultOutput) {
		projects.freshBudget();
		await projects.walk();
	}
	/** @type {ItemsResult} */
	const result = { cold, maxRssBytes, ours: [], projects: [], plain: [] };
	for (let round = 0; round < job.repetitions; round++) {
		result.plain.push(await measureWalk(plain, job.projects));
		const inDefaultOutput = await measureWalk(projects, job.projects);
		result.projects.push(inDefaultOutput);
		result.ours.push(isDefaultOutput ? inDefaultOutput : await measureWalk(ours, job.projects));
	}
	assertSingleN8nTree();
	return result;
}

installRuntime().then(() => serveJobs(run));
