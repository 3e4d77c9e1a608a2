import { tokenForm as form } from '../support/sandbox/client';
import { harnessFor, SANDBOX_FIXTURES } from './harness';

const { client: fixtureClient, noScopeClient, otherClient } = SANDBOX_FIXTURES;
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

function basic(clientId: string, clientSecret: string): string {
	const encode = (part: string) => encodeURIComponent(part).replace(/%20/g, '+');
	return `Basic ${Buffer.from(`${encode(clientId)}:${encode(clientSecret)}`).toString('base64')}`;
}

describe('sandbox token endpoint (POST /oauth2/token)', () => {
	const harness = harnessFor();

	// The contract test checks the token answer's shape, lifetime and Cache-Control.
	it('issues a different opaque token on every request and counts them per client', async () => {
		const before = harness.sandbox.tokensIssued({ clientId: fixtureClient.clientId });
		const otherBefore = harness.sandbox.tokensIssued({ clientId: otherClient.clientId });
		const totalBefore = harness.sandbox.tokensIssued();

		const first = await harness.client.token();
		const second = await harness.client.token();
		await harness.client.token({ ...otherClient });

		expect(first).toMatch(/^[A-Za-z0-9_-]{32,}$/);
		expect(first).not.toBe(second);
		expect(harness.sandbox.tokensIssued({ clientId: fixtureClient.clientId })).toBe(before + 2);
		expect(harness.sandbox.tokensIssued({ clientId: otherClient.clientId })).toBe(otherBefore + 1);
		expect(harness.sandbox.tokensIssued()).toBe(totalBefore + 3);
	});

	it('issues a working token when scope is omitted (the quick-start request)', async () => {
		const token = await harness.client.token({ scope: null });

		const page = await harness.client.results({ token, limit: 1 });

		expect(page.status).toBe(200);
	});

	it('accepts HTTP Basic client authentication, form-encoded as RFC 6749 section 2.3.1 says', async () => {
		const result = await harness.client.requestToken({
			form: { client_id: undefined, client_secret: undefined },
			headers: { authorization: basic(fixtureClient.clientId, fixtureClient.clientSecret) },
		});

		expect(result.status).toBe(200);
	});

	const noScope = { client_id: noScopeClient.clientId, client_secret: noScopeClient.clientSecret };
	const bothMethods = { authorization: basic(fixtureClient.clientId, fixtureClient.clientSecret) };
	const unreadable = { authorization: 'Basic bm8tY29sb24taGVyZQ==' };
	const twice = `${form()}&client_id=${otherClient.clientId}`;
	// A wrong secret is the contract test's. The test takes its row as a rest parameter: a fifth
	// named one would be jest's `done`.
	it.each<[string, string, string, RegExp, Record<string, string>?]>([
		['no grant_type', form({ grant_type: undefined }), 'invalid_request', /grant_type is required/],
		[
			'grant_type=password',
			form({ grant_type: 'password' }),
			'unsupported_grant_type',
			/client_credentials/,
		],
		[
			'an unknown client',
			form({ client_id: 'nobody' }),
			'invalid_client',
			/client authentication failed/,
		],
		['no client_secret', form({ client_secret: undefined }), 'invalid_client', /client_secret/],
		[
			'no client at all',
			form({ client_id: undefined, client_secret: undefined }),
			'invalid_client',
			/client authentication is required/,
		],
		[
			'a scope the application lacks',
			form(noScope),
			'invalid_scope',
			/not granted speci-finder\/read/,
		],
		['an unknown scope', form({ scope: 'admin/write' }), 'invalid_scope', /admin\/write/],
		['an empty scope', form({ scope: '' }), 'invalid_scope', /scope is empty/],
		['a parameter sent twice', twice, 'invalid_request', /repeated: client_id/],
		[
			'two client authentication methods at once',
			form(),
			'invalid_request',
			/one client authentication method/,
			bothMethods,
		],
		[
			'unreadable HTTP Basic credentials',
			'grant_type=client_credentials',
			'invalid_client',
			/could not be read/,
			unreadable,
		],
		[
			'a JSON body',
			'{}',
			'invalid_request',
			/x-www-form-urlencoded/,
			{ 'content-type': 'application/json' },
		],
	])('refuses %s with an RFC 6749 error body', async (...[, body, error, description, headers]) => {
		const result = await harness.client.send('POST', '/oauth2/token', {
			headers: { ...FORM, ...headers },
			body,
		});
		// RFC 6749 section 5.2: a failed client authentication is the one 401.
		const status = error === 'invalid_client' ? 401 : 400;

		expect(result.status).toBe(status);
		expect(result.body).toEqual({ error, error_description: expect.stringMatching(description) });
		expect(result.text).not.toContain(fixtureClient.clientSecret);
		expect(result.text).not.toContain(noScopeClient.clientSecret);
		expect(result.headers.get('www-authenticate')).toBe(
			status === 401 ? 'Basic realm="supplier-matched-projects"' : null,
		);
	});

	it('takes POST only', async () => {
		const result = await harness.client.send('GET', '/oauth2/token');

		expect(result.status).toBe(405);
		expect(result.headers.get('allow')).toBe('POST');
		expect(result.body).toMatchObject({ code: 'METHOD_NOT_ALLOWED' });
	});

	it('logs token requests with the client that asked and never the secret', async () => {
		harness.sandbox.resetRequests();

		await harness.client.requestToken({ clientSecret: 'wrong-secret' });

		const log = harness.sandbox.requests();
		expect(log).toEqual([
			expect.objectContaining({
				method: 'POST',
				path: '/oauth2/token',
				status: 401,
				clientId: fixtureClient.clientId,
			}),
		]);
		expect(JSON.stringify(log)).not.toContain('wrong-secret');
	});
});
