import type { ResultsPage } from '../../nodes/SupplierMatchedProjects/api/types';
import { harnessFor, openHarness, SANDBOX_FIXTURES, withHarness } from './harness';
import type { Harness, SandboxClient } from './harness';

type ResultsOptions = Parameters<SandboxClient['results']>[0];

/** Sends `count` results requests of one project each (the target's token unless given); their statuses. */
async function spendOn(target: Harness, count: number, options: ResultsOptions = {}) {
	const statuses: number[] = [];
	for (let request = 0; request < count; request++) {
		const result = await target.client.results({ token: target.token, limit: 1, ...options });
		statuses.push(result.status);
	}
	return statuses;
}

describe('sandbox rate limit (100 requests per 5 minutes per credential)', () => {
	const harness = harnessFor({ cacheSeconds: 0 }, 'each');
	const spend = (count: number, options?: ResultsOptions) => spendOn(harness, count, options);

	it('allows 100 requests, refuses the 101st with 429 RATE_LIMITED and Retry-After, then frees up', async () => {
		const firstAt = harness.sandbox.clock.now();
		expect(await spend(100)).toEqual(Array(100).fill(200));

		const refused = await harness.client.results({ token: harness.token });
		const retryAfter = Number(refused.headers.get('retry-after'));
		// The window opened with the first request: a slow machine spends seconds of it on the 100.
		const spentSeconds = Math.ceil((harness.sandbox.clock.now() - firstAt) / 1000);

		expect(refused.status).toBe(429);
		expect(refused.body).toEqual({
			code: 'RATE_LIMITED',
			message: expect.stringContaining(`retry in ${retryAfter} s`),
		});
		expect(retryAfter).toBeGreaterThanOrEqual(299 - spentSeconds);
		expect(retryAfter).toBeLessThanOrEqual(300);

		harness.sandbox.clock.advance((retryAfter - 2) * 1000);
		expect(await spend(1)).toEqual([429]);
		harness.sandbox.clock.advance(2000);
		expect(await spend(1)).toEqual([200]);
	});

	it('slides: a slot frees when the oldest request leaves the window, and refusals use no budget', async () => {
		await spend(50);
		harness.sandbox.clock.advance(200_000);
		await spend(50);
		expect(await spend(3)).toEqual([429, 429, 429]);

		const refused = await harness.client.results({ token: harness.token });
		const retryAfter = Number(refused.headers.get('retry-after'));
		expect(retryAfter).toBeGreaterThanOrEqual(99);
		expect(retryAfter).toBeLessThanOrEqual(100);

		harness.sandbox.clock.advance(retryAfter * 1000);
		expect(await spend(51)).toEqual([...Array(50).fill(200), 429]);
	});

	it('logs each request at the instant the limit counted it, so no 5 minutes of the log hold more than 100 accepted', async () => {
		const results = () =>
			harness.sandbox.requests().filter((entry) => entry.path.endsWith('/speci-finder/results'));
		await spend(100);
		const [first] = results();
		// Just before the first request leaves the window: ask until a slot frees.
		harness.sandbox.clock.advance(
			Date.parse(first.at) + 300_000 - 20 - harness.sandbox.clock.now(),
		);
		const statuses = [];
		while (statuses.at(-1) !== 200) statuses.push(...(await spend(1)));
		expect(statuses.slice(0, -1).every((status) => status === 429)).toBe(true);

		const accepted = results()
			.filter((entry) => entry.status === 200)
			.map((entry) => Date.parse(entry.at));
		expect(accepted).toHaveLength(101);
		expect(accepted[100] - accepted[0]).toBeGreaterThanOrEqual(300_000);
	});

	it('counts per credential (client id), not per token or company', async () => {
		const secondToken = await harness.client.token();
		await spend(60);
		await spend(40, { token: secondToken, companyId: SANDBOX_FIXTURES.secondCompanyId });
		expect(await spend(1)).toEqual([429]);

		const otherToken = await harness.client.token({ ...SANDBOX_FIXTURES.otherClient });
		const other = await spend(1, {
			token: otherToken,
			clientId: SANDBOX_FIXTURES.otherClient.clientId,
			companyId: SANDBOX_FIXTURES.otherClientCompanyId,
		});

		expect(other).toEqual([200]);
	});

	it('counts requests that pass authentication even when they fail validation', async () => {
		expect(await spend(100, { limit: 0 })).toEqual(Array(100).fill(400));

		expect(await spend(1)).toEqual([429]);
	});

	it('does not count requests refused before authentication', async () => {
		await spend(100, { token: 'forged' });
		await spend(100, { headers: { 'x-service-client-id': undefined } });

		expect(await spend(1)).toEqual([200]);
	});

	it('can be configured or turned off, and does not count token requests', async () => {
		const small = await openHarness({
			rateLimit: { requests: 3, windowSeconds: 10 },
			cacheSeconds: 0,
		});
		const off = await openHarness({ rateLimit: false, cacheSeconds: 0 });
		try {
			for (let attempt = 0; attempt < 5; attempt++) await small.client.token();
			const smallStatuses = await spendOn(small, 4);
			const refused = await small.client.results({ token: small.token });

			expect(smallStatuses).toEqual([200, 200, 200, 429]);
			expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(10);
			expect(await spendOn(off, 150)).toEqual(Array(150).fill(200));
		} finally {
			await small.sandbox.stop();
			await off.sandbox.stop();
		}
	});
});

/** servedFromCache of each results request in the log, token requests left out. */
function cacheFlags(target: Harness): boolean[] {
	return target.sandbox
		.requests()
		.filter((entry) => entry.path.endsWith('/speci-finder/results'))
		.map((entry) => entry.servedFromCache);
}

describe('sandbox short cache of repeated cursor and limit', () => {
	// The defaults: a 5 s cache, 100 requests per 5 minutes.
	const harness = harnessFor({}, 'each');

	it('answers the same company, cursor and limit from cache within cacheSeconds, stale data included', async () => {
		const first = await harness.client.results({ token: harness.token, limit: 100 });
		const opened = harness.sandbox.openTender();
		const repeated = await harness.client.results({ token: harness.token, limit: 100 });
		const otherLimit = await harness.client.results({ token: harness.token, limit: 99 });

		expect(repeated.text).toBe(first.text);
		expect((repeated.body as ResultsPage).data.map((project) => project.projectId)).not.toContain(
			opened.projectId,
		);
		expect(
			harness.sandbox.listOpen(SANDBOX_FIXTURES.companyId).map((project) => project.projectId),
		).toContain(opened.projectId);
		expect(cacheFlags(harness)).toEqual([false, true, false]);
		expect(otherLimit.text).not.toBe(first.text);
	});

	it('serves fresh data once cacheSeconds have passed on the sandbox clock', async () => {
		await harness.client.results({ token: harness.token, limit: 100 });
		const opened = harness.sandbox.openTender();
		harness.sandbox.clock.advance(5000);

		const fresh = await harness.client.results({ token: harness.token, limit: 100 });

		expect(cacheFlags(harness)).toEqual([false, false]);
		const freshIds = (fresh.body as ResultsPage).data.map((project) => project.projectId);
		expect(freshIds).toContain(opened.projectId);
	});

	it('keys the cache by company and cursor too', async () => {
		const pageOfTwo = (options: { companyId?: string; cursor?: string } = {}) =>
			harness.client.results({ token: harness.token, limit: 2, ...options });
		const first = (await pageOfTwo()).body as ResultsPage;
		await pageOfTwo({ companyId: SANDBOX_FIXTURES.secondCompanyId });
		await pageOfTwo({ cursor: first._metadata.nextCursor ?? undefined });
		await pageOfTwo({ cursor: first._metadata.nextCursor ?? undefined });

		expect(cacheFlags(harness)).toEqual([false, false, false, true]);
	});

	it('still checks credentials and counts cached answers against the rate limit', async () => {
		const first = await spendOn(harness, 1);
		const unauthorised = await spendOn(harness, 1, { token: 'forged' });
		const cached = await spendOn(harness, 99);

		expect([...first, ...unauthorised, ...cached]).toEqual([200, 401, ...Array(99).fill(200)]);
		expect(cacheFlags(harness).slice(-99).every(Boolean)).toBe(true);
		expect(await spendOn(harness, 1)).toEqual([429]);
	});

	it('can be cleared or turned off', async () => {
		await spendOn(harness, 1);
		harness.sandbox.clearCache();
		await spendOn(harness, 1);
		await withHarness({ cacheSeconds: 0 }, async (off) => {
			await spendOn(off, 2);

			expect(cacheFlags(harness)).toEqual([false, false]);
			expect(cacheFlags(off)).toEqual([false, false]);
		});
	});
});
