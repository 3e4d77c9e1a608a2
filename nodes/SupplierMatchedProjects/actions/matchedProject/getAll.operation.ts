import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import {
	companyIdProperty,
	getManyFiltersProperty,
	outputProperty,
	simplifyProperty,
} from '../../descriptions';
import type { Project } from '../../api/types';
import { toolProperties } from '../../descriptions/tool';
import { skippedSummary } from '../../helpers/entries';
import { filterProjects, hasFilters } from '../../helpers/filters';
import { shapeItems, type OutputMode } from '../../helpers/items';
import { walkToLimit, type FetchPage } from '../../helpers/paging';
import { inCredentialTurn, requestResultsPage } from '../../transport';
import { checkedCompanyId, checkedFilters, checkedOutput } from '../../shared/parameters';
import { answerAsTool, runsAsTool } from './getAll.tool';

const showForGetMany = { show: { resource: ['matchedProject'], operation: ['getAll'] } };
/** Parameters the tool copy replaces with its own Max Projects and Answer (descriptions/tool.ts). */
const showForGetManyOutsideTool = { show: { ...showForGetMany.show, '@tool': [false] } };

export const description: INodeProperties[] = [
	...updateDisplayOptions(showForGetMany, [companyIdProperty]),
	...updateDisplayOptions(showForGetManyOutsideTool, [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
	]),
	...updateDisplayOptions({ show: { ...showForGetManyOutsideTool.show, returnAll: [false] } }, [
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
		},
	]),
	...updateDisplayOptions(showForGetManyOutsideTool, [outputProperty, simplifyProperty]),
	...updateDisplayOptions(showForGetMany, [getManyFiltersProperty]),
	...toolProperties(showForGetMany.show),
];

/**
 * The matched projects of one input item's company, as the JSON of the output items. `today` is
 * the execution's calendar day in the workflow's time zone, the same for every item.
 */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	today: string,
): Promise<IDataObject[]> {
	const node = this.getNode();
	const companyId = checkedCompanyId(
		node,
		this.getNodeParameter('companyId', itemIndex) as string,
		itemIndex,
	);
	if (runsAsTool(node)) return [await answerAsTool.call(this, { itemIndex, today, companyId })];
	const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const limit = returnAll ? Infinity : (this.getNodeParameter('limit', itemIndex, 50) as number);
	if (!returnAll && (!Number.isInteger(limit) || limit < 1)) {
		throw new NodeOperationError(
			node,
			`Limit must be a whole number of at least 1 (got ${JSON.stringify(limit)}); turn on Return All to get every result`,
			{ itemIndex },
		);
	}
	const output = checkedOutput(
		node,
		this.getNodeParameter('output', itemIndex, 'projects') as OutputMode,
		itemIndex,
	);
	const simplify = this.getNodeParameter('simplify', itemIndex, false) as boolean;
	const filters = checkedFilters(
		node,
		this.getNodeParameter('filters', itemIndex, {}) as IDataObject,
		itemIndex,
	);

	const fetchPage: FetchPage = async (page) => await requestResultsPage.call(this, companyId, page);
	const itemsOf = (projects: Project[]) =>
		shapeItems(filterProjects(projects, filters, today), { output, simplify }) as IDataObject[];
	const skipped: string[] = [];
	const onSkipped = (entry: string) => {
		skipped.push(entry);
		this.logger.warn(
			`Supplier Matched Projects "${node.name}" left out an unreadable entry: ${entry}`,
		);
	};
	const { items } = await inCredentialTurn(
		this,
		async () =>
			await walkToLimit(fetchPage, limit, itemsOf, { fullPages: hasFilters(filters), onSkipped }),
	);
	if (skipped.length > 0) {
		this.addExecutionHints({
			message: `${skippedSummary(skipped)} The other results are complete.`,
			type: 'warning',
			location: 'outputPane',
		});
	}
	return items;
}
