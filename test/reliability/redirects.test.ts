/**
 * Hostile answers that point elsewhere, and addresses that carry more than an address: the node,
 * the trigger and the credential's Test button run by n8n's real engine against the sandbox,
 * behind a scripted server that can answer with redirects, and a second server on another origin
 * (another port of the loopback address) that records whatever reaches it. Nothing may.
 */
import type { ICredentialDataDecryptedObject, NodeApiError } from 'n8n-workflow';

import { passesOnItsOwn } from '../../nodes/SupplierMatchedProjects/trigger/failures';
import { SANDBOX_FIXTURES, startSandbox } from '../../sandbox';
import {
	n8nProcess,
	SHORT_WAITS,
	type CredentialFields,
	type N8nProcess,
} from '../support/harness';
import {
	startScriptedServer,
	type ScriptedReply,
	type ScriptedRequest,
	type ScriptedServer,
} from '../support/reliability/server';
import type { Sandbox } from '../support/engine/poll-world';

let proc: N8nProcess;

const { companyId } = SANDBOX_FIXTURES;
const { clientId, clientSecret } = SANDBOX_FIXTURES.client;
/** Put in every cross-origin Location: none of it may reach a message. */
const USER_INFO = 'intruder:hunter2';
const LOCATION_PATH = '/collect/stolen-path?take=everything';

let sandbox: Sandbox;
/** The configured address: forwards to the sandbox unless a case scripts it. */
let api: ScriptedServer;
/** Another origin. It answers like the API would, to tempt; the tests require it never asked. */
let other: ScriptedServer;
let script: ((request: ScriptedRequest) => ScriptedReply | undefined) | undefined;

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, projects: 30 });
	api = await startScriptedServer();
	api.handle((request) => script?.(request) ?? { forward: sandbox.url });
	other = await startScriptedServer(() => ({
		json: { access_token: 'other-origin-token', token_type: 'Bearer', expires_in: 3600 },
	}));
});

afterAll(async () => {
	await Promise.all([sandbox.stop(), api.stop(), other.stop()]);
});

beforeEach(() => {
	script = undefined;
	proc = n8nProcess({ retryPolicy: { ...SHORT_WAITS, requestTimeoutMs: 2_000 } });
	api.requests.length = 0;
	other.requests.length = 0;
});

afterEach(() => {
	// Whatever a case did, the other origin heard nothing: no token, no client ID, no secret.
	expect(other.requests).toEqual([]);
});

function credentials(overrides: Partial<CredentialFields> = {}): CredentialFields {
	return { authUrl: api.url, baseUrl: api.url, clientId, clientSecret, ...overrides };
}

/** Where a hostile redirect points: the other origin, with user-info, a path and a query. */
function otherOriginLocation(): string {
	const { host } = new URL(other.url);
	return `http://${USER_INFO}@${host}${LOCATION_PATH}`;
}

const isResults = (request: ScriptedRequest) => request.path.includes('/speci-finder/results');
const isToken = (request: ScriptedRequest) => request.method === 'POST';

function redirect(status: number, location: string): ScriptedReply {
	return { status, headers: { location }, text: '' };
}

function expectOriginNamedOnly(text: string): void {
	expect(text).toContain(other.url);
	for (const part of ['intruder', 'hunter2', 'collect', 'stolen-path', 'everything']) {
		expect(text).not.toContain(part);
	}
}

/** The error's own words and everything n8n keeps of it. */
function wordsOf(error: unknown): string {
	const { message, description } = error as NodeApiError;
	return `${message}\n${description ?? ''}\n${JSON.stringify(error)}`;
}

describe('results request redirected to another origin', () => {
	it.each([301, 302, 307, 308])(
		'%i: refused, the origin named, nothing sent there',
		async (status) => {
			script = (request) =>
				isResults(request) ? redirect(status, otherOriginLocation()) : undefined;
			const run = await proc.withCredential(credentials()).getMany({ companyId });
			expect(run.items).toBeUndefined();
			expect(run.error?.message).toBe(
				`The API at ${api.url} redirected the request to another address, ${other.url} (HTTP ${status}); the node did not follow it, so the credential was not sent there`,
			);
			expect(run.error?.description).toContain("Correct the credential's Base URL");
			expectOriginNamedOnly(wordsOf(run.error));
			// One request, counted: the refusal is not retried.
			expect(api.requests.filter(isResults)).toHaveLength(1);
			expect((run.error as NodeApiError).failure).toEqual({ cause: 'configuration-invalid' });
			expect((run.error as NodeApiError).httpCode).toBe(String(status));
			expect(passesOnItsOwn(run.error)).toBe(false);
		},
	);

	it('a poll reports it instead of waiting for it to pass', async () => {
		const harness = proc
			.withCredential(credentials())
			.poll({ companyId, event: 'newTender', output: 'tenders' }, 'UTC');
		expect((await harness.activate()).kind).toBe('nothing');
		script = (request) => (isResults(request) ? redirect(302, otherOriginLocation()) : undefined);
		const outcome = await harness.poll();
		expect(outcome.kind).toBe('error');
		if (outcome.kind === 'error') {
			expect(outcome.error.message).toContain(`another address, ${other.url} (HTTP 302)`);
			expectOriginNamedOnly(wordsOf(outcome.error));
		}
	});
});

describe('results request redirected on its own origin', () => {
	/** The API moved under /v2 of the same origin; the request follows it there. */
	function movedUnderV2(status: number) {
		script = (request) => {
			if (!isResults(request)) return undefined;
			if (request.path.startsWith('/v2/')) {
				return { forward: sandbox.url, forwardPath: request.path.slice('/v2'.length) };
			}
			return redirect(status, `/v2${request.path}`);
		};
	}

	it.each([301, 302, 303, 307, 308])(
		'%i: followed as a GET with the credential, every hop counted',
		async (status) => {
			movedUnderV2(status);
			const run = await proc.withCredential(credentials()).getMany({
				companyId,
				output: 'projects',
			});
			expect(run.error).toBeUndefined();
			expect(run.items?.map((item) => item.json.projectId)).toEqual(
				sandbox.listOpen(companyId).map((project) => project.projectId),
			);
			const results = api.requests.filter(isResults);
			// Each page: the request and the one its redirect led to, with the same query.
			expect(results.length).toBeGreaterThanOrEqual(2);
			for (let index = 0; index < results.length; index += 2) {
				expect(results[index + 1].path).toBe(`/v2${results[index].path}`);
			}
			for (const request of results) {
				expect(request.method).toBe('GET');
				expect(request.headers.authorization).toMatch(/^Bearer /);
				expect(request.headers['x-service-client-id']).toBe(clientId);
			}
			const key = JSON.stringify([api.url, clientId]);
			expect(100 - proc.runtime.rateBudget.room(key).free).toBe(results.length);
		},
	);

	it('a loop stops after three hops with a message', async () => {
		script = (request) => (isResults(request) ? redirect(302, request.path) : undefined);
		const run = await proc.withCredential(credentials()).getMany({ companyId });
		expect(run.error?.message).toBe(
			`The API at ${api.url} redirected the request more than 3 times (HTTP 302)`,
		);
		expect(api.requests.filter(isResults)).toHaveLength(4);
		expect(passesOnItsOwn(run.error)).toBe(false);
	});
});

describe('token request redirected', () => {
	it.each([302, 307, 308])(
		'%i to another origin: refused, the secret never posted there',
		async (status) => {
			script = (request) =>
				isToken(request) ? redirect(status, otherOriginLocation()) : undefined;
			const run = await proc.withCredential(credentials()).getMany({ companyId });
			expect(run.error?.message).toBe(
				`The token issuer at ${api.url} redirected the token request to another address, ${other.url} (HTTP ${status}); the node did not follow it, so the client secret was not sent there`,
			);
			expect(run.error?.description).toContain("Correct the credential's Auth URL");
			expectOriginNamedOnly(wordsOf(run.error));
			expect(api.requests.filter(isToken)).toHaveLength(1);
			expect(api.requests.filter(isResults)).toHaveLength(0);
			expect((run.error as NodeApiError).failure).toEqual({ cause: 'configuration-invalid' });
			expect(passesOnItsOwn(run.error)).toBe(false);
		},
	);

	it.each([307, 308])(
		'%i on its own origin: the POST follows with its form, and the walk runs',
		async (status) => {
			script = (request) => {
				if (!isToken(request)) return undefined;
				if (request.path === '/issuer/oauth2/token') {
					return { forward: sandbox.url, forwardPath: '/oauth2/token' };
				}
				return redirect(status, '/issuer/oauth2/token');
			};
			const run = await proc.withCredential(credentials()).getMany({ companyId });
			expect(run.error).toBeUndefined();
			expect(run.items?.length).toBeGreaterThan(0);
			const posts = api.requests.filter(isToken);
			expect(posts.map((request) => request.path)).toEqual([
				'/oauth2/token',
				'/issuer/oauth2/token',
			]);
			expect(posts[1].body).toBe(posts[0].body);
			expect(new URLSearchParams(posts[1].body).get('client_secret')).toBe(clientSecret);
		},
	);

	it.each([301, 302, 303])(
		'%i on its own origin: refused, since it would turn the POST into a GET',
		async (status) => {
			script = (request) =>
				request.path.startsWith('/oauth2/token') ? redirect(status, '/elsewhere') : undefined;
			const run = await proc.withCredential(credentials()).getMany({ companyId });
			expect(run.error?.message).toBe(
				`The token issuer at ${api.url} answered the token request with a redirect (HTTP ${status}) that would turn it into a GET without the client's credentials, so the node did not follow it`,
			);
			expect(api.requests.map((request) => request.path)).toEqual(['/oauth2/token']);
		},
	);
});

describe('addresses with user-info or a bare ? or #', () => {
	it.each([
		['Base URL', { baseUrl: 'http://smp-user:smp-pass@127.0.0.1:9/' }, 'http://***@127.0.0.1:9'],
		[
			'Auth URL',
			{ authUrl: 'https://smp-user:smp-pass@auth.example.com' },
			'https://***@auth.example.com',
		],
		['Auth URL', { authUrl: 'https://smp-user@auth.example.com' }, 'https://***@auth.example.com'],
	])(
		'a user name or password in the %s is refused, none of it shown',
		async (field, fields, shown) => {
			const run = await proc.withCredential(credentials(fields)).getMany({ companyId });
			expect(run.error?.message).toBe(
				`The credential's ${field} "${shown}" has a user name or password in it (before an "@"): enter only the address, for example ${field === 'Base URL' ? 'https://api.example.com' : 'https://auth.example.com'}, and the client ID and secret in their own fields`,
			);
			expect(wordsOf(run.error)).not.toMatch(/smp-user|smp-pass/);
			expect(api.requests).toEqual([]);
		},
	);

	it.each(['?', '/?', '#', '/#'])('a Base URL ending in a bare "%s" is refused', async (end) => {
		const run = await proc.withCredential(credentials({ baseUrl: `${api.url}${end}` })).getMany({
			companyId,
		});
		expect(run.error?.message).toContain(`has a query or fragment (a "?" or "#" and what follows)`);
		expect(api.requests.filter(isResults)).toEqual([]);
	});
});

describe("the credential's Test button", () => {
	async function test(fields: Partial<CredentialFields>) {
		return await proc.testCredential({ ...credentials(fields) } as ICredentialDataDecryptedObject);
	}

	it.each([301, 302, 307, 308])(
		'reports a %i of its check at the Base URL without following it',
		async (status) => {
			script = (request) =>
				request.path === '/swagger/doc' ? redirect(status, otherOriginLocation()) : undefined;
			const result = await test({});
			expect(result.status).toBe('Error');
			expect(result.message).toContain(
				`the Base URL answered with a redirect (HTTP ${status}), which the test does not follow`,
			);
			expect(api.requests.map((request) => request.path)).toEqual([
				'/oauth2/token',
				'/swagger/doc',
			]);
		},
	);

	it('reports a token request redirected to another origin, naming it', async () => {
		script = (request) => (isToken(request) ? redirect(307, otherOriginLocation()) : undefined);
		const result = await test({});
		expect(result).toEqual({
			status: 'Error',
			message: `The token issuer at ${api.url} redirected the token request to another address, ${other.url} (HTTP 307); the node did not follow it, so the client secret was not sent there`,
		});
	});

	it('reports user-info in the Base URL without showing it', async () => {
		const { host } = new URL(api.url);
		const result = await test({ baseUrl: `http://smp-user:smp-pass@${host}` });
		expect(result.status).toBe('Error');
		expect(result.message).toContain(`Base URL "http://***@${host}" has a user name or password`);
		expect(result.message).not.toMatch(/smp-user|smp-pass/);
		expect(api.requests).toEqual([]);
	});
});
