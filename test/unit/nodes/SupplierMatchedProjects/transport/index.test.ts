import type {
	ICredentialDataDecryptedObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';

import { SupplierRuntime } from '../../../../../nodes/SupplierMatchedProjects/runtime';
import {
	companyIdProblem,
	openWalk,
	resultsUrl,
	type CompanyId,
	type SupplierContext,
} from '../../../../../nodes/SupplierMatchedProjects/transport';
import {
	TokenRequestError,
	type TokenFailureKind,
} from '../../../../../nodes/SupplierMatchedProjects/transport/token';
import { walkPages } from '../../../../../nodes/SupplierMatchedProjects/transport/pages';
import type { RetryPolicy } from '../../../../../nodes/SupplierMatchedProjects/transport/retry';
import { runInVirtualTime, useVirtualTime } from '../../../../support/engine/clock';
import { workflowNode } from '../../../../support/engine/n8n-fixtures';

const node = workflowNode(
	'n',
	'Supplier Matched Projects',
	'n8n-nodes-supplier-matched-projects.supplierMatchedProjects',
);

/** What this test's walks tell the user when the service's paging cannot be followed. */
const ADVICE = 'Run it again later.';

describe('results URL', () => {
	it('sends any company ID as one encoded path segment', () => {
		expect(resultsUrl('https://api.test', 'a/b?c#d%e f')).toBe(
			'https://api.test/api/supplier/v1/companies/a%2Fb%3Fc%23d%25e%20f/speci-finder/results',
		);
	});

	it('accepts other IDs, dots included', () => {
		expect(companyIdProblem('...')).toBeUndefined();
		expect(companyIdProblem('company.1')).toBeUndefined();
	});
});

const lastPage = { data: [], _metadata: { nextCursor: null, hasNextPage: false } };

/**
 * The smallest context the transport needs: the credential, and n8n's authenticated request
 * helper answering from a script (a thrown error is what n8n throws, the rest are answers; no
 * answer is an empty last page).
 */
function fakeContext(
	credentials: ICredentialDataDecryptedObject,
	answer: () => IN8nHttpFullResponse | Error | undefined = () => undefined,
) {
	const sent: IHttpRequestOptions[] = [];
	const context = {
		getNode: () => node,
		getCredentials: async () => credentials,
		helpers: {
			httpRequestWithAuthentication: async (_type: string, options: IHttpRequestOptions) => {
				sent.push(options);
				const outcome = answer() ?? { statusCode: 200, headers: {}, body: lastPage };
				if (outcome instanceof Error) throw outcome;
				return outcome;
			},
		},
	};
	return { context: context as unknown as IExecuteFunctions, sent };
}

/** This test's n8n process: its tokens, rate budget, turns and retry policy. */
let runtime = new SupplierRuntime();

/** A fresh process, as after a restart, with these parts of the retry policy changed. */
function restart(retryPolicy?: Partial<RetryPolicy>): void {
	runtime = new SupplierRuntime({ retryPolicy });
}

async function walkOf(context: SupplierContext) {
	return await openWalk(runtime, context, 'company-1' as CompanyId, { pagingAdvice: ADVICE });
}

async function fetchPageOf(context: SupplierContext) {
	return await (await walkOf(context)).fetchPage({ limit: 10 });
}

async function roomOf(context: SupplierContext) {
	return (await walkOf(context)).room();
}

/** What the page fetch settles to: the page, or what it threw. */
async function outcomeOf(context: SupplierContext): Promise<unknown> {
	return await fetchPageOf(context).then(
		(result) => result,
		(reason: unknown) => reason,
	);
}

async function inTurnOf<T>(context: SupplierContext, walk: () => Promise<T>): Promise<T> {
	return await (await walkOf(context)).inTurn(walk);
}

const limited = (retryAfter: string): IN8nHttpFullResponse => ({
	statusCode: 429,
	headers: { 'retry-after': retryAfter },
	body: { code: 'RATE_LIMITED', message: 'Too many requests.' },
});

const settings = {
	authUrl: 'https://auth.test',
	baseUrl: 'https://api.test',
	clientId: 'client-1',
	clientSecret: 'TOPSECRET',
};

describe('the room a walk finds', () => {
	beforeEach(() => restart());

	it('counts the requests sent on the same token issuer and client ID, however they are spelled', async () => {
		const { context: sender, sent } = fakeContext({
			...settings,
			authUrl: ' https://auth.test/oauth2/token/ ',
			baseUrl: 'https://elsewhere.test',
			clientId: ' client-1 ',
			clientSecret: 'another-secret',
			scope: '',
		});
		const { context: asker } = fakeContext(settings);
		const { context: otherClient } = fakeContext({ ...settings, clientId: 'client-2' });
		const { context: otherIssuer } = fakeContext({ ...settings, authUrl: 'https://auth2.test' });
		expect(await roomOf(asker)).toEqual({ free: 100, underLimit: 100 });
		for (let index = 0; index < 3; index++) {
			await fetchPageOf(sender);
		}
		expect(sent).toHaveLength(3);
		expect(await roomOf(asker)).toEqual({ free: 97, underLimit: 97 });
		expect(await roomOf(otherClient)).toEqual({ free: 100, underLimit: 100 });
		expect(await roomOf(otherIssuer)).toEqual({ free: 100, underLimit: 100 });
	});

	it('says which credential field is unusable', async () => {
		const { context } = fakeContext({ ...settings, authUrl: 'ftp://auth.test' });
		await expect(roomOf(context)).rejects.toThrow(
			'The credential\'s Auth URL "ftp://auth.test" is not an http:// or https:// address',
		);
	});
});

describe('a failed token exchange reaching the node', () => {
	beforeEach(() => restart({ baseDelayMs: 1, maxDelayMs: 1 }));

	/** n8n wraps what preAuthentication threw in a NodeApiError of its own. */
	function wrappedByN8n(kind: TokenFailureKind): NodeApiError {
		const thrown = new TokenRequestError(kind, `the cause (${kind})`, 'the fix');
		return new NodeApiError(node, thrown as unknown as JsonObject);
	}

	async function failureOf(kind: TokenFailureKind) {
		const { context, sent } = fakeContext(settings, () => wrappedByN8n(kind));
		const error = await outcomeOf(context);
		if (!(error instanceof NodeApiError)) throw new Error(`expected a NodeApiError: ${error}`);
		return { error, attempts: sent.length };
	}

	it.each<[TokenFailureKind, string, number]>([
		['invalidClient', 'credential-invalid', 1],
		['invalidScope', 'credential-invalid', 1],
		['wrongAuthUrl', 'credential-invalid', 1],
		['refused', 'credential-invalid', 1],
		['issuerUnavailable', 'temporarily-unavailable', 5],
		['unreachable', 'temporarily-unavailable', 5],
	])('%s: said in its own words, declared %s after %i attempts', async (kind, cause, tries) => {
		const { error, attempts } = await failureOf(kind);
		expect(error.message).toBe(`the cause (${kind})`);
		expect(error.description).toBe('the fix');
		expect(error.httpCode).toBeNull();
		expect(error.failure).toEqual({ cause });
		expect(attempts).toBe(tries);
	});

	it('declares nothing for an API answer, whose HTTP code says it all', async () => {
		const { context } = fakeContext(settings, () => ({
			statusCode: 401,
			headers: {},
			body: { code: 'Unauthorised', message: 'Unauthorised.' },
		}));
		const error = await outcomeOf(context);
		expect(error).toBeInstanceOf(NodeApiError);
		expect((error as NodeApiError).httpCode).toBe('401');
		expect((error as NodeApiError).failure).toBeUndefined();
	});
});

describe('a 429 with Retry-After: the count every n8n process on the credential shares', () => {
	beforeEach(() => {
		useVirtualTime();
		restart({ maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 });
	});
	afterEach(() => jest.useRealTimers());

	it('waits as long as the API says, without using up attempts, and counts only what the API counted', async () => {
		const answers = [limited('1'), limited('1'), limited('1')];
		const { context, sent } = fakeContext(settings, () => answers.shift());
		const started = Date.now();
		expect(await runInVirtualTime(() => outcomeOf(context))).toEqual(lastPage);
		expect(sent).toHaveLength(4);
		expect(Date.now() - started).toBeGreaterThanOrEqual(3000);
		// Each 429 halved what this process allows itself (100, 50, 25, 12): 11 left, where its own
		// count alone would leave 99.
		expect(await roomOf(context)).toEqual({ free: 11, underLimit: 99 });
	});

	it('stops with the budget message when the API asks for longer than the node waits (5 minutes at most); this process then sends nothing until then', async () => {
		const { context, sent } = fakeContext(settings, () => limited('3600'));
		const error = (await outcomeOf(context)) as NodeApiError;
		expect(error).toBeInstanceOf(NodeApiError);
		// Retry-After, capped at the API's 5-minute window, plus a random spread of up to one slot
		// (3 s), so processes do not return together.
		expect(error.message).toMatch(
			/^This credential has used its 100 requests per 5 minutes, counted by the API across every n8n process that uses it; the next one is allowed in 30[0-3] s$/,
		);
		expect(error.description).toContain('in queue mode: the main instance and all workers');
		expect(error.httpCode).toBe('429');
		expect(sent).toHaveLength(1);

		const { context: another, sent: sentByAnother } = fakeContext(settings);
		expect(await roomOf(another)).toEqual({ free: 0, underLimit: 100 });
		expect((await outcomeOf(another)) as NodeApiError).toMatchObject({
			message: expect.stringMatching(/counted by the API .* allowed in 30[0-3] s$/),
		});
		expect(sentByAnother).toHaveLength(0);
		const { context: otherClient } = fakeContext({ ...settings, clientId: 'client-2' });
		expect(await outcomeOf(otherClient)).toEqual(lastPage);
	});

	it('retries a 429 that gives no time (or zero) like any failure: within the attempts', async () => {
		for (const headers of [{}, { 'retry-after': '0' }]) {
			restart({ maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 });
			const { context, sent } = fakeContext(settings, () => ({
				statusCode: 429,
				headers,
				body: { code: 'RATE_LIMITED' },
			}));
			expect(((await runInVirtualTime(() => outcomeOf(context))) as NodeApiError).message).toBe(
				"The API's rate limit was reached after 2 attempts (HTTP 429)",
			);
			expect(sent).toHaveLength(2);
		}
	});
});

describe('a walk whose turn does not come within the wait', () => {
	beforeEach(() => useVirtualTime());
	afterEach(() => {
		jest.restoreAllMocks();
		jest.useRealTimers();
	});

	/** One request answered 429 with this Retry-After, which the node gives up on at once. */
	async function refused(retryAfter: string): Promise<void> {
		const { context } = fakeContext(settings, () => limited(retryAfter));
		await expect(fetchPageOf(context)).rejects.toThrow(/counted by the API/);
	}

	/** A walk that waits for another one holding the turn longer than the node waits. */
	const lateWalk = async () => await runInVirtualTime(walkBehindASlowOne);

	async function walkBehindASlowOne() {
		const { context } = fakeContext(settings);
		let walked = false;
		let firstRan = false;
		const first = inTurnOf(context, async () => {
			await sleep(300);
			firstRan = true;
		});
		const late = inTurnOf(context, async () => {
			walked = true;
		}).then(
			() => 'ran',
			(error: Error) => error.message,
		);
		const outcome = await late;
		expect(firstRan).toBe(false);
		await first;
		return { walked, outcome, firstRan };
	}

	it('stops at the wait with the queue message, or the budget message when the window is spent; the walk ahead finishes', async () => {
		jest.spyOn(Math, 'random').mockReturnValue(0);
		restart({ maxAttempts: 1, maxTotalWaitMs: 100 });
		const queued = await lateWalk();
		expect(queued).toEqual({
			walked: false,
			firstRan: true,
			outcome:
				'Walks through the results on this credential are queued: this run waited 1 s for its turn behind another and stopped rather than wait longer',
		});

		// Past a Retry-After, the only wait left is the pacing of one slot: still the queue.
		await refused('1');
		await runInVirtualTime(() => sleep(1100));
		expect((await lateWalk()).outcome).toMatch(/^Walks through the results .* are queued/);

		// The same wait while a longer Retry-After is still ahead: the budget is the cause.
		restart({ maxAttempts: 1, maxTotalWaitMs: 100 });
		await refused('60');
		const spent = await lateWalk();
		expect(spent.walked).toBe(false);
		expect(spent.outcome).toMatch(/counted by the API .* allowed in 60 s$/);
	});

	it('leaves the turns as they were: the next walk runs at once', async () => {
		restart({ maxTotalWaitMs: 50 });
		expect((await lateWalk()).outcome).toMatch(/are queued/);
		const { context } = fakeContext(settings);
		expect(await inTurnOf(context, async () => 'ran')).toBe('ran');
	});
});

describe("a walk's pages, from the request to the loop", () => {
	beforeEach(() => restart());

	it('follows the pages it requests, and stops at paging it cannot follow with the advice it was opened with', async () => {
		const { context, sent } = fakeContext(settings, () => ({
			statusCode: 200,
			headers: {},
			body: { data: [], _metadata: { nextCursor: 'same', hasNextPage: true } },
		}));
		const walk = await walkOf(context);
		const pages = walkPages(
			walk,
			() => 10,
			() => undefined,
		);
		// Each page is handed over before what it says of the next is judged.
		expect(await pages.next()).toEqual({ done: false, value: [] });
		expect(await pages.next()).toEqual({ done: false, value: [] });
		await expect(pages.next()).rejects.toMatchObject({
			kind: 'paging',
			message:
				'The API sent a cursor on page 2 that it had already sent, so the walk stopped rather than loop',
			description: `The service sent paging information that cannot be followed. ${ADVICE}`,
		});
		expect(sent.map((options) => options.qs)).toEqual([
			{ limit: 10 },
			{ limit: 10, cursor: 'same' },
		]);
	});
});
