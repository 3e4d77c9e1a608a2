import nock from 'nock';
import type {
	ICredentialDataDecryptedObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { SupplierMatchedProjectsApi } from '../../credentials/SupplierMatchedProjectsApi.credentials';
import { SANDBOX_FIXTURES, startSandbox } from '../../sandbox';
import { closedPort } from '../support/reliability/server';
import {
	CREDENTIAL_TYPE,
	n8nProcess,
	runNode,
	TestCredentialsHelper,
	type N8nProcess,
} from '../support/harness';
import type { Sandbox } from '../support/engine/poll-world';

let proc: N8nProcess;

let sandbox: Sandbox;

function settings(overrides: ICredentialDataDecryptedObject = {}): ICredentialDataDecryptedObject {
	return {
		authUrl: sandbox.url,
		baseUrl: sandbox.url,
		clientId: SANDBOX_FIXTURES.client.clientId,
		clientSecret: SANDBOX_FIXTURES.client.clientSecret,
		...overrides,
	};
}

async function test(overrides: ICredentialDataDecryptedObject = {}) {
	return await proc.testCredential(settings(overrides));
}

async function closedPortUrl(): Promise<string> {
	return `http://127.0.0.1:${await closedPort()}`;
}

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, projects: 20 });
});

afterAll(async () => {
	await sandbox.stop();
	// nock patches Node's shared http module; left active, it intercepts the next test file's requests.
	nock.restore();
});

beforeEach(() => {
	proc = n8nProcess();
	sandbox.resetRequests();
});

afterEach(() => {
	expect(proc.credentials.writes).toEqual([]);
});

describe('the Test button', () => {
	it('succeeds with good settings, after a real token exchange and an authenticated call', async () => {
		expect(await test({ authUrl: `  ${sandbox.url}/ `, baseUrl: `${sandbox.url}/` })).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		const requests = sandbox.requests();
		expect(requests.map((request) => [request.path, request.status])).toEqual([
			['/oauth2/token', 200],
			['/swagger/doc', 200],
		]);
	});

	/** Each case: the fields it changes and the whole answer's message. */
	it.each<[string, () => Promise<ICredentialDataDecryptedObject>, string]>([
		[
			'a wrong client secret',
			async () => ({ clientSecret: 'wrong' }),
			'The token issuer rejected the client ID or client secret (invalid_client)',
		],
		// n8n's tester reports the bare network code for the test request itself.
		[
			"nothing listening at the Base URL (n8n's own code)",
			async () => ({ baseUrl: await closedPortUrl() }),
			'ECONNREFUSED',
		],
	])('tells %s apart', async (_case, fields, message) => {
		expect(await test(await fields())).toEqual({ status: 'Error', message });
	});

	it('tells a wrong Base URL apart: no API there', async () => {
		const result = await test({ baseUrl: `${sandbox.url}/wrong` });
		expect(result.status).toBe('Error');
		expect(result.message).toContain(
			'no Supplier Matched-Projects API answered at the Base URL (HTTP 404)',
		);
	});

	it("applies the credential's allowed domains to the token exchange", async () => {
		const blocked = await test({
			allowedHttpRequestDomains: 'domains',
			allowedDomains: 'example.com',
		});
		expect(blocked.status).toBe('Error');
		expect(blocked.message).toContain(
			`The token request to ${sandbox.url}/oauth2/token failed: Domain not allowed`,
		);
		expect(sandbox.requests()).toEqual([]);

		const allowed = await test({
			allowedHttpRequestDomains: 'domains',
			allowedDomains: '127.0.0.1',
		});
		expect(allowed).toEqual({ status: 'OK', message: 'Connection successful!' });
	});

	it("re-runs the exchange after a 401 on the authenticated call, through n8n's own retry", async () => {
		nock.disableNetConnect();
		try {
			const token = nock('https://auth.test')
				.post('/oauth2/token')
				.reply(200, { access_token: 'first', token_type: 'Bearer', expires_in: 3600 })
				.post('/oauth2/token')
				.reply(200, { access_token: 'second', token_type: 'Bearer', expires_in: 3600 });
			const api = nock('https://api.test')
				.get('/swagger/doc')
				.matchHeader('authorization', 'Bearer first')
				.reply(401, { code: 'Unauthorised', message: 'Unauthorised.' })
				.get('/swagger/doc')
				.matchHeader('authorization', 'Bearer second')
				.matchHeader('x-service-client-id', 'client-1')
				.reply(200, { openapi: '3.1.0' });
			const result = await proc.testCredential({
				authUrl: 'https://auth.test',
				baseUrl: 'https://api.test',
				clientId: 'client-1',
				clientSecret: 'example-secret',
			});
			expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
			expect(token.isDone()).toBe(true);
			expect(api.isDone()).toBe(true);
		} finally {
			nock.cleanAll();
			nock.enableNetConnect();
		}
	});
});

describe('the credentials helper stands in for the cli faithfully', () => {
	it('would record a database write if preAuthentication returned the expirable property', async () => {
		const persistingCredential = new SupplierMatchedProjectsApi(proc.runtime);
		persistingCredential.preAuthentication = async () => ({ accessToken: 'would-be-stored' });
		const persisting = new TestCredentialsHelper([persistingCredential]);
		persisting.setCredentials(CREDENTIAL_TYPE, settings());
		await viaHttpRequest(`${sandbox.url}/swagger/doc`, persisting);
		expect(persisting.writes).toEqual([
			{ type: CREDENTIAL_TYPE, data: expect.objectContaining({ accessToken: 'would-be-stored' }) },
		]);
	});
});

/**
 * What n8n's HTTP Request node does with a predefined credential type: the user's own URL, sent
 * through httpRequestWithAuthentication, so preAuthentication and authenticate apply.
 */
const httpRequestLikeNode: INodeType = {
	description: {
		displayName: 'HTTP Request (predefined credential)',
		name: 'httpRequestLike',
		group: ['output'],
		version: 1,
		description: 'Calls a URL with a predefined credential type',
		defaults: { name: 'HTTP Request' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		properties: [{ displayName: 'URL', name: 'url', type: 'string', default: '' }],
	},
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const url = this.getNodeParameter('url', 0) as string;
		const body = (await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL_TYPE, {
			method: 'GET',
			url,
			json: true,
		})) as INodeExecutionData['json'];
		return [[{ json: body, pairedItem: { item: 0 } }]];
	},
};

/** An HTTP Request node calling `url` with the credential, as n8n's own nodes use it. */
async function viaHttpRequest(
	url: string,
	credentialsHelper: TestCredentialsHelper = proc.credentials,
) {
	return await runNode({ nodeType: httpRequestLikeNode, parameters: { url }, credentialsHelper });
}

describe('as a predefined credential in an HTTP Request node', () => {
	beforeEach(() => {
		proc.credentials.setCredentials(CREDENTIAL_TYPE, settings());
	});

	it("sends both headers, and recovers from a revoked token with n8n's own retry", async () => {
		const url = `${sandbox.url}/api/supplier/v1/companies/${SANDBOX_FIXTURES.companyId}/speci-finder/results?limit=1`;
		const first = await viaHttpRequest(url);
		expect(first.error).toBeUndefined();
		sandbox.revokeTokens();
		const tokensBefore = sandbox.tokensIssued();
		const second = await viaHttpRequest(url);
		expect(second.error).toBeUndefined();
		expect(second.items?.[0].json).toMatchObject({ data: expect.any(Array) });
		expect(sandbox.tokensIssued() - tokensBefore).toBe(1);
		const results = sandbox.requests().filter((request) => request.path.endsWith('/results'));
		expect(results.map((request) => [request.status, request.clientId])).toEqual([
			[200, SANDBOX_FIXTURES.client.clientId],
			[401, SANDBOX_FIXTURES.client.clientId],
			[200, SANDBOX_FIXTURES.client.clientId],
		]);
	});

	it('authenticates calls to other endpoints, keeping the token out of the credentials table and the execution data', async () => {
		const sent: string[] = [];
		const helper = proc.credentials;
		const authenticate = helper.authenticate.bind(helper);
		jest.spyOn(helper, 'authenticate').mockImplementation(async (...args) => {
			const options = await authenticate(...args);
			sent.push(String(options.headers?.Authorization).replace('Bearer ', ''));
			return options;
		});
		const result = await viaHttpRequest(`${sandbox.url}/swagger/doc`);
		expect(result.error).toBeUndefined();
		expect(result.items?.[0].json).toMatchObject({ openapi: expect.stringMatching(/^3\.1\./) });
		expect(sent).toHaveLength(1);
		expect(sent[0].length).toBeGreaterThan(20);
		const serialised = JSON.stringify(result.run);
		expect(serialised).not.toContain(sent[0]);
		expect(serialised).not.toContain(SANDBOX_FIXTURES.client.clientSecret);
		expect(helper.preAuthenticationRuns).toBe(1);
	});
});
