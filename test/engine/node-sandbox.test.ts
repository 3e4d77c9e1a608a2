import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import type { Project } from '../../nodes/SupplierMatchedProjects/api/types';
import type { RetryPolicy } from '../../nodes/SupplierMatchedProjects/transport/retry';
import { SANDBOX_FIXTURES, startSandbox } from '../../sandbox';
import { runInVirtualTime, useVirtualTime } from '../support/engine/clock';
import { CREDENTIAL_TYPE, n8nProcess, type N8nProcess, type NodeRun } from '../support/harness';
import { busiestWindow } from '../support/engine/rate-window';
import { filterOracle, type FilterParameters } from '../timeline/oracle';
import type { Sandbox } from '../support/engine/poll-world';

let proc: N8nProcess;

const { companyId } = SANDBOX_FIXTURES;

let sandbox: Sandbox;

/** A fresh process, as if n8n had restarted: no token, an unspent rate budget. */
function restart(retryPolicy?: Partial<RetryPolicy>) {
	proc = n8nProcess({ retryPolicy });
}

function useCredentials(overrides: ICredentialDataDecryptedObject = {}) {
	proc.credentials.setCredentials(CREDENTIAL_TYPE, {
		authUrl: sandbox.url,
		baseUrl: sandbox.url,
		...SANDBOX_FIXTURES.client,
		...overrides,
	});
}

/** Get Many for the company, with the node's own defaults (Limit 50) unless a test sets them. */
const run = async (parameters: INodeParameters) =>
	await proc.run({ resource: 'matchedProject', operation: 'getAll', companyId, ...parameters });

function json(result: NodeRun): IDataObject[] {
	expect(result.error).toBeUndefined();
	return (result.items ?? []).map((item) => item.json);
}

function resultRequests() {
	return sandbox.requests().filter((request) => request.path.endsWith('/speci-finder/results'));
}

const resultStatuses = () => resultRequests().map((request) => request.status);

const ids = (projects: Array<Project | IDataObject>) =>
	projects.map((project) => project.projectId);

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, projects: 250 });
});

afterAll(async () => {
	await sandbox.stop();
});

beforeEach(() => {
	sandbox.resetRequests();
	sandbox.clearFaults();
	sandbox.clearCache();
	restart();
	useCredentials();
});

afterEach(() => {
	expect(proc.credentials.writes).toEqual([]);
});

describe('against the sandbox', () => {
	it('returns exactly what the API lists, walking every page 100 at a time with one token', async () => {
		const truth = sandbox.listOpen(companyId);
		expect(truth.length).toBeGreaterThan(100);
		const tokensBefore = sandbox.tokensIssued();

		const items = json(await run({ returnAll: true }));

		expect(items).toEqual(truth);
		const requests = resultRequests();
		expect(requests).toHaveLength(Math.ceil(truth.length / 100));
		expect(requests.every((request) => request.query.limit === '100')).toBe(true);
		expect(requests[0].query.cursor).toBeUndefined();
		expect(requests.slice(1).every((request) => typeof request.query.cursor === 'string')).toBe(
			true,
		);
		expect(requests.every((request) => request.clientId === SANDBOX_FIXTURES.client.clientId)).toBe(
			true,
		);
		expect(sandbox.tokensIssued() - tokensBefore).toBe(1);
	});

	it('stops exactly at the limit across a page boundary', async () => {
		const truth = sandbox.listOpen(companyId);
		const items = json(await run({ limit: 130 }));
		expect(ids(items)).toEqual(ids(truth.slice(0, 130)));
		expect(resultRequests().map((request) => request.query.limit)).toEqual(['100', '30']);
	});

	it('gives one item per tender, in API order', async () => {
		const truth = sandbox.listOpen(companyId);
		const items = json(await run({ returnAll: true, output: 'tenders' }));
		expect(items.map((item) => item.id)).toEqual(truth.flatMap((p) => p.tenders.map((t) => t.id)));
		expect(items[0].project).toMatchObject({ projectId: truth[0].projectId });
	});

	it('simplifies every tender to flat columns', async () => {
		const items = json(await run({ returnAll: true, output: 'tenders', simplify: true }));
		for (const item of items) {
			expect(
				Object.values(item).every((value) => value === null || typeof value !== 'object'),
			).toBe(true);
		}
	});

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

	it.each([SANDBOX_FIXTURES.noKeywordsCompanyId, SANDBOX_FIXTURES.noMatchesCompanyId])(
		'returns no items and no error for %s',
		async (company) => {
			expect(json(await run({ companyId: company, returnAll: true }))).toEqual([]);
		},
	);

	it('explains an unregistered company after retrying once with a new token', async () => {
		const tokensBefore = sandbox.tokensIssued();
		const result = await run({ companyId: SANDBOX_FIXTURES.unregisteredCompanyId });
		expect(result.error?.message).toBe(
			`The API refused access to company "${SANDBOX_FIXTURES.unregisteredCompanyId}" (Unauthorised)`,
		);
		expect(result.error?.description).toContain('is not registered to client "sandbox-client"');
		expect(resultRequests()).toHaveLength(2);
		expect(sandbox.tokensIssued() - tokensBefore).toBe(2);
	});

	it('explains a wrong client secret', async () => {
		useCredentials({ clientSecret: 'not-the-secret' });
		const result = await run({});
		expect(result.error?.message).toBe(
			'The token issuer rejected the client ID or client secret (invalid_client)',
		);
		expect(resultRequests()).toHaveLength(0);
	});

	it('explains a client without the scope, whether the scope is asked for or not', async () => {
		useCredentials({ ...SANDBOX_FIXTURES.noScopeClient });
		const asked = await run({});
		expect(asked.error?.message).toBe(
			'The token issuer refused the scope "speci-finder/read" for this client (invalid_scope)',
		);

		restart();
		useCredentials({ ...SANDBOX_FIXTURES.noScopeClient, scope: '' });
		const notAsked = await run({});
		expect(notAsked.error?.message).toBe(
			`The API refused access to company "${companyId}" (Unauthorised)`,
		);
		expect(notAsked.error?.description).toContain('lacks the scope speci-finder/read');
	});

	it('recovers from revoked tokens with one retry, and keeps the new token', async () => {
		json(await run({ limit: 1 }));
		const tokensBefore = sandbox.tokensIssued();
		sandbox.revokeTokens();
		json(await run({ limit: 1 }));
		json(await run({ limit: 1 }));
		expect(sandbox.tokensIssued() - tokensBefore).toBe(1);
		expect(resultStatuses()).toEqual([200, 401, 200, 200]);
	});

	it('refreshes before expiry, so the API never sees an expired token', async () => {
		const start = Date.now();
		const clock = jest.spyOn(Date, 'now').mockReturnValue(start);
		try {
			json(await run({ limit: 1 }));
			clock.mockReturnValue(start + 3600_000 - 55_000);
			sandbox.clock.advance(3600_000 - 55_000);
			json(await run({ limit: 1 }));
			expect(resultStatuses()).toEqual([200, 200]);
			expect(sandbox.requests().filter((request) => request.path === '/oauth2/token')).toHaveLength(
				2,
			);
		} finally {
			clock.mockRestore();
		}
	});

	it('shares one token between concurrent executions', async () => {
		const tokensBefore = sandbox.tokensIssued();
		const results = await Promise.all(
			Array.from({ length: 5 }, async () => await run({ limit: 3 })),
		);
		for (const result of results) expect(json(result)).toHaveLength(3);
		expect(sandbox.tokensIssued() - tokensBefore).toBe(1);
	});

	describe('faults', () => {
		beforeEach(() => {
			restart({ baseDelayMs: 10 });
			useCredentials();
		});

		it.each(['fetchFailed', 'serverError', 'html', 'drop'] as const)(
			'retries through %s and returns the right page',
			async (kind) => {
				sandbox.injectFault({ kind, times: 2 });
				const items = json(await run({ limit: 5 }));
				expect(ids(items)).toEqual(ids(sandbox.listOpen(companyId).slice(0, 5)));
				expect(resultRequests()).toHaveLength(3);
			},
		);

		it('honours Retry-After from a 429', async () => {
			sandbox.injectFault({ kind: 'rateLimited', retryAfterSeconds: 1 });
			const started = Date.now();
			json(await run({ limit: 5 }));
			expect(Date.now() - started).toBeGreaterThanOrEqual(950);
			expect(resultStatuses()).toEqual([429, 200]);
		});

		it('retries when the token endpoint fails for a moment', async () => {
			sandbox.injectFault({ kind: 'serverError', on: 'token' });
			json(await run({ limit: 1 }));
		});

		it('reports a body that is not JSON', async () => {
			sandbox.injectFault({ kind: 'malformedJson' });
			const result = await run({ limit: 5 });
			expect(result.error?.message).toBe(
				`The address ${sandbox.url} answered, but not with a page of matched projects`,
			);
		});

		it('gives up after five attempts with the API code', async () => {
			sandbox.injectFault({ kind: 'fetchFailed', times: 10 });
			const result = await run({ limit: 5 });
			expect(result.error?.message).toBe(
				'The API failed on its side after 5 attempts (FETCH_FAILED)',
			);
			expect(resultRequests()).toHaveLength(5);
		});
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
