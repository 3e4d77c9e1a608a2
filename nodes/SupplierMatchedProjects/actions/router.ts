import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { todayIn } from '../helpers/dates';
import { nodeErrorOf } from '../shared/errors';
import * as matchedProject from './matchedProject/MatchedProject.resource';

/** One input item's run of an operation: the JSON of its output items. */
type Operation = (
	this: IExecuteFunctions,
	itemIndex: number,
	today: string,
) => Promise<IDataObject[]>;

const operations = new Map<string, Map<string, Operation>>([
	['matchedProject', new Map([['getAll', matchedProject.getAll.execute]])],
]);

const PAGING_ADVICE = 'Run the workflow again later; setting a Limit may avoid the faulty page.';

/**
 * Runs the chosen operation once per input item. Every output item is paired with the input item
 * it came from; with Continue On Fail a failed item gives one item carrying its error message.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as string;
	const operationsOfResource = operations.get(resource);
	if (operationsOfResource === undefined) {
		throw new NodeOperationError(
			this.getNode(),
			`Resource ${JSON.stringify(resource)} is not supported: open the node and choose a resource from its list`,
		);
	}
	// Read only once the resource is known: n8n drops an operation its resource does not show.
	const operation = this.getNodeParameter('operation', 0) as string;
	const execute = operationsOfResource.get(operation);
	if (execute === undefined) {
		throw new NodeOperationError(
			this.getNode(),
			`Operation ${JSON.stringify(operation)} of resource ${JSON.stringify(resource)} is not supported: open the node and choose an operation from its list`,
		);
	}

	const items = this.getInputData();
	const returnData: INodeExecutionData[] = [];
	// One day for the whole execution, so every item is filtered alike even across midnight.
	const today = todayIn(this.getTimezone());
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const results = await execute.call(this, itemIndex, today);
			for (const json of results) returnData.push({ json, pairedItem: { item: itemIndex } });
		} catch (error) {
			const nodeError = nodeErrorOf(this.getNode(), error, {
				itemIndex,
				pagingAdvice: PAGING_ADVICE,
			});
			if (this.continueOnFail()) {
				returnData.push({ json: { error: nodeError.message }, pairedItem: { item: itemIndex } });
				continue;
			}
			throw nodeError;
		}
	}
	return [returnData];
}
