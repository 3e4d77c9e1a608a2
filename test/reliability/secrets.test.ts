/**
 * Secrets: the client secret and every access token stay out of everything n8n shows, logs or
 * stores, on every error path; and tokens are kept per credential, in memory only.
 *
 * The credential points at a recording server in front of the sandbox, so the test knows every
 * token that was handed out; a case can make that server answer for the sandbox instead. After
 * each case the whole of what n8n could show or keep is searched: output items (what a user would
 * pin), the error's message, description, stack and causes, the execution's run data, n8n's log,
 * the credential writes n8n would make, and for the trigger its static data.
 */
import type {
	ICredentialDataDecryptedObject,
	INodeExecutionData,
	INodeParameters,
} from 'n8n-workflow';

import {
	API_RATE_LIMIT,
	RATE_BURST,
} from '../../nodes/SupplierMatchedProjects/transport/rate-budget';
import { startSandbox } from '../../sandbox';
import {
	n8nProcess,
	SHORT_WAITS,
	type CredentialFields,
	type N8nProcess,
	type PollHarness,
} from '../support/harness';
import { leaksIn, secretForms } from '../support/reliability/secrets';
import { captureLogs, type LogEntry } from '../support/reliability/logs';
import {
	closedPort,
	startScriptedServer,
	type ScriptedReply,
	type ScriptedRequest,
	type ScriptedServer,
} from '../support/reliability/server';
import type { Sandbox } from '../support/engine/poll-world';

let proc: N8nProcess;

const companyId = 'company-1';
// Spaces and URL-special characters, so form- and URL-encoded forms of it are searched too.
const PROBE = { clientId: 'leak-probe-client', clientSecret: 'probe secret dummy 4Qz+/=&%?#' };
const NO_SCOPE_PROBE = {
	clientId: 'leak-probe-no-scope',
	clientSecret: 'no scope probe dummy 8Wx+&=',
};
const WRONG_SECRET = 'wrong probe secret dummy 2Lk+&%';

let sandbox: Sandbox;
let recorder: ScriptedServer;
let refusedPort: number;
let logs: LogEntry[];
/** Answers for the sandbox unless a case says otherwise. */
let override: ((request: ScriptedRequest, index: number) => ScriptedReply | undefined) | undefined;

beforeAll(async () => {
	logs = captureLogs();
	sandbox = await startSandbox({
		projects: 120,
		clients: [
			{ ...PROBE, scopes: ['speci-finder/read'], companyIds: [companyId] },
			{ ...NO_SCOPE_PROBE, scopes: [], companyIds: [companyId] },
		],
	});
	recorder = await startScriptedServer();
	let index = 0;
	recorder.handle((request) => override?.(request, index++) ?? { forward: sandbox.url });
	refusedPort = await closedPort();
});

afterAll(async () => {
	await Promise.all([sandbox.stop(), recorder.stop()]);
});

beforeEach(() => {
	logs.length = 0;
	override = undefined;
	proc = n8nProcess({ retryPolicy: SHORT_WAITS });
	sandbox.clearFaults();
});

function probeCredentials(overrides: Partial<CredentialFields> = {}): CredentialFields {
	return { authUrl: recorder.url, baseUrl: recorder.url, ...PROBE, ...overrides };
}

/** Every secret of this file in every spelling, and every token handed out so far. */
function allSecrets(): string[] {
	return [
		...secretForms(PROBE.clientSecret, PROBE.clientId),
		...secretForms(NO_SCOPE_PROBE.clientSecret, NO_SCOPE_PROBE.clientId),
		...secretForms(WRONG_SECRET, PROBE.clientId),
		...recorder.tokens,
	];
}

function expectNoLeaks(places: Record<string, unknown>): void {
	expect(recorder.tokens.length + allSecrets().length).toBeGreaterThan(0);
	expect(leaksIn({ ...places, logs }, allSecrets())).toEqual([]);
}

function onResults(reply: (index: number, request: ScriptedRequest) => ScriptedReply): void {
	let results = 0;
	override = (request) =>
		request.path.includes('/speci-finder/results') ? reply(results++, request) : undefined;
}

function onToken(reply: () => ScriptedReply): void {
	override = (request) => (request.path.startsWith('/oauth2/token') ? reply() : undefined);
}

interface ErrorPath {
	name: string;
	credentials?: () => Partial<CredentialFields>;
	parameters?: INodeParameters;
	arrange?: () => void;
	/** What the error says, so the case is known to have taken its path. */
	error: RegExp;
}

/** The sandbox as the Base URL, failing in this way on every try. */
function sandboxFault(name: string, kind: SandboxFault, error: RegExp): ErrorPath {
	const arrange = () => sandbox.injectFault({ kind, times: 10 });
	return { name, credentials: () => ({ baseUrl: sandbox.url }), arrange, error };
}
type SandboxFault = 'serverError' | 'html' | 'drop' | 'malformedJson';

const errorPaths: ErrorPath[] = [
	{
		name: 'wrong client secret',
		credentials: () => ({ clientSecret: WRONG_SECRET }),
		error: /invalid_client/,
	},
	{ name: 'scope refused', credentials: () => NO_SCOPE_PROBE, error: /invalid_scope/ },
	{
		name: 'token lacks the scope',
		credentials: () => ({ ...NO_SCOPE_PROBE, scope: '' }),
		error: /refused access/,
	},
	{
		name: 'token endpoint 404',
		arrange: () => onToken(() => ({ status: 404, text: 'Not Found' })),
		error: /HTTP 404/,
	},
	{
		name: 'token endpoint HTML',
		arrange: () =>
			onToken(() => ({ headers: { 'content-type': 'text/html' }, text: '<html></html>' })),
		error: /other than JSON/,
	},
	{
		name: 'token endpoint empty',
		arrange: () => onToken(() => ({ text: '' })),
		error: /other than JSON/,
	},
	{
		name: 'token response without access_token',
		arrange: () => onToken(() => ({ json: { token_type: 'Bearer' } })),
		error: /without an access_token/,
	},
	{
		name: 'token endpoint 500',
		arrange: () => onToken(() => ({ status: 500, text: 'oops' })),
		error: /not available right now/,
	},
	{
		name: 'token endpoint unreachable',
		credentials: () => ({ authUrl: `http://127.0.0.1:${refusedPort}` }),
		error: /Could not reach the token issuer/,
	},
	{
		name: 'an issuer that echoes the request in its error',
		arrange: () =>
			onToken(() => ({
				status: 401,
				json: {
					error: 'invalid_client',
					error_description: `client_secret ${PROBE.clientSecret} is not valid for ${PROBE.clientId}`,
				},
			})),
		error: /invalid_client/,
	},
	{
		name: 'an API that echoes the bearer token in its error',
		arrange: () =>
			onResults((index, request) => ({
				status: 401,
				json: {
					code: 'Unauthorised',
					message: `token ${String(request.headers.authorization)} expired (${index + 1})`,
				},
			})),
		error: /refused access/,
	},
	{
		name: 'client id header mismatch',
		arrange: () => onResults(() => ({ status: 401, json: { code: 'CLIENT_ID_HEADER_MISMATCH' } })),
		error: /CLIENT_ID_HEADER_MISMATCH/,
	},
	{
		name: 'client id header missing',
		arrange: () => onResults(() => ({ status: 400, json: { code: 'CLIENT_ID_HEADER_MISSING' } })),
		error: /CLIENT_ID_HEADER_MISSING/,
	},
	{
		name: '429 beyond the wait',
		arrange: () => onResults(() => ({ status: 429, headers: { 'retry-after': '900' }, json: {} })),
		error: /used its 100 requests per 5 minutes/,
	},
	sandboxFault('5xx every time', 'serverError', /failed on its side/),
	sandboxFault('HTML from a proxy every time', 'html', /failed on its side/),
	sandboxFault(
		'connection dropped every time',
		'drop',
		/Could not reach the API|cut off|closed unexpectedly|aborted/,
	),
	sandboxFault('truncated JSON', 'malformedJson', /not with a page/),
	{
		name: 'results too slow',
		arrange: () => onResults(() => ({ json: {}, delayMs: 5_000 })),
		error: /did not answer within/,
	},
	{
		name: 'results unreachable',
		credentials: () => ({ baseUrl: `http://127.0.0.1:${refusedPort}` }),
		error: /Could not reach the API/,
	},
	{
		name: 'paging that cannot be followed',
		arrange: () =>
			onResults(() => ({ json: { data: [], _metadata: { nextCursor: null, hasNextPage: true } } })),
		error: /sent no cursor/,
	},
	{
		name: 'no request slot within the wait',
		arrange: () => {
			// The burst spent, the next slot is one pace (3 s) away: past a wait of 1 s.
			proc = n8nProcess({ retryPolicy: { ...SHORT_WAITS, maxTotalWaitMs: 1000 } });
			const key = JSON.stringify([recorder.url, PROBE.clientId]);
			for (let index = 0; index < RATE_BURST; index++) {
				void proc.runtime.rateBudget.acquire(key, Date.now());
			}
		},
		error:
			/^Requests on this credential are spent evenly, one every 3 s to keep to its 100 requests per 5 minutes, and others were ahead of this run: its next one would go in \d s$/,
	},
	{ name: 'invalid company id', parameters: { companyId: '..' }, error: /cannot be sent/ },
	{
		name: 'unregistered company',
		parameters: { companyId: 'company-unregistered' },
		error: /refused access/,
	},
];

describe('Get Many: no secret or token on any error path', () => {
	/** Arranges the path and runs Get Many on it in the current process. */
	async function runPath(path: ErrorPath, continueOnFail: boolean) {
		path.arrange?.();
		const helper = proc.withCredential(probeCredentials(path.credentials?.()));
		const run = await helper.getMany({ companyId, ...path.parameters }, { continueOnFail });
		return { run, writes: helper.credentials.writes };
	}

	test.each(errorPaths.map((path) => [path.name, path] as const))('%s', async (_name, path) => {
		const failed = await runPath(path, false);
		expect(failed.run.error?.message).toMatch(path.error);
		expectNoLeaks({ ...failed.run, writes: failed.writes });

		// The same failure with "Continue On Fail": the error becomes an output item.
		proc = n8nProcess({ retryPolicy: SHORT_WAITS });
		sandbox.clearFaults();
		const { run, writes } = await runPath(path, true);
		expect(String(run.items?.[0]?.json.error)).toMatch(path.error);
		expectNoLeaks({ items: run.items, run: run.run, writes });
	});

	test('the error paths cover every spelling of the secret and some real tokens', () => {
		expect(recorder.tokens.length).toBeGreaterThan(0);
		expect(errorPaths.length).toBeGreaterThanOrEqual(24);
	});
});

describe('the credential test button', () => {
	test.each([
		['the right secret', () => ({}), /Connection successful|OK/],
		['a wrong secret', () => ({ clientSecret: WRONG_SECRET }), /invalid_client/],
		[
			'an unreachable issuer',
			() => ({ authUrl: `http://127.0.0.1:${refusedPort}` }),
			/token issuer|reach/,
		],
	] as const)('with %s says nothing secret', async (_name, overrides, said) => {
		const helper = proc.withCredential(probeCredentials());
		const data = {
			...probeCredentials(),
			...overrides(),
		} as unknown as ICredentialDataDecryptedObject;
		const result = await helper.testCredential(data);
		expect(`${result.status} ${result.message}`).toMatch(said);
		expectNoLeaks({ result, writes: helper.credentials.writes });
	});
});

describe('the trigger keeps secrets out of static data, items, errors and logs', () => {
	function trigger(withCredential: N8nProcess): PollHarness {
		return withCredential.poll(
			{ companyId, event: 'newOrUpdatedTender', output: 'tenders' },
			'UTC',
		);
	}

	test('through activation, new tenders, faults, revoked tokens and a restart', async () => {
		// Some 50 requests in a few real seconds: a burst as large as the limit, not the API's pace.
		proc = n8nProcess({ retryPolicy: SHORT_WAITS, rateBudget: { burst: API_RATE_LIMIT } });
		const helper = proc.withCredential(probeCredentials());
		const harness = trigger(helper);
		await harness.activate();
		const emitted: INodeExecutionData[] = [];
		for (let poll = 0; poll < 12; poll++) {
			// Polls are a minute apart or more: past the API's short cache of repeated pages.
			sandbox.clock.advance(61_000);
			sandbox.openTender();
			if (poll % 4 === 1) sandbox.revokeTokens();
			if (poll % 3 === 2) sandbox.injectFault({ kind: 'serverError', times: 3 });
			if (poll === 6) await harness.restart();
			override = undefined;
			// An API that echoes the bearer token in its 503s: the poll is skipped and logged.
			if (poll === 9) {
				onResults((_index, request) => ({
					status: 503,
					json: {
						code: 'FETCH_FAILED',
						message: `upstream refused ${String(request.headers.authorization)}`,
					},
				}));
			}
			const outcome = await harness.poll();
			if (outcome.kind === 'emitted') emitted.push(...outcome.items);
		}
		expect(emitted.length).toBeGreaterThan(0);
		expect(recorder.tokens.length).toBeGreaterThan(1);
		expect(harness.logs.some((entry) => entry.message.includes('skipped a poll'))).toBe(true);
		expectNoLeaks({
			emitted,
			saved: harness.saved,
			memory: harness.memory(),
			errors: harness.errors,
			triggerLogs: harness.logs,
			writes: helper.credentials.writes,
		});
	});

	test('when its first poll fails on a wrong secret and on an echoing API', async () => {
		const wrong = trigger(proc.withCredential(probeCredentials({ clientSecret: WRONG_SECRET })));
		await expect(wrong.activate()).rejects.toThrow(/invalid_client/);

		onResults(() => ({ status: 401, json: { code: 'Unauthorised', message: 'bad token' } }));
		const refused = trigger(proc.withCredential(probeCredentials()));
		let thrown: unknown;
		try {
			await refused.activate();
		} catch (error) {
			thrown = error;
		}
		expect(String((thrown as Error | undefined)?.message)).toMatch(/refused access/);
		expectNoLeaks({
			thrown,
			saved: [wrong.saved, refused.saved],
			triggerLogs: [wrong.logs, refused.logs],
		});
	});
});

describe('tokens are kept per credential, in memory only', () => {
	test('one token for repeated runs; a changed secret, client id or issuer asks again', async () => {
		const tokensFor = (clientId: string) => sandbox.tokensIssued({ clientId });
		const probeHelper = proc.withCredential(probeCredentials());
		const before = tokensFor(PROBE.clientId);
		for (let run = 0; run < 3; run++) {
			expect((await probeHelper.getMany({ companyId })).error).toBeUndefined();
		}
		expect(tokensFor(PROBE.clientId) - before).toBe(1);

		const tokenRequests = () =>
			recorder.requests.filter((request) => request.path.startsWith('/oauth2/token')).length;
		const asked = tokenRequests();
		const changedSecret = await proc
			.withCredential(probeCredentials({ clientSecret: WRONG_SECRET }))
			.getMany({ companyId });
		expect(changedSecret.error?.message).toMatch(/invalid_client/);
		expect(tokenRequests()).toBe(asked + 1);

		const otherBefore = tokensFor(sandbox.fixtures.client.clientId);
		const otherClient = proc.withCredential(probeCredentials({ ...sandbox.fixtures.client }));
		expect((await otherClient.getMany({ companyId })).error).toBeUndefined();
		expect(tokensFor(sandbox.fixtures.client.clientId)).toBe(otherBefore + 1);

		const directIssuer = proc.withCredential(probeCredentials({ authUrl: sandbox.url }));
		expect((await directIssuer.getMany({ companyId })).error).toBeUndefined();
		expect(tokensFor(PROBE.clientId) - before).toBe(2);

		// Back to the first credential: its token is still in memory.
		expect((await probeHelper.getMany({ companyId })).error).toBeUndefined();
		expect(tokensFor(PROBE.clientId) - before).toBe(2);

		for (const helper of [probeHelper, otherClient, directIssuer]) {
			expect(helper.credentials.writes).toEqual([]);
		}
		expectNoLeaks({
			writes: [probeHelper, otherClient, directIssuer].map((helper) => helper.credentials.writes),
		});
	});

	test('a forgotten process memory means a new token: nothing was kept anywhere else', async () => {
		const before = sandbox.tokensIssued({ clientId: PROBE.clientId });
		const first = proc.withCredential(probeCredentials());
		expect((await first.getMany({ companyId })).error).toBeUndefined();
		proc = n8nProcess({ retryPolicy: SHORT_WAITS });
		const restarted = proc.withCredential(probeCredentials());
		expect((await restarted.getMany({ companyId })).error).toBeUndefined();
		expect(sandbox.tokensIssued({ clientId: PROBE.clientId }) - before).toBe(2);
		for (const helper of [first, restarted]) {
			expect(helper.credentials.writes).toEqual([]);
			expect(helper.credentials.preAuthenticationRuns).toBeGreaterThanOrEqual(1);
		}
	});
});
