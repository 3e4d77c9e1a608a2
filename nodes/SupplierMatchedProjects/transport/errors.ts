import type { INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { PagingError } from './pages';

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
 * error; anything else is reported as it is.
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
		return new NodeApiError(
			node,
			{ message: error.message },
			{
				message: error.message,
				description: `The service sent paging information that cannot be followed. ${context.pagingAdvice}`,
				itemIndex,
			},
		);
	}
	return new NodeOperationError(node, error as Error, { itemIndex });
}
