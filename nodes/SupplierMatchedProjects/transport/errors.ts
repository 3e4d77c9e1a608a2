import type { Failure, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { NetworkFailure } from './network';
import { API_RATE_LIMIT_TEXT, API_RATE_PACE_SECONDS, type SpentBy } from './rate-budget';

/**
 * What kind of failure a request met, decided once where its answer (or the lack of one) is read,
 * so the node, the trigger and the tool weigh it alike without reading codes or words again:
 * - waiting: no request slot or turn came within the wait the node allows;
 * - rateLimited: the API kept answering 429;
 * - unreachable: no answer for now (a timeout, a refused or broken connection);
 * - misaddressed: no answer that waiting mends (a host name not found, a bad certificate);
 * - credentials: the token issuer refused the client or its scope, or the API the token (401);
 * - notFound: no API at the Base URL (404);
 * - notAPage: an answer that is not a page of results;
 * - client: anything else the request's settings must change (400, 403, a redirect refused);
 * - server: the API or the token issuer failed on its side;
 * - paging: the pages' cursors cannot be followed.
 */
export type FailureKind =
	| 'waiting'
	| 'rateLimited'
	| 'unreachable'
	| 'misaddressed'
	| 'credentials'
	| 'notFound'
	| 'notAPage'
	| 'client'
	| 'server'
	| 'paging';

/** The words and the reasons of a failure, as the transport makes each one. */
export interface FailureWords {
	message: string;
	description: string;
	httpCode?: number | string;
	/** n8n's cause, where the transport knows better than the kind (the token issuer's failures). */
	failure?: Failure;
}

/** A failure of the API or the token issuer, in n8n's terms, with its kind. */
export class ApiError extends NodeApiError {
	readonly kind: FailureKind;

	constructor(node: INode, kind: FailureKind, words: FailureWords, errorResponse?: JsonObject) {
		const { message, description, failure } = words;
		const httpCode = words.httpCode === undefined ? undefined : String(words.httpCode);
		super(node, errorResponse ?? ({ message, description } as JsonObject), {
			message,
			description,
			httpCode,
			failure,
		});
		this.kind = kind;
		// n8n-workflow before 2.40 ignores the option; the trigger reads the cause all the same.
		this.failure ??= failure;
	}
}

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

/** The kind of a failure the transport threw; undefined for any other error. */
export function failureKindOf(error: unknown): FailureKind | undefined {
	return error instanceof ApiError ? error.kind : undefined;
}

/** The HTTP status of the answer a failure was read from, if there was one. */
export function httpStatusOf(error: ApiError): number | undefined {
	const status = Number(error.httpCode);
	return Number.isInteger(status) && status > 0 ? status : undefined;
}

/**
 * Every failure of a run as n8n shows it: errors already in n8n's terms keep their words and only
 * learn the input item they concern (the trigger has none); anything else is reported as it is.
 */
export function nodeErrorOf(
	node: INode,
	error: unknown,
	itemIndex?: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (itemIndex !== undefined) error.context.itemIndex = itemIndex;
		return error;
	}
	return new NodeOperationError(node, error as Error, { itemIndex });
}
