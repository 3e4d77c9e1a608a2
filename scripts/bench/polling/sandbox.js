// @ts-check
'use strict';

/**
 * The polling bench's sandbox: one partner client registered to N companies, each with a keyword
 * of its own (a tender opened for one company matches no other) and P matched projects of one
 * tender each, with the sandbox's real rate limit (100 requests per 5 minutes per client) and
 * short cache. Its day starts at noon, so no due date passes midnight while a run lasts. And the
 * opener that opens the run's tenders, each for a random company, at the planned times.
 */

const { startSandbox, SANDBOX_FIXTURES } = require('../../../sandbox');
const { createRandom } = require('../../../sandbox/random');

/** @typedef {import('../../../sandbox').Sandbox} Sandbox */

const BENCH_CLIENT = Object.freeze({
	clientId: 'polling-bench-client',
	clientSecret: 'polling-bench-secret',
});

/** @param {number} index from 0 */
const companyIdOf = (index) => `poll-co-${String(index + 1).padStart(3, '0')}`;
/** One word no tender name carries but those opened for this company ("Pollco007 package"). */
const keywordOf = (/** @type {string} */ companyId) => companyId.replace(/[^a-z0-9]/g, '');

/**
 * @typedef {object} PollingSandbox
 * @property {Sandbox} sandbox
 * @property {string[]} companyIds
 * @property {{ clientId: string, clientSecret: string }} client
 * @property {(at: string) => number} toRealMs a request log time (sandbox clock) in this machine's epoch ms
 */

/**
 * @param {{ companies: number, projects: number, latencyMs: number, seed: number, log: (line: string) => void }} options
 * @returns {Promise<PollingSandbox>}
 */
async function startPollingSandbox({ companies, projects, latencyMs, seed, log }) {
	const companyIds = Array.from({ length: companies }, (_, index) => companyIdOf(index));
	const today = new Date().toISOString().slice(0, 10);
	const sandbox = await startSandbox({
		port: 0,
		seed,
		projects: 0,
		now: `${today}T12:00:00.000Z`,
		companies: companyIds.map((companyId) => ({ companyId, keywords: [keywordOf(companyId)] })),
		clients: [{ ...BENCH_CLIENT, scopes: [SANDBOX_FIXTURES.scope], companyIds }],
	});
	try {
		log(`sandbox: ${companies} companies × ${projects} matched projects, at ${sandbox.url}`);
		for (const companyId of companyIds) {
			for (let index = 0; index < projects; index++) sandbox.openTender({ companyId });
			const listed = sandbox.listOpen(companyId).length;
			if (listed !== projects) {
				throw new Error(`${companyId} lists ${listed} projects instead of ${projects}`);
			}
		}
	} catch (error) {
		await sandbox.stop();
		throw error;
	}
	sandbox.setLatency(latencyMs);
	sandbox.resetRequests();
	const offsetMs = sandbox.clock.now() - Date.now();
	return {
		sandbox,
		companyIds,
		client: { ...BENCH_CLIENT },
		toRealMs: (at) => Date.parse(at) - offsetMs,
	};
}

/**
 * @typedef {object} OpenedTender
 * @property {string} tenderId
 * @property {string} companyId
 * @property {number} openedAtMs
 */

/**
 * Opens a tender for a random company (repeatable for a seed) at each planned time.
 * @param {{ sandbox: Sandbox, companyIds: string[], startMs: number, tenderAtMs: number[], seed: number, log: (line: string) => void }} options
 * @returns {{ opened: OpenedTender[], stop: () => void }}
 */
function startTenderOpener({ sandbox, companyIds, startMs, tenderAtMs, seed, log }) {
	const random = createRandom(seed);
	/** @type {OpenedTender[]} */
	const opened = [];
	const open = () => {
		const companyId = random.pick(companyIds);
		const tender = sandbox.openTender({ companyId });
		opened.push({ tenderId: tender.id, companyId, openedAtMs: Date.now() });
		log(`tender ${opened.length}/${tenderAtMs.length}: ${tender.id} for ${companyId}`);
	};
	const timers = tenderAtMs.map((at) => setTimeout(open, Math.max(0, startMs + at - Date.now())));
	return { opened, stop: () => timers.forEach((timer) => clearTimeout(timer)) };
}

module.exports = { startPollingSandbox, startTenderOpener };
