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

import type { ErrorBody } from '../api/types';
import type { ListedPage } from '../projects/entries';
import { MAX_PAGE_SIZE, type FetchPage, type PageRequest } from './pages';
import { isObject } from '../projects/values';
import { describeApiFailure, errorCodeOf, notAPageAdvice, type FailedRequest } from './api-errors';
import {
	API_RATE_LIMIT_TEXT,
	API_RATE_PACE_SECONDS,
	type RateAnswer,
	type RateBudget,
	type RequestRoom,
	type RequestTurn,
	type SpentBy,
} from './rate-budget';
import { ApiError, type FailureKind, type FailureWords } from './errors';
import { credentialAllowedDomains } from './n8n-features';
import { networkFailureOf, type NetworkFailure } from './network';
import { MAX_REDIRECTS, redirectStep, requestedUrl, type RedirectStep } from './redirects';
import { backoffDelay, isRetryableStatus, parseRetryAfter, type RetryPolicy } from './retry';
import {
	CREDENTIAL_TYPE,
	CredentialSettingsError,
	readSettings,
	type SupplierSettings,
} from './settings';
import { TokenRequestError, type TokenCache, type TokenFailureKind } from './token';
import type { Turns } from './turns';

export { CREDENTIAL_TYPE } from './settings';

export type SupplierContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

const RESULTS_PATH = '/api/supplier/v1/companies';

/**
 * Thrown when this credential's API rate limit (API_RATE_LIMIT_TEXT) has no slot for the
 * request within the time the transport is willing to wait. `spentBy` says who counted it as used
 * up: this process's own budget (every execution here, nothing sent), or the API itself with a
 * 429, which counts every n8n process and client on the credential (queue mode's main and workers
 * alike). `queued`: the window had room, and the wait was the pace and the requests ahead.
 */
export class RateBudgetError extends ApiError {
	readonly spentBy: SpentBy;

	constructor(node: INode, waitMs: number, spentBy: SpentBy = 'process', queued = false) {
		const seconds = Math.ceil(waitMs / 1000);
		const counted =
			spentBy === 'api' ? ', counted by the API across every n8n process that uses it' : '';
		const message = queued
			? `Requests on this credential are spent evenly, one every ${API_RATE_PACE_SECONDS} s to keep to its ${API_RATE_LIMIT_TEXT}, and others were ahead of this run: its next one would go in ${seconds} s`
			: `This credential has used its ${API_RATE_LIMIT_TEXT}${counted}; the next one is allowed in ${seconds} s`;
		super(
			node,
			'waiting',
			{
				message,
				description: `The node keeps each credential within the API rate limit and stopped rather than wait that long. Run the workflow later, set a Limit to fetch fewer pages, or poll less often. The limit is shared by every workflow and every n8n process using this credential (in queue mode: the main instance and all workers), so count them all.`,
				httpCode: 429,
			},
			{ waitMs },
		);
		this.spentBy = spentBy;
	}
}

/**
 * The API or the token issuer gave no answer. Its kind says whether waiting may mend it: a host
 * name not found or a bad certificate lasts until someone fixes the address or the server.
 * `network` says why, for a caller that must tell a timeout from the rest.
 */
export class NoAnswerError extends ApiError {
	readonly network: NetworkFailure;

	constructor(node: INode, words: FailureWords, network: NetworkFailure) {
		const lasting = network.kind === 'dns' || network.kind === 'tls';
		super(node, lasting ? 'misaddressed' : 'unreachable', words);
		this.network = network;
	}
}

/**
 * What the transport keeps once per n8n process. The package's runtime (../runtime.ts) holds it;
 * tests and the bench build their own.
 */
export interface ApiConnection {
	readonly tokens: TokenCache;
	readonly rateBudget: RateBudget;
	readonly walkTurns: Turns;
	readonly retryPolicy: Readonly<RetryPolicy>;
}

declare const checked: unique symbol;

/** A company ID that passed companyIdProblem, as parameters/index.ts readCompanyId gives it. */
export type CompanyId = string & { readonly [checked]: true };

/** What bounds a walk, as its caller sets it when opening it. */
export interface WalkOptions {
	/** No wait, retry or request of the walk may run past this instant (epoch ms). */
	until?: number;
	/** The walk's place in its credential's queue; a workflow run's by default. */
	turn?: RequestTurn;
	/** Told how long each answer took once its request was sent (ms). */
	onAnswered?: (elapsedMs: number) => void;
}

/** A walk through one company's result pages, with the credential read once when it opened. */
export interface Walk {
	/** Requests the credential can still send now, counted across the process. */
	room(): RequestRoom;
	/** Requests waiting for a slot of the credential's rate limit now, in this process. */
	queued(): number;
	/** Runs `walk` in the credential's turn (see inTurn). */
	inTurn<T>(walk: () => Promise<T>): Promise<T>;
	/** One page, with retries, the rate budget and every failure mapped to a NodeApiError. */
	fetchPage: FetchPage;
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

function settingsOf(node: INode, credentials: ICredentialDataDecryptedObject): SupplierSettings {
	try {
		return readSettings(credentials);
	} catch (error) {
		if (error instanceof CredentialSettingsError) {
			throw new NodeOperationError(node, error.message, { level: 'warning' });
		}
		throw new NodeOperationError(node, error as Error);
	}
}

/** The API limits each client, so one budget and one set of turns per token issuer and client ID. */
function credentialKey(settings: SupplierSettings): string {
	return JSON.stringify([settings.authUrl, settings.clientId]);
}

/**
 * Opens a walk through the company's result pages: reads the credential and its settings once,
 * for every page and the turn.
 */
export async function openWalk(
	api: ApiConnection,
	context: SupplierContext,
	companyId: CompanyId,
	bounds: WalkOptions = {},
): Promise<Walk> {
	const node = context.getNode();
	const credentials = await context.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE);
	const settings = settingsOf(node, credentials);
	const opened: OpenedWalk = {
		api,
		context,
		node,
		credentials,
		failedRequest: { companyId, clientId: settings.clientId, baseUrl: settings.baseUrl },
		options: requestOptions(node, credentials, settings, companyId, api.retryPolicy),
		budgetKey: credentialKey(settings),
		until: bounds.until ?? Number.POSITIVE_INFINITY,
		turn: bounds.turn ?? { background: false, since: Date.now() },
		onAnswered: bounds.onAnswered,
		cancelSignal:
			'getExecutionCancelSignal' in context ? context.getExecutionCancelSignal() : undefined,
	};
	return {
		room: () => api.rateBudget.room(opened.budgetKey),
		queued: () => api.rateBudget.waiting(opened.budgetKey),
		inTurn: async (walk) => await inTurn(opened, walk),
		fetchPage: async (page) => await requestResultsPage(opened, page),
	};
}

/**
 * Runs a walk through the result pages in this credential's turn: concurrent walks on one
 * credential take turns, so that when the rate budget runs out it has been spent on walks that
 * finished rather than on many stopped halfway. Waiting for the turn is bounded like every other
 * wait: a turn that does not come within it fails instead of starting.
 */
async function inTurn<T>(opened: OpenedWalk, walk: () => Promise<T>): Promise<T> {
	const { api, budgetKey } = opened;
	const maxWaitMs = api.retryPolicy.maxTotalWaitMs;
	const endTurn = await api.walkTurns.take(budgetKey, maxWaitMs);
	if (endTurn === undefined) throw turnNotCome(api, opened.node, budgetKey, maxWaitMs);
	try {
		return await walk();
	} finally {
		endTurn();
	}
}

/**
 * Why a walk's turn did not come within the wait. When the rate limit's window (or a Retry-After)
 * still holds sends back for longer than a slot, that is the cause to report; otherwise the walks
 * ahead, paced, are.
 */
function turnNotCome(api: ApiConnection, node: INode, key: string, waitedMs: number): ApiError {
	const spent = api.rateBudget.spentFor(key);
	// One slot's wait is the pacing after a 429, not a spent window.
	if (spent !== undefined && spent.waitMs > api.rateBudget.paceMs) {
		return new RateBudgetError(node, spent.waitMs, spent.spentBy);
	}
	const seconds = Math.ceil(waitedMs / 1000);
	const queued = api.walkTurns.queued(key);
	const others = queued === 0 ? '' : `; ${queued} more are waiting`;
	const message = `Walks through the results on this credential are queued: this run waited ${seconds} s for its turn behind another and stopped rather than wait longer${others}`;
	return new ApiError(
		node,
		'waiting',
		{
			message,
			description: `Runs that read the results with one credential take turns, so that its rate limit (${API_RATE_LIMIT_TEXT}) is spent on runs that finish. Run the workflow again when the others are done, run fewer workflows with this credential at the same time, or set a Limit so that each run reads fewer pages.`,
			httpCode: 429,
		},
		{ waitedMs },
	);
}

/**
 * A company ID is sent as one path segment, percent-encoded. "." and ".." cannot be: URL parsers
 * resolve them (encoded or not) as "this folder" and "parent folder".
 */
export function companyIdProblem(companyId: unknown): string | undefined {
	if (companyId !== undefined && companyId !== null && typeof companyId !== 'string') {
		const given =
			typeof companyId === 'object'
				? 'an object or a list'
				: `the ${typeof companyId} ${String(companyId)}`;
		return `Company ID must be text, but the expression gave ${given}: make the expression give the ID as text, e.g. {{ String(...) }}`;
	}
	if (typeof companyId !== 'string' || companyId.trim() === '') {
		return "Company ID is empty: enter the supplier company's ID, or an expression that gives one";
	}
	if (companyId === '.' || companyId === '..') {
		return `Company ID "${companyId}" cannot be sent to the API: enter the supplier company's ID`;
	}
	return undefined;
}

export function resultsUrl(baseUrl: string, companyId: string): string {
	return `${baseUrl}${RESULTS_PATH}/${encodeURIComponent(companyId)}/speci-finder/results`;
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

/** What every page request of a walk shares, fixed when the walk opens. */
interface OpenedWalk {
	api: ApiConnection;
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
async function requestResultsPage(opened: OpenedWalk, page: PageRequest): Promise<ListedPage> {
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

/** The GET of the results, as every attempt of the walk sends it (with its page's query). */
function requestOptions(
	node: INode,
	credentials: ICredentialDataDecryptedObject,
	settings: SupplierSettings,
	companyId: CompanyId,
	policy: Readonly<RetryPolicy>,
): IHttpRequestOptions {
	const allowedDomains = credentialAllowedDomains({
		node,
		credentialData: credentials,
		credentialOwnedSurface: true,
		nodeEndpointUrl: settings.baseUrl,
	});
	return {
		method: 'GET',
		url: resultsUrl(settings.baseUrl, companyId),
		headers: { Accept: 'application/json' },
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: policy.requestTimeoutMs,
		// The transport judges every redirect itself (judgedAnswer), so n8n never carries the token
		// and client ID to another origin. The second option is defence in depth: n8n versions that
		// lack it ignore it.
		disableFollowRedirect: true,
		sendCredentialsOnCrossOriginRedirect: false,
		...(allowedDomains === undefined ? {} : { allowedDomains }),
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
