// @ts-check
'use strict';

/**
 * CPU of turning 10,000 projects into items through the engine, in a worker process, so that the
 * sandbox serving the pages (it stays in this process) does not count. There, warm walks take
 * turns under the same load: a plain client (fetch and JSON.parse of the same pages) and our node
 * in each output mode. What a mode itself costs (splitting, simplifying) is its walk's CPU beyond
 * the default output's walk in the same turn; the splitting target is judged on it. Beside them,
 * JSON.parse of the pages and the shaping alone (shapeItems on the parsed projects).
 */

const { median } = require('simple-statistics');

const { MAX_PAGE_SIZE } = require('./floors');
const { startWorker } = require('./worker');

/** @typedef {{ output: 'projects' | 'tenders', simplify: boolean }} Mode */

/** @type {Mode[]} */
const MODES = [
	{ output: 'projects', simplify: false },
	{ output: 'projects', simplify: true },
	{ output: 'tenders', simplify: false },
	{ output: 'tenders', simplify: true },
];

/**
 * CPU ms of `work` in this process, once untimed to warm up, then `repetitions` times.
 * @template T
 * @param {number} repetitions
 * @param {() => T} work
 */
function warmCpuRuns(repetitions, work) {
	let result = work();
	const cpuRuns = [];
	for (let round = 0; round < repetitions; round++) {
		const start = process.cpuUsage();
		result = work();
		const { user, system } = process.cpuUsage(start);
		cpuRuns.push((user + system) / 1000);
	}
	return { cpuRuns, result };
}

/**
 * In the worker.
 * @param {{ target: import('./clients').Target, projects: number, repetitions: number }} job
 */
async function itemsJob({ target, projects, repetitions }) {
	const { ourNode, plainClient, timedWalk } = require('./clients');
	const { fromBuild } = require('./runtime');
	const { shapeItems } = fromBuild('nodes/SupplierMatchedProjects/projects/items');
	const plain = plainClient(target, { name: 'plain', pageSize: MAX_PAGE_SIZE });
	const lineup = [plain, ...MODES.map((mode) => ourNode(target, mode))];
	for (const client of lineup) await timedWalk(client, projects);
	const walks = lineup.map(() => /** @type {{ cpuMs: number, items: number }[]} */ ([]));
	for (let round = 0; round < repetitions; round++) {
		for (const [index, client] of lineup.entries()) {
			walks[index].push(await timedWalk(client, projects));
		}
	}
	const pages = plainClient(target, { name: 'pages', pageSize: MAX_PAGE_SIZE, keepBodies: true });
	const { bodies } = await pages.walk();
	const parse = warmCpuRuns(repetitions, () => bodies.flatMap((body) => JSON.parse(body).data));
	return {
		pages: bodies.length,
		responseBytes: bodies.reduce((sum, body) => sum + Buffer.byteLength(body), 0),
		parseCpuMs: median(parse.cpuRuns),
		plainCpuMs: walks[0].map((walk) => walk.cpuMs),
		modes: MODES.map((mode, index) => ({
			...mode,
			items: walks[index + 1][0].items,
			cpuMs: walks[index + 1].map((walk) => walk.cpuMs),
			shapingCpuMs: median(warmCpuRuns(repetitions, () => shapeItems(parse.result, mode)).cpuRuns),
		})),
	};
}

/**
 * @param {import('./sandbox').BenchSandbox} bench
 * @param {number} repetitions
 */
async function measureItems(bench, repetitions) {
	const worker = await startWorker(__filename);
	/** @type {Awaited<ReturnType<typeof itemsJob>>} */
	let measured;
	try {
		const { target, projects } = bench;
		measured = await worker.run({ kind: 'items', target, projects, repetitions });
	} finally {
		await worker.stop();
	}
	const { plainCpuMs, modes, ...pages } = measured;
	const [projectsCpuMs] = modes.map((mode) => mode.cpuMs);
	/** Pairwise, turn by turn under the same load: what `cpuMs` cost beyond `baseline`. */
	const beyond = (/** @type {number[]} */ cpuMs, /** @type {number[]} */ baseline) =>
		median(cpuMs.map((ms, round) => ms - baseline[round]));
	return {
		projects: bench.projects,
		tenders: bench.tenders,
		...pages,
		plainCpuMs: median(plainCpuMs),
		modes: modes.map(({ cpuMs, ...mode }) => {
			const modeCpuMs = beyond(cpuMs, projectsCpuMs);
			return {
				...mode,
				oursCpuMs: median(cpuMs),
				itemsPerCpuSecond: (mode.items * 1000) / median(cpuMs),
				modeCpuMs,
				itemsPerModeCpuSecond: modeCpuMs > 0 ? (mode.items * 1000) / modeCpuMs : null,
				beyondPlainCpuMs: beyond(cpuMs, plainCpuMs),
			};
		}),
	};
}

module.exports = { measureItems, workerJobs: { items: itemsJob } };
