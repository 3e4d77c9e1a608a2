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
import { shapeItems } from '../../projects/items';
import type { ApiConnection } from '../../transport';
import { readGetManyParameters } from '../../parameters';
import { readToolParameters } from '../../parameters/tool';
import { answerAsTool, runsAsTool } from './getAll.tool';
import { walkCompany } from './walk';

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
	if (runsAsTool(context.getNode())) {
		const parameters = readToolParameters(context, itemIndex);
		return [await answerAsTool(context, api, parameters, { itemIndex, today })];
	}
	const { companyId, limit, output, simplify, filters } = readGetManyParameters(context, itemIndex);
	const { items, skipped } = await walkCompany(context, api, companyId, {
		limit,
		take: (projects: Project[]) =>
			shapeItems(filterProjects(projects, filters, today), { output, simplify }) as IDataObject[],
		fullPages: hasFilters(filters),
	});
	if (skipped.length > 0) {
		context.addExecutionHints({
			message: `${skippedSummary(skipped)} The other results are complete.`,
			type: 'warning',
			location: 'outputPane',
		});
	}
	return items;
}
