#!/usr/bin/env node
// @ts-check
'use strict';

/**
 * `npm run bench`: requests, tokens, wall time, CPU and memory of our node against the physical
 * floor, the HTTP Request node recipe and a plain client, side by side in one run against the
 * local sandbox (requests.js, wall-time.js, item-costs.js, trigger.js). Prints the tables and
 * writes them as JSON (and Markdown) under .bench-results/.
 *
 * Then the network view: the same walks over HTTPS through a latency proxy (network.js).
 * `npm run bench -- --network` runs that part alone.
 *
 * Environment: BENCH_REPETITIONS (default 3) repetitions of every timed measurement;
 * BENCH_OUTPUT the JSON file to write.
 */

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parseArgs } = require('node:util');

const { envNumber } = require('../../sandbox/env');
const { measureItems } = require('./item-costs');
const { measureNetwork, networkSections, probeLine } = require('./network');
const { EXECUTIONS, SIZES, measureRequests, measureTokens } = require('./requests');
const { headline, judge, renderTables } = require('./results');
const { installRuntime, assertSingleN8nTree, REPO_ROOT } = require('./runtime');
const { startBenchSandbox } = require('./sandbox');
const { fixed, renderSections } = require('./tables');
const { LATENCY_MS, measureWallTime } = require('./wall-time');

/** @typedef {import('./sandbox').BenchSandbox} BenchSandbox */
/** @typedef {import('./trigger').TriggerMeasurement} TriggerMeasurement */
/** @typedef {import('./results').Verdict} Verdict */
/** @typedef {typeof import('./clients')} Clients */

const ITEMS_PROJECTS = 10_000;
const TRIGGER_TENDERS = 100_000;

const benchStart = performance.now();

/**
 * @param {string} line
 */
function progress(line) {
	const seconds = ((performance.now() - benchStart) / 1000).toFixed(0).padStart(4);
	process.stderr.write(`[bench ${seconds} s] ${line}\n`);
}

/**
 * The measurements on loopback (requests, tokens, wall time, items, trigger state), each against
 * its own sandbox.
 * @param {import('./runtime').N8nBase} n8nBase
 * @param {number} repetitions
 */
async function measureOnLoopback(n8nBase, repetitions) {
	/** @type {Clients} */
	const clients = require('./clients');
	const { measureTrigger } = require('./trigger');
	/** @type {Map<number, BenchSandbox>} */
	const sandboxes = new Map();
	try {
		for (const projects of SIZES) {
			progress(`starting a sandbox with ${fixed(projects)} projects`);
			sandboxes.set(projects, await startBenchSandbox({ projects }));
		}
		/** @param {number} projects */
		const sandboxOf = (projects) => {
			const bench = sandboxes.get(projects);
			if (bench === undefined) throw new Error(`no sandbox with ${projects} projects`);
			return bench;
		};

		progress('requests of a full walk');
		const requests = await measureRequests(sandboxOf, clients, n8nBase);
		progress(`tokens over ${EXECUTIONS} executions`);
		const tokens = await measureTokens(sandboxOf(100), clients, n8nBase);
		progress(`wall time with ${LATENCY_MS} ms latency per request, ${repetitions} repetitions`);
		const wallTime = await measureWallTime(sandboxOf, clients, n8nBase, repetitions);
		progress(
			`CPU and memory of ${fixed(ITEMS_PROJECTS)} projects into items, one process per output mode`,
		);
		const items = await measureItems(sandboxOf(ITEMS_PROJECTS), repetitions, progress);
		progress(`trigger state over ${fixed(TRIGGER_TENDERS)} tracked tenders`);
		const trigger = /** @type {const} */ (['newTender', 'newOrUpdatedTender', 'quotesDueSoon']).map(
			(event) =>
				measureTrigger({ event, tracked: TRIGGER_TENDERS, repetitions: Math.max(5, repetitions) }),
		);
		assertSingleN8nTree();
		return { requests, tokens, wallTime, items, trigger };
	} finally {
		for (const bench of sandboxes.values()) await bench.sandbox.stop();
	}
}

/**
 * Writes the results as JSON and the tables as Markdown beside them, and prints the tables.
 * @param {string} file
 * @param {object} results
 * @param {string} tables
 */
function writeResults(file, results, tables) {
	const markdownFile = file.replace(/\.json$/, '.md');
	fs.mkdirSync(path.dirname(file), { recursive: true });
	fs.writeFileSync(file, `${JSON.stringify(results, null, '\t')}\n`);
	fs.writeFileSync(markdownFile, `${tables}\n`);
	process.stdout.write(`${tables}\n\nResults: ${file} (tables as Markdown: ${markdownFile})\n`);
}

async function main() {
	const repetitions = envNumber('BENCH_REPETITIONS', 3, 1, 50);
	const outputFile = path.resolve(
		process.env.BENCH_OUTPUT ?? path.join(REPO_ROOT, '.bench-results', 'bench-results.json'),
	);
	// `--network`: the network tables alone, written to network-results.json beside the full results.
	const networkOnly = parseArgs({ options: { network: { type: 'boolean' } } }).values.network;
	const startedAt = new Date();
	const loadAtStart = os.loadavg();
	progress('loading the real n8n install (installs it once, about five minutes, if missing)');
	const runtime = await installRuntime(progress);
	const n8nBase = runtime.n8nBase();
	const { httpRequestNode } = n8nBase;
	const versions = {
		...runtime.versions,
		httpRequestNode: httpRequestNode.description.defaultVersion ?? httpRequestNode.currentVersion,
	};
	const loopback = networkOnly ? undefined : await measureOnLoopback(n8nBase, repetitions);
	progress('network: HTTPS through the latency proxy, clients in a process of their own');
	const network = await measureNetwork({ progress });
	const header = {
		generatedAt: startedAt.toISOString(),
		finishedAt: new Date().toISOString(),
		machine: {
			node: process.version,
			platform: `${process.platform} ${process.arch}`,
			cpus: os.cpus().length,
			cpuModel: os.cpus()[0]?.model ?? 'unknown',
			loadAverageAtStart: loadAtStart,
			loadAverageAtEnd: os.loadavg(),
		},
		versions,
	};
	if (loopback === undefined) {
		const results = { ...header, network };
		const tables = [
			headline(results),
			probeLine(network),
			renderSections(networkSections(network)),
		];
		const file = path.join(path.dirname(outputFile), 'network-results.json');
		writeResults(file, results, tables.join('\n'));
		return;
	}
	/** @type {Results} */
	const results = {
		...header,
		settings: { repetitions, latencyMs: LATENCY_MS },
		...loopback,
		network,
		verdicts: [],
	};
	results.verdicts = judge(results);
	writeResults(outputFile, results, renderTables(results));
}

/**
 * @typedef {import('./wall-time').WallCell} WallCell
 * @typedef {Awaited<ReturnType<typeof measureItems>>} ItemsSection
 * @typedef {object} Results
 * @property {string} generatedAt
 * @property {string} finishedAt
 * @property {{ node: string, platform: string, cpus: number, cpuModel: string, loadAverageAtStart: number[], loadAverageAtEnd: number[] }} machine
 * @property {Record<string, string | number>} versions
 * @property {{ repetitions: number, latencyMs: number }} settings
 * @property {Awaited<ReturnType<typeof measureRequests>>} requests
 * @property {Awaited<ReturnType<typeof measureTokens>>} tokens
 * @property {Array<{ projects: number, pages: number, floorMs: number, timers: WallCell, roundTrips: WallCell, clients: Record<string, WallCell | undefined> }>} wallTime
 * @property {ItemsSection} items
 * @property {TriggerMeasurement[]} trigger
 * @property {Awaited<ReturnType<typeof measureNetwork>>} network
 * @property {Verdict[]} verdicts
 */

main().catch((/** @type {unknown} */ error) => {
	process.stderr.write(
		`[bench] failed: ${error instanceof Error ? error.message : String(error)}\n`,
	);
	process.exitCode = 1;
});
