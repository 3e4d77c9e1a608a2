import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { counted, MAX_COMPANY_ID_LENGTH, MAX_LIMIT, quoted } from '../projects/bounds';
import type { ProjectFilters } from '../projects/filters';
import { OUTPUT_MODES, type OutputMode } from '../projects/items';
import { companyIdProblem, type CompanyId } from '../transport';
import { MAX_PAGE_SIZE } from '../transport/pages';
import { API_RATE_LIMIT, API_RATE_WINDOW_MS } from '../transport/rate-budget';
import { FilterError, parseFilters } from './filters';
import { readBoolean, readCollection, readOption, readWholeNumber, type ReadAt } from './readers';

/**
 * Checks of the parameters the node and the trigger share, and Get Many's read. The node reads
 * per input item and passes its index; the trigger reads once per poll and passes none.
 */

/** Company ID: any text the API can take as one path segment. */
export function readCompanyId(at: ReadAt, value: unknown): CompanyId {
	const problem = companyIdProblem(value);
	if (problem !== undefined) {
		throw new NodeOperationError(at.node, problem, { itemIndex: at.itemIndex });
	}
	const companyId = value as string;
	if (companyId.length > MAX_COMPANY_ID_LENGTH) {
		throw new NodeOperationError(
			at.node,
			`Company ID ${quoted(companyId)} is longer than ${MAX_COMPANY_ID_LENGTH} characters, the most the node sends: enter the supplier company's ID, or check the expression that gives it`,
			{ itemIndex: at.itemIndex },
		);
	}
	return companyId as CompanyId;
}

/** Why Limit stops where it does, in the numbers the transport paces by. */
export const LIMIT_REASON = `${counted(MAX_LIMIT)} projects are ${counted(MAX_LIMIT / MAX_PAGE_SIZE)} pages of ${MAX_PAGE_SIZE}: the ${API_RATE_LIMIT} requests the API's rate limit allows a credential in ${API_RATE_WINDOW_MS / 60_000} minutes.`;

/** Get Many's Limit, when Return All is off. */
export function readLimit(at: ReadAt, value: unknown): number {
	return readWholeNumber(
		at,
		'Limit',
		value,
		{ min: 1, max: MAX_LIMIT },
		{ fix: 'turn on Return All to get every result', description: LIMIT_REASON },
	);
}

export function readOutput(at: ReadAt, value: unknown): OutputMode {
	return readOption(at, 'Output', value, OUTPUT_MODES);
}

/** A filter value that cannot be applied is the user's to fix, so it is only a warning. */
export function readFilters(at: ReadAt, value: unknown): ProjectFilters {
	const raw = readCollection(at, 'Filters', value);
	try {
		return parseFilters(raw);
	} catch (error) {
		if (error instanceof FilterError) {
			throw new NodeOperationError(at.node, error.message, {
				itemIndex: at.itemIndex,
				level: 'warning',
			});
		}
		throw new NodeOperationError(at.node, error as Error, { itemIndex: at.itemIndex });
	}
}

/** Get Many's parameters outside the tool, read for one input item. */
export interface GetManyParameters {
	companyId: CompanyId;
	/** Infinity when Return All is on. */
	limit: number;
	output: OutputMode;
	simplify: boolean;
	filters: ProjectFilters;
}

export function readGetManyParameters(
	context: IExecuteFunctions,
	itemIndex: number,
): GetManyParameters {
	const at: ReadAt = { node: context.getNode(), itemIndex };
	const value = (name: string, fallback: unknown) =>
		context.getNodeParameter(name, itemIndex, fallback);
	const companyId = readCompanyId(at, context.getNodeParameter('companyId', itemIndex));
	const returnAll = readBoolean(at, 'Return All', value('returnAll', false));
	return {
		companyId,
		limit: returnAll ? Infinity : readLimit(at, value('limit', 50)),
		output: readOutput(at, value('output', 'projects')),
		simplify: readBoolean(at, 'Simplify', value('simplify', false)),
		filters: readFilters(at, value('filters', {})),
	};
}
