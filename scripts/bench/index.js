#!/usr/bin/env node
// @ts-check
'use strict';

/**
 * `npm run bench`: requests, tokens, wall time and CPU of our node against the physical floor, the
 * HTTP Request node recipe and a plain client, in one run against the local sandbox (walks.js,
 * items.js, trigger.js), then the same walks over HTTPS through a latency proxy (network.js).
 * Prints the tables and writes them to .bench-results/ as JSON and Markdown.
 *
 * BENCH_REPETITIONS (default 3): repetitions of every timed measurement.
 */

const os = require('node:os');
const path = require('node:path');

const { envNumber } = require('../../sandbox/env');
const { measureNetwork } = require('./network');
const { judge, writeResults } = require('./results');
const { installRuntime, assertSingleN8nTree, REPO_ROOT } = require('./runtime');
const { startWalkSandbox } = require('./sandbox');
const { fixed } = require('./tables');

const TRIGGER_TENDERS = 100_000;
const EVENTS = /** @type {const} */ (['newTender', 'newOrUpdatedTender', 'quotesDueSoon']);

const benchStart = performance.now();

/** @param {string} line */
function progress(line) {
	const seconds = ((performance.now() - benchStart) / 1000).toFixed(0).padStart(4);
	process.stderr.write(`[bench ${seconds} s] ${line}\n`);
}

/**
 * The measurements on loopback, each client against the sandbox of its size.
 * @param {import('./runtime').N8nBase} n8nBase
 * @param {number} repetitions
 */
async function measureOnLoopback(n8nBase, repetitions) {
	const walks = require('./walks');
	const { measureItems } = require('./items');
	const { measureTrigger } = require('./trigger');
	/** @type {import('./sandbox').BenchSandbox[]} */
	const sandboxes = [];
	try {
		for (const projects of walks.SIZES) {
			progress(`starting a sandbox with ${fixed(projects)} projects`);
			sandboxes.push(await startWalkSandbox(projects));
		}
		progress(`requests and wall time of a full walk, ${walks.LATENCY_MS} ms latency per request`);
		const wallTime = await walks.measureWalks(sandboxes, n8nBase, repetitions);
		progress('tokens over 50 executions');
		const tokens = await walks.measureTokens(sandboxes[0], n8nBase);
		progress('CPU of 10,000 projects into items, in a worker');
		const items = await measureItems(sandboxes[2], repetitions);
		progress(`trigger state over ${fixed(TRIGGER_TENDERS)} tracked tenders`);
		const trigger = EVENTS.map((event) =>
			measureTrigger({ event, tracked: TRIGGER_TENDERS, repetitions: Math.max(5, repetitions) }),
		);
		assertSingleN8nTree();
		const settings = { repetitions, latencyMs: walks.LATENCY_MS };
		return { settings, wallTime, tokens, items, trigger };
	} finally {
		for (const bench of sandboxes) await bench.sandbox.stop();
	}
}

async function main() {
	const repetitions = envNumber('BENCH_REPETITIONS', 3, 1, 50);
	const generatedAt = new Date().toISOString();
	const loadAverageAtStart = os.loadavg();
	progress('loading the real n8n install (installs it once, about five minutes, if missing)');
	const runtime = await installRuntime(progress);
	const n8nBase = runtime.n8nBase();
	const { description, currentVersion } = n8nBase.httpRequestNode;
	const loopback = await measureOnLoopback(n8nBase, repetitions);
	progress('network: HTTPS through the latency proxy, clients in a worker');
	const network = await measureNetwork(progress);
	const results = {
		generatedAt,
		finishedAt: new Date().toISOString(),
		machine: {
			node: process.version,
			cpus: os.cpus().length,
			loadAverageAtStart,
			loadAverageAtEnd: os.loadavg(),
		},
		versions: {
			...runtime.versions,
			httpRequestNode: description.defaultVersion ?? currentVersion,
		},
		...loopback,
		network,
	};
	const file = path.join(REPO_ROOT, '.bench-results', 'bench-results.json');
	writeResults(file, { ...results, verdicts: judge(results) });
}

/** @typedef {Awaited<ReturnType<typeof measureOnLoopback>> & { machine: { node: string, cpus: number, loadAverageAtStart: number[], loadAverageAtEnd: number[] }, versions: Record<string, string | number>, network: Awaited<ReturnType<typeof measureNetwork>>, verdicts: import('./results').Verdict[] }} Results */

main().catch((/** @type {unknown} */ error) => {
	process.stderr.write(
		`[bench] failed: ${error instanceof Error ? error.message : String(error)}\n`,
	);
	process.exitCode = 1;
});
