// @ts-check
'use strict';

/**
 * Wall time of a full walk with 50 ms added to every request, against pages × 50 ms, beside the
 * timers alone and bare round trips that show what this machine costs before any client works.
 */

const { median } = require('simple-statistics');
const { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, pagesFor } = require('./floors');
const { SIZES, measuredWalk, targetOf } = require('./requests');

/** @typedef {import('./sandbox').BenchSandbox} BenchSandbox */
/** @typedef {typeof import('./clients')} Clients */
/** @typedef {import('./runtime').N8nBase} N8nBase */
/** @typedef {{ requests: number, medianMs: number, ratioToFloor: number, runsMs: number[] }} WallCell */

const LATENCY_MS = 50;
/**
 * Walks longer than this are not timed: the plain client at 25 per page needs 400 pages (20 s at
 * 50 ms) for 10,000 projects, and its ratio to the floor is already clear at 1,000. A cold walk
 * differs from a warm one by one token request, which shows at the smaller sizes.
 */
const LONGEST_TIMED_WALK = 200;
const LARGEST_COLD_WALK = 1_000;

/**
 * How long `count` 50 ms timers in a row take in this process right now: what the latency alone
 * costs on this machine, before any client or server work.
 * @param {number} count
 * @returns {Promise<number>}
 */
async function timersInARow(count) {
	const start = performance.now();
	for (let index = 0; index < count; index++) {
		await new Promise((resolve) => setTimeout(resolve, LATENCY_MS));
	}
	return performance.now() - start;
}

/**
 * Every timed walk of every round, by key, with the timers and bare round trips beside them.
 * @param {BenchSandbox} bench
 * @param {{ key: string, client: import('./clients').Client, cold: boolean, pages: number }[]} lineup
 * @param {ReturnType<Clients['roundTrips']>} bare
 * @param {{ projects: number, pages: number, repetitions: number }} size
 * @returns {Promise<Record<string, number[]>>}
 */
async function timedRuns(bench, lineup, bare, { projects, pages, repetitions }) {
	/** @type {Record<string, number[]>} */
	const runs = Object.fromEntries([
		...lineup.map((entry) => [entry.key, []]),
		['timers', []],
		['roundTrips', []],
	]);
	for (let round = 0; round < repetitions; round++) {
		runs.timers.push(await timersInARow(pages));
		runs.roundTrips.push(await bare.inARow(pages));
		for (const entry of lineup) {
			if (entry.cold) entry.client.forget();
			const { counts, wallMs } = await measuredWalk(bench, entry.client);
			const expectedTokens = entry.cold ? 1 : 0;
			if (counts.results !== entry.pages || counts.tokens !== expectedTokens) {
				throw new Error(
					`${entry.key} sent ${counts.results} page and ${counts.tokens} token requests during a timed walk of ${projects} projects; expected ${entry.pages} and ${expectedTokens}`,
				);
			}
			runs[entry.key].push(wallMs);
		}
	}
	return runs;
}

/**
 * @param {(projects: number) => BenchSandbox} sandboxOf
 * @param {Clients} clients
 * @param {N8nBase} n8nBase
 * @param {number} repetitions
 */
async function measureWallTime(sandboxOf, clients, n8nBase, repetitions) {
	const rows = [];
	for (const projects of SIZES) {
		const bench = sandboxOf(projects);
		const target = targetOf(bench);
		const pages = pagesFor(projects, MAX_PAGE_SIZE);
		// In each round the cold run comes before the warm one: its forget() empties the process's
		// token cache, and the warm run then uses the token the cold one fetched.
		const lineup = [
			{ key: 'oursCold', client: clients.ourNode(target), cold: true, pages },
			{ key: 'ours', client: clients.ourNode(target), cold: false, pages },
			{ key: 'recipe', client: clients.recipe(target, n8nBase), cold: false, pages },
			{
				key: 'plain100',
				client: clients.plainClient(target, { name: 'plain100', pageSize: MAX_PAGE_SIZE }),
				cold: false,
				pages,
			},
			{
				key: 'defaultPageSize',
				client: clients.plainClient(target, { name: 'defaultPageSize' }),
				cold: false,
				pages: pagesFor(projects, DEFAULT_PAGE_SIZE),
			},
		].filter(
			(entry) =>
				entry.pages <= LONGEST_TIMED_WALK && (!entry.cold || projects <= LARGEST_COLD_WALK),
		);
		const bare = clients.roundTrips(target);
		// Untimed walks fill the sandbox's response cache and give the warm clients their token.
		bench.sandbox.setLatency(0);
		for (const entry of lineup) await measuredWalk(bench, entry.client);
		await bare.inARow(1);
		bench.sandbox.setLatency(LATENCY_MS);
		const runs = await timedRuns(bench, lineup, bare, { projects, pages, repetitions });
		bench.sandbox.setLatency(0);
		const floorMs = pages * LATENCY_MS;
		/**
		 * @param {string} key
		 * @param {number} requests
		 * @returns {WallCell}
		 */
		const cell = (key, requests) => {
			const medianMs = median(runs[key]);
			return { requests, medianMs, ratioToFloor: medianMs / floorMs, runsMs: runs[key] };
		};
		rows.push({
			projects,
			pages,
			latencyMs: LATENCY_MS,
			floorMs,
			timers: cell('timers', pages),
			roundTrips: cell('roundTrips', pages),
			clients: Object.fromEntries(
				lineup.map((entry) => [entry.key, cell(entry.key, entry.pages + (entry.cold ? 1 : 0))]),
			),
		});
	}
	return rows;
}

module.exports = { LATENCY_MS, measureWallTime };
