import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Project } from '../api/types';
import { isoDateToDay } from '../helpers/dates';
import { filterProjects, type ProjectFilters } from '../helpers/filters';
import type { OutputMode } from '../helpers/items';
import {
	collectProjects,
	MAX_PAGE_SIZE,
	walkPages,
	type FetchPage,
	type OnSkipped,
} from '../helpers/paging';
import { nodeErrorOf } from '../shared/errors';
import { checkedCompanyId, checkedFilters, checkedOutput } from '../shared/parameters';
import { isRateBudgetError, requestResultsPage, requestRoom } from '../transport';
import { budgetExhausted, budgetRefusal } from './budget';
import { daysLeftInWindow, type DueSoonWindow, type PollDiff, type TriggerEvent } from './diff';
import { passesOnItsOwn } from './failures';
import { announcedItems, type Announcement } from './output';
import type { TriggerState } from './state';

/**
 * The trigger's fetching, for the trigger class to call: it reads the parameters, walks the
 * results and turns what is new into items, while the class keeps the state.
 */

const EVENTS: readonly TriggerEvent[] = ['newTender', 'newOrUpdatedTender', 'quotesDueSoon'];

/** "Fetch Test Event" shows this many items at most. */
const SAMPLE_SIZE = 5;

const PAGING_ADVICE = 'The trigger tries again on its next poll.';

export interface TriggerParameters {
	companyId: string;
	event: TriggerEvent;
	output: OutputMode;
	simplify: boolean;
	filters: ProjectFilters;
	/** For quotesDueSoon: a due date this many days from today or fewer is inside the window. */
	daysBeforeQuotesDue: number;
	emitOpenOnFirstRun: boolean;
}

export function readTriggerParameters(this: IPollFunctions): TriggerParameters {
	const node = this.getNode();
	const companyId = checkedCompanyId(node, this.getNodeParameter('companyId') as string);
	const event = this.getNodeParameter('event', 'newTender') as TriggerEvent;
	if (!EVENTS.includes(event)) {
		throw new NodeOperationError(
			node,
			`Event must be "newTender", "newOrUpdatedTender" or "quotesDueSoon" (got ${JSON.stringify(event)})`,
		);
	}
	const daysBeforeQuotesDue =
		event === 'quotesDueSoon' ? this.getNodeParameter('daysBeforeQuotesDue', 3) : 0;
	if (
		typeof daysBeforeQuotesDue !== 'number' ||
		!Number.isInteger(daysBeforeQuotesDue) ||
		daysBeforeQuotesDue < 0
	) {
		throw new NodeOperationError(
			node,
			`Days Before Quotes Due must be a whole number of days, 0 or more (got ${JSON.stringify(daysBeforeQuotesDue)})`,
			{
				description:
					'Enter 3 to be reminded three days before quotes close, 0 for the day they close.',
			},
		);
	}
	const output = checkedOutput(node, this.getNodeParameter('output', 'tenders') as OutputMode);
	const filters = checkedFilters(node, this.getNodeParameter('filters', {}) as IDataObject);
	const options = this.getNodeParameter('options', {}) as IDataObject;
	return {
		companyId,
		event,
		output,
		simplify: this.getNodeParameter('simplify', false) as boolean,
		filters,
		daysBeforeQuotesDue,
		emitOpenOnFirstRun: options.emitOpenOnFirstRun === true,
	};
}

/** The quotesDueSoon window for today's date (YYYY-MM-DD) in the workflow's time zone. */
export function dueSoonWindow(parameters: TriggerParameters, today: string): DueSoonWindow {
	return { today: isoDateToDay(today) ?? 0, days: parameters.daysBeforeQuotesDue };
}

function pagesOf(context: IPollFunctions, companyId: string): FetchPage {
	return async (page) => await requestResultsPage.call(context, companyId, page);
}

/** Warns of an entry the walk left out: its new tenders come with the first poll that can read it. */
function warnSkipped(context: IPollFunctions): OnSkipped {
	const { name } = context.getNode();
	return (entry) =>
		context.logger.warn(
			`Supplier Matched Projects Trigger "${name}" left out an unreadable entry: ${entry}. The poll went on with the rest; its new tenders are announced once a poll can read it.`,
		);
}

/**
 * What "Fetch Test Event" shows: the first few matching tenders, announced as new, or for
 * quotesDueSoon the first few inside the window now.
 */
export async function fetchSample(
	this: IPollFunctions,
	parameters: TriggerParameters,
	today: string,
): Promise<INodeExecutionData[][]> {
	try {
		return await sample.call(this, parameters, pagesOf(this, parameters.companyId), today);
	} catch (error) {
		throw nodeErrorOf(this.getNode(), error, { pagingAdvice: PAGING_ADVICE });
	}
}

async function sample(
	this: IPollFunctions,
	parameters: TriggerParameters,
	fetchPage: FetchPage,
	today: string,
): Promise<INodeExecutionData[][]> {
	const found: Project[] = [];
	const announcements = new Map<string, Announcement>();
	const window = dueSoonWindow(parameters, today);
	let items: IDataObject[] = [];
	// Stops at the first page that fills the sample: the fewest requests for a test event.
	for await (const data of walkPages(fetchPage, () => MAX_PAGE_SIZE, warnSkipped(this))) {
		for (const project of filterProjects(data, parameters.filters, today)) {
			found.push(project);
			for (const tender of project.tenders ?? []) {
				if (typeof tender?.id !== 'string') continue;
				if (parameters.event !== 'quotesDueSoon') {
					announcements.set(tender.id, { event: 'newTender' });
					continue;
				}
				const daysLeft = daysLeftInWindow(
					{ quotesDueAt: tender.quotesDueAt ?? null, status: tender.status },
					window,
				);
				if (daysLeft !== undefined) {
					announcements.set(tender.id, { event: 'quotesDueSoon', daysLeft });
				}
			}
		}
		items = announcedItems(found, announcements, parameters);
		if (items.length >= SAMPLE_SIZE) break;
	}
	if (items.length === 0 && parameters.event === 'quotesDueSoon') {
		const days = parameters.daysBeforeQuotesDue;
		throw new NodeOperationError(
			this.getNode(),
			`No matching tender of company "${parameters.companyId}" has quotes due within ${days} day${days === 1 ? '' : 's'} right now`,
			{
				level: 'warning',
				description: `Once active, the trigger starts a workflow for each matching tender when its quotes due date comes within ${days} day${days === 1 ? '' : 's'} (in the workflow's time zone). Try again with a larger Days Before Quotes Due to see a sample.`,
			},
		);
	}
	if (items.length === 0) {
		throw new NodeOperationError(
			this.getNode(),
			`No open tender matches for company "${parameters.companyId}" right now`,
			{
				level: 'warning',
				description:
					"The service lists only tenders open now that match the supplier account's keywords, and the trigger's filters apply on top. Try again when a matching tender opens, or loosen the filters. Once active, the trigger starts a workflow for each new matching tender.",
			},
		);
	}
	return [items.slice(0, SAMPLE_SIZE).map((json) => ({ json }))];
}

/**
 * Every project listed for the company now, or null when the walk failed in a way the next poll
 * may not see and a previous state lets that poll catch up. Any other failure is thrown.
 */
export async function fetchListing(
	this: IPollFunctions,
	parameters: TriggerParameters,
	previous: TriggerState | undefined,
): Promise<Project[] | null> {
	const node = this.getNode();
	try {
		if (previous !== undefined) await checkBudget.call(this, previous.projectCount);
		return await walkAll.call(this, pagesOf(this, parameters.companyId));
	} catch (error) {
		if (previous === undefined || !passesOnItsOwn(error)) {
			throw nodeErrorOf(node, error, { pagingAdvice: PAGING_ADVICE });
		}
		this.logger.warn(
			`Supplier Matched Projects Trigger "${node.name}" skipped a poll: ${(error as Error).message}. Nothing was emitted; the next poll catches up.`,
		);
		return null;
	}
}

/** Refuses a walk the rate budget cannot carry, before anything is sent. */
async function checkBudget(this: IPollFunctions, previousProjectCount: number): Promise<void> {
	const refusal = budgetRefusal(this.getNode(), previousProjectCount, await requestRoom(this));
	if (refusal !== undefined) throw refusal;
}

/** Walks every page, 100 projects per request: a new tender can sit on any page. */
async function walkAll(this: IPollFunctions, fetchPage: FetchPage): Promise<Project[]> {
	let requests = 0;
	let projectsSoFar = 0;
	const counted: FetchPage = async (page) => {
		requests++;
		const results = await fetchPage(page);
		projectsSoFar += results.data.length;
		return results;
	};
	try {
		return await collectProjects(counted, warnSkipped(this));
	} catch (error) {
		throw isRateBudgetError(error)
			? budgetExhausted(this.getNode(), requests, projectsSoFar, error.spentBy)
			: nodeErrorOf(this.getNode(), error, { pagingAdvice: PAGING_ADVICE });
	}
}

/** The poll's output: one item per new or updated tender (or per project), null when none. */
export function emittedItems(
	kept: readonly Project[],
	diff: PollDiff,
	parameters: TriggerParameters,
): INodeExecutionData[][] | null {
	const announcements = new Map<string, Announcement>();
	for (const id of diff.newTenderIds) announcements.set(id, { event: 'newTender' });
	for (const { id, changes } of diff.updates) {
		announcements.set(id, { event: 'updatedTender', changes });
	}
	for (const { id, daysLeft, previousQuotesDueAt } of diff.reminders) {
		announcements.set(id, { event: 'quotesDueSoon', daysLeft, previousQuotesDueAt });
	}
	const items = announcedItems(kept, announcements, parameters);
	return items.length === 0 ? null : [items.map((json) => ({ json }))];
}
