// @ts-check
'use strict';

/**
 * The walks on loopback, against the floor: the requests of one full walk, each client cold; the
 * wall time of a full walk with 50 ms added to every request, beside 50 ms timers alone and bare
 * round trips, what this machine costs before any client works; the tokens of 50 executions on
 * one credential, back to back and 5 minutes apart on a simulated clock. Load after
 * runtime.installRuntime().
 */

const { setTimeout: delay } = require('node:timers/promises');
const { median } = require('simple-statistics');

const { ourNode, plainClient, recipe, timedWalk } = require('./clients');
const { MAX_PAGE_SIZE, pagesFor, requestFloor, tokenFloor } = require('./floors');
const { countRequests } = require('./sandbox');

/** @typedef {import('./sandbox').BenchSandbox} BenchSandbox */
/** @typedef {import('./runtime').N8nBase} N8nBase */

const SIZES = [100, 1_000, 10_000];
const EXECUTIONS = 50;
const MINUTES_BETWEEN = 5;
const TOKEN_LIFETIME_MS = 3_600_000;
const LATENCY_MS = 50;

/**
 * One complete walk, and the requests the sandbox logged for it.
 * @param {BenchSandbox} bench
 * @param {import('./clients').Client} client
 */
async function countedWalk(bench, client) {
	bench.sandbox.resetRequests();
	const { wallMs } = await timedWalk(client, bench.projects);
	return { wallMs, counts: countRequests(bench.sandbox) };
}

/**
 * Date.now is moved forward between executions, so our token cache, n8n's OAuth2 token expiry
 * and the sandbox's clock see the same time pass; timers are untouched.
 * @param {BenchSandbox} bench
 * @param {N8nBase} n8nBase
 */
async function measureTokens(bench, n8nBase) {
	const realNow = Date.now;
	let skewMs = 0;
	Date.now = () => realNow() + skewMs;
	/** @param {import('./clients').Client} client @param {number} gapMs */
	const executions = async (client, gapMs) => {
		const total = { results: 0, tokens: 0, failed: 0 };
		for (let execution = 0; execution < EXECUTIONS; execution++) {
			if (execution > 0) skewMs += gapMs;
			const { counts } = await countedWalk(bench, client);
			total.results += counts.results;
			total.tokens += counts.tokens;
			total.failed += counts.failed;
		}
		return total;
	};
	/** @param {number} gapMs */
	const both = async (gapMs) => ({
		ours: await executions(ourNode(bench.target), gapMs),
		recipe: await executions(recipe(bench.target, n8nBase), gapMs),
	});
	const spanMs = (EXECUTIONS - 1) * MINUTES_BETWEEN * 60_000;
	try {
		return {
			executions: EXECUTIONS,
			projectsPerExecution: bench.projects,
			backToBack: { floor: 1, ...(await both(0)) },
			spread: {
				minutesBetween: MINUTES_BETWEEN,
				spanMinutes: spanMs / 60_000,
				floor: tokenFloor(spanMs, TOKEN_LIFETIME_MS),
				...(await both(MINUTES_BETWEEN * 60_000)),
			},
		};
	} finally {
		Date.now = realNow;
	}
}

/**
 * Each client's first walk, untimed, is cold: its requests are a full walk's. Then warm walks,
 * the clients taking turns in each repetition, 50 ms added to every request.
 * @param {BenchSandbox[]} sandboxes one per size
 * @param {N8nBase} n8nBase
 * @param {number} repetitions
 */
async function measureWalks(sandboxes, n8nBase, repetitions) {
	const rows = [];
	for (const bench of sandboxes) {
		const { target, projects } = bench;
		const pages = pagesFor(projects, MAX_PAGE_SIZE);
		const plain = plainClient(target, { name: 'plain100', pageSize: MAX_PAGE_SIZE });
		const lineup = [ourNode(target), recipe(target, n8nBase), plain];
		/** @type {Record<string, import('./sandbox').RequestCounts>} */
		const requests = {};
		for (const client of [...lineup, plainClient(target, { name: 'defaultPageSize' })]) {
			requests[client.name] = (await countedWalk(bench, client)).counts;
		}
		await plain.roundTrips(1);
		/** @type {Record<string, number[]>} */
		const runs = { timers: [], roundTrips: [], ours: [], recipe: [], plain100: [] };
		bench.sandbox.setLatency(LATENCY_MS);
		for (let round = 0; round < repetitions; round++) {
			const start = performance.now();
			for (let page = 0; page < pages; page++) await delay(LATENCY_MS);
			runs.timers.push(performance.now() - start);
			runs.roundTrips.push(await plain.roundTrips(pages));
			for (const client of lineup) {
				const { wallMs, counts } = await countedWalk(bench, client);
				if (counts.results !== pages || counts.tokens !== 0) {
					throw new Error(
						`${client.name} sent ${counts.results} page and ${counts.tokens} token requests in a warm walk of ${pages} pages`,
					);
				}
				runs[client.name].push(wallMs);
			}
		}
		bench.sandbox.setLatency(0);
		const floorMs = pages * LATENCY_MS;
		/** @type {Record<string, WallCell>} */
		const cells = {};
		for (const [key, runsMs] of Object.entries(runs)) {
			cells[key] = { medianMs: median(runsMs), ratioToFloor: median(runsMs) / floorMs, runsMs };
		}
		rows.push({ projects, floor: requestFloor(projects), requests, pages, floorMs, cells });
	}
	return rows;
}

/** @typedef {{ medianMs: number, ratioToFloor: number, runsMs: number[] }} WallCell */

module.exports = { LATENCY_MS, SIZES, measureWalks, measureTokens };
