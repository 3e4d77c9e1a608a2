import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	companyIdProperty,
	getManyFiltersProperty,
	outputProperty,
	simplifyProperty,
} from '../../descriptions';
import type { Project } from '../../api/types';
import { MAX_LIMIT } from '../../projects/bounds';
import { toolProperties } from '../../descriptions/tool';
import { skippedSummary } from '../../projects/entries';
import { filterProjects, hasFilters } from '../../projects/filters';
import { shapeItems, type OutputMode } from '../../projects/items';
import { walkToLimit } from '../../transport/pages';
import { openWalk, type ApiConnection } from '../../transport';
import {
	checkedCompanyId,
	checkedFilters,
	checkedLimit,
	checkedOutput,
} from '../../parameters';
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
			typeOptions: { minValue: 1, maxValue: MAX_LIMIT },
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
	context: IExecuteFunctions,
	api: ApiConnection,
	itemIndex: number,
	today: string,
): Promise<IDataObject[]> {
	const node = context.getNode();
	const companyId = checkedCompanyId(
		node,
		context.getNodeParameter('companyId', itemIndex) as string,
		itemIndex,
	);
	if (runsAsTool(node)) return [await answerAsTool(context, api, { itemIndex, today, companyId })];
	const returnAll = context.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const limit = returnAll
		? Infinity
		: checkedLimit(node, context.getNodeParameter('limit', itemIndex, 50), itemIndex);
	const output = checkedOutput(
		node,
		context.getNodeParameter('output', itemIndex, 'projects') as OutputMode,
		itemIndex,
	);
	const simplify = context.getNodeParameter('simplify', itemIndex, false) as boolean;
	const filters = checkedFilters(
		node,
		context.getNodeParameter('filters', itemIndex, {}) as IDataObject,
		itemIndex,
	);

	const itemsOf = (projects: Project[]) =>
		shapeItems(filterProjects(projects, filters, today), { output, simplify }) as IDataObject[];
	const skipped: string[] = [];
	const onSkipped = (entry: string) => {
		skipped.push(entry);
		context.logger.warn(
			`Supplier Matched Projects "${node.name}" left out an unreadable entry: ${entry}`,
		);
	};
	const walk = await openWalk(api, context, companyId);
	const { items } = await walk.inTurn(
		async () =>
			await walkToLimit(walk.fetchPage, limit, itemsOf, {
				fullPages: hasFilters(filters),
				onSkipped,
			}),
	);
	if (skipped.length > 0) {
		context.addExecutionHints({
			message: `${skippedSummary(skipped)} The other results are complete.`,
			type: 'warning',
			location: 'outputPane',
		});
	}
	return items;
}
