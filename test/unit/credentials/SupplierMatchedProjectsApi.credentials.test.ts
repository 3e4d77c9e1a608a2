import type {
	ICredentialDataDecryptedObject,
	IHttpRequestHelper,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';

import { TokenRequestError } from '../../../nodes/SupplierMatchedProjects/transport/token';
import { n8nProcess, type N8nProcess } from '../../support/harness';

const SECRET = 'example-client-secret-never-shown';

let proc: N8nProcess;
let credential: N8nProcess['credential'];

function credentials(
	overrides: ICredentialDataDecryptedObject = {},
): ICredentialDataDecryptedObject {
	return {
		authUrl: 'https://auth.test/',
		baseUrl: 'https://api.test',
		clientId: 'client-1',
		clientSecret: SECRET,
		scope: 'speci-finder/read',
		accessToken: '',
		...overrides,
	};
}

type Answer = Partial<IN8nHttpFullResponse> | Error;

/**
 * n8n's httpRequest helper, answering from a script (an answer may be a promise the test settles)
 * and recording every request.
 */
function fakeHelpers(...answers: Array<Answer | Promise<Answer>>) {
	const requests: IHttpRequestOptions[] = [];
	let issued = 0;
	const helpers: IHttpRequestHelper = {
		helpers: {
			httpRequest: async (options: IHttpRequestOptions) => {
				requests.push(options);
				const answer = (await answers.shift()) ?? {
					statusCode: 200,
					body: { access_token: `token-${++issued}`, token_type: 'Bearer', expires_in: 3600 },
				};
				if (answer instanceof Error) throw answer;
				return { statusCode: 200, headers: {}, ...answer };
			},
		},
	};
	return { helpers, requests };
}

async function preAuthenticate(helpers: IHttpRequestHelper, data: ICredentialDataDecryptedObject) {
	return await credential.preAuthentication.call(helpers, data);
}

async function headersFor(data: ICredentialDataDecryptedObject) {
	const options = await credential.authenticate(data, {
		url: 'https://api.test/x',
		headers: { A: '1' },
	});
	return options.headers;
}

async function failureOf(promise: Promise<unknown>): Promise<TokenRequestError> {
	// A promise that fulfils hands its value on, which fails the check below.
	const error = await promise.catch((reason: unknown) => reason);
	expect(error).toBeInstanceOf(TokenRequestError);
	const tokenError = error as TokenRequestError;
	expect(`${tokenError.message} ${tokenError.description}`).not.toContain(SECRET);
	return tokenError;
}

/** How a token exchange with the usual credentials fails when the issuer answers so. */
async function exchangeFailure(answer: Answer): Promise<TokenRequestError> {
	return await failureOf(preAuthenticate(fakeHelpers(answer).helpers, credentials()));
}

beforeEach(() => {
	proc = n8nProcess();
	credential = proc.credential;
	jest.restoreAllMocks();
});

describe('credential description', () => {
	it('has the issued fields, the secret as a password and the default scope', () => {
		const fields = Object.fromEntries(credential.properties.map((p) => [p.name, p]));
		expect(Object.keys(fields)).toEqual([
			'authUrl',
			'baseUrl',
			'clientId',
			'clientSecret',
			'scope',
			'accessToken',
		]);
		expect(credential.name).toBe('supplierMatchedProjectsApi');
		expect(fields.clientSecret.typeOptions?.password).toBe(true);
		expect(fields.scope.default).toBe('speci-finder/read');
		expect(fields.accessToken).toMatchObject({
			type: 'hidden',
			default: '',
			typeOptions: { expirable: true },
		});
	});
});

describe('token exchange', () => {
	it('posts a form-encoded client-credentials request to {authUrl}/oauth2/token; the token goes into the headers, never into what n8n stores', async () => {
		const { helpers, requests } = fakeHelpers();
		const data = credentials();
		// Nothing n8n would store, so the token never reaches the credentials table.
		expect(await preAuthenticate(helpers, data)).toEqual({});
		expect(data.accessToken).toBe('');
		expect(JSON.stringify(data)).not.toContain('token-1');
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({
			method: 'POST',
			url: 'https://auth.test/oauth2/token',
			headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			timeout: 30_000,
		});
		expect(Object.fromEntries(new URLSearchParams(requests[0].body as string))).toEqual({
			grant_type: 'client_credentials',
			client_id: 'client-1',
			client_secret: SECRET,
			scope: 'speci-finder/read',
		});
		// The bearer token and the client ID header join the request's other headers.
		expect(await headersFor(data)).toEqual({
			A: '1',
			Authorization: 'Bearer token-1',
			'x-service-client-id': 'client-1',
		});
	});

	it('leaves the scope out when the field is blank', async () => {
		const { helpers, requests } = fakeHelpers();
		await preAuthenticate(helpers, credentials({ scope: '' }));
		expect(new URLSearchParams(requests[0].body as string).has('scope')).toBe(false);
	});

	it('refuses to authenticate when no token was obtained', async () => {
		await expect(
			credential.authenticate(credentials(), { url: 'https://api.test' }),
		).rejects.toThrow('No access token is available for this request');
	});
});

describe('token cache', () => {
	it('reuses one token for the same credential across requests', async () => {
		const { helpers, requests } = fakeHelpers();
		for (let i = 0; i < 3; i++) {
			const data = credentials();
			await preAuthenticate(helpers, data);
			expect((await headersFor(data))?.Authorization).toBe('Bearer token-1');
		}
		expect(requests).toHaveLength(1);
	});

	it.each([
		['client secret', { clientSecret: 'other-secret' }],
		['client ID', { clientId: 'client-2' }],
		['Auth URL', { authUrl: 'https://other-auth.test' }],
		['scope', { scope: '' }],
	])('gets a new token when the %s changes', async (_field, change) => {
		const { helpers, requests } = fakeHelpers();
		await preAuthenticate(helpers, credentials());
		const changed = credentials(change);
		await preAuthenticate(helpers, changed);
		expect(requests).toHaveLength(2);
		expect((await headersFor(changed))?.Authorization).toBe('Bearer token-2');
	});

	it('refreshes about 60 s before the token expires', async () => {
		const start = Date.parse('2030-01-01T00:00:00Z');
		const now = jest.spyOn(Date, 'now').mockReturnValue(start);
		const { helpers, requests } = fakeHelpers();
		await preAuthenticate(helpers, credentials());

		now.mockReturnValue(start + 3600_000 - 61_000);
		await preAuthenticate(helpers, credentials());
		expect(requests).toHaveLength(1);

		now.mockReturnValue(start + 3600_000 - 59_000);
		const data = credentials();
		await preAuthenticate(helpers, data);
		expect(requests).toHaveLength(2);
		expect((await headersFor(data))?.Authorization).toBe('Bearer token-2');
	});

	it('shares one token request between concurrent callers', async () => {
		let release: () => void = () => undefined;
		const answered = new Promise<Answer>((resolve) => {
			release = () => resolve({ body: { access_token: 'shared', expires_in: 3600 } });
		});
		const { helpers, requests } = fakeHelpers(answered);
		const all = Array.from({ length: 5 }, () => credentials());
		const pending = all.map(async (data) => await preAuthenticate(helpers, data));
		release();
		await Promise.all(pending);
		expect(requests).toHaveLength(1);
		for (const data of all) expect((await headersFor(data))?.Authorization).toBe('Bearer shared');
	});

	it('gives every waiting caller the failure, then tries again on the next request', async () => {
		const { helpers, requests } = fakeHelpers({ statusCode: 503, body: {} });
		const results = await Promise.allSettled([
			preAuthenticate(helpers, credentials()),
			preAuthenticate(helpers, credentials()),
		]);
		expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
		expect(requests).toHaveLength(1);
		await preAuthenticate(helpers, credentials());
		expect(requests).toHaveLength(2);
	});

	it('discards the rejected token when n8n retries the same request after a 401', async () => {
		const { helpers, requests } = fakeHelpers();
		const data = credentials();
		await preAuthenticate(helpers, data);
		await headersFor(data);
		// n8n's retry passes the same credentials object again.
		await preAuthenticate(helpers, data);
		expect(requests).toHaveLength(2);
		expect((await headersFor(data))?.Authorization).toBe('Bearer token-2');
		const later = credentials();
		await preAuthenticate(helpers, later);
		expect((await headersFor(later))?.Authorization).toBe('Bearer token-2');
		expect(requests).toHaveLength(2);
	});

	it('keeps a newer token when another request reports the older one rejected', async () => {
		const { helpers, requests } = fakeHelpers();
		const first = credentials();
		const second = credentials();
		await preAuthenticate(helpers, first);
		await preAuthenticate(helpers, second);
		// Both requests were sent with token-1 and got a 401; the first retry fetches token-2.
		await preAuthenticate(helpers, first);
		expect(requests).toHaveLength(2);
		// The second retry must not throw token-2 away.
		await preAuthenticate(helpers, second);
		expect(requests).toHaveLength(2);
		expect((await headersFor(second))?.Authorization).toBe('Bearer token-2');
	});
});

describe('token errors name the cause and the fix, never the secret', () => {
	it('wrong client ID or secret, with what the issuer says, the secret in any spelling blanked out', async () => {
		const error = await exchangeFailure({
			statusCode: 401,
			body: {
				error: 'invalid_client',
				error_description: `bad ${SECRET} / ${encodeURIComponent(SECRET)} / ${Buffer.from(`client-1:${SECRET}`).toString('base64')}`,
			},
		});
		expect(error.kind).toBe('invalidClient');
		expect(error.message).toBe(
			'The token issuer rejected the client ID or client secret (invalid_client)',
		);
		expect(error.description).toContain("Check the credential's Client ID and Client Secret");
		expect(error.description).toContain('The issuer says: bad *** / *** / ***');
	});

	it('missing scope', async () => {
		const error = await exchangeFailure({ statusCode: 400, body: { error: 'invalid_scope' } });
		expect(error.kind).toBe('invalidScope');
		expect(error.message).toBe(
			'The token issuer refused the scope "speci-finder/read" for this client (invalid_scope)',
		);
		expect(error.description).toContain(
			'Ask the operator to grant speci-finder/read to client "client-1"',
		);
	});

	it.each([
		[
			'no token endpoint there',
			{ statusCode: 404, body: 'Not Found' },
			'No token endpoint answered at https://auth.test/oauth2/token (HTTP 404)',
		],
		[
			'a web page',
			{ statusCode: 200, body: '<html></html>' },
			'answered with something other than JSON, not an OAuth token',
		],
		[
			'JSON that is not a token',
			{ statusCode: 200, body: { hello: 'world' } },
			'answered with JSON without an access_token, not an OAuth token',
		],
	])('wrong Auth URL: %s', async (_case, answer, message) => {
		const error = await exchangeFailure(answer);
		expect(error.kind).toBe('wrongAuthUrl');
		expect(error.message).toContain(message);
		expect(error.description).toContain("Check the credential's Auth URL");
	});

	it('an issuer that cannot be reached', async () => {
		const refused = Object.assign(new Error(`connect ECONNREFUSED; body client_secret=${SECRET}`), {
			code: 'ECONNREFUSED',
		});
		const error = await exchangeFailure(refused);
		expect(error.kind).toBe('unreachable');
		expect(error.message).toBe(
			'Could not reach the token issuer at https://auth.test: the connection was refused',
		);
	});

	it('another failure before any answer, with the secret blanked out', async () => {
		const error = await exchangeFailure(new Error(`odd failure mentioning ${SECRET}`));
		expect(error.message).toContain('odd failure mentioning ***');
	});

	it('an unusable credential field', async () => {
		const { helpers, requests } = fakeHelpers();
		await expect(preAuthenticate(helpers, credentials({ authUrl: 'mailto:x@y' }))).rejects.toThrow(
			'The credential\'s Auth URL "***@y" is not an http:// or https:// address',
		);
		expect(requests).toHaveLength(0);
	});
});

describe('a failed token exchange is kept with the request it failed', () => {
	// n8n 2.0 (2.0.3; not 1.123 or 2.30) rethrows it as an error of their own, without it as the cause.
	it('by the credentials object n8n passed, for the transport to read its cause and fix; not for a request whose exchange worked', async () => {
		const { helpers } = fakeHelpers({ statusCode: 401, body: { error: 'invalid_client' } });
		const failed = credentials();
		const error = await failureOf(preAuthenticate(helpers, failed));
		expect(proc.runtime.tokens.failureOf(failed)).toBe(error);
		const worked = credentials();
		expect(proc.runtime.tokens.failureOf(worked)).toBeUndefined();
		await preAuthenticate(helpers, worked);
		expect(proc.runtime.tokens.failureOf(worked)).toBeUndefined();
	});
});

describe('token errors say whether they pass on their own or need the user', () => {
	const timeout = Object.assign(new Error('timeout of 30000ms exceeded'), {
		code: 'ECONNABORTED',
	});
	const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });

	it.each<[string, Answer, string]>([
		['401 invalid_client', { statusCode: 401, body: { error: 'invalid_client' } }, 'invalidClient'],
		['401 without an OAuth body', { statusCode: 401, body: 'Unauthorized' }, 'invalidClient'],
		['400 invalid_scope', { statusCode: 400, body: { error: 'invalid_scope' } }, 'invalidScope'],
		[
			'200 granting another scope',
			{
				statusCode: 200,
				body: { access_token: 't', token_type: 'Bearer', expires_in: 3600, scope: 'other/read' },
			},
			'invalidScope',
		],
		[
			'400 unsupported_grant_type',
			{ statusCode: 400, body: { error: 'unsupported_grant_type' } },
			'refused',
		],
		['404', { statusCode: 404, body: 'Not Found' }, 'wrongAuthUrl'],
		['200 with a web page', { statusCode: 200, body: '<html>login</html>' }, 'wrongAuthUrl'],
		['403 with a web page', { statusCode: 403, body: '<html>denied</html>' }, 'wrongAuthUrl'],
		['a failure before any answer', new Error('Domain not allowed'), 'refused'],
	])('%s needs the user: credential-invalid', async (_case, answer, kind) => {
		const error = await exchangeFailure(answer);
		expect(error.kind).toBe(kind);
		expect(error.retryable).toBe(false);
		expect(error.failure).toEqual({ cause: 'credential-invalid' });
	});

	it.each<[string, Answer, string]>([
		['503', { statusCode: 503, body: {} }, 'issuerUnavailable'],
		['500 with a proxy page', { statusCode: 500, body: '<html>error</html>' }, 'issuerUnavailable'],
		['429', { statusCode: 429, body: 'slow down' }, 'issuerUnavailable'],
		['a refused connection', refused, 'unreachable'],
		['a timeout', timeout, 'unreachable'],
	])('%s passes on its own: temporarily-unavailable', async (_case, answer, kind) => {
		const error = await exchangeFailure(answer);
		expect(error.kind).toBe(kind);
		expect(error.retryable).toBe(true);
		expect(error.failure).toEqual({ cause: 'temporarily-unavailable' });
	});
});
