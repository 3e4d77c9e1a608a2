import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { MAX_DAYS, quoted } from '../projects/bounds';
import type { ProjectFilters } from '../projects/filters';
import type { OutputMode } from '../projects/items';
import type { CompanyId } from '../transport';
import type { TriggerEvent } from '../trigger/diff';
import { checkedCompanyId, checkedFilters, checkedOutput } from './index';

/** The trigger's parameters, read once per poll. */

const EVENTS: readonly TriggerEvent[] = ['newTender', 'newOrUpdatedTender', 'quotesDueSoon'];

export interface TriggerParameters {
	companyId: CompanyId;
	event: TriggerEvent;
	output: OutputMode;
	simplify: boolean;
	filters: ProjectFilters;
	/** For quotesDueSoon: a due date this many days from today or fewer is inside the window. */
	daysBeforeQuotesDue: number;
	emitOpenOnFirstRun: boolean;
}

export function readTriggerParameters(context: IPollFunctions): TriggerParameters {
	const node = context.getNode();
	const companyId = checkedCompanyId(node, context.getNodeParameter('companyId') as string);
	const event = context.getNodeParameter('event', 'newTender') as TriggerEvent;
	if (!EVENTS.includes(event)) {
		throw new NodeOperationError(
			node,
			`Event must be "newTender", "newOrUpdatedTender" or "quotesDueSoon" (got ${quoted(event)})`,
		);
	}
	const daysBeforeQuotesDue =
		event === 'quotesDueSoon' ? context.getNodeParameter('daysBeforeQuotesDue', 3) : 0;
	if (
		typeof daysBeforeQuotesDue !== 'number' ||
		!Number.isInteger(daysBeforeQuotesDue) ||
		daysBeforeQuotesDue < 0 ||
		daysBeforeQuotesDue > MAX_DAYS
	) {
		throw new NodeOperationError(
			node,
			`Days Before Quotes Due must be a whole number of days from 0 to ${MAX_DAYS} (ten years) (got ${quoted(daysBeforeQuotesDue)})`,
			{
				description:
					'Enter 3 to be reminded three days before quotes close, 0 for the day they close.',
			},
		);
	}
	const output = checkedOutput(node, context.getNodeParameter('output', 'tenders') as OutputMode);
	const filters = checkedFilters(node, context.getNodeParameter('filters', {}) as IDataObject);
	const options = context.getNodeParameter('options', {}) as IDataObject;
	return {
		companyId,
		event,
		output,
		simplify: context.getNodeParameter('simplify', false) as boolean,
		filters,
		daysBeforeQuotesDue,
		emitOpenOnFirstRun: options.emitOpenOnFirstRun === true,
	};
}
