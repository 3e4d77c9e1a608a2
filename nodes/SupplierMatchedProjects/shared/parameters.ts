import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { FilterError, parseFilters, type ProjectFilters } from '../helpers/filters';
import { OUTPUT_MODES, type OutputMode } from '../helpers/items';
import { companyIdProblem } from '../transport';

/**
 * Checks of the parameters the node and the trigger share. The node reads them per input item
 * and passes its index; the trigger reads them once and passes none.
 */

export function checkedCompanyId(node: INode, companyId: string, itemIndex?: number): string {
	const problem = companyIdProblem(companyId);
	if (problem !== undefined) throw new NodeOperationError(node, problem, { itemIndex });
	return companyId;
}

export function checkedOutput(node: INode, output: OutputMode, itemIndex?: number): OutputMode {
	if (!OUTPUT_MODES.includes(output)) {
		throw new NodeOperationError(
			node,
			`Output must be "projects" or "tenders" (got ${JSON.stringify(output)})`,
			{ itemIndex },
		);
	}
	return output;
}

/** A filter value that cannot be applied is the user's to fix, so it is only a warning. */
export function checkedFilters(node: INode, raw: IDataObject, itemIndex?: number): ProjectFilters {
	try {
		return parseFilters(raw);
	} catch (error) {
		if (error instanceof FilterError) {
			throw new NodeOperationError(node, error.message, { itemIndex, level: 'warning' });
		}
		throw new NodeOperationError(node, error as Error, { itemIndex });
	}
}
