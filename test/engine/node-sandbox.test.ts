import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Project } from '../../nodes/SupplierMatchedProjects/api/types';
import { SANDBOX_FIXTURES, startSandbox } from '../../sandbox';
import { runInVirtualTime, useVirtualTime } from '../support/engine/clock';
import { CREDENTIAL_TYPE, n8nProcess, type N8nProcess, type NodeRun } from '../support/harness';
import { busiestWindow } from '../support/engine/rate-window';
import { filterOracle, type FilterParameters } from '../timeline/oracle';
import type { Sandbox } from '../support/engine/poll-world';

let proc: N8nProcess;

const { companyId } = SANDBOX_FIXTURES;

let sandbox: Sandbox;

/** Get Many for the company, with the node's own defaults (Limit 50) unless a test sets them. */
const run = async (parameters: INodeParameters) =>
	await proc.run({ resource: 'matchedProject', operation: 'getAll', companyId, ...parameters });

function json(result: NodeRun): IDataObject[] {
	expect(result.error).toBeUndefined();
	return (result.items ?? []).map((item) => item.json);
}

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, projects: 250 });
});

afterAll(async () => {
	await sandbox.stop();
});

beforeEach(() => {
	sandbox.resetRequests();
	sandbox.clearCache();
	// A fresh process, as if n8n had restarted: no token, an unspent rate budget.
	proc = n8nProcess({
		credential: { authUrl: sandbox.url, baseUrl: sandbox.url, ...SANDBOX_FIXTURES.client },
	});
});

afterEach(() => {
	expect(proc.credentials.writes).toEqual([]);
});

describe('against the sandbox', () => {
	it('filters on our side', async () => {
		const truth = sandbox.listOpen(companyId);
		const expected = truth
			.filter((p) => p.status === 'Active')
			.map((p) => ({ ...p, tenders: p.tenders.filter((t) => t.type === 'Procurement') }))
			.filter((p) => p.tenders.length > 0);
		expect(expected.length).toBeGreaterThan(0);
		const items = json(
			await run({
				returnAll: true,
				filters: { tenderTypes: ['Procurement'], projectStatuses: ['Active'] },
			}),
		);
		expect(items).toEqual(expected);
	});

	it.each<[string, FilterParameters]>([
		['budget, projects without one dropped', { budgetAtLeast: 1_000_000, budgetAtMost: 5_000_000 }],
		['budget, projects without one kept', { budgetAtMost: 250_000, projectsWithoutBudget: 'keep' }],
		['budget: only projects with one', { projectsWithoutBudget: 'drop' }],
		['category', { categories: 'civic , RESIDENTIAL' }],
		['location, accents aside', { locations: 'otahuhu, Taupo, nsw' }],
		['builder, accents aside', { builders: 'kowhai, muller' }],
		[
			'all four at once',
			{
				budgetAtLeast: 250_000,
				projectsWithoutBudget: 'keep',
				categories: 'Civic,Residential,Industrial,Education,Health',
				locations: 'Auckland,NSW,QLD',
				builders: 'construction,builders',
			},
		],
	])('filters by %s as the docs state', async (_name, filters) => {
		const truth = sandbox.listOpen(companyId);
		const passes = filterOracle(filters);
		const expected = truth
			.map((p) => ({ ...p, tenders: p.tenders.filter((t) => passes(t, p)) }))
			.filter((p) => p.tenders.length > 0);
		// Each case keeps some tenders and leaves some out, so it checks the rule both ways.
		const tenderCount = (projects: Project[]) =>
			projects.reduce((count, p) => count + p.tenders.length, 0);
		expect(tenderCount(expected)).toBeGreaterThan(0);
		expect(tenderCount(expected)).toBeLessThan(tenderCount(truth));
		expect(json(await run({ returnAll: true, filters: { ...filters } }))).toEqual(expected);
	});

	it('runs 120 executions in a row within 100 requests per 5 minutes, with no 429', async () => {
		useVirtualTime();
		// A sandbox of its own, so its rate limiter has seen nothing from the other tests.
		const fresh = await startSandbox({ port: 0, projects: 5 });
		try {
			proc.credentials.setCredentials(CREDENTIAL_TYPE, {
				authUrl: fresh.url,
				baseUrl: fresh.url,
				...SANDBOX_FIXTURES.client,
			});
			const runs = await runInVirtualTime(async () => {
				const done: NodeRun[] = [];
				for (let i = 0; i < 120; i++) done.push(await run({ limit: 1 }));
				return done;
			});
			for (const result of runs) expect(json(result)).toHaveLength(1);
			const results = fresh
				.requests()
				.filter((request) => request.path.endsWith('/speci-finder/results'));
			expect(results.map((request) => request.status)).toEqual(Array(120).fill(200));
			// The sandbox enforces the limit itself; the node used all of it and no more.
			expect(busiestWindow(results, 5 * 60_000)).toBe(100);
		} finally {
			await fresh.stop();
			jest.useRealTimers();
		}
	});
});
