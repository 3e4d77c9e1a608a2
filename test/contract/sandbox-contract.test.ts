import { loadOpenApiDocument } from '../../openapi';
import { startSandbox, SANDBOX_FIXTURES } from '../../sandbox';
import { createOpenApiValidator, validateOpenApiDocuments } from '../support/contract/openapi';
import { createSandboxClient, type HttpResult } from '../support/sandbox/client';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
type Validator = ReturnType<typeof createOpenApiValidator>;
type Observed = Parameters<Validator['checkResponse']>[0];
type Declared = NonNullable<ReturnType<Validator['checkResponse']>['declared']>;

const TOKEN_PATH = '/oauth2/token';
const RESULTS_PATH = '/api/supplier/v1/companies/{companyId}/speci-finder/results';
const DOC_PATH = '/swagger/doc';
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
	droppedConnection: "a connection reset mid-body (fault 'drop'): no HTTP response at all",
	unknownPath: 'a path the API does not have (404): outside the described operations',
	wrongMethod: 'a method an endpoint does not take (405): outside the described operations',
	oversizedTokenRequest: 'a token request body over 64 KiB (413): a server limit, not the API',
} as const;

function declaredKey(declared: Declared) {
	return [declared.method.toUpperCase(), declared.pathTemplate, declared.status, declared.variant]
		.filter((part) => part !== undefined)
		.join(' ');
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

// One request per declared response; test/sandbox/ has every way to cause each.
describe('sandbox responses conform to openapi/openapi.yaml', () => {
	const document = loadOpenApiDocument();
	const validator = createOpenApiValidator(document);
	const exercised = new Set<string>();
	const outOfContractSeen = new Set<keyof typeof OUT_OF_CONTRACT>();
	let sandbox: Sandbox;
	let client: ReturnType<typeof createSandboxClient>;
	let token: string;

	const observed = (pathTemplate: string, method: string, result: HttpResult): Observed => ({
		pathTemplate,
		method,
		status: result.status,
		headers: Object.fromEntries(result.headers.entries()),
		body: result.text,
	});
	const tokenResponse = async (form: Record<string, string | undefined> = {}) =>
		observed(TOKEN_PATH, 'post', await client.requestToken({ form }));
	const results = async (options: Parameters<typeof client.results>[0] = {}) =>
		observed(RESULTS_PATH, 'get', await client.results({ token, ...options }));

	/** Checks the response against the description and records which declared response it was. */
	function expectConforms(response: Observed): Declared {
		const check = validator.checkResponse(response);
		expect(check.errors).toEqual([]);
		for (const secret of SECRETS) {
			expect(response.body).not.toContain(secret);
		}
		const declared = check.declared as Declared;
		exercised.add(declaredKey(declared));
		return declared;
	}

	function expectOutOfContract(name: keyof typeof OUT_OF_CONTRACT, response: Observed): void {
		expect(validator.checkResponse(response).errors).not.toEqual([]);
		outOfContractSeen.add(name);
	}

	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, now: '2025-06-02T09:00:00Z' });
		client = createSandboxClient(sandbox.url);
		token = await client.token();
	});

	afterAll(async () => {
		await sandbox?.stop();
	});

	afterEach(() => {
		sandbox.clearFaults();
	});

	describe('POST /oauth2/token', () => {
		it('200: issues a bearer token, with and without the scope parameter', async () => {
			for (const form of [{}, { scope: undefined }]) {
				const response = await tokenResponse(form);

				expect(expectConforms(response)).toMatchObject({ status: '200' });
				expect(JSON.parse(response.body)).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
				expect(response.headers['cache-control']).toBe('no-store');
			}
		});

		it.each<[string, string, Record<string, string>]>([
			['invalid_request', 'grant_type missing', { grant_type: '' }],
			['unsupported_grant_type', 'grant_type=password', { grant_type: 'password' }],
			['invalid_scope', 'an empty scope', { scope: '' }],
			['invalid_client', 'a wrong client_secret', { client_secret: 'not-the-secret' }],
		])('%s: %s', async (error, _request, form) => {
			expect(expectConforms(await tokenResponse(form)).variant).toBe(error);
		});

		it.each(SERVER_FAULTS)('%s fault: %s with status %s', async (kind, code, status) => {
			sandbox.injectFault({ kind: kind as 'serverError' | 'fetchFailed', on: 'token', status });

			expect(expectConforms(await tokenResponse())).toMatchObject({
				status: String(status),
				variant: code,
			});
		});

		it('429 fault: RATE_LIMITED with Retry-After', async () => {
			sandbox.injectFault({ kind: 'rateLimited', on: 'token', retryAfterSeconds: 7 });

			const response = await tokenResponse();

			expect(expectConforms(response)).toMatchObject({ status: '429', variant: 'RATE_LIMITED' });
			expect(response.headers['retry-after']).toBe('7');
		});
	});

	describe('GET results', () => {
		it('200: walks every page of a company with matches, cursor to cursor', async () => {
			const pages: Array<{ data: unknown[]; _metadata: { nextCursor: string | null } }> = [];
			let cursor: string | undefined;
			do {
				const response = await results({ limit: 7, cursor });
				expect(expectConforms(response).status).toBe('200');
				const page = JSON.parse(response.body) as (typeof pages)[number];
				pages.push(page);
				cursor = page._metadata.nextCursor ?? undefined;
			} while (cursor !== undefined && pages.length < 50);

			expect(pages.length).toBeGreaterThan(1);
			expect(pages[0].data.length).toBe(7);
			expect(cursor).toBeUndefined();
		});

		it.each<[string, string, Parameters<typeof client.results>[0]]>([
			['400', 'CLIENT_ID_HEADER_MISSING', { headers: { 'x-service-client-id': undefined } }],
			['400', 'INVALID_LIMIT', { limit: 101 }],
			['400', 'INVALID_CURSOR', { cursor: 'not-a-cursor' }],
			['401', 'CLIENT_ID_HEADER_MISMATCH', { clientId: SANDBOX_FIXTURES.otherClient.clientId }],
			['401', 'Unauthorised', { headers: { authorization: undefined } }],
		])('%s %s', async (status, variant, options) => {
			expect(expectConforms(await results(options))).toMatchObject({ status, variant });
		});

		it('429 fault: RATE_LIMITED with Retry-After', async () => {
			sandbox.injectFault({ kind: 'rateLimited', retryAfterSeconds: 3 });

			const response = await results();

			expect(expectConforms(response)).toMatchObject({ status: '429', variant: 'RATE_LIMITED' });
			expect(response.headers['retry-after']).toBe('3');
		});

		it.each(SERVER_FAULTS)('%s fault: %s with status %s', async (kind, code, status) => {
			sandbox.injectFault({ kind: kind as 'serverError' | 'fetchFailed', status });

			expect(expectConforms(await results())).toMatchObject({
				status: String(status),
				variant: code,
			});
		});
	});

	describe('GET /swagger/doc', () => {
		it('200: the same OpenAPI 3.1 description, pointed at the sandbox', async () => {
			const response = observed(DOC_PATH, 'get', await client.send('GET', DOC_PATH));

			expect(expectConforms(response).status).toBe('200');
			const served = JSON.parse(response.body) as Record<string, unknown>;
			expect(await validateOpenApiDocuments([served])).toMatchObject([
				{ valid: true, version: '3.1' },
			]);
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
		const reason = (name: keyof typeof OUT_OF_CONTRACT) => `${name}: ${OUT_OF_CONTRACT[name]}`;

		const faultBodies: Array<[keyof typeof OUT_OF_CONTRACT, 'html' | 'malformedJson']> = [
			['htmlErrorPage', 'html'],
			['truncatedJson', 'malformedJson'],
		];
		it.each(faultBodies.map(([name, kind]) => [reason(name), name, kind] as const))(
			'%s',
			async (_reason, name, kind) => {
				sandbox.injectFault({ kind });

				expectOutOfContract(name, await results());
			},
		);

		it(reason('droppedConnection'), async () => {
			sandbox.injectFault({ kind: 'drop' });

			await expect(results()).rejects.toThrow();
			outOfContractSeen.add('droppedConnection');
		});

		it(reason('unknownPath'), async () => {
			const path = '/api/supplier/v1/companies';
			const response = observed(path, 'get', await client.send('GET', path));

			expect(response.status).toBe(404);
			expectOutOfContract('unknownPath', response);
		});

		it(reason('wrongMethod'), async () => {
			const response = observed(TOKEN_PATH, 'get', await client.send('GET', TOKEN_PATH));

			expect(response.status).toBe(405);
			expectOutOfContract('wrongMethod', response);
		});

		it(reason('oversizedTokenRequest'), async () => {
			const response = await tokenResponse({ client_secret: 'x'.repeat(70 * 1024) });

			expect(response.status).toBe(413);
			expectOutOfContract('oversizedTokenRequest', response);
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
