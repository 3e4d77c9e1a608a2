import type { ICredentialDataDecryptedObject, IHttpRequestOptions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ApiError, RateBudgetError } from './errors';
import { credentialAllowedDomains } from './n8n-features';
import {
	pagingError,
	requestResultsPage,
	type FetchPage,
	type OpenedWalk,
	type PageSource,
	type RequestConnection,
	type SupplierContext,
} from './pages';
import { API_RATE_LIMIT_TEXT, type RequestRoom, type RequestTurn } from './rate-budget';
import type { RetryPolicy } from './retry';
import {
	CREDENTIAL_TYPE,
	CredentialSettingsError,
	readSettings,
	type SupplierSettings,
} from './settings';
import type { Turns } from './turns';

export { NoAnswerError, RateBudgetError } from './errors';
export type { SupplierContext } from './pages';
export { CREDENTIAL_TYPE } from './settings';

const RESULTS_PATH = '/api/supplier/v1/companies';

/**
 * What the transport keeps once per n8n process. The package's runtime (../runtime.ts) holds it;
 * tests and the bench build their own.
 */
export interface ApiConnection extends RequestConnection {
	readonly walkTurns: Turns;
}

declare const checked: unique symbol;

/** A company ID that passed companyIdProblem, as parameters/index.ts readCompanyId gives it. */
export type CompanyId = string & { readonly [checked]: true };

/** What a walk's caller sets when opening it: its bounds, and what its user is told. */
export interface WalkOptions {
	/** What the user can do when the service's paging cannot be followed, after why. */
	pagingAdvice: string;
	/** No wait, retry or request of the walk may run past this instant (epoch ms). */
	until?: number;
	/** The walk's place in its credential's queue; a workflow run's by default. */
	turn?: RequestTurn;
	/** Told how long each answer took once its request was sent (ms). */
	onAnswered?: (elapsedMs: number) => void;
}

/** A walk through one company's result pages, with the credential read once when it opened. */
export interface Walk extends PageSource {
	/** Requests the credential can still send now, counted across the process. */
	room(): RequestRoom;
	/** Requests waiting for a slot of the credential's rate limit now, in this process. */
	queued(): number;
	/** Runs `walk` in the credential's turn (see inTurn). */
	inTurn<T>(walk: () => Promise<T>): Promise<T>;
	/** One page, with retries, the rate budget and every failure mapped to a NodeApiError. */
	fetchPage: FetchPage;
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
	walkOptions: WalkOptions,
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
		until: walkOptions.until ?? Number.POSITIVE_INFINITY,
		turn: walkOptions.turn ?? { background: false, since: Date.now() },
		onAnswered: walkOptions.onAnswered,
		cancelSignal:
			'getExecutionCancelSignal' in context ? context.getExecutionCancelSignal() : undefined,
	};
	return {
		room: () => api.rateBudget.room(opened.budgetKey),
		queued: () => api.rateBudget.waiting(opened.budgetKey),
		inTurn: async (walk) => await inTurn(api, opened, walk),
		fetchPage: async (page) => await requestResultsPage(opened, page),
		cannotFollow: (reason) => pagingError(node, reason, walkOptions.pagingAdvice),
	};
}

/**
 * Runs a walk through the result pages in this credential's turn: concurrent walks on one
 * credential take turns, so that when the rate budget runs out it has been spent on walks that
 * finished rather than on many stopped halfway. Waiting for the turn is bounded like every other
 * wait: a turn that does not come within it fails instead of starting.
 */
async function inTurn<T>(
	api: ApiConnection,
	opened: OpenedWalk,
	walk: () => Promise<T>,
): Promise<T> {
	const { budgetKey } = opened;
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
