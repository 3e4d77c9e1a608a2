// @ts-check
'use strict';

/**
 * The benches' sandbox: one client registered to the given companies, each holding exactly
 * `projects` matched projects, and what the sandbox logged, counted.
 */

const { startSandbox, SANDBOX_FIXTURES } = require('../../sandbox');

/** @typedef {import('../../sandbox').Sandbox} Sandbox */
/** @typedef {Awaited<ReturnType<typeof startBenchSandbox>>} BenchSandbox */

/** The fixtures' client, the one the examples' credential holds, here registered to the companies. */
const { client, scope } = SANDBOX_FIXTURES;
const RESULTS_PATH = /^\/api\/supplier\/v1\/companies\/([^/]+)\/speci-finder\/results$/;

/**
 * @param {Omit<import('../../sandbox').SandboxOptions, 'companies' | 'clients'> & { companies: { companyId: string, keywords: string[] }[], projects: number, tendersPerProject?: number[] }} options
 *   tendersPerProject: each project's tenders, in turn (default one each)
 */
async function startBenchSandbox({ companies, projects, tendersPerProject = [1], ...options }) {
	const companyIds = companies.map((company) => company.companyId);
	const sandbox = await startSandbox({
		...options,
		projects: 0,
		companies,
		clients: [{ ...client, scopes: [scope], companyIds }],
	});
	const tenders = Array.from({ length: projects }, (_, index) => {
		return tendersPerProject[index % tendersPerProject.length];
	});
	try {
		for (const companyId of companyIds) {
			for (const count of tenders) {
				const { projectId } = sandbox.openTender({ companyId });
				for (let extra = 1; extra < count; extra++) {
					const type = extra % 3 === 0 ? 'Procurement' : 'Tender';
					sandbox.openTender({ companyId, projectId, type });
				}
			}
			const listed = sandbox.listOpen(companyId).length;
			if (listed !== projects)
				throw new Error(`${companyId} lists ${listed} of ${projects} projects`);
		}
	} catch (error) {
		await sandbox.stop();
		throw error;
	}
	sandbox.resetRequests();
	return {
		sandbox,
		projects,
		tenders: tenders.reduce((sum, count) => sum + count, 0),
		/** What a client walking the first company needs to know. */
		target: { url: sandbox.url, companyId: companyIds[0], client: { ...client } },
	};
}

/**
 * The walks' sandbox: one company whose keywords match every tender, its projects holding 1 to 5
 * tenders (3 on average), the same data in every run. No rate limit: the bench sends in minutes
 * what the API spreads over hours. A repeated page comes from the sandbox's cache, as the API may
 * answer a repeated cursor, so the timed clients do not pay for the sandbox building pages (the
 * floor assumes a server that takes no time); every request still reaches it and is logged.
 * @param {number} projects
 * @param {boolean} [https] serve HTTPS (TLS 1.2 or 1.3 until sandbox.setTlsVersion pins one)
 */
function startWalkSandbox(projects, https = false) {
	return startBenchSandbox({
		companies: [{ companyId: 'bench-company', keywords: ['tender', 'procurement'] }],
		projects,
		tendersPerProject: [3, 1, 5, 2, 4],
		seed: 7,
		now: '2025-03-03T09:00:00.000Z',
		rateLimit: false,
		cacheSeconds: 3600,
		...(https ? { https: {} } : {}),
	});
}

/**
 * What the sandbox logged since its last resetRequests().
 * @param {Sandbox} sandbox
 */
function countRequests(sandbox) {
	const counts = { results: 0, tokens: 0, failed: 0 };
	for (const entry of sandbox.requests()) {
		if (entry.path === '/oauth2/token') counts.tokens++;
		else if (RESULTS_PATH.test(entry.path)) counts.results++;
		if (entry.status !== 200) counts.failed++;
	}
	return counts;
}

/** @typedef {ReturnType<typeof countRequests>} RequestCounts */

module.exports = { startBenchSandbox, startWalkSandbox, countRequests, RESULTS_PATH };
