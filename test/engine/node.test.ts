import nock from 'nock';
import type { INodeParameters } from 'n8n-workflow';

import type { Project } from '../../nodes/SupplierMatchedProjects/api/types';
import type { RetryPolicy } from '../../nodes/SupplierMatchedProjects/transport/retry';
import { n8nProcess, type N8nProcess, type NodeRun, type RunOptions } from '../support/harness';
import { runInVirtualTime, useVirtualTime } from '../support/engine/clock';
import { page, project, projects, tender } from '../support/engine/n8n-fixtures';
import { API, AUTH, COMPANY, RESULTS, useNock } from '../support/engine/nock-api';

const SECRET = 'example-client-secret-for-engine-tests';
const CLIENT = 'client-1';

let proc: N8nProcess;
let issued: string[];

/** The token endpoint; every token it issues is remembered so tests can look for leaks. */
function tokenEndpoint(times = 1) {
	return nock(AUTH)
		.post('/oauth2/token', (body: Record<string, string>) => {
			return (
				body.grant_type === 'client_credentials' &&
				body.client_id === CLIENT &&
				body.client_secret === SECRET
			);
		})
		.matchHeader('content-type', /application\/x-www-form-urlencoded/)
		.times(times)
		.reply(() => {
			const token = `token-${issued.length + 1}`;
			issued.push(token);
			return [200, { access_token: token, token_type: 'Bearer', expires_in: 3600 }];
		});
}

/** The results endpoint, checking both auth headers on every request. */
function api(token = 'token-1') {
	return nock(API)
		.matchHeader('authorization', `Bearer ${token}`)
		.matchHeader('x-service-client-id', CLIENT);
}

/** The first (or only) results request, as `api` checks it. */
function results(query: Record<string, string> | true = true, token?: string) {
	return api(token).get(RESULTS).query(query);
}

/** Get Many for the company, with the node's own defaults (Limit 50) unless a test sets them. */
const run = async (parameters: INodeParameters, options?: RunOptions) =>
	await proc.run(
		{ resource: 'matchedProject', operation: 'getAll', companyId: COMPANY, ...parameters },
		options,
	);

function json(result: NodeRun) {
	expect(result.error).toBeUndefined();
	return (result.items ?? []).map((item) => item.json);
}

function expectNoLeak(result: NodeRun) {
	const serialised = JSON.stringify(result.run);
	expect(serialised).not.toContain(SECRET);
	for (const token of issued) expect(serialised).not.toContain(token);
}

useNock();

/** A fresh process with the credential set: no token yet, an unspent rate budget. */
function start(retryPolicy?: Partial<RetryPolicy>) {
	proc = n8nProcess({
		retryPolicy,
		credential: {
			authUrl: `${AUTH}/`,
			baseUrl: ` ${API}/ `,
			clientId: CLIENT,
			clientSecret: SECRET,
		},
	});
}

beforeEach(() => {
	issued = [];
	start();
});

afterEach(() => {
	jest.useRealTimers();
	// The token lives in memory only: n8n never had anything to write to the credentials table.
	expect(proc.credentials.writes).toEqual([]);
});

describe('paging', () => {
	it('returns every project across pages, 100 per request, passing cursors back verbatim', async () => {
		const all = projects(250);
		const token = tokenEndpoint();
		const scope = results({ limit: '100' })
			.reply(200, page(all.slice(0, 100), 'c1/+=?&'))
			.get(RESULTS)
			.query({ limit: '100', cursor: 'c1/+=?&' })
			.reply(200, page(all.slice(100, 200), 'c2 %20'))
			.get(RESULTS)
			.query({ limit: '100', cursor: 'c2 %20' })
			.reply(200, page(all.slice(200)));

		const result = await run({ returnAll: true });

		expect(json(result)).toEqual(all);
		expect(result.items?.every((item) => JSON.stringify(item.pairedItem) === '{"item":0}')).toBe(
			true,
		);
		expect(token.isDone()).toBe(true);
		expect(scope.isDone()).toBe(true);
		expectNoLeak(result);
	});
});

describe('router', () => {
	it.each([
		[
			'an operation',
			{ operation: 'delete' },
			'Operation "delete" of resource "matchedProject" is not supported: open the node and choose an operation from its list',
		],
		[
			'a resource',
			{ resource: 'company' },
			'Resource "company" is not supported: open the node and choose a resource from its list',
		],
	])(
		'names %s the node does not have instead of running another',
		async (_, parameters, message) => {
			const result = await run({ ...parameters, returnAll: true });
			expect(result.items).toBeUndefined();
			expect(result.error?.message).toBe(message);
		},
	);
});

describe('output', () => {
	const two = (): Project[] => [
		project({
			projectId: 'p1',
			budget: null,
			tenders: [tender({ id: 't1', quotesDueAt: null }), tender({ id: 't2', tenderOpenAt: null })],
		}),
		project({ projectId: 'p2', tenders: [tender({ id: 't3' })] }),
	];

	it('counts the limit in output items, so tenders stop exactly at it too', async () => {
		tokenEndpoint();
		const scope = results({ limit: '2' }).reply(200, page(two(), 'more'));
		const items = json(await run({ limit: 2, output: 'tenders' }));
		expect(items.map((item) => item.id)).toEqual(['t1', 't2']);
		expect(scope.isDone()).toBe(true);
	});

	it('leaves out a tenders entry that is not a tender, in every shape', async () => {
		const odd = [
			project({ projectId: 'p1', tenders: [null, tender({ id: 't1' })] as unknown as [] }),
		];
		tokenEndpoint();
		const scope = results().times(3).reply(200, page(odd));
		// The entry that is not a tender is left out (with a warning), in every shape alike.
		expect(json(await run({ returnAll: true, simplify: true }))).toMatchObject([
			{ projectId: 'p1', tenderCount: 1 },
		]);
		const filtered = json(
			await run({ returnAll: true, output: 'tenders', filters: { tenderTypes: ['Tender'] } }),
		);
		expect(filtered.map((item) => item.id)).toEqual(['t1']);
		const rows = json(await run({ returnAll: true, output: 'tenders', simplify: true }));
		expect(rows.map((row) => row.tenderId)).toEqual(['t1']);
		expect(scope.isDone()).toBe(true);
	});
});

describe('filters', () => {
	it('applies them on our side and keeps paging, full pages, until the limit is met', async () => {
		const procurement = (id: string) =>
			project({ projectId: id, tenders: [tender({ id: `${id}-t`, type: 'Procurement' })] });
		const plain = (id: string) =>
			project({ projectId: id, tenders: [tender({ id: `${id}-t`, type: 'Tender' })] });
		tokenEndpoint();
		const scope = results({ limit: '100' })
			.reply(200, page([plain('a'), procurement('b'), plain('c')], 'n1'))
			.get(RESULTS)
			.query({ limit: '100', cursor: 'n1' })
			.reply(200, page([procurement('d'), procurement('e'), procurement('f')], 'n2'));

		const result = await run({ limit: 3, filters: { tenderTypes: ['Procurement'] } });

		expect(json(result).map((p) => p.projectId)).toEqual(['b', 'd', 'e']);
		expect(scope.isDone()).toBe(true);
	});
});

describe('items', () => {
	it('reads the company ID per item from expressions and sends it as one encoded segment', async () => {
		tokenEndpoint();
		const scope = results()
			.reply(200, page([project({ projectId: 'one' })]))
			.get('/api/supplier/v1/companies/acme%2Fsydney%20%231/speci-finder/results')
			.query(true)
			.reply(200, page([project({ projectId: 'two' }), project({ projectId: 'three' })]));

		const result = await run(
			{ companyId: '={{ $json.company }}', returnAll: true },
			{ items: [{ json: { company: COMPANY } }, { json: { company: 'acme/sydney #1' } }] },
		);

		expect(result.items?.map((item) => [item.json.projectId, item.pairedItem])).toEqual([
			['one', { item: 0 }],
			['two', { item: 1 }],
			['three', { item: 1 }],
		]);
		expect(scope.isDone()).toBe(true);
	});

	it('with Continue On Fail, returns the error as an item paired to the failing input', async () => {
		tokenEndpoint(2);
		const scope = nock(API)
			.get(RESULTS)
			.query(true)
			.reply(200, page([project({ projectId: 'ok' })]))
			.get('/api/supplier/v1/companies/not-ours/speci-finder/results')
			.query(true)
			.times(2)
			.reply(401, { code: 'Unauthorised', message: 'Unauthorised.' });

		const result = await run(
			{ companyId: '={{ $json.company }}', returnAll: true },
			{
				items: [{ json: { company: COMPANY } }, { json: { company: 'not-ours' } }],
				continueOnFail: true,
			},
		);

		expect(result.error).toBeUndefined();
		expect(result.items).toEqual([
			{ json: expect.objectContaining({ projectId: 'ok' }), pairedItem: { item: 0 } },
			{
				json: { error: 'The API refused access to company "not-ours" (Unauthorised)' },
				pairedItem: { item: 1 },
			},
		]);
		expect(scope.isDone()).toBe(true);
	});
});

describe('API errors', () => {
	beforeEach(() => {
		start({ baseDelayMs: 1 });
	});

	it.each([
		[
			401,
			'Unauthorised',
			2,
			'The API refused access to company "company-1" (Unauthorised)',
			'the company "company-1" is not registered to client "client-1"',
		],
		[
			403,
			'Forbidden',
			1,
			'The API refused access to company "company-1" (Forbidden)',
			'speci-finder/read',
		],
		[
			500,
			'INTERNAL_SERVER_ERROR',
			5,
			'The API failed on its side after 5 attempts (INTERNAL_SERVER_ERROR)',
			'again later',
		],
	])(
		'HTTP %p %s: %p request(s), then a message with the cause and the fix',
		async (status, code, requests, message, fix) => {
			tokenEndpoint(requests);
			const scope = nock(API)
				.get(RESULTS)
				.query(true)
				.times(requests)
				.reply(status, { code, message: 'from the API' }, { 'Retry-After': '0' });

			const result = await run({});

			expect(result.error?.message).toBe(message);
			expect(result.error?.description).toContain(fix);
			expect(result.error?.description).toContain('The API says: from the API');
			expect((result.error as { httpCode?: string } | undefined)?.httpCode).toBe(String(status));
			expect(scope.isDone()).toBe(true);
			expectNoLeak(result);
		},
	);

	it('blanks out a token or secret the API echoes in its error', async () => {
		tokenEndpoint(2);
		const scope = nock(API)
			.get(RESULTS)
			.query(true)
			.times(2)
			.reply(401, function echo() {
				return {
					code: 'Unauthorised',
					message: `${String(this.req.headers.authorization)} / ${SECRET}`,
				};
			});
		const result = await run({});
		expect(result.error?.description).toContain('The API says: Bearer *** / ***');
		expect(scope.isDone()).toBe(true);
		expectNoLeak(result);
	});
});

describe('token failures', () => {
	beforeEach(() => {
		start({ baseDelayMs: 1, maxDelayMs: 1 });
	});

	it.each([
		[
			'401 invalid_client',
			401,
			{ error: 'invalid_client' },
			'The token issuer rejected the client ID or client secret (invalid_client)',
			"Check the credential's Client ID and Client Secret",
		],
		[
			'200 with a login page',
			200,
			'<html>Sign in</html>',
			`The address ${AUTH}/oauth2/token answered with something other than JSON, not an OAuth token`,
			"Check the credential's Auth URL",
		],
	])(
		'%s: asked once, no API request, declared as needing the user',
		async (_case, status, body, message, fix) => {
			const token = nock(AUTH).post('/oauth2/token').reply(status, body);
			const result = await run({});
			expect(result.error?.message).toBe(message);
			expect(result.error?.description).toContain(fix);
			expect(result.error).toMatchObject({ failure: { cause: 'credential-invalid' } });
			expect(token.isDone()).toBe(true);
			expect(nock.pendingMocks()).toEqual([]);
			expectNoLeak(result);

			const token2 = nock(AUTH).post('/oauth2/token').reply(status, body);
			const continued = await run({}, { continueOnFail: true });
			expect(continued.items).toEqual([{ json: { error: message }, pairedItem: { item: 0 } }]);
			expect(token2.isDone()).toBe(true);
			expectNoLeak(continued);
		},
	);

	it('an issuer failing with 503 on every try: retried, declared as passing on its own', async () => {
		const token = nock(AUTH).post('/oauth2/token').times(5).reply(503, 'busy');
		const result = await run({});
		expect(result.error?.message).toBe(
			`The token issuer at ${AUTH} is not available right now (HTTP 503)`,
		);
		expect(result.error?.description).toContain('try again later');
		expect(result.error).toMatchObject({ failure: { cause: 'temporarily-unavailable' } });
		expect(token.isDone()).toBe(true);
		expectNoLeak(result);
	});
});

describe('retries', () => {
	beforeEach(() => {
		start({ baseDelayMs: 5 });
	});

	it('retries a 502 with backoff and then succeeds', async () => {
		tokenEndpoint();
		const scope = results()
			.times(2)
			.reply(502, { code: 'FETCH_FAILED', message: 'downstream' })
			.get(RESULTS)
			.query(true)
			.reply(200, page([project({ projectId: 'after-retry' })]));
		expect(json(await run({})).map((p) => p.projectId)).toEqual(['after-retry']);
		expect(scope.isDone()).toBe(true);
	});

	it('waits for Retry-After as many seconds as it says', async () => {
		// The process is started on the virtual clock, for its rate budget to run on it.
		useVirtualTime();
		start({ baseDelayMs: 5 });
		tokenEndpoint();
		const earliest = Date.now() + 1000;
		let secondAt = 0;
		const scope = results()
			.reply(429, { code: 'RATE_LIMITED', message: 'wait' }, { 'Retry-After': '1' })
			.get(RESULTS)
			.query(true)
			.reply(() => {
				secondAt = Date.now();
				return [200, page([project({ projectId: 'later' })])];
			});
		const later = json(await runInVirtualTime(() => run({})));
		expect(later.map((p) => p.projectId)).toEqual(['later']);
		expect(secondAt).toBeGreaterThanOrEqual(earliest);
		expect(scope.isDone()).toBe(true);
	});

	it('abandons a request after the timeout, retries, and says so', async () => {
		start({ requestTimeoutMs: 200, maxAttempts: 2, baseDelayMs: 1 });
		tokenEndpoint();
		const scope = nock(API).get(RESULTS).query(true).times(2).delay(1000).reply(200, page([]));
		const result = await run({});
		expect(result.error?.message).toBe(
			`The API at ${API} did not answer within 200 ms (2 attempts)`,
		);
		expect(scope.isDone()).toBe(true);
	});
});

describe('token handling', () => {
	it('after a 401 discards the token, gets a new one and retries once', async () => {
		tokenEndpoint(2);
		const first = results(true, 'token-1').reply(401, { code: 'Unauthorised', message: 'expired' });
		const second = results(true, 'token-2').reply(200, page([project({ projectId: 'fresh' })]));
		expect(json(await run({})).map((p) => p.projectId)).toEqual(['fresh']);
		expect(first.isDone()).toBe(true);
		expect(second.isDone()).toBe(true);

		// The next execution keeps using the new token.
		const third = results(true, 'token-2').reply(200, page([]));
		json(await run({}));
		expect(third.isDone()).toBe(true);
		expect(issued).toEqual(['token-1', 'token-2']);
	});
});

describe('concurrent executions', () => {
	it('walk one after another, and one whose turn cannot come within 2 minutes stops in the queue', async () => {
		useVirtualTime();
		tokenEndpoint();
		// The cursor names the walk, numbered by its first page, and the page it follows.
		let walks = 0;
		const walkOfEachRequest: number[] = [];
		const scope = results()
			.times(60)
			.reply((uri) => {
				const cursor = new URL(uri, API).searchParams.get('cursor');
				const [walk, pages] = cursor?.split('.').map(Number) ?? [++walks, 0];
				walkOfEachRequest.push(walk);
				return [200, page([project()], pages < 29 ? `${walk}.${pages + 1}` : null)];
			});

		// 30 pages a walk: the second walk's turn comes at 60 s, the third's not before 150 s.
		const runs = await runInVirtualTime(
			async () => await Promise.all([1, 2, 3].map(async () => await run({ returnAll: true }))),
		);

		const complete = runs.filter((result) => result.error === undefined);
		expect(complete.map((result) => json(result).length)).toEqual([30, 30]);
		expect(runs.map((result) => result.error?.message).filter(Boolean)).toEqual([
			expect.stringMatching(
				/^Walks through the results on this credential are queued: this run waited 120 s/,
			),
		]);
		expect(walkOfEachRequest).toEqual([...Array(30).fill(1), ...Array(30).fill(2)]);
		expect(scope.isDone()).toBe(true);
	});
});

describe('rate budget', () => {
	it('paces a long walk and the next execution: 10 at once, then 3 s apart, never more than 100 in 5 minutes', async () => {
		useVirtualTime();
		tokenEndpoint();
		const sentAt: number[] = [];
		const scope = results()
			.times(111)
			.reply(() => {
				sentAt.push(Date.now());
				const at = sentAt.length;
				return [200, page([project({ projectId: `p${at}` })], at < 110 ? `c${at}` : null)];
			});
		const started = Date.now();

		expect(json(await runInVirtualTime(() => run({ returnAll: true })))).toHaveLength(110);
		expect(json(await runInVirtualTime(() => run({ limit: 1 })))).toHaveLength(1);

		// The burst, then one request per 3 s at most; the execution right after waits its 3 s too.
		expect(sentAt.slice(0, 10)).toEqual(Array(10).fill(started));
		expect(sentAt.filter((at, i) => at < started + (i - 9) * 3000)).toEqual([]);
		expect(sentAt[110] - sentAt[109]).toBeGreaterThanOrEqual(3000);
		const inWindow = (from: number) => sentAt.filter((at) => at >= from && at < from + 300_000);
		expect(Math.max(...sentAt.map((from) => inWindow(from).length))).toBe(100);
		expect(scope.isDone()).toBe(true);
	});
});
