// @ts-check
'use strict';

/**
 * The bench's sandbox: one company whose keywords match every tender, holding exactly the number
 * of projects asked for, with 1 to 5 tenders each (3 on average, so 10,000 projects carry 30,000
 * tenders). The rate limit is off: the bench makes in minutes the requests the API spreads over
 * hours. The response cache is on for an hour, so a repeated walk is answered from the sandbox's
 * cache (as the API may answer a repeated cursor and limit): every request still reaches the
 * server and is logged, but the sandbox's own page building no longer counts against the timed
 * clients, as the floor (pages × latency) assumes a server that takes no time.
 */

const { startSandbox, SANDBOX_FIXTURES } = require('../../sandbox');

/** @typedef {import('../../sandbox').Sandbox} Sandbox */
/** @typedef {import('../../sandbox/server').RequestLogEntry} RequestLogEntry */

const BENCH_COMPANY_ID = 'bench-company';
const BENCH_CLIENT = Object.freeze({ clientId: 'bench-client', clientSecret: 'bench-secret' });
/** Every tender's type is Tender or Procurement, and its words are matched against keywords. */
const MATCH_ALL_KEYWORDS = ['tender', 'procurement'];
/** Tenders per project in turn: 1 to 5, averaging 3. */
const TENDERS_PER_PROJECT = [3, 1, 5, 2, 4];
/** A fixed start day, so every run has the same data. */
const BENCH_NOW = '2025-03-03T09:00:00.000Z';
const RESULTS_PATH = /^\/api\/supplier\/v1\/companies\/[^/]+\/speci-finder\/results$/;

/**
 * @typedef {object} BenchSandbox
 * @property {Sandbox} sandbox
 * @property {number} projects
 * @property {number} tenders
 * @property {string} companyId
 * @property {{ clientId: string, clientSecret: string }} client
 */

/**
 * @param {{ projects: number, seed?: number, https?: boolean }} options https: serve HTTPS (TLS 1.2
 *   or 1.3 until sandbox.setTlsVersion pins one)
 * @returns {Promise<BenchSandbox>}
 */
async function startBenchSandbox({ projects, seed = 7, https = false }) {
	const sandbox = await startSandbox({
		...(https ? { https: {} } : {}),
		seed,
		projects: 0,
		now: BENCH_NOW,
		rateLimit: false,
		cacheSeconds: 3600,
		companies: [{ companyId: BENCH_COMPANY_ID, keywords: MATCH_ALL_KEYWORDS }],
		clients: [
			{
				...BENCH_CLIENT,
				scopes: [SANDBOX_FIXTURES.scope],
				companyIds: [BENCH_COMPANY_ID],
			},
		],
	});
	let tenders = 0;
	for (let index = 0; index < projects; index++) {
		const count = TENDERS_PER_PROJECT[index % TENDERS_PER_PROJECT.length];
		const first = sandbox.openTender({ companyId: BENCH_COMPANY_ID });
		for (let extra = 1; extra < count; extra++) {
			sandbox.openTender({
				companyId: BENCH_COMPANY_ID,
				projectId: first.projectId,
				type: extra % 3 === 0 ? 'Procurement' : 'Tender',
			});
		}
		tenders += count;
	}
	const listed = sandbox.listOpen(BENCH_COMPANY_ID);
	if (listed.length !== projects) {
		await sandbox.stop();
		throw new Error(
			`the bench sandbox lists ${listed.length} projects instead of ${projects}; the data set is not what the bench measures`,
		);
	}
	sandbox.resetRequests();
	return { sandbox, projects, tenders, companyId: BENCH_COMPANY_ID, client: { ...BENCH_CLIENT } };
}

/**
 * @typedef {object} RequestCounts
 * @property {number} results requests to the results endpoint
 * @property {number} tokens requests to the token endpoint
 * @property {number} failed requests answered with a status other than 200
 */

/**
 * Counts what the sandbox logged since its last resetRequests().
 * @param {Sandbox} sandbox
 * @returns {RequestCounts}
 */
function countRequests(sandbox) {
	/** @type {RequestCounts} */
	const counts = { results: 0, tokens: 0, failed: 0 };
	for (const entry of sandbox.requests()) {
		if (entry.path === '/oauth2/token') counts.tokens++;
		else if (RESULTS_PATH.test(entry.path)) counts.results++;
		if (entry.status !== 200) counts.failed++;
	}
	return counts;
}

module.exports = { startBenchSandbox, countRequests };
