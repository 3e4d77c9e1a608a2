import { harnessFor, SANDBOX_FIXTURES } from './harness';

describe('sandbox faults', () => {
	const harness = harnessFor({ cacheSeconds: 0, rateLimit: false });

	afterEach(() => {
		harness.sandbox.clearFaults();
		harness.sandbox.setLatency(0);
	});

	const results = () => harness.client.results({ token: harness.token, limit: 3 });

	it('latencySpike: the answer is late but normal', async () => {
		harness.sandbox.injectFault({ kind: 'latencySpike', ms: 300 });

		const started = Date.now();
		const late = await results();

		expect(Date.now() - started).toBeGreaterThanOrEqual(290);
		expect(late.status).toBe(200);
	});

	it('drop: the connection is cut after the headers and part of the body', async () => {
		harness.sandbox.injectFault({ kind: 'drop' });
		const response = await fetch(
			`${harness.sandbox.url}/api/supplier/v1/companies/${SANDBOX_FIXTURES.companyId}/speci-finder/results`,
			{
				headers: {
					authorization: `Bearer ${harness.token}`,
					'x-service-client-id': SANDBOX_FIXTURES.client.clientId,
				},
			},
		);

		expect(response.status).toBe(200);
		await expect(response.text()).rejects.toThrow();
		expect((await results()).status).toBe(200);
	});

	it('malformedJson: a 200 whose body is cut short and does not parse', async () => {
		harness.sandbox.injectFault({ kind: 'malformedJson' });

		const broken = await results();

		expect(broken.status).toBe(200);
		expect(broken.headers.get('content-type')).toMatch(/^application\/json/);
		expect(broken.text.startsWith('{"data":[')).toBe(true);
		expect(() => JSON.parse(broken.text)).toThrow();
	});

	it("on: 'token' hits the token endpoint and leaves results alone", async () => {
		harness.sandbox.injectFault({ kind: 'serverError', on: 'token' });

		const data = await results();
		const token = await harness.client.requestToken();
		const retried = await harness.client.requestToken();

		expect(data.status).toBe(200);
		expect(token.status).toBe(500);
		expect(token.body).toMatchObject({ code: 'INTERNAL_SERVER_ERROR' });
		expect(retried.status).toBe(200);
	});

	it('setLatency delays every API request', async () => {
		harness.sandbox.setLatency(150);

		const started = Date.now();
		await harness.client.requestToken();
		await results();

		expect(Date.now() - started).toBeGreaterThanOrEqual(290);
	});

	// Also: queued faults run in order, each for `times` requests (default 1), then normal service.
	it('counts injected faults by kind and marks them in the request log', async () => {
		const before = harness.sandbox.faultsInjected();
		harness.sandbox.resetRequests();
		harness.sandbox.injectFault({ kind: 'html' });
		harness.sandbox.injectFault({ kind: 'fetchFailed', times: 2 });

		for (let request = 0; request < 4; request++) await results();

		const after = harness.sandbox.faultsInjected();
		expect(after.html - before.html).toBe(1);
		expect(after.fetchFailed - before.fetchFailed).toBe(2);
		expect(after.serverError - before.serverError).toBe(0);
		expect(harness.sandbox.requests().map((entry) => [entry.status, entry.fault])).toEqual([
			[502, 'html'],
			[502, 'fetchFailed'],
			[502, 'fetchFailed'],
			[200, null],
		]);
	});

	it('random fault rates repeat exactly for the same rngSeed', async () => {
		const rates = { serverError: 0.2, fetchFailed: 0.1, rateLimited: 0.1 };
		const run = async () => {
			harness.sandbox.setFaultRates(rates, 42);
			const statuses: number[] = [];
			for (let request = 0; request < 60; request++) statuses.push((await results()).status);
			harness.sandbox.setFaultRates(null);
			return statuses;
		};

		const first = await run();
		const second = await run();
		harness.sandbox.setFaultRates(rates, 7);
		const otherSeed: number[] = [];
		for (let request = 0; request < 60; request++) otherSeed.push((await results()).status);

		expect(second).toEqual(first);
		expect(otherSeed).not.toEqual(first);
		expect(new Set(first)).toEqual(new Set([200, 500, 502, 429]));
		const failures = first.filter((status) => status !== 200).length;
		expect(failures).toBeGreaterThan(10);
		expect(failures).toBeLessThan(50);
	});

	it('a queued fault wins over the rates, and clearFaults stops both', async () => {
		harness.sandbox.setFaultRates({ serverError: 1 });
		harness.sandbox.injectFault({ kind: 'html' });

		const first = await results();
		const second = await results();
		harness.sandbox.clearFaults();
		const third = await results();

		expect([first.status, second.status, third.status]).toEqual([502, 500, 200]);
		expect(first.headers.get('content-type')).toBe('text/html');
		expect(first.text).toContain('<title>502 Bad Gateway</title>');
	});

	it.each<[string, () => void, RegExp]>([
		[
			'an unknown kind',
			() => harness.sandbox.injectFault({ kind: 'meteor' as 'html' }),
			/fault kind must be one of/,
		],
		[
			'times 0',
			() => harness.sandbox.injectFault({ kind: 'html', times: 0 }),
			/times must be a whole number/,
		],
		[
			'an unknown target',
			() => harness.sandbox.injectFault({ kind: 'html', on: 'swagger' as 'token' }),
			/on must be/,
		],
		[
			'a status on drop',
			() => harness.sandbox.injectFault({ kind: 'drop', status: 500 }),
			/does not take a status/,
		],
		[
			'rates over 1',
			() => harness.sandbox.setFaultRates({ serverError: 0.7, drop: 0.4 }),
			/add up to 1.1/,
		],
		[
			'a negative rate',
			() => harness.sandbox.setFaultRates({ drop: -0.1 }),
			/probability from 0 to 1/,
		],
		['a negative latency', () => harness.sandbox.setLatency(-5), /setLatency/],
	])('refuses %s with a clear error', (_case, call, message) => {
		expect(call).toThrow(message);
	});
});
