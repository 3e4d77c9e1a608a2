// @ts-check
'use strict';

/**
 * CPU and memory of turning 10,000 projects into items through the engine, one child process per
 * output mode (item-costs-worker.js), and in this process JSON.parse of the pages and the shaping
 * alone.
 */

const { median } = require('simple-statistics');

const { MAX_PAGE_SIZE } = require('./floors');
const { targetOf } = require('./requests');
const { fromBuild } = require('./runtime');
const { startWorker } = require('./worker');

/** @typedef {import('./sandbox').BenchSandbox} BenchSandbox */
/** @typedef {import('./item-costs-worker').ItemsResult} ItemsResult */
/** @typedef {import('./item-costs-worker').ItemsJob} ItemsJob */
/** @typedef {typeof import('./clients')} Clients */
/** @typedef {import('../../nodes/SupplierMatchedProjects/api/types').ResultsPage} ResultsPage */

const MODES = /** @type {const} */ ([
	{ output: 'projects', simplify: false },
	{ output: 'projects', simplify: true },
	{ output: 'tenders', simplify: false },
	{ output: 'tenders', simplify: true },
]);

/**
 * @returns {{ ms: () => number }} CPU time of this process since the call
 */
function cpuClock() {
	const start = process.cpuUsage();
	return {
		ms: () => {
			const used = process.cpuUsage(start);
			return (used.user + used.system) / 1000;
		},
	};
}

/**
 * CPU of `work` in this process: once untimed to warm up, then `repetitions` times.
 * @template T
 * @param {number} repetitions
 * @param {() => T} work
 * @returns {{ cpuRuns: number[], result: T }}
 */
function warmCpuRuns(repetitions, work) {
	/** @type {number[]} */
	const cpuRuns = [];
	let result = work();
	for (let round = 0; round < repetitions; round++) {
		const clock = cpuClock();
		result = work();
		cpuRuns.push(clock.ms());
	}
	return { cpuRuns, result };
}

/**
 * @param {ItemsJob} job
 * @returns {Promise<ItemsResult>}
 */
async function measureItemsInChild(job) {
	const worker = await startWorker('item-costs-worker.js', { execArgv: ['--expose-gc'] });
	try {
		return await worker.run(job);
	} finally {
		await worker.stop();
	}
}

/** @param {import('./item-costs-worker').WalkMeasurement[]} walks */
function cpuOf(walks) {
	return median(walks.map((walk) => walk.cpuMs));
}

/**
 * Pairwise, walk by walk under the same load: what `walks` cost beyond `baseline`.
 * @param {import('./item-costs-worker').WalkMeasurement[]} walks
 * @param {import('./item-costs-worker').WalkMeasurement[]} baseline
 */
function beyond(walks, baseline) {
	return median(walks.map((walk, index) => walk.cpuMs - baseline[index].cpuMs));
}

/**
 * @param {(typeof MODES)[number]} mode
 * @param {ItemsResult} result what its child process measured
 */
function modeCosts(mode, result) {
	const items = result.cold.items;
	const oursCpuMs = cpuOf(result.ours);
	const modeCpuMs = beyond(result.ours, result.projects);
	return {
		...mode,
		items,
		oursCpuMs,
		plainCpuMs: cpuOf(result.plain),
		beyondPlainCpuMs: beyond(result.ours, result.plain),
		modeCpuMs,
		itemsPerCpuSecond: (items * 1000) / oursCpuMs,
		itemsPerModeCpuSecond: modeCpuMs > 0 ? (items * 1000) / modeCpuMs : null,
		peakRssBytes: result.maxRssBytes,
		rssGrowthBytes: result.maxRssBytes - result.cold.rssBeforeBytes,
		peakHeapGrowthBytes: median(
			result.ours.map((walk) => walk.peakHeapBytes - walk.heapBeforeBytes),
		),
	};
}

/**
 * @param {BenchSandbox} bench
 * @param {number} repetitions
 * @param {(line: string) => void} progress
 */
async function measureItems(bench, repetitions, progress) {
	const target = targetOf(bench);
	const { shapeItems } = fromBuild('nodes/SupplierMatchedProjects/projects/items');
	const modes = [];
	for (const mode of MODES) {
		progress(`  ${mode.output}${mode.simplify ? ', simplified' : ''}`);
		const result = await measureItemsInChild({
			target,
			output: mode.output,
			simplify: mode.simplify,
			projects: bench.projects,
			repetitions,
		});
		modes.push(modeCosts(mode, result));
	}

	progress('  JSON.parse of the pages and item shaping alone, in this process');
	const clients = /** @type {Clients} */ (require('./clients'));
	const { bodies } = await clients
		.plainClient(target, { name: 'pages', pageSize: MAX_PAGE_SIZE, keepBodies: true })
		.walk();
	const parsing = warmCpuRuns(repetitions, () =>
		bodies.flatMap((body) => /** @type {ResultsPage} */ (JSON.parse(body)).data),
	);
	const shaping = MODES.map((mode) => {
		const { cpuRuns, result: items } = warmCpuRuns(
			repetitions,
			() => shapeItems(parsing.result, mode).length,
		);
		const cpuMs = median(cpuRuns);
		return {
			...mode,
			items,
			cpuMs,
			itemsPerCpuSecond: cpuMs >= 0.5 ? (items * 1000) / cpuMs : null,
		};
	});
	return {
		projects: bench.projects,
		tenders: bench.tenders,
		pages: bodies.length,
		responseBytes: bodies.reduce((sum, body) => sum + Buffer.byteLength(body, 'utf8'), 0),
		parseCpuMs: median(parsing.cpuRuns),
		modes,
		shaping,
	};
}

module.exports = { measureItems };
