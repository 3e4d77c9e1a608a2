import { loadOpenApiDocument } from '../../openapi';
import { startSandbox, SANDBOX_FIXTURES } from '../../sandbox';
import { createOpenApiValidator, validateOpenApiDocument } from '../support/contract/openapi';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
type Validator = ReturnType<typeof createOpenApiValidator>;
type Observed = Parameters<Validator['checkResponse']>[0];
type Declared = NonNullable<ReturnType<Validator['checkResponse']>['declared']>;
type Credentials = { clientId: string; clientSecret: string };

const TOKEN_PATH = '/oauth2/token';
const RESULTS_PATH = '/api/supplier/v1/companies/{companyId}/speci-finder/results';
const DOC_PATH = '/swagger/doc';
const FORM = 'application/x-www-form-urlencoded';
const SECRETS = [
	SANDBOX_FIXTURES.client.clientSecret,
	SANDBOX_FIXTURES.otherClient.clientSecret,
	SANDBOX_FIXTURES.noScopeClient.clientSecret,
];

/**
 * What the sandbox can send that the description deliberately does not cover. Each entry is
 * sent below and must be rejected by the contract check, so moving one into the description
 * means moving it out of this list.
 */
const OUT_OF_CONTRACT = {
	htmlErrorPage: "a proxy's HTML error page (fault 'html'): not the API's answer",
	truncatedJson: "a body cut short (fault 'malformedJson'): not valid JSON",
	emptyBody: "a 200 with no body (fault 'emptyBody'): not valid JSON",
	droppedConnection: "a connection reset mid-body (fault 'drop'): no HTTP response at all",
	unknownPath: 'a path the API does not have (404): outside the described operations',
	wrongMethod: 'a method an endpoint does not take (405): outside the described operations',
	oversizedTokenRequest: 'a token request body over 64 KiB (413): a server limit, not the API',
} as const;

function declaredKey(declared: {
	method: string;
	pathTemplate: string;
	status: string;
	variant?: string;
}) {
	return [declared.method.toUpperCase(), declared.pathTemplate, declared.status, declared.variant]
		.filter((part) => part !== undefined)
		.join(' ');
}

function resultsUrl(companyId: string, query: Record<string, string | string[]> = {}): string {
	const search = new URLSearchParams();
	for (const [name, value] of Object.entries(query)) {
		for (const one of Array.isArray(value) ? value : [value]) {
			search.append(name, one);
		}
	}
	const suffix = search.toString() === '' ? '' : `?${search.toString()}`;
	return `/api/supplier/v1/companies/${encodeURIComponent(companyId)}/speci-finder/results${suffix}`;
}

/** The fixture client's token request, with `fields` changed. */
function clientForm(fields: Record<string, string> = {}): Record<string, string> {
	return {
		grant_type: 'client_credentials',
		client_id: SANDBOX_FIXTURES.client.clientId,
		client_secret: SANDBOX_FIXTURES.client.clientSecret,
		...fields,
	};
}

/** The fault kinds that answer with an error status, at every status they can take. */
const SERVER_FAULTS: Array<[string, string, number]> = [
	['serverError', 'INTERNAL_SERVER_ERROR', 500],
	['serverError', 'INTERNAL_SERVER_ERROR', 502],
	['serverError', 'INTERNAL_SERVER_ERROR', 503],
	['fetchFailed', 'FETCH_FAILED', 500],
	['fetchFailed', 'FETCH_FAILED', 502],
	['fetchFailed', 'FETCH_FAILED', 503],
];

describe('sandbox responses conform to openapi/openapi.yaml', () => {
	const document = loadOpenApiDocument();
	const validator = createOpenApiValidator(document);
	const exercised = new Set<string>();
	const outOfContractSeen = new Set<keyof typeof OUT_OF_CONTRACT>();
	let sandbox: Sandbox;

	async function send(
		target: Sandbox,
		pathTemplate: string,
		method: string,
		path: string,
		init: { headers?: Record<string, string>; body?: string } = {},
	): Promise<Observed> {
		const response = await fetch(`${target.url}${path}`, {
			method,
			headers: init.headers,
			body: init.body,
		});
		return {
			pathTemplate,
			method: method.toLowerCase(),
			status: response.status,
			headers: Object.fromEntries(response.headers.entries()),
			body: await response.text(),
		};
	}

	/** Checks the response against the description and records which declared response it was. */
	function expectConforms(observed: Observed): Declared {
		const check = validator.checkResponse(observed);
		expect(check.errors).toEqual([]);
		for (const secret of SECRETS) {
			expect(observed.body).not.toContain(secret);
		}
		const declared = check.declared as Declared;
		exercised.add(declaredKey(declared));
		return declared;
	}

	function expectOutOfContract(name: keyof typeof OUT_OF_CONTRACT, observed: Observed): void {
		expect(validator.checkResponse(observed).errors).not.toEqual([]);
		outOfContractSeen.add(name);
	}

	async function requestToken(target: Sandbox, fields: Record<string, string>): Promise<Observed> {
		return await send(target, TOKEN_PATH, 'POST', TOKEN_PATH, {
			headers: { 'content-type': FORM },
			body: new URLSearchParams(fields).toString(),
		});
	}

	async function tokenFor(
		target: Sandbox,
		credentials: Credentials,
		scope: string | null = SANDBOX_FIXTURES.scope,
	): Promise<string> {
		const observed = await requestToken(target, {
			grant_type: 'client_credentials',
			client_id: credentials.clientId,
			client_secret: credentials.clientSecret,
			...(scope === null ? {} : { scope }),
		});
		expect(expectConforms(observed).status).toBe('200');
		return (JSON.parse(observed.body) as { access_token: string }).access_token;
	}

	async function getResults(
		target: Sandbox,
		url: string,
		headers: Record<string, string>,
	): Promise<Observed> {
		return await send(target, RESULTS_PATH, 'GET', url, { headers });
	}

	function authHeaders(token: string, clientId: string = SANDBOX_FIXTURES.client.clientId) {
		return { authorization: `Bearer ${token}`, 'x-service-client-id': clientId };
	}

	/** A results page from the main sandbox, asked for by the fixture client. */
	function resultsFor(
		token: string,
		query: Record<string, string | string[]> = {},
		companyId: string = SANDBOX_FIXTURES.companyId,
	): Promise<Observed> {
		return getResults(sandbox, resultsUrl(companyId, query), authHeaders(token));
	}

	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, now: '2025-06-02T09:00:00Z', cacheSeconds: 5 });
	});

	afterAll(async () => {
		await sandbox?.stop();
	});

	afterEach(() => {
		sandbox.clearFaults();
	});

	describe('POST /oauth2/token', () => {
		it('200: issues a bearer token, with and without the scope parameter', async () => {
			for (const scope of [SANDBOX_FIXTURES.scope, undefined]) {
				const observed = await requestToken(
					sandbox,
					clientForm(scope === undefined ? {} : { scope }),
				);

				expect(expectConforms(observed)).toMatchObject({ status: '200' });
				expect(JSON.parse(observed.body)).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
				expect(observed.headers['cache-control']).toBe('no-store');
			}
		});

		// One request per declared error; test/sandbox/token.test.ts has every way to cause each.
		it.each<[string, string, () => Promise<Observed>]>([
			[
				'invalid_request',
				'grant_type missing',
				() => requestToken(sandbox, clientForm({ grant_type: '' })),
			],
			[
				'unsupported_grant_type',
				'grant_type=password',
				() => requestToken(sandbox, clientForm({ grant_type: 'password' })),
			],
			['invalid_scope', 'an empty scope', () => requestToken(sandbox, clientForm({ scope: '' }))],
			[
				'invalid_client',
				'a wrong client_secret',
				() => requestToken(sandbox, clientForm({ client_secret: 'not-the-secret' })),
			],
		])('%s: %s', async (error, _request, request) => {
			const observed = await request();

			expect(expectConforms(observed).variant).toBe(error);
		});

		it.each(SERVER_FAULTS)('%s fault: %s with status %s', async (kind, code, status) => {
			sandbox.injectFault({ kind: kind as 'serverError' | 'fetchFailed', on: 'token', status });

			const observed = await requestToken(sandbox, clientForm());

			expect(expectConforms(observed)).toMatchObject({ status: String(status), variant: code });
		});

		it('429 fault: RATE_LIMITED with Retry-After', async () => {
			sandbox.injectFault({ kind: 'rateLimited', on: 'token', retryAfterSeconds: 7 });

			const observed = await requestToken(sandbox, clientForm());

			expect(expectConforms(observed)).toMatchObject({ status: '429', variant: 'RATE_LIMITED' });
			expect(observed.headers['retry-after']).toBe('7');
		});
	});

	describe('GET results', () => {
		let token: string;

		beforeAll(async () => {
			token = await tokenFor(sandbox, SANDBOX_FIXTURES.client);
		});

		it('200: walks every page of a company with matches, cursor to cursor', async () => {
			const pages: Array<{ data: unknown[]; _metadata: { nextCursor: string | null } }> = [];
			let cursor: string | null = null;
			do {
				const query: Record<string, string> = { limit: '7', ...(cursor ? { cursor } : {}) };
				const observed = await resultsFor(token, query);
				expect(expectConforms(observed).status).toBe('200');
				const page = JSON.parse(observed.body) as (typeof pages)[number];
				pages.push(page);
				cursor = page._metadata.nextCursor;
			} while (cursor !== null && pages.length < 50);

			expect(pages.length).toBeGreaterThan(1);
			expect(pages[0].data.length).toBe(7);
			expect(cursor).toBeNull();
		});

		it.each([['1'], ['100'], [undefined]])('200: limit %s', async (limit) => {
			const query: Record<string, string> = limit === undefined ? {} : { limit };
			const observed = await resultsFor(token, query, SANDBOX_FIXTURES.secondCompanyId);

			expect(expectConforms(observed).status).toBe('200');
			expect((JSON.parse(observed.body) as { data: unknown[] }).data.length).toBeGreaterThan(0);
		});

		it('200: a repeated request served from the cache is the same page', async () => {
			const first = await resultsFor(token, { limit: '3' });
			const second = await resultsFor(token, { limit: '3' });

			expectConforms(first);
			expectConforms(second);
			expect(second.body).toBe(first.body);
			expect(sandbox.requests().at(-1)?.servedFromCache).toBe(true);
		});

		it('200 after a latency spike', async () => {
			sandbox.injectFault({ kind: 'latencySpike', ms: 5 });

			const observed = await resultsFor(token, { limit: '2' }, SANDBOX_FIXTURES.secondCompanyId);

			expect(expectConforms(observed).status).toBe('200');
		});

		it.each([
			['no keywords configured', SANDBOX_FIXTURES.noKeywordsCompanyId],
			['nothing matches', SANDBOX_FIXTURES.noMatchesCompanyId],
		])('200 with empty data: %s', async (_case, companyId) => {
			const observed = await resultsFor(token, {}, companyId);

			expect(expectConforms(observed).status).toBe('200');
			expect(JSON.parse(observed.body)).toEqual({
				data: [],
				_metadata: { nextCursor: null, hasNextPage: false },
			});
		});

		it('400 CLIENT_ID_HEADER_MISSING: no x-service-client-id header', async () => {
			const observed = await getResults(sandbox, resultsUrl(SANDBOX_FIXTURES.companyId), {
				authorization: `Bearer ${token}`,
			});

			expect(expectConforms(observed)).toMatchObject({
				status: '400',
				variant: 'CLIENT_ID_HEADER_MISSING',
			});
		});

		// test/sandbox/paging.test.ts has every limit refused.
		it.each<[string, string | string[]]>([
			['101', '101'],
			['sent twice', ['5', '6']],
		])('400 INVALID_LIMIT: limit %s', async (_case, limit) => {
			const observed = await resultsFor(token, { limit });

			expect(expectConforms(observed)).toMatchObject({ status: '400', variant: 'INVALID_LIMIT' });
		});

		it('400 INVALID_CURSOR: edited, empty, from another company, or sent twice', async () => {
			const first = await resultsFor(token, { limit: '2' });
			expectConforms(first);
			const cursor = (JSON.parse(first.body) as { _metadata: { nextCursor: string } })._metadata
				.nextCursor;
			const edited = `${cursor.slice(0, -2)}${cursor.endsWith('AA') ? 'BB' : 'AA'}`;
			const requests: Array<[string, Record<string, string | string[]>]> = [
				[SANDBOX_FIXTURES.companyId, { cursor: edited }],
				[SANDBOX_FIXTURES.companyId, { cursor: 'not-a-cursor' }],
				[SANDBOX_FIXTURES.companyId, { cursor: '' }],
				[SANDBOX_FIXTURES.secondCompanyId, { cursor }],
				[SANDBOX_FIXTURES.companyId, { cursor: [cursor, cursor] }],
			];

			for (const [companyId, query] of requests) {
				const observed = await resultsFor(token, query, companyId);
				expect(expectConforms(observed)).toMatchObject({
					status: '400',
					variant: 'INVALID_CURSOR',
				});
			}
		});

		it("401 CLIENT_ID_HEADER_MISMATCH: the header names another client than the token's", async () => {
			const observed = await getResults(
				sandbox,
				resultsUrl(SANDBOX_FIXTURES.companyId),
				authHeaders(token, SANDBOX_FIXTURES.otherClient.clientId),
			);

			expect(expectConforms(observed)).toMatchObject({
				status: '401',
				variant: 'CLIENT_ID_HEADER_MISMATCH',
			});
		});

		// test/sandbox/results-access.test.ts has every way; one of each kind conforms here.
		it('401 Unauthorised: no token, an unknown token, a company not registered', async () => {
			const cases: Array<[string, string, Record<string, string>]> = [
				[
					'no Authorization header',
					SANDBOX_FIXTURES.companyId,
					{ 'x-service-client-id': SANDBOX_FIXTURES.client.clientId },
				],
				['an unknown token', SANDBOX_FIXTURES.companyId, authHeaders('forged-token')],
				[
					'a company not registered at all',
					SANDBOX_FIXTURES.unregisteredCompanyId,
					authHeaders(token),
				],
			];

			for (const [why, companyId, headers] of cases) {
				const observed = await getResults(sandbox, resultsUrl(companyId), headers);
				expect({ why, declared: expectConforms(observed) }).toMatchObject({
					why,
					declared: { status: '401', variant: 'Unauthorised' },
				});
			}
		});

		it('401 Unauthorised: a revoked token, then an expired one', async () => {
			const revoked = await tokenFor(sandbox, SANDBOX_FIXTURES.client);
			sandbox.revokeTokens({ clientId: SANDBOX_FIXTURES.client.clientId });
			const afterRevoke = await resultsFor(revoked);
			expect(expectConforms(afterRevoke)).toMatchObject({ status: '401', variant: 'Unauthorised' });

			const expiring = await tokenFor(sandbox, SANDBOX_FIXTURES.client);
			sandbox.clock.advance(3601 * 1000);
			try {
				const afterExpiry = await resultsFor(expiring);
				expect(expectConforms(afterExpiry)).toMatchObject({
					status: '401',
					variant: 'Unauthorised',
				});
			} finally {
				sandbox.clock.advance(-3601 * 1000);
			}
			token = await tokenFor(sandbox, SANDBOX_FIXTURES.client);
		});

		it('429 RATE_LIMITED: the per-credential budget runs out, with Retry-After', async () => {
			const limited = await startSandbox({
				port: 0,
				now: '2025-06-02T09:00:00Z',
				rateLimit: { requests: 2, windowSeconds: 300 },
			});
			try {
				const limitedToken = await tokenFor(limited, SANDBOX_FIXTURES.client);
				const statuses: number[] = [];
				let last: Observed | undefined;
				for (let request = 0; request < 3; request++) {
					last = await getResults(
						limited,
						resultsUrl(SANDBOX_FIXTURES.companyId, { limit: String(request + 1) }),
						authHeaders(limitedToken),
					);
					expectConforms(last);
					statuses.push(last.status);
				}

				expect(statuses).toEqual([200, 200, 429]);
				expect(expectConforms(last as Observed).variant).toBe('RATE_LIMITED');
				expect(Number(last?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
			} finally {
				await limited.stop();
			}
		});

		it('429 fault: RATE_LIMITED with Retry-After', async () => {
			sandbox.injectFault({ kind: 'rateLimited', retryAfterSeconds: 3 });

			const observed = await resultsFor(token);

			expect(expectConforms(observed)).toMatchObject({ status: '429', variant: 'RATE_LIMITED' });
			expect(observed.headers['retry-after']).toBe('3');
		});

		it.each(SERVER_FAULTS)('%s fault: %s with status %s', async (kind, code, status) => {
			sandbox.injectFault({ kind: kind as 'serverError' | 'fetchFailed', status });

			const observed = await resultsFor(token);

			expect(expectConforms(observed)).toMatchObject({ status: String(status), variant: code });
		});

		it('fault defaults: serverError is 500, fetchFailed is 502', async () => {
			const observed: Declared[] = [];
			for (const kind of ['serverError', 'fetchFailed'] as const) {
				sandbox.injectFault({ kind });
				observed.push(expectConforms(await resultsFor(token)));
			}

			expect(observed).toMatchObject([
				{ status: '500', variant: 'INTERNAL_SERVER_ERROR' },
				{ status: '502', variant: 'FETCH_FAILED' },
			]);
		});
	});

	describe('GET /swagger/doc', () => {
		it('200: the same OpenAPI 3.1 description, pointed at the sandbox', async () => {
			const observed = await send(sandbox, DOC_PATH, 'GET', DOC_PATH);

			expect(expectConforms(observed).status).toBe('200');
			const served = JSON.parse(observed.body) as Record<string, unknown>;
			expect(await validateOpenApiDocument(served)).toMatchObject({ valid: true, version: '3.1' });
			const pointedAtSandbox = loadOpenApiDocument() as {
				servers: unknown;
				paths: Record<string, Record<string, unknown>>;
				components: {
					securitySchemes: {
						speciFinderOAuth: { flows: { clientCredentials: { tokenUrl: string } } };
					};
				};
			};
			pointedAtSandbox.servers = [expect.objectContaining({ url: sandbox.url })];
			pointedAtSandbox.paths[TOKEN_PATH].servers = [expect.objectContaining({ url: sandbox.url })];
			pointedAtSandbox.components.securitySchemes.speciFinderOAuth.flows.clientCredentials.tokenUrl = `${sandbox.url}${TOKEN_PATH}`;
			expect(served).toEqual(pointedAtSandbox);
		});
	});

	describe('out of contract (the sandbox sends them; the description rightly does not cover them)', () => {
		let token: string;

		beforeAll(async () => {
			token = await tokenFor(sandbox, SANDBOX_FIXTURES.client);
		});

		const reason = (name: keyof typeof OUT_OF_CONTRACT) => `${name}: ${OUT_OF_CONTRACT[name]}`;

		const faultBodies: Array<
			[keyof typeof OUT_OF_CONTRACT, 'html' | 'malformedJson' | 'emptyBody']
		> = [
			['htmlErrorPage', 'html'],
			['truncatedJson', 'malformedJson'],
			['emptyBody', 'emptyBody'],
		];
		it.each(faultBodies.map(([name, kind]) => [reason(name), name, kind] as const))(
			'%s',
			async (_reason, name, kind) => {
				sandbox.injectFault({ kind });

				const observed = await resultsFor(token);

				expectOutOfContract(name, observed);
			},
		);

		it(reason('droppedConnection'), async () => {
			sandbox.injectFault({ kind: 'drop' });

			await expect(
				send(sandbox, RESULTS_PATH, 'GET', resultsUrl(SANDBOX_FIXTURES.companyId), {
					headers: authHeaders(token),
				}),
			).rejects.toThrow();
			outOfContractSeen.add('droppedConnection');
		});

		it(reason('unknownPath'), async () => {
			const path = '/api/supplier/v1/companies';
			const observed = await send(sandbox, path, 'GET', path);

			expect(observed.status).toBe(404);
			expectOutOfContract('unknownPath', observed);
		});

		it(reason('wrongMethod'), async () => {
			const observed = await send(sandbox, TOKEN_PATH, 'GET', TOKEN_PATH);

			expect(observed.status).toBe(405);
			expectOutOfContract('wrongMethod', observed);
		});

		it(reason('oversizedTokenRequest'), async () => {
			const observed = await requestToken(
				sandbox,
				clientForm({ client_secret: 'x'.repeat(70 * 1024) }),
			);

			expect(observed.status).toBe(413);
			expectOutOfContract('oversizedTokenRequest', observed);
		});
	});

	it('exercised every response the description declares', () => {
		const declared = validator.declaredResponses().map(declaredKey);

		expect(declared.filter((key) => !exercised.has(key))).toEqual([]);
		expect([...exercised].filter((key) => !declared.includes(key))).toEqual([]);
		expect(
			Object.keys(OUT_OF_CONTRACT).filter(
				(name) => !outOfContractSeen.has(name as keyof typeof OUT_OF_CONTRACT),
			),
		).toEqual([]);
	});
});
