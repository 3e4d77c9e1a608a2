import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { counted, MAX_COMPANY_ID_LENGTH, MAX_LIMIT, quoted } from '../projects/bounds';
import { FilterError, parseFilters, type ProjectFilters } from '../projects/filters';
import { OUTPUT_MODES, type OutputMode } from '../projects/items';
import { companyIdProblem, type CompanyId } from '../transport';

/**
 * Checks of the parameters the node and the trigger share. The node reads them per input item
 * and passes its index; the trigger reads them once and passes none.
 */

export function checkedCompanyId(node: INode, companyId: string, itemIndex?: number): CompanyId {
	const problem = companyIdProblem(companyId);
	if (problem !== undefined) throw new NodeOperationError(node, problem, { itemIndex });
	if (companyId.length > MAX_COMPANY_ID_LENGTH) {
		throw new NodeOperationError(
			node,
			`Company ID ${quoted(companyId)} is longer than ${MAX_COMPANY_ID_LENGTH} characters, the most the node sends: enter the supplier company's ID, or check the expression that gives it`,
			{ itemIndex },
		);
	}
	return companyId as CompanyId;
}

/** Get Many's Limit, when Return All is off. */
export function checkedLimit(node: INode, limit: unknown, itemIndex?: number): number {
	if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
		throw new NodeOperationError(
			node,
			`Limit must be a whole number from 1 to ${counted(MAX_LIMIT)} (got ${quoted(limit)}); turn on Return All to get every result`,
			{
				itemIndex,
				description: `${counted(MAX_LIMIT)} projects are 100 pages, all the API's rate limit allows a credential in 5 minutes.`,
			},
		);
	}
	return limit;
}

export function checkedOutput(node: INode, output: OutputMode, itemIndex?: number): OutputMode {
	if (!OUTPUT_MODES.includes(output)) {
		throw new NodeOperationError(
			node,
			`Output must be "projects" or "tenders" (got ${quoted(output)})`,
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
