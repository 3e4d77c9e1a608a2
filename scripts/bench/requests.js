// @ts-check
'use strict';

/**
 * Requests of one full walk, each client cold, and tokens over 50 executions on one credential
 * (back to back, and 5 minutes apart on a simulated clock): ours, the recipe and the plain client
 * against the floor.
 */

const { countRequests } = require('./sandbox');
const { DEFAULT_PAGE_SIZE, pagesFor, requestFloor, tokenFloor } = require('./floors');

/** @typedef {import('./sandbox').BenchSandbox} BenchSandbox */
/** @typedef {import('./sandbox').RequestCounts} RequestCounts */
/** @typedef {import('./clients').Client} Client */
/** @typedef {import('./clients').Target} Target */
/** @typedef {typeof import('./clients')} Clients */
/** @typedef {import('./runtime').N8nBase} N8nBase */

const SIZES = [100, 1_000, 10_000];
const EXECUTIONS = 50;
const MINUTES_BETWEEN_EXECUTIONS = 5;
const TOKEN_LIFETIME_MS = 3_600_000;

/**
 * @param {BenchSandbox} bench
 * @returns {Target}
 */
function targetOf(bench) {
	return { url: bench.sandbox.url, companyId: bench.companyId, client: bench.client };
}

/**
 * One execution against a sandbox, checked: every project delivered, and what it sent counted.
 * @param {BenchSandbox} bench
 * @param {Client} client
 * @returns {Promise<{ counts: RequestCounts, wallMs: number, items: number }>}
 */
async function measuredWalk(bench, client) {
	client.freshBudget();
	bench.sandbox.resetRequests();
	const start = performance.now();
	const result = await client.walk();
	const wallMs = performance.now() - start;
	const counts = countRequests(bench.sandbox);
	const delivered = result.projects();
	if (delivered !== bench.projects) {
		throw new Error(
			`${client.name} delivered ${delivered} of ${bench.projects} projects; the bench only compares complete walks`,
		);
	}
	if (counts.failed > 0 && client.name === 'ours') {
		throw new Error(
			`our node got ${counts.failed} failed answers from the sandbox; nothing should fail here`,
		);
	}
	return { counts, wallMs, items: result.items };
}

/**
 * Runs `run` with Date.now moved forward by what it asks for; everything in this process that
 * tells time by Date.now (our token cache, n8n's OAuth2 token expiry, the sandbox clock) sees the
 * same simulated time. Timers are untouched.
 * @template T
 * @param {(advance: (ms: number) => void) => Promise<T>} run
 * @returns {Promise<T>}
 */
async function withSimulatedTime(run) {
	const realNow = Date.now;
	let skew = 0;
	Date.now = () => realNow() + skew;
	try {
		return await run((ms) => {
			skew += ms;
		});
	} finally {
		Date.now = realNow;
	}
}

/**
 * @param {(projects: number) => BenchSandbox} sandboxOf
 * @param {Clients} clients
 * @param {N8nBase} n8nBase
 */
async function measureRequests(sandboxOf, clients, n8nBase) {
	const rows = [];
	for (const projects of SIZES) {
		const bench = sandboxOf(projects);
		const target = targetOf(bench);
		/** @type {Record<string, RequestCounts>} */
		const counts = {};
		for (const client of [
			clients.ourNode(target),
			clients.recipe(target, n8nBase),
			clients.plainClient(target, { name: 'defaultPageSize' }),
		]) {
			client.forget();
			counts[client.name] = (await measuredWalk(bench, client)).counts;
		}
		rows.push({
			projects,
			tenders: bench.tenders,
			floor: requestFloor(projects),
			defaultPageSizePages: pagesFor(projects, DEFAULT_PAGE_SIZE),
			clients: counts,
		});
	}
	return rows;
}

/**
 * @param {BenchSandbox} bench
 * @param {Clients} clients
 * @param {N8nBase} n8nBase
 */
async function measureTokens(bench, clients, n8nBase) {
	const target = targetOf(bench);
	/**
	 * @param {Client} client
	 * @param {(ms: number) => void} [advance]
	 */
	const executions = async (client, advance) => {
		client.forget();
		/** @type {RequestCounts} */
		const total = { results: 0, tokens: 0, failed: 0 };
		for (let execution = 0; execution < EXECUTIONS; execution++) {
			if (execution > 0) advance?.(MINUTES_BETWEEN_EXECUTIONS * 60_000);
			const { counts } = await measuredWalk(bench, client);
			total.results += counts.results;
			total.tokens += counts.tokens;
			total.failed += counts.failed;
		}
		return total;
	};
	const backToBack = {
		ours: await executions(clients.ourNode(target)),
		recipe: await executions(clients.recipe(target, n8nBase)),
	};
	const spanMs = (EXECUTIONS - 1) * MINUTES_BETWEEN_EXECUTIONS * 60_000;
	const spread = await withSimulatedTime(async (advance) => ({
		ours: await executions(clients.ourNode(target), advance),
		recipe: await executions(clients.recipe(target, n8nBase), advance),
	}));
	return {
		executions: EXECUTIONS,
		projectsPerExecution: bench.projects,
		backToBack: { floor: 1, ...backToBack },
		spread: {
			minutesBetween: MINUTES_BETWEEN_EXECUTIONS,
			spanMinutes: spanMs / 60_000,
			floor: tokenFloor(spanMs, TOKEN_LIFETIME_MS),
			...spread,
		},
	};
}

module.exports = { SIZES, EXECUTIONS, targetOf, measuredWalk, measureRequests, measureTokens };
