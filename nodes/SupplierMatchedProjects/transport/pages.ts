import type {
	ICredentialDataDecryptedObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	INode,
	IPollFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import type { ErrorBody, Project } from '../api/types';
import { readPage, type ListedPage } from '../projects/entries';
import { isObject } from '../projects/values';
import { describeApiFailure, errorCodeOf, notAPageAdvice, type FailedRequest } from './api-errors';
import { ApiError, NoAnswerError, RateBudgetError, type FailureKind } from './errors';
import { networkFailureOf, type NetworkFailure } from './network';
import type { RateAnswer, RateBudget, RequestTurn } from './rate-budget';
import { MAX_REDIRECTS, redirectStep, requestedUrl, type RedirectStep } from './redirects';
import { backoffDelay, isRetryableStatus, parseRetryAfter, type RetryPolicy } from './retry';
import { CREDENTIAL_TYPE } from './settings';
import { TokenRequestError, type TokenCache, type TokenFailureKind } from './token';

/**
 * A page of matched projects from its request to the walk that repeats it: the request of one
 * page (retries, the rate budget, every failure read once into an ApiError of its kind), then the
 * loop that follows the pages' cursors, which takes any request of one page (a test's fake too).
 */

/** The API serves 1 to 100 projects per page. */
export const MAX_PAGE_SIZE = 100;

/**
 * The most pages one walk follows: 100,000 projects at 100 a page, far beyond any supplier's
 * keywords. Paced to the rate limit such a walk takes 50 minutes; an API whose pages never end
 * is stopped here rather than followed for ever.
 */
export const MAX_WALK_PAGES = 1_000;

/** One page asked for; `sendBy` (epoch ms): give up rather than wait past it for the rate limit. */
export interface PageRequest {
	cursor?: string;
	limit: number;
	sendBy?: number;
}

export type FetchPage = (page: PageRequest) => Promise<ListedPage>;

/** Told of each entry a walk left out, in a sentence that says where it was and what was wrong. */
export type OnSkipped = (skipped: string) => void;

export type SupplierContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

/** What the page requests of every walk share in one n8n process (see ApiConnection). */
export interface RequestConnection {
	readonly tokens: TokenCache;
	readonly rateBudget: RateBudget;
	readonly retryPolicy: Readonly<RetryPolicy>;
}

/** What every page request of a walk shares, fixed when the walk opens (openWalk). */
export interface OpenedWalk {
	api: RequestConnection;
	context: SupplierContext;
	node: INode;
	credentials: ICredentialDataDecryptedObject;
	failedRequest: Omit<FailedRequest, 'attempts'>;
	/** The results GET, without the page's query. */
	options: IHttpRequestOptions;
	budgetKey: string;
	/** See WalkOptions. */
	until: number;
	turn: RequestTurn;
	onAnswered: ((elapsedMs: number) => void) | undefined;
	cancelSignal: AbortSignal | undefined;
}

/** What the attempts of one page request share, fixed before the first is sent. */
interface PageCall extends OpenedWalk {
	/** No wait may end after this (epoch ms). */
	deadline: number;
	/** No slot of the rate budget is taken after this (epoch ms). */
	sendBy: number;
}

/** Counted across the attempts of one call. */
interface Tries {
	attempts: number;
	/** 429s that said when to come back: the API refused them unread, so they use up time, not attempts. */
	waitedOut: number;
	retriedUnauthorised: boolean;
	/** Same-origin redirects followed; each hop is an attempt the rate budget counted. */
	redirects: number;
	/** Where the last redirect followed pointed: the next attempt goes there. */
	redirectedTo?: string;
}

/** One attempt: its number, what came of it, and the copy of the credentials it was sent with. */
interface Attempt {
	number: number;
	/** The URL it was sent to, query included. */
	url: string;
	outcome: Outcome;
	credentials: ICredentialDataDecryptedObject;
	/** Redirects followed before it. */
	redirects: number;
}

/**
 * What another attempt could change, as the retry policy reads it: nothing; a new token (a 401);
 * time the API named itself (a 429 with Retry-After); or a wait, the API's or backoff's.
 */
type Retry =
	| { kind: 'never' }
	| { kind: 'newToken' }
	| { kind: 'apiSaidWhen' }
	| { kind: 'wait'; retryAfterMs?: number };

/**
 * An attempt judged: the page, a same-origin redirect to follow, or the failure to report should
 * no retry follow.
 */
type Verdict =
	| { page: ListedPage }
	| { follow: string }
	| { retry: Retry; failure: () => ApiError };

/**
 * Fetches one page of matched projects. Adds nothing to the auth headers itself (the credential
 * does); retries as `triesAgain` says, keeps within the credential's rate budget, and turns every
 * failure into a NodeApiError that names the cause and the fix.
 */
export async function requestResultsPage(
	opened: OpenedWalk,
	page: PageRequest,
): Promise<ListedPage> {
	const call = pageCall(opened, page);
	const tries: Tries = { attempts: 0, waitedOut: 0, retriedUnauthorised: false, redirects: 0 };
	for (;;) {
		const attempt = await sendAttempt(call, tries);
		const verdict = judged(call, attempt);
		if ('page' in verdict) return verdict.page;
		if ('follow' in verdict) {
			tries.redirects++;
			tries.redirectedTo = verdict.follow;
			continue;
		}
		if (!(await triesAgain(call, tries, attempt, verdict.retry))) throw verdict.failure();
	}
}

/** Checks the page asked for and prepares the request every attempt sends. */
function pageCall(opened: OpenedWalk, page: PageRequest): PageCall {
	if (!Number.isInteger(page.limit) || page.limit < 1 || page.limit > MAX_PAGE_SIZE) {
		throw new NodeOperationError(
			opened.node,
			`A page holds 1 to ${MAX_PAGE_SIZE} projects; ${page.limit} was asked for`,
		);
	}
	const qs =
		page.cursor === undefined ? { limit: page.limit } : { limit: page.limit, cursor: page.cursor };
	const deadline = Math.min(Date.now() + opened.api.retryPolicy.maxTotalWaitMs, opened.until);
	return {
		...opened,
		options: { ...opened.options, qs },
		deadline,
		sendBy: Math.min(deadline, page.sendBy ?? deadline),
	};
}

/** Sends one attempt once the rate budget has a slot for it. */
async function sendAttempt(call: PageCall, tries: Tries): Promise<Attempt> {
	const { rateBudget } = call.api;
	const budget = await rateBudget.acquire(call.budgetKey, call.sendBy, call.turn);
	if (!budget.acquired) {
		throw new RateBudgetError(call.node, budget.waitMs, budget.spentBy, budget.queued);
	}
	tries.attempts++;
	// A copy per attempt: the token used for it is remembered against this object.
	const credentials = { ...call.credentials };
	const { redirectedTo } = tries;
	const sent =
		redirectedTo === undefined ? call.options : { ...call.options, url: redirectedTo, qs: {} };
	// An answer later than the walk's bound would come too late to use.
	const left = call.until - Date.now();
	const options =
		left < (sent.timeout ?? Number.POSITIVE_INFINITY)
			? { ...sent, timeout: Math.max(1, Math.floor(left)) }
			: sent;
	const sentAt = Date.now();
	const outcome = await send(call, credentials, options);
	rateBudget.answered(call.budgetKey, rateAnswerOf(outcome));
	call.onAnswered?.(Date.now() - sentAt);
	const url = redirectedTo ?? requestedUrl(call.options.url, call.options.qs);
	return { number: tries.attempts, url, outcome, credentials, redirects: tries.redirects };
}

type Outcome =
	| { answer: IN8nHttpFullResponse }
	| { network: NetworkFailure }
	| { token: TokenRequestError }
	| { unexpected: string };

/** A page's entries are read one by one later (readPage): one broken entry is not a broken page. */
function isResultsPage(body: unknown): body is ListedPage {
	return (
		isObject(body) &&
		Array.isArray(body.data) &&
		isObject(body._metadata) &&
		typeof body._metadata.hasNextPage === 'boolean'
	);
}

function outcomeOfFailure(
	error: unknown,
	tokens: TokenCache,
	credentials: ICredentialDataDecryptedObject,
): Outcome {
	const seen = new Set<unknown>();
	let level: unknown = error;
	while (isObject(level) && !seen.has(level)) {
		if (level instanceof TokenRequestError) return { token: level };
		seen.add(level);
		level = level.cause;
	}
	const token = tokens.failureOf(credentials);
	if (token !== undefined) return { token };
	const network = networkFailureOf(error);
	if (network !== undefined) return { network };
	return { unexpected: error instanceof Error ? error.message : String(error) };
}

/**
 * What of an error body goes into messages: its code and message only, with anything secret the
 * API may have echoed blanked out.
 */
function spokenPart(
	body: unknown,
	tokens: TokenCache,
	credentials: ICredentialDataDecryptedObject,
): ErrorBody | undefined {
	if (!isObject(body)) return undefined;
	const redactedText = (value: unknown) =>
		typeof value === 'string' ? tokens.redact(value, credentials) : '';
	return { code: redactedText(body.code), message: redactedText(body.message) };
}

async function send(
	opened: OpenedWalk,
	credentials: ICredentialDataDecryptedObject,
	options: IHttpRequestOptions,
): Promise<Outcome> {
	const { context } = opened;
	try {
		const answer = (await context.helpers.httpRequestWithAuthentication.call(
			context,
			CREDENTIAL_TYPE,
			options,
			{
				credentialsDecrypted: { id: '', name: '', type: CREDENTIAL_TYPE, data: credentials },
				// The transport retries a 401 itself, so the retry also passes through the rate budget.
				preAuthenticationRetryStatusCode: [],
			},
		)) as IN8nHttpFullResponse;
		return { answer };
	} catch (error) {
		return outcomeOfFailure(error, opened.api.tokens, credentials);
	}
}

/** What the rate budget learns from an attempt: every answer but a 429 counted, a 429 not. */
function rateAnswerOf(outcome: Outcome): RateAnswer {
	if ('token' in outcome) return { kind: 'notSent' };
	if (!('answer' in outcome) || outcome.answer.statusCode !== 429) return { kind: 'counted' };
	const retryAfterMs = parseRetryAfter(outcome.answer.headers?.['retry-after'], Date.now());
	return { kind: 'refused', retryAfterMs };
}

/** What one attempt's outcome means: a page, or a failure and what another attempt could change. */
function judged(call: PageCall, attempt: Attempt): Verdict {
	const { outcome } = attempt;
	if ('answer' in outcome) return judgedAnswer(call, attempt, outcome.answer);
	if ('token' in outcome) {
		const { token } = outcome;
		// No HTTP code: the issuer's status is not the API's. Its failure says whether it lasts.
		const words = {
			message: token.message,
			description: token.description ?? '',
			failure: token.failure,
		};
		const { network } = token;
		return {
			retry: token.retryable ? { kind: 'wait' } : { kind: 'never' },
			failure: () =>
				network === undefined
					? new ApiError(call.node, KIND_OF_TOKEN_FAILURE[token.kind], words)
					: new NoAnswerError(call.node, words, network),
		};
	}
	if ('network' in outcome) {
		const { network } = outcome;
		return {
			retry: network.retryable ? { kind: 'wait' } : { kind: 'never' },
			failure: () => networkError(call, network, attempt.number),
		};
	}
	return {
		retry: { kind: 'never' },
		failure: () =>
			new ApiError(call.node, 'unreachable', {
				message: outcome.unexpected,
				description: "Check the credential's settings.",
			}),
	};
}

/** An HTTP answer: a page, or an error status with the API's own words. */
function judgedAnswer(call: PageCall, attempt: Attempt, answer: IN8nHttpFullResponse): Verdict {
	const { statusCode, body, headers } = answer;
	if (statusCode >= 200 && statusCode < 300) {
		if (isResultsPage(body)) return { page: body };
		return {
			retry: { kind: 'never' },
			failure: () =>
				new ApiError(call.node, 'notAPage', {
					message: `The address ${call.failedRequest.baseUrl} answered, but not with a page of matched projects`,
					description: notAPageAdvice(body),
					httpCode: statusCode,
				}),
		};
	}
	const step = redirectStep(answer, attempt.url, { hops: attempt.redirects, keepMethod: false });
	if (step !== undefined) return 'follow' in step ? step : redirectRefused(call, step);
	const retryAfterMs = parseRetryAfter(headers?.['retry-after'], Date.now());
	let retry: Retry = { kind: 'never' };
	if (statusCode === 401) retry = { kind: 'newToken' };
	else if (statusCode === 429 && retryAfterMs !== undefined && retryAfterMs > 0) {
		retry = { kind: 'apiSaidWhen' };
	} else if (isRetryableStatus(statusCode)) retry = { kind: 'wait', retryAfterMs };
	return { retry, failure: () => statusError(call, attempt, answer) };
}

const BASE_URL_FIX =
	"Correct the credential's Base URL: enter the API's address as the operator issued it, without /api/supplier/v1.";

/**
 * A redirect refused: the GET is followed on the Base URL's own origin only (as every redirect
 * status allows), since the credential belongs to that origin alone.
 */
function redirectRefused(call: PageCall, step: Exclude<RedirectStep, { follow: string }>): Verdict {
	const { baseUrl } = call.failedRequest;
	const why = { httpCode: step.status, failure: { cause: 'configuration-invalid' } } as const;
	const words =
		step.refused === 'otherOrigin'
			? {
					message: `The API at ${baseUrl} redirected the request to another address, ${step.origin} (HTTP ${step.status}); the node did not follow it, so the credential was not sent there`,
					description: `The node sends the access token and client ID only to the Base URL's own scheme, host and port. ${BASE_URL_FIX} If the operator confirms the API moved to ${step.origin}, enter that.`,
				}
			: {
					message: `The API at ${baseUrl} redirected the request more than ${MAX_REDIRECTS} times (HTTP ${step.status})`,
					description: BASE_URL_FIX,
				};
	return {
		retry: { kind: 'never' },
		failure: () => new ApiError(call.node, 'client', { ...words, ...why }),
	};
}

/** With the attempt's own credentials, so the token it was sent with is blanked out too. */
function statusError(call: PageCall, attempt: Attempt, answer: IN8nHttpFullResponse): ApiError {
	const { statusCode } = answer;
	const said = spokenPart(answer.body, call.api.tokens, attempt.credentials);
	const failedRequest = { ...call.failedRequest, attempts: attempt.number };
	const failure = describeApiFailure(statusCode, said, failedRequest);
	return new ApiError(call.node, kindOfStatus(statusCode), { ...failure, httpCode: statusCode }, {
		code: errorCodeOf(said) ?? null,
		message: failure.message,
	} as JsonObject);
}

/** An error status's kind: section 7 of the API specification. */
function kindOfStatus(status: number): FailureKind {
	if (status === 401) return 'credentials';
	if (status === 404) return 'notFound';
	if (status === 429) return 'rateLimited';
	if (status >= 500) return 'server';
	return 'client';
}

/** The token issuer's failures that got an answer: its refusals need the credential fixed. */
const KIND_OF_TOKEN_FAILURE: Record<TokenFailureKind, FailureKind> = {
	invalidClient: 'credentials',
	invalidScope: 'credentials',
	wrongAuthUrl: 'credentials',
	refused: 'credentials',
	redirected: 'client',
	issuerUnavailable: 'server',
	unreachable: 'unreachable',
};

function networkError(call: PageCall, network: NetworkFailure, attempts: number): NoAnswerError {
	const { baseUrl } = call.failedRequest;
	const { requestTimeoutMs } = call.api.retryPolicy;
	const timeout =
		requestTimeoutMs < 1000 ? `${requestTimeoutMs} ms` : `${Math.round(requestTimeoutMs / 1000)} s`;
	const words = {
		message:
			network.kind === 'timeout'
				? `The API at ${baseUrl} did not answer within ${timeout}${attempts > 1 ? ` (${attempts} attempts)` : ''}`
				: `Could not reach the API at ${baseUrl}: ${network.summary}`,
		description:
			network.kind === 'cancelled'
				? 'The execution was stopped.'
				: "Check the credential's Base URL and that n8n can reach it, through a proxy if your network needs one. If the service is slow or down, run the workflow again later.",
	};
	return new NoAnswerError(call.node, words, network);
}

/**
 * The retry policy, all of it: a first 401 is sent again at once with a new token; a 429 that
 * says when to come back waits in the rate budget and costs no attempt (a same-origin redirect
 * is followed before, see redirectStep); anything else that may pass waits (the API's Retry-After,
 * or backoff) while attempts and the deadline allow.
 */
async function triesAgain(
	call: PageCall,
	tries: Tries,
	attempt: Attempt,
	retry: Retry,
): Promise<boolean> {
	if (retry.kind === 'newToken' && !tries.retriedUnauthorised) {
		tries.retriedUnauthorised = true;
		call.api.tokens.discardUsedBy(attempt.credentials);
		return true;
	}
	if (retry.kind === 'apiSaidWhen') {
		// The budget learned from this 429 (rateAnswerOf): the next slot comes past Retry-After and
		// within this process's share, and a wait past the deadline becomes the budget message.
		tries.waitedOut++;
		return true;
	}
	const retried = tries.attempts - tries.waitedOut - tries.redirects;
	const policy = call.api.retryPolicy;
	if (retry.kind !== 'wait' || retried >= policy.maxAttempts) {
		return false;
	}
	return await waited(call, retry.retryAfterMs ?? backoffDelay(tries.attempts, policy));
}

/** Waits before the next attempt, unless that would pass the deadline. */
async function waited(call: PageCall, ms: number): Promise<boolean> {
	if (Date.now() + ms > call.deadline) return false;
	await sleep(ms);
	if (call.cancelSignal?.aborted) {
		throw new NodeOperationError(call.node, 'The execution was cancelled while waiting to retry');
	}
	return true;
}

/** The pages a walk reads: how one is fetched, and the error it throws for paging it cannot follow. */
export interface PageSource {
	fetchPage: FetchPage;
	/** The n8n error for the reason given, in the words its caller chose (see pagingError). */
	cannotFollow: (reason: string) => ApiError;
}

/**
 * Paging the service broke is the service's fault, so it reads as an API error; what the user
 * can do about it differs by caller: `advice` says it.
 */
export function pagingError(node: INode, reason: string, advice: string): ApiError {
	const description = `The service sent paging information that cannot be followed. ${advice}`;
	return new ApiError(node, 'paging', { message: reason, description }, { message: reason });
}

/** A request's outcome as a value, so a request read ahead never leaves a rejection unhandled. */
type Requested = { page: ListedPage } | { failure: unknown };

async function requested(
	fetchPage: FetchPage,
	cursor: string | undefined,
	limit: number,
): Promise<Requested> {
	try {
		return { page: await fetchPage(cursor === undefined ? { limit } : { cursor, limit }) };
	} catch (failure) {
		return { failure };
	}
}

/** The cursor of the page after this one; undefined after the last page; or why it cannot be followed. */
function cursorAfter(
	page: ListedPage,
	pageNumber: number,
	usedCursors: Set<string>,
): string | undefined | { unfollowable: string } {
	const { hasNextPage, nextCursor } = page._metadata;
	if (!hasNextPage) return undefined;
	if (typeof nextCursor !== 'string' || nextCursor === '') {
		return {
			unfollowable: `The API said page ${pageNumber} is followed by another but sent no cursor for it, so the walk stopped there`,
		};
	}
	if (usedCursors.has(nextCursor)) {
		return {
			unfollowable: `The API sent a cursor on page ${pageNumber} that it had already sent, so the walk stopped rather than loop`,
		};
	}
	if (pageNumber >= MAX_WALK_PAGES) {
		return {
			unfollowable: `The API said page ${pageNumber} is followed by another, past the ${MAX_WALK_PAGES * MAX_PAGE_SIZE} projects a walk follows at most, so the walk stopped there`,
		};
	}
	usedCursors.add(nextCursor);
	return nextCursor;
}

/**
 * Walks the result pages in order and yields each page's readable projects; `onSkipped` hears of
 * every entry left out (see readPage) before its page is yielded. Cursors go back exactly as the
 * API sent them; `from` starts at a cursor an earlier walk was given. `nextLimit` gives the page
 * size of each request (1 to 100). Stops after the page that says there is no next page, or when
 * the consumer stops iterating. Paging that cannot be followed is thrown as the source's error
 * once the page that showed it is handed over: a consumer that needs no more never meets it.
 *
 * `everyPage` is for a consumer that takes every page (no Limit can stop it): the request for the
 * next page is then sent before the current page is handed over, so the consumer's work on a page
 * overlaps the next page's latency. Still one request at a time, and the consumer sees pages and
 * errors in the same order as without it; `nextLimit` is asked before the page is handed over. If
 * the consumer stops all the same, the walk ends once the request read ahead has settled, so no
 * request of the walk outlives it; that request's page or failure is dropped.
 */
export async function* walkPages(
	source: PageSource,
	nextLimit: () => number,
	onSkipped: OnSkipped,
	options: { everyPage?: boolean; from?: string } = {},
): AsyncGenerator<Project[], void, undefined> {
	const { fetchPage } = source;
	const { from } = options;
	const usedCursors = new Set<string>(from === undefined ? [] : [from]);
	let pending: Promise<Requested> | undefined = requested(fetchPage, from, nextLimit());
	try {
		for (let pageNumber = 1; pending !== undefined; pageNumber++) {
			const outcome: Requested = await pending;
			pending = undefined;
			if ('failure' in outcome) throw outcome.failure;
			const next = cursorAfter(outcome.page, pageNumber, usedCursors);
			if (options.everyPage === true && typeof next === 'string') {
				pending = requested(fetchPage, next, nextLimit());
			}
			const { projects, skipped } = readPage(outcome.page.data, pageNumber);
			skipped.forEach(onSkipped);
			yield projects;
			if (typeof next === 'object') throw source.cannotFollow(next.unfollowable);
			if (next !== undefined) pending ??= requested(fetchPage, next, nextLimit());
		}
	} finally {
		if (pending !== undefined) await pending;
	}
}

/** What a walk to a limit gathered. */
export interface Gathered<T> {
	/** The first `limit` of what the pages gave, in page order. */
	items: T[];
	/** Whether the pages read gave more than `limit`. */
	moreRead: boolean;
	/** Whether the last page read said another follows. */
	morePages: boolean;
}

/**
 * Walks the pages until what `take` makes of their projects reaches `limit`; with a limit of
 * Infinity it takes every page, reading each next page ahead. `take` may drop projects or make
 * several items of one: with `fullPages` (it may drop some, so the share kept is unknown) every
 * request asks for a full page, which means fewest requests; without, it gives at least one item
 * per project, so a request asks only for what is still missing and never over-fetches.
 */
export async function walkToLimit<T>(
	source: PageSource,
	limit: number,
	take: (projects: Project[]) => T[],
	options: { fullPages: boolean; onSkipped: OnSkipped },
): Promise<Gathered<T>> {
	let morePages = false;
	const recordingFetch: FetchPage = async (page) => {
		const results = await source.fetchPage(page);
		morePages = results._metadata.hasNextPage;
		return results;
	};
	const items: T[] = [];
	const nextLimit = () =>
		options.fullPages ? MAX_PAGE_SIZE : Math.min(MAX_PAGE_SIZE, limit - items.length);
	const everyPage = limit === Infinity;
	const pages = walkPages({ ...source, fetchPage: recordingFetch }, nextLimit, options.onSkipped, {
		everyPage,
	});
	for await (const projects of pages) {
		items.push(...take(projects));
		if (items.length >= limit) break;
	}
	if (items.length <= limit) return { items, moreRead: false, morePages };
	return { items: items.slice(0, limit), moreRead: true, morePages };
}
