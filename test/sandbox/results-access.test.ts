import { harnessFor, SANDBOX_FIXTURES, withHarness } from './harness';

const { client: fixtureClient, otherClient, noScopeClient } = SANDBOX_FIXTURES;

describe('sandbox results endpoint: headers, token, scope and registration', () => {
	const harness = harnessFor();

	it('400 CLIENT_ID_HEADER_MISSING without x-service-client-id, checked before the token', async () => {
		const withoutToken = await harness.client.results({
			headers: { 'x-service-client-id': undefined },
		});
		const blank = await harness.client.results({
			token: harness.token,
			headers: { 'x-service-client-id': '  ' },
		});

		// With a valid token: the contract test.
		for (const result of [withoutToken, blank]) {
			expect(result.status).toBe(400);
			expect(result.body).toEqual({
				code: 'CLIENT_ID_HEADER_MISSING',
				message: expect.stringContaining('x-service-client-id'),
			});
		}
	});

	it.each<[string, Record<string, string>]>([
		[
			'a Basic Authorization header',
			{ authorization: `Basic ${Buffer.from('a:b').toString('base64')}` },
		],
		['an empty bearer token', { authorization: 'Bearer ' }],
		['an unknown bearer token', { authorization: 'Bearer not-a-token-the-sandbox-issued' }],
		// The token is checked before the header match.
		[
			"an unknown token and another client's id",
			{ authorization: 'Bearer forged', 'x-service-client-id': otherClient.clientId },
		],
	])('401 Unauthorised with %s', async (_case, headers) => {
		const result = await harness.client.results({ headers });

		expect(result.status).toBe(401);
		expect(result.body).toEqual({
			code: 'Unauthorised',
			message: expect.stringMatching(/^Unauthorised: /),
		});
	});

	it.each([
		['a company registered to no application', SANDBOX_FIXTURES.unregisteredCompanyId],
		["another application's company", SANDBOX_FIXTURES.otherClientCompanyId],
		['a company that does not exist', 'company-404'],
	])('401 Unauthorised for %s', async (_case, companyId) => {
		const result = await harness.client.results({ token: harness.token, companyId });

		expect(result.status).toBe(401);
		expect(result.body).toEqual({
			code: 'Unauthorised',
			message: expect.stringContaining('not registered to this application'),
		});
	});

	it('401 Unauthorised when the token lacks speci-finder/read (application without the scope)', async () => {
		const token = await harness.client.token({ ...noScopeClient, scope: null });

		const result = await harness.client.results({ token, clientId: noScopeClient.clientId });

		expect(result.status).toBe(401);
		expect(result.body).toEqual({
			code: 'Unauthorised',
			message: expect.stringContaining('speci-finder/read'),
		});
	});

	it.each([[undefined], [60]])(
		'expires tokens after tokenTtlSeconds (%s: the default 3600) on the sandbox clock',
		async (tokenTtlSeconds) => {
			await withHarness({ tokenTtlSeconds }, async ({ sandbox, client }) => {
				const ttl = tokenTtlSeconds ?? 3600;
				const issued = await client.requestToken();
				const token = (issued.body as { access_token: string }).access_token;
				sandbox.clock.advance((ttl - 1) * 1000);
				const stillValid = await client.results({ token, limit: 1 });
				sandbox.clock.advance(1000);
				const expired = await client.results({ token, limit: 1 });

				expect(issued.body).toMatchObject({ expires_in: ttl });
				expect(stillValid.status).toBe(200);
				expect(expired.status).toBe(401);
				expect(expired.body).toMatchObject({
					code: 'Unauthorised',
					message: expect.stringContaining('expired'),
				});
			});
		},
	);

	it("revokes one client's tokens and leaves other clients' alone", async () => {
		const mine = await harness.client.token();
		const theirs = await harness.client.token({ ...otherClient });

		const revoked = harness.sandbox.revokeTokens({ clientId: fixtureClient.clientId });

		expect(revoked).toBeGreaterThanOrEqual(2);
		expect((await harness.client.results({ token: mine })).status).toBe(401);
		expect((await harness.client.results({ token: harness.token })).status).toBe(401);
		const other = await harness.client.results({
			token: theirs,
			clientId: otherClient.clientId,
			companyId: SANDBOX_FIXTURES.otherClientCompanyId,
		});
		expect(other.status).toBe(200);

		expect(harness.sandbox.revokeTokens()).toBeGreaterThanOrEqual(1);
		harness.token = await harness.client.token();
	});

	it('takes GET only on the results path and answers unknown paths with 404', async () => {
		const post = await harness.client.send(
			'POST',
			'/api/supplier/v1/companies/company-1/speci-finder/results',
		);
		const unknown = await harness.client.send(
			'GET',
			'/api/supplier/v2/companies/company-1/speci-finder/results',
		);

		expect(post.status).toBe(405);
		expect(post.headers.get('allow')).toBe('GET');
		expect(unknown.status).toBe(404);
		expect(unknown.body).toMatchObject({ code: 'NOT_FOUND' });
	});

	it('logs each results call with the header client id and whether it came from cache', async () => {
		harness.sandbox.resetRequests();

		const first = await harness.client.results({ token: harness.token, limit: 3 });
		await harness.client.results({ token: harness.token, limit: 3 });

		expect(first.headers.get('content-type')).toBe('application/json; charset=utf-8');
		expect(harness.sandbox.requests()).toEqual([
			{
				method: 'GET',
				path: '/api/supplier/v1/companies/company-1/speci-finder/results',
				query: { limit: '3' },
				status: 200,
				clientId: fixtureClient.clientId,
				at: expect.stringMatching(/^2030-03-1\dT/),
				servedFromCache: false,
				fault: null,
			},
			expect.objectContaining({ status: 200, servedFromCache: true }),
		]);
	});
});
