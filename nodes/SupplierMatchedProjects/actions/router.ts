import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { todayIn } from '../projects/dates';
import type { ApiConnection } from '../transport';
import { nodeErrorOf } from '../transport/errors';
import * as matchedProject from './matchedProject/MatchedProject.resource';

/** One input item's run of an operation: the JSON of its output items. */
type Operation = (
	context: IExecuteFunctions,
	api: ApiConnection,
	itemIndex: number,
	today: string,
) => Promise<IDataObject[]>;

const operations: ReadonlyMap<string, ReadonlyMap<string, Operation>> = new Map([
	['matchedProject', new Map([['getAll', matchedProject.getAll.execute]])],
]);

/**
 * Runs the chosen operation once per input item. Every output item is paired with the input item
 * it came from; with Continue On Fail a failed item gives one item carrying its error message.
 */
export async function router(
	context: IExecuteFunctions,
	api: ApiConnection,
): Promise<INodeExecutionData[][]> {
	const resource = context.getNodeParameter('resource', 0) as string;
	const operationsOfResource = operations.get(resource);
	if (operationsOfResource === undefined) {
		throw new NodeOperationError(
			context.getNode(),
			`Resource ${JSON.stringify(resource)} is not supported: open the node and choose a resource from its list`,
		);
	}
	// Read only once the resource is known: n8n drops an operation its resource does not show.
	const operation = context.getNodeParameter('operation', 0) as string;
	const execute = operationsOfResource.get(operation);
	if (execute === undefined) {
		throw new NodeOperationError(
			context.getNode(),
			`Operation ${JSON.stringify(operation)} of resource ${JSON.stringify(resource)} is not supported: open the node and choose an operation from its list`,
		);
	}

	const items = context.getInputData();
	const returnData: INodeExecutionData[] = [];
	// One day for the whole execution, so every item is filtered alike even across midnight.
	const today = todayIn(context.getTimezone());
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const results = await execute(context, api, itemIndex, today);
			for (const json of results) returnData.push({ json, pairedItem: { item: itemIndex } });
		} catch (error) {
			const nodeError = nodeErrorOf(context.getNode(), error, itemIndex);
			if (context.continueOnFail()) {
				returnData.push({ json: { error: nodeError.message }, pairedItem: { item: itemIndex } });
				continue;
			}
			throw nodeError;
		}
	}
	return [returnData];
}
