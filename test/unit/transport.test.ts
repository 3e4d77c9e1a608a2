import type {
	ICredentialDataDecryptedObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';

import { describeApiFailure } from '../../nodes/SupplierMatchedProjects/transport/api-errors';
import { SupplierRuntime } from '../../nodes/SupplierMatchedProjects/runtime';
import { RateBudget, type RateAnswer } from '../../nodes/SupplierMatchedProjects/transport/rate-budget';
import { Turns } from '../../nodes/SupplierMatchedProjects/transport/turns';
import {
	companyIdProblem,
	openWalk,
	resultsUrl,
	type CompanyId,
	type SupplierContext,
} from '../../nodes/SupplierMatchedProjects/transport';
import {
	TokenRequestError,
	type TokenFailureKind,
} from '../../nodes/SupplierMatchedProjects/transport/token';
import { networkFailureOf } from '../../nodes/SupplierMatchedProjects/transport/network';
import {
	backoffDelay,
	DEFAULT_RETRY_POLICY,
	isRetryableStatus,
	parseRetryAfter,
	type RetryPolicy,
} from '../../nodes/SupplierMatchedProjects/transport/retry';
import { readSettings } from '../../nodes/SupplierMatchedProjects/transport/settings';
import { runInVirtualTime, useVirtualTime } from '../support/clock';
import { workflowNode } from '../support/n8n-fixtures';

const node = workflowNode(
	'n',
	'Supplier Matched Projects',
	'n8n-nodes-supplier-matched-projects.supplierMatchedProjects',
);

describe('retry policy', () => {
	it('backs off exponentially with full jitter, capped', () => {
		const policy = { baseDelayMs: 500, maxDelayMs: 15_000 };
		expect([1, 2, 3, 4, 5, 6, 7].map((attempt) => backoffDelay(attempt, policy, () => 1))).toEqual([
			500, 1000, 2000, 4000, 8000, 15_000, 15_000,
		]);
		expect(backoffDelay(3, policy, () => 0)).toBe(0);
		expect(backoffDelay(3, policy, () => 0.25)).toBe(500);
	});

	it('keeps production defaults that bound every wait', () => {
		expect(DEFAULT_RETRY_POLICY).toEqual({
			maxAttempts: 5,
			baseDelayMs: 500,
			maxDelayMs: 15_000,
			maxTotalWaitMs: 120_000,
			requestTimeoutMs: 30_000,
		});
		expect(Object.isFrozen(DEFAULT_RETRY_POLICY)).toBe(true);
	});

	it.each([
		[400, false],
		[401, false],
		[403, false],
		[404, false],
		[429, true],
		[500, true],
		[502, true],
		[503, true],
		[599, true],
	])('status %p retryable: %p', (status, retryable) => {
		expect(isRetryableStatus(status)).toBe(retryable);
	});

	describe('parseRetryAfter', () => {
		const now = Date.parse('2030-01-01T00:00:00Z');

		it.each([
			['0', 0],
			['120', 120_000],
			[' 5 ', 5000],
			[['3'], 3000],
			[7, 7000],
			['Tue, 01 Jan 2030 00:00:30 GMT', 30_000],
			['Mon, 31 Dec 2029 23:59:00 GMT', 0],
			// At most the API's 5-minute window, after which one request probes.
			['300', 300_000],
			['301', 300_000],
			['86400', 300_000],
			['99999999999999999999999', 300_000],
			[86_400, 300_000],
			['Fri, 01 Jan 2100 00:00:00 GMT', 300_000],
		])('reads %p as %p ms', (value, ms) => {
			expect(parseRetryAfter(value, now)).toBe(ms);
		});

		it.each([undefined, '', 'soon', '-1', '1.5', null, {}])('ignores %p', (value) => {
			expect(parseRetryAfter(value, now)).toBeUndefined();
		});
	});
});

describe('RateBudget', () => {
	function fakeClock() {
		let time = 1_000_000;
		const sleeps: number[] = [];
		return {
			now: () => time,
			sleep: async (ms: number) => {
				sleeps.push(ms);
				time += ms;
			},
			advance: (ms: number) => {
				time += ms;
			},
			sleeps,
		};
	}

	/** Takes a slot on the key and answers it at once as the API did. */
	async function sendOn(budget: RateBudget, key: string, answer: RateAnswer, deadline: number) {
		const outcome = await budget.acquire(key, deadline);
		if (outcome.acquired) budget.answered(key, answer);
		return outcome;
	}

	const counted: RateAnswer = { kind: 'counted' };

	/** A budget on a fake clock, with these options. */
	function budgetOn(options: { limit: number; windowMs: number; random?: () => number }) {
		const clock = fakeClock();
		return { clock, budget: new RateBudget({ ...options, ...clock }) };
	}

	const refusal = (waitMs: number, spentBy: 'process' | 'api', queued = false) => ({
		acquired: false,
		waitMs,
		spentBy,
		queued,
	});

	it('lets `limit` sends through, then waits for the oldest answer to leave the window', async () => {
		const { clock, budget } = budgetOn({ limit: 3, windowMs: 1000 });
		const far = clock.now() + 60_000;
		for (let i = 0; i < 3; i++) {
			expect(await sendOn(budget, 'a', counted, far)).toEqual({ acquired: true });
			clock.advance(100);
		}
		expect(budget.room('a').free).toBe(0);
		expect(await budget.acquire('a', far)).toEqual({ acquired: true });
		expect(clock.sleeps).toEqual([700]);
		expect(budget.room('a').free).toBe(0);
	});

	it('gives up at once, without waiting, when no slot frees up before the deadline', async () => {
		const { clock, budget } = budgetOn({ limit: 2, windowMs: 1000 });
		await sendOn(budget, 'a', counted, clock.now());
		await sendOn(budget, 'a', counted, clock.now());
		expect(await budget.acquire('a', clock.now() + 999)).toEqual(refusal(1000, 'process'));
		expect(clock.sleeps).toEqual([]);
		expect(budget.room('a').free).toBe(0);
	});

	it('keeps a separate window per credential, and counts a request in flight until its answer', async () => {
		const { clock, budget } = budgetOn({ limit: 1, windowMs: 1000 });
		expect(await budget.acquire('a', clock.now())).toEqual({ acquired: true });
		expect(await budget.acquire('b', clock.now())).toEqual({ acquired: true });
		clock.advance(400);
		// Still in flight: it leaves the window no sooner than a window after an answer now.
		expect(await budget.acquire('a', clock.now())).toEqual(refusal(1000, 'process'));
		budget.answered('a', counted);
		clock.advance(999);
		expect(budget.room('a').free).toBe(0);
		clock.advance(1);
		expect(budget.room('a').free).toBe(1);
	});

	it('after a 429 with Retry-After, holds back every caller on the key until then, counted by the API', async () => {
		const { clock, budget } = budgetOn({ limit: 100, windowMs: 300_000, random: () => 0 });
		await sendOn(budget, 'a', { kind: 'refused', retryAfterMs: 5000 }, clock.now());
		expect(budget.room('a').free).toBe(0);
		expect(await budget.acquire('a', clock.now() + 4999)).toEqual(refusal(5000, 'api'));
		expect(clock.sleeps).toEqual([]);
		expect(await budget.acquire('b', clock.now())).toEqual({ acquired: true });
		expect(await budget.acquire('a', clock.now() + 5000)).toEqual({ acquired: true });
		expect(clock.sleeps).toEqual([5000]);
	});

	it('after a 429, keeps to the share of the window it holds: a new send only as one of its own leaves', async () => {
		// Halving a limit of 2 leaves 1: the request it holds in the window.
		const { clock, budget } = budgetOn({ limit: 2, windowMs: 60_000, random: () => 0 });
		await sendOn(budget, 'a', counted, clock.now());
		clock.advance(10_000);
		await sendOn(budget, 'a', { kind: 'refused', retryAfterMs: 2000 }, clock.now());
		expect(await budget.acquire('a', clock.now() + 60_000)).toEqual({ acquired: true });
		expect(clock.sleeps).toEqual([50_000]);
	});

	it('says how long until a send fits, and who counted the window full', async () => {
		const { clock, budget } = budgetOn({ limit: 1, windowMs: 60_000, random: () => 0 });
		expect(budget.spentFor('a')).toBeUndefined();
		await sendOn(budget, 'a', counted, clock.now());
		clock.advance(1000);
		expect(budget.spentFor('a')).toEqual({ waitMs: 59_000, spentBy: 'process' });
		await sendOn(budget, 'b', { kind: 'refused', retryAfterMs: 70_000 }, clock.now());
		expect(budget.spentFor('b')).toEqual({ waitMs: 60_000, spentBy: 'api' });
		// A Retry-After pauses as long as it says, but never longer than the window.
		const ten = new RateBudget({ limit: 10, windowMs: 60_000, random: () => 0, ...clock });
		await sendOn(ten, 'a', { kind: 'refused', retryAfterMs: 50_000 }, clock.now());
		expect(ten.spentFor('a')).toEqual({ waitMs: 50_000, spentBy: 'api' });
		await sendOn(ten, 'b', { kind: 'refused', retryAfterMs: 86_400_000 }, clock.now());
		expect(ten.spentFor('b')).toEqual({ waitMs: 60_000, spentBy: 'api' });
	});

	it('counts neither a 429 nor a request that never reached the API', async () => {
		const { clock, budget } = budgetOn({ limit: 5, windowMs: 60_000 });
		await sendOn(budget, 'a', counted, clock.now());
		await sendOn(budget, 'a', { kind: 'notSent' }, clock.now());
		expect(budget.room('a').free).toBe(4);
		await sendOn(budget, 'a', { kind: 'refused' }, clock.now());
		// A 429 without Retry-After: no pause, but the allowance halves (to 2, one of them used).
		expect(budget.room('a').free).toBe(1);
	});

	it('spends an idle credential in a short burst, then one request per window/limit', async () => {
		const clock = fakeClock();
		const budget = new RateBudget({ limit: 100, windowMs: 300_000, burst: 3, ...clock });
		const sentAt: number[] = [];
		for (let i = 0; i < 6; i++) {
			await sendOn(budget, 'a', counted, clock.now() + 60_000);
			sentAt.push(clock.now());
		}
		const start = sentAt[0];
		expect(sentAt.map((at) => at - start)).toEqual([0, 0, 0, 3000, 6000, 9000]);
	});

	it('never lets more than the limit into any window, however long the demand lasts', async () => {
		const clock = fakeClock();
		const budget = new RateBudget({ limit: 100, windowMs: 300_000, burst: 10, ...clock });
		const sentAt: number[] = [];
		for (let i = 0; i < 400; i++) {
			await sendOn(budget, 'a', counted, clock.now() + 300_000);
			sentAt.push(clock.now());
		}
		for (let i = 100; i < sentAt.length; i++) {
			expect(sentAt[i] - sentAt[i - 100]).toBeGreaterThanOrEqual(300_000);
		}
		// Even: after the burst no gap is longer than the burst's own pace (10 requests, 30 s).
		const gaps = sentAt.slice(1).map((at, i) => at - sentAt[i]);
		expect(Math.max(...gaps)).toBeLessThanOrEqual(30_000);
		// And the average reaches the limit: 400 requests in at most 4 windows and a burst.
		expect(sentAt[399] - sentAt[0]).toBeLessThanOrEqual(4 * 300_000);
	});

	it('serves waiting requests in turn: runs first, then the trigger whose last complete walk is oldest', async () => {
		const clock = fakeClock();
		const budget = new RateBudget({ limit: 100, windowMs: 300_000, burst: 1, ...clock });
		await sendOn(budget, 'a', counted, clock.now());
		const served: string[] = [];
		const far = clock.now() + 600_000;
		const ask = async (name: string, turn: { background: boolean; since: number }) => {
			const outcome = await budget.acquire('a', far, turn);
			if (outcome.acquired) budget.answered('a', counted);
			served.push(name);
		};
		await Promise.all([
			ask('trigger walked at 300', { background: true, since: 300 }),
			ask('trigger walked at 100', { background: true, since: 100 }),
			ask('run started at 500', { background: false, since: 500 }),
			ask('trigger that never walked', { background: true, since: 0 }),
		]);
		expect(served).toEqual([
			'run started at 500',
			'trigger that never walked',
			'trigger walked at 100',
			'trigger walked at 300',
		]);
		expect(clock.sleeps).toEqual([3000, 3000, 3000, 3000]);
	});

	it('lets a waiter go at once when its place in the queue cannot come before its deadline', async () => {
		let time = 1_000_000;
		const wakes: Array<() => void> = [];
		const budget = new RateBudget({
			limit: 100,
			windowMs: 300_000,
			burst: 1,
			now: () => time,
			sleep: async (ms) => {
				await new Promise<void>((wake) => wakes.push(wake));
				time += ms;
			},
		});
		await sendOn(budget, 'a', counted, time);
		const first = budget.acquire('a', time + 60_000, { background: true, since: 1 });
		// Behind the first, its turn comes in 6 s: a deadline of 5 s cannot be met.
		const second = await budget.acquire('a', time + 5_000, { background: true, since: 2 });
		expect(second).toEqual(refusal(6000, 'process', true));
		expect(budget.waiting('a')).toBe(1);
		wakes.shift()?.();
		expect(await first).toEqual({ acquired: true });
		expect(budget.waiting('a')).toBe(0);
	});

	it('never lets concurrent callers through beyond the limit', async () => {
		const { clock, budget } = budgetOn({ limit: 5, windowMs: 1000 });
		const outcomes = await Promise.all(
			Array.from({ length: 8 }, async () => await budget.acquire('a', clock.now() + 10)),
		);
		expect(outcomes.filter((outcome) => outcome.acquired)).toHaveLength(5);
		expect(budget.room('a').free).toBe(0);
	});
});

describe('Turns', () => {
	it('gives turns in the order they were asked for, one at a time per key', async () => {
		const turns = new Turns();
		const order: string[] = [];
		const walk = async (name: string, key = 'a') => {
			const end = await turns.take(key);
			order.push(`${name} starts`);
			await Promise.resolve();
			order.push(`${name} ends`);
			end();
		};
		await Promise.all([walk('first'), walk('second'), walk('third'), walk('other key', 'b')]);
		expect(order.filter((entry) => !entry.startsWith('other'))).toEqual([
			'first starts',
			'first ends',
			'second starts',
			'second ends',
			'third starts',
			'third ends',
		]);
		expect(order.indexOf('other key starts')).toBeLessThan(order.indexOf('first ends'));
	});

	it('a caller that stops waiting leaves the queue: the others keep their order, none is left behind', async () => {
		const turns = new Turns();
		const order: string[] = [];
		const endFirst = await turns.take('a');
		const second = turns.take('a', 20);
		const third = turns.take('a').then((end) => {
			order.push('third');
			return end;
		});
		expect(turns.queued('a')).toBe(2);
		expect(await second).toBeUndefined();
		expect(turns.queued('a')).toBe(1);
		endFirst();
		(await third)?.();
		expect(order).toEqual(['third']);
		expect(turns.queued('a')).toBe(0);
		// Nothing holds the key: a new caller gets its turn at once.
		const end = await turns.take('a', 0);
		expect(end).toBeInstanceOf(Function);
		end?.();
	});

	it('a turn that comes before the wait ends is taken', async () => {
		const turns = new Turns();
		const endFirst = await turns.take('a');
		const second = turns.take('a', 10_000);
		endFirst();
		const endSecond = await second;
		expect(endSecond).toBeInstanceOf(Function);
		endSecond?.();
		expect(turns.queued('a')).toBe(0);
	});

	it('ignores a turn ended twice', async () => {
		const turns = new Turns();
		const end = await turns.take('a');
		const second = turns.take('a');
		const third = turns.take('a');
		expect(turns.queued('a')).toBe(2);
		end();
		end();
		await second;
		expect(turns.queued('a')).toBe(1);
		let thirdStarted = false;
		void third.then(() => {
			thirdStarted = true;
		});
		await Promise.resolve();
		expect(thirdStarted).toBe(false);
	});
});

describe('API error messages', () => {
	const context = {
		companyId: 'c-1',
		clientId: 'client-9',
		baseUrl: 'https://api.test',
		attempts: 1,
	};

	it.each([
		[
			400,
			{ code: 'CLIENT_ID_HEADER_MISSING', message: 'x' },
			'did not receive the x-service-client-id header (CLIENT_ID_HEADER_MISSING)',
			'proxy',
		],
		[
			400,
			{ code: 'INVALID_LIMIT', message: 'limit must be' },
			'rejected the request for company "c-1" as invalid (HTTP 400, INVALID_LIMIT)',
			'The API says: limit must be',
		],
		[
			401,
			{ code: 'CLIENT_ID_HEADER_MISMATCH', message: 'x' },
			'Client ID "client-9" is not the client the access token was issued to (CLIENT_ID_HEADER_MISMATCH)',
			'issued together',
		],
		[
			401,
			{ code: 'Unauthorised', message: 'Unauthorised.' },
			'refused access to company "c-1" (Unauthorised)',
			'not registered to client "client-9"',
		],
		[401, 'not json', 'refused access to company "c-1" (HTTP 401)', 'scope speci-finder/read'],
		[
			404,
			undefined,
			'No Supplier Matched-Projects API answered at https://api.test (HTTP 404)',
			'Base URL',
		],
		[
			429,
			{ code: 'RATE_LIMITED', message: 'slow down' },
			'rate limit was reached (HTTP 429)',
			'100 requests per 5 minutes',
		],
		[
			502,
			{ code: 'FETCH_FAILED', message: 'x' },
			'failed on its side (FETCH_FAILED)',
			'Run the workflow again later',
		],
		[
			500,
			{ code: 'INTERNAL_SERVER_ERROR', message: 'x' },
			'failed on its side (INTERNAL_SERVER_ERROR)',
			'Run the workflow again later',
		],
		[418, {}, 'answered with HTTP 418', 'Base URL'],
	])('HTTP %p %j names the cause and the fix', (status, body, cause, fix) => {
		const failure = describeApiFailure(status, body, context);
		expect(failure.message).toContain(cause);
		expect(failure.description).toContain(fix);
		// n8n replaces messages it recognises (status texts, network codes): ours must survive.
		const error = new NodeApiError(node, { message: failure.message } as JsonObject, {
			message: failure.message,
			description: failure.description,
			httpCode: String(status),
		});
		expect(error.message).toBe(failure.message);
		expect(error.description).toBe(failure.description);
	});

	it('counts attempts in the message when it retried', () => {
		expect(describeApiFailure(503, {}, { ...context, attempts: 5 }).message).toBe(
			'The API failed on its side after 5 attempts (HTTP 503)',
		);
	});
});

describe('networkFailureOf', () => {
	it('follows causes to the code of the failure', () => {
		const wrapped = { message: 'outer', cause: { message: 'inner', code: 'ECONNREFUSED' } };
		expect(networkFailureOf(wrapped)).toMatchObject({ kind: 'refused', retryable: true });
		expect(networkFailureOf({ code: 'ECONNABORTED' })).toMatchObject({ kind: 'timeout' });
		expect(networkFailureOf({ code: 'ENOTFOUND' })).toMatchObject({
			kind: 'dns',
			retryable: false,
		});
		expect(networkFailureOf({ name: 'AbortError' })).toMatchObject({
			kind: 'cancelled',
			retryable: false,
		});
	});

	it('counts a body cut off after a good status line as a network failure', () => {
		const cutOff = {
			code: 'ERR_BAD_RESPONSE',
			message: 'stream has been aborted',
			response: { status: 200 },
		};
		expect(networkFailureOf({ message: 'wrapped', cause: cutOff })).toMatchObject({
			kind: 'interrupted',
			retryable: true,
		});
		expect(
			networkFailureOf({ code: 'ERR_BAD_RESPONSE', response: { status: 502 } }),
		).toBeUndefined();
	});

	it('is undefined when the server answered, or for anything else', () => {
		expect(networkFailureOf({ code: 'ECONNRESET', response: { status: 500 } })).toBeUndefined();
		expect(networkFailureOf(new Error('boom'))).toBeUndefined();
		expect(networkFailureOf('text')).toBeUndefined();
	});

	it('never words a summary with a raw code n8n would replace', () => {
		for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'ETIMEDOUT', 'ECONNRESET', 'EAI_AGAIN']) {
			const summary = networkFailureOf({ code })?.summary ?? '';
			expect(summary).not.toMatch(/E[A-Z_]{4,}/);
		}
	});
});

describe('readSettings', () => {
	it('trims fields, drops trailing slashes and a pasted token path, and defaults the scope', () => {
		expect(
			readSettings({
				authUrl: '  https://auth.test/oauth2/token/ ',
				baseUrl: 'https://api.test/base//',
				clientId: ' id ',
				clientSecret: ' secret\n',
			}),
		).toEqual({
			authUrl: 'https://auth.test',
			baseUrl: 'https://api.test/base',
			clientId: 'id',
			clientSecret: 'secret',
			scope: 'speci-finder/read',
		});
	});

	it('leaves the scope out when it is blank', () => {
		const settings = readSettings({
			authUrl: 'http://127.0.0.1:1',
			baseUrl: 'http://127.0.0.1:2',
			clientId: 'id',
			clientSecret: 's',
			scope: '   ',
		});
		expect(settings.scope).toBe('');
	});

	const valid = {
		authUrl: 'https://a.test',
		baseUrl: 'https://b.test',
		clientId: 'id',
		clientSecret: 'TOPSECRET',
	};
	it.each([
		[
			{ authUrl: 'ftp://a.test' },
			'The credential\'s Auth URL "ftp://a.test" is not an http:// or https:// address',
		],
		[
			{ baseUrl: 'api.test' },
			'The credential\'s Base URL "api.test" is not an http:// or https:// address',
		],
		[{ baseUrl: 'https://b.test?x=1' }, 'has a query or fragment'],
		[{ authUrl: '   ' }, "The credential's Auth URL is empty"],
		[{ clientId: '' }, "The credential's Client ID is empty"],
		[{ clientSecret: ' ' }, "The credential's Client Secret is empty"],
	])('refuses %j with a clear message', (override, message) => {
		expect(() => readSettings({ ...valid, ...override })).toThrow(message);
	});
});

describe('results URL', () => {
	it('sends any company ID as one encoded path segment', () => {
		expect(resultsUrl('https://api.test', 'a/b?c#d%e f')).toBe(
			'https://api.test/api/supplier/v1/companies/a%2Fb%3Fc%23d%25e%20f/speci-finder/results',
		);
	});

	it.each([
		['', 'Company ID is empty'],
		['  ', 'Company ID is empty'],
		['.', 'Company ID "." cannot be sent to the API'],
		['..', 'Company ID ".." cannot be sent to the API'],
	])('refuses company ID %p', (companyId, message) => {
		expect(companyIdProblem(companyId)).toContain(message);
	});

	it('accepts other IDs, dots included', () => {
		expect(companyIdProblem('...')).toBeUndefined();
		expect(companyIdProblem('company.1')).toBeUndefined();
	});
});

/**
 * The smallest context the transport needs: the credential, and n8n's authenticated request
 * helper answering from a script (a thrown error is what n8n throws, the rest are answers).
 */
function fakeContext(
	credentials: ICredentialDataDecryptedObject,
	answer: () => IN8nHttpFullResponse | Error = () => ({
		statusCode: 200,
		headers: {},
		body: { data: [], _metadata: { nextCursor: null, hasNextPage: false } },
	}),
) {
	const sent: IHttpRequestOptions[] = [];
	const context = {
		getNode: () => node,
		getCredentials: async () => credentials,
		helpers: {
			httpRequestWithAuthentication: async (_type: string, options: IHttpRequestOptions) => {
				sent.push(options);
				const outcome = answer();
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
	return await openWalk(runtime, context, 'company-1' as CompanyId);
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

/** The API's answer of 429 with this Retry-After. */
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

	it.each<TokenFailureKind>(['invalidClient', 'invalidScope', 'wrongAuthUrl', 'refused'])(
		'%s: said in its own words, not retried, declared as needing the user',
		async (kind) => {
			const { error, attempts } = await failureOf(kind);
			expect(error.message).toBe(`the cause (${kind})`);
			expect(error.description).toBe('the fix');
			expect(error.httpCode).toBeNull();
			expect(error.failure).toEqual({ cause: 'credential-invalid' });
			expect(attempts).toBe(1);
		},
	);

	it.each<TokenFailureKind>(['issuerUnavailable', 'unreachable'])(
		'%s: retried, then declared as passing on its own',
		async (kind) => {
			const { error, attempts } = await failureOf(kind);
			expect(error.message).toBe(`the cause (${kind})`);
			expect(error.httpCode).toBeNull();
			expect(error.failure).toEqual({ cause: 'temporarily-unavailable' });
			expect(attempts).toBe(5);
		},
	);

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

	const page = { data: [], _metadata: { nextCursor: null, hasNextPage: false } };

	it('waits as long as the API says, without using up attempts, and counts only what the API counted', async () => {
		const answers = [limited('1'), limited('1'), limited('1')];
		const { context, sent } = fakeContext(
			settings,
			() => answers.shift() ?? { statusCode: 200, headers: {}, body: page },
		);
		const started = Date.now();
		expect(await runInVirtualTime(() => outcomeOf(context))).toEqual(page);
		expect(sent).toHaveLength(4);
		expect(Date.now() - started).toBeGreaterThanOrEqual(3000);
		// Each 429 halved what this process allows itself (100, 50, 25, 12): 11 left, where its own
		// count alone would leave 99.
		expect(await roomOf(context)).toEqual({ free: 11, underLimit: 99 });
	});

	it('stops with the budget message when the API asks for longer than the node waits (5 minutes at most); this process then sends nothing until then', async () => {
		const { context, sent } = fakeContext(settings, () => limited('3600'));
		const error = await outcomeOf(context);
		expect(error).toBeInstanceOf(NodeApiError);
		// Retry-After, capped at the API's 5-minute window, plus a random spread of up to one slot
		// (3 s), so processes do not return together.
		expect((error as NodeApiError).message).toMatch(
			/^This credential has used its 100 requests per 5 minutes, counted by the API across every n8n process that uses it; the next one is allowed in 30[0-3] s$/,
		);
		expect((error as NodeApiError).description).toContain(
			'in queue mode: the main instance and all workers',
		);
		expect((error as NodeApiError).httpCode).toBe('429');
		expect(sent).toHaveLength(1);

		const { context: another, sent: sentByAnother } = fakeContext(settings);
		expect(await roomOf(another)).toEqual({ free: 0, underLimit: 100 });
		expect((await outcomeOf(another)) as NodeApiError).toMatchObject({
			message: expect.stringMatching(/counted by the API .* allowed in 30[0-3] s$/),
		});
		expect(sentByAnother).toHaveLength(0);
		const { context: otherClient } = fakeContext({ ...settings, clientId: 'client-2' });
		expect(await outcomeOf(otherClient)).toEqual(page);
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
	async function lateWalk(): Promise<{ walked: boolean; outcome: string; firstRan: boolean }> {
		return await runInVirtualTime(walkBehindASlowOne);
	}

	async function walkBehindASlowOne(): Promise<{
		walked: boolean;
		outcome: string;
		firstRan: boolean;
	}> {
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
