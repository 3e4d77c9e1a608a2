import { startSandbox } from '../../sandbox';
import { writeTrustFiles } from '../../sandbox/tls';
import { tokenForm } from '../support/sandbox/client';
import { httpsRequest, tokenFromChildProcess } from '../support/sandbox/https-request';
import { SANDBOX_FIXTURES, START, type Sandbox } from './harness';

const { client, companyId } = SANDBOX_FIXTURES;

function tokenRequest(sandbox: Sandbox, ca: string | undefined) {
	return httpsRequest(`${sandbox.url}/oauth2/token`, {
		ca,
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: tokenForm(),
	});
}

describe('sandbox over HTTPS', () => {
	const sandboxes: Sandbox[] = [];
	async function httpsSandbox(tlsVersion?: 'TLSv1.2' | 'TLSv1.3'): Promise<Sandbox> {
		const sandbox = await startSandbox({ now: START, https: { tlsVersion } });
		sandboxes.push(sandbox);
		return sandbox;
	}
	afterAll(async () => {
		await Promise.all(sandboxes.map((sandbox) => sandbox.stop()));
	});

	it.each(['TLSv1.3', 'TLSv1.2'] as const)(
		'serves the token and results endpoints over %s to a client that trusts its certificate',
		async (tlsVersion) => {
			const sandbox = await httpsSandbox(tlsVersion);
			const token = await tokenRequest(sandbox, sandbox.certificate);
			const accessToken = (token.body as { access_token: string }).access_token;
			const page = await httpsRequest(
				`${sandbox.url}/api/supplier/v1/companies/${companyId}/speci-finder/results?limit=5`,
				{
					ca: sandbox.certificate,
					headers: {
						authorization: `Bearer ${accessToken}`,
						'x-service-client-id': client.clientId,
					},
				},
			);

			expect(sandbox.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
			expect(token.status).toBe(200);
			expect(token.protocol).toBe(tlsVersion);
			expect(page.status).toBe(200);
			expect(page.protocol).toBe(tlsVersion);
			expect((page.body as { data: unknown[] }).data).toHaveLength(5);
		},
	);

	it('speaks only the TLS version it was given', async () => {
		const sandbox = await httpsSandbox('TLSv1.3');

		await expect(
			httpsRequest(`${sandbox.url}/swagger/doc`, {
				ca: sandbox.certificate,
				maxVersion: 'TLSv1.2',
			}),
		).rejects.toThrow(/protocol|version/i);
	});

	it('either version when none is given, the one the client prefers', async () => {
		const sandbox = await httpsSandbox();

		expect((await tokenRequest(sandbox, sandbox.certificate)).protocol).toBe('TLSv1.3');
		const older = await httpsRequest(`${sandbox.url}/swagger/doc`, {
			ca: sandbox.certificate,
			maxVersion: 'TLSv1.2',
		});
		expect(older.protocol).toBe('TLSv1.2');
	});

	it('is refused by a client that was not told to trust the certificate (verification stays on)', async () => {
		const sandbox = await httpsSandbox('TLSv1.3');

		await expect(tokenRequest(sandbox, undefined)).rejects.toThrow(/self[- ]signed/i);
	});

	// test/sandbox/cli.test.ts trusts it through the bundle.
	it('is trusted by another process through NODE_EXTRA_CA_CERTS naming the certificate alone', async () => {
		const sandbox = await httpsSandbox('TLSv1.3');
		const trust = writeTrustFiles(sandbox.certificate ?? '');
		try {
			const answer = await tokenFromChildProcess(sandbox.url, client, trust.caFile);

			expect(answer).toEqual({ status: 200, tokenType: 'Bearer' });
		} finally {
			trust.remove();
		}
	});

	it('refuses a TLS version it does not know, saying which it takes', async () => {
		await expect(startSandbox({ https: { tlsVersion: 'TLSv1.1' as 'TLSv1.2' } })).rejects.toThrow(
			'https.tlsVersion must be one of TLSv1.2, TLSv1.3',
		);
	});
});
