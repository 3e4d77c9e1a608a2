import type {
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import {
	NodeApiError,
	NodeConnectionTypes,
	NodeOperationError,
	updateDisplayOptions,
} from 'n8n-workflow';

import {
	companyIdProperty,
	filtersProperty,
	outputProperty,
	simplifyProperty,
} from './descriptions';
import {
	FilterError,
	filterProjects,
	hasFilters,
	OUTPUT_MODES,
	parseFilters,
	shapeItems,
	todayIn,
	type OutputMode,
} from './helpers/items';
import { MAX_PAGE_SIZE, PagingError, walkPages, type FetchPage } from './helpers/paging';
import { companyIdProblem, inCredentialTurn, requestResultsPage } from './transport';

const showForGetMany = { show: { resource: ['matchedProject'], operation: ['getAll'] } };

function atItem(node: INode, error: unknown, itemIndex: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context.itemIndex = itemIndex;
		return error;
	}
	if (error instanceof PagingError) {
		return new NodeApiError(
			node,
			{ message: error.message },
			{
				message: error.message,
				description:
					'The service sent paging information that cannot be followed. Run the workflow again later; setting a Limit may avoid the faulty page.',
				itemIndex,
			},
		);
	}
	if (error instanceof FilterError) {
		return new NodeOperationError(node, error.message, { itemIndex, level: 'warning' });
	}
	return new NodeOperationError(node, error as Error, { itemIndex });
}

async function getMatchedProjects(
	this: IExecuteFunctions,
	itemIndex: number,
	today: string,
): Promise<IDataObject[]> {
	const node = this.getNode();
	const companyId = this.getNodeParameter('companyId', itemIndex) as string;
	const problem = companyIdProblem(companyId);
	if (problem !== undefined) throw new NodeOperationError(node, problem, { itemIndex });

	const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const limit = returnAll ? Infinity : (this.getNodeParameter('limit', itemIndex, 50) as number);
	if (!returnAll && (!Number.isInteger(limit) || limit < 1)) {
		throw new NodeOperationError(
			node,
			`Limit must be a whole number of at least 1 (got ${JSON.stringify(limit)}); turn on Return All to get every result`,
			{ itemIndex },
		);
	}
	const output = this.getNodeParameter('output', itemIndex, 'projects') as OutputMode;
	if (!OUTPUT_MODES.includes(output)) {
		throw new NodeOperationError(
			node,
			`Output must be "projects" or "tenders" (got ${JSON.stringify(output)})`,
			{ itemIndex },
		);
	}
	const simplify = this.getNodeParameter('simplify', itemIndex, false) as boolean;
	const filters = parseFilters(this.getNodeParameter('filters', itemIndex, {}) as IDataObject);

	const fetchPage: FetchPage = async (page) => await requestResultsPage.call(this, companyId, page);
	return await inCredentialTurn(this, async () => {
		const results: IDataObject[] = [];
		// Without filters every project gives at least one item, so asking for what is still missing
		// never over-fetches; with filters the share kept is unknown and full pages mean fewest requests.
		const nextLimit = () =>
			returnAll || hasFilters(filters)
				? MAX_PAGE_SIZE
				: Math.min(MAX_PAGE_SIZE, limit - results.length);
		for await (const projects of walkPages(fetchPage, nextLimit)) {
			const kept = filterProjects(projects, filters, today);
			results.push(...(shapeItems(kept, { output, simplify }) as IDataObject[]));
			if (results.length >= limit) break;
		}
		return returnAll ? results : results.slice(0, limit);
	});
}

export class SupplierMatchedProjects implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Supplier Matched Projects',
		name: 'supplierMatchedProjects',
		icon: {
			light: 'file:supplierMatchedProjects.svg',
			dark: 'file:supplierMatchedProjects.dark.svg',
		},
		group: ['input'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: "Read the open tenders of projects that match a supplier company's keywords",
		defaults: {
			name: 'Supplier Matched Projects',
		},
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'supplierMatchedProjectsApi',
				required: true,
			},
		],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'Matched Project',
						value: 'matchedProject',
					},
				],
				default: 'matchedProject',
			},
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				displayOptions: { show: { resource: ['matchedProject'] } },
				options: [
					{
						name: 'Get Many',
						value: 'getAll',
						description: "Get the projects with open tenders that match the supplier's keywords",
						action: 'Get many matched projects',
					},
				],
				default: 'getAll',
			},
			...updateDisplayOptions(showForGetMany, [
				companyIdProperty,
				{
					displayName: 'Return All',
					name: 'returnAll',
					type: 'boolean',
					default: false,
					description: 'Whether to return all results or only up to a given limit',
				},
			]),
			...updateDisplayOptions({ show: { ...showForGetMany.show, returnAll: [false] } }, [
				{
					displayName: 'Limit',
					name: 'limit',
					type: 'number',
					typeOptions: { minValue: 1 },
					default: 50,
					description: 'Max number of results to return',
				},
			]),
			...updateDisplayOptions(showForGetMany, [outputProperty, simplifyProperty, filtersProperty]),
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const returnData: INodeExecutionData[] = [];
		const today = todayIn(this.getTimezone());
		for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
			try {
				const results = await getMatchedProjects.call(this, itemIndex, today);
				for (const json of results) returnData.push({ json, pairedItem: { item: itemIndex } });
			} catch (error) {
				const nodeError = atItem(this.getNode(), error, itemIndex);
				if (this.continueOnFail()) {
					returnData.push({ json: { error: nodeError.message }, pairedItem: { item: itemIndex } });
					continue;
				}
				throw nodeError;
			}
		}
		return [returnData];
	}
}
