import type { IPollFunctions } from 'n8n-workflow';

import { MAX_DAYS } from '../projects/bounds';
import type { ProjectFilters } from '../projects/filters';
import type { OutputMode } from '../projects/items';
import type { CompanyId } from '../transport';
import { readCompanyId, readFilters, readOutput } from './index';
import { readBoolean, readCollection, readOption, readWholeNumber, type ReadAt } from './readers';

/** The trigger's parameters, read once per poll. */

export type TriggerEvent = 'newTender' | 'newOrUpdatedTender' | 'quotesDueSoon';

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
	const at: ReadAt = { node: context.getNode() };
	const companyId = readCompanyId(at, context.getNodeParameter('companyId'));
	const event = readOption(at, 'Event', context.getNodeParameter('event', 'newTender'), EVENTS);
	const daysBeforeQuotesDue =
		event === 'quotesDueSoon'
			? readWholeNumber(
					at,
					'Days Before Quotes Due',
					context.getNodeParameter('daysBeforeQuotesDue', 3),
					{ min: 0, max: MAX_DAYS, unit: 'days', maxText: `${MAX_DAYS} (ten years)` },
					{
						description:
							'Enter 3 to be reminded three days before quotes close, 0 for the day they close.',
					},
				)
			: 0;
	const output = readOutput(at, context.getNodeParameter('output', 'tenders'));
	const filters = readFilters(at, context.getNodeParameter('filters', {}));
	const options = readCollection(at, 'Options', context.getNodeParameter('options', {}));
	return {
		companyId,
		event,
		output,
		simplify: readBoolean(at, 'Simplify', context.getNodeParameter('simplify', false)),
		filters,
		daysBeforeQuotesDue,
		emitOpenOnFirstRun: readBoolean(
			at,
			'Emit Open Tenders on First Run',
			options.emitOpenOnFirstRun ?? false,
		),
	};
}
