import type { Failure, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { PagingError } from './pages';

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

/** The kind of a failure the transport or the page loop threw; undefined for any other error. */
export function failureKindOf(error: unknown): FailureKind | undefined {
	return error instanceof ApiError || error instanceof PagingError ? error.kind : undefined;
}

/** The HTTP status of the answer a failure was read from, if there was one. */
export function httpStatusOf(error: ApiError): number | undefined {
	const status = Number(error.httpCode);
	return Number.isInteger(status) && status > 0 ? status : undefined;
}

/**
 * Where a failure happened, shared by the node and the trigger: the input item it concerns (the
 * trigger has none) and what the user can do when the service's paging cannot be followed.
 */
export interface FailureContext {
	itemIndex?: number;
	pagingAdvice: string;
}

/**
 * Every failure of a run as n8n shows it. Errors already in n8n's terms keep their message and
 * only learn the item; paging the service broke is the service's fault, so it reads as an API
 * error with the caller's advice; anything else is reported as it is.
 */
export function nodeErrorOf(
	node: INode,
	error: unknown,
	context: FailureContext,
): NodeApiError | NodeOperationError {
	const { itemIndex } = context;
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (itemIndex !== undefined) error.context.itemIndex = itemIndex;
		return error;
	}
	if (error instanceof PagingError) {
		const description = `The service sent paging information that cannot be followed. ${context.pagingAdvice}`;
		const paging = new ApiError(
			node,
			'paging',
			{ message: error.message, description },
			{
				message: error.message,
			},
		);
		if (itemIndex !== undefined) paging.context.itemIndex = itemIndex;
		return paging;
	}
	return new NodeOperationError(node, error as Error, { itemIndex });
}
