import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { nodeErrorOf } from '../actions/errors';
import { checkedCompanyId, checkedFilters, checkedOutput } from '../actions/parameters';
import type { Project } from '../api/types';
import { filterProjects, type OutputMode, type ProjectFilters } from '../helpers/items';
import { collectProjects, MAX_PAGE_SIZE, walkPages, type FetchPage } from '../helpers/paging';
import { freeRequests, isRateBudgetError, requestResultsPage } from '../transport';
import { budgetExhausted, budgetRefusal } from './budget';
import type { PollDiff, TriggerEvent } from './diff';
import { passesOnItsOwn } from './failures';
import { announcedItems, type Announcement } from './output';
import type { TriggerState } from './state';

/**
 * The trigger's fetching, for the trigger class to call: it reads the parameters, walks the
 * results and turns what is new into items, while the class keeps the state.
 */

const EVENTS: readonly TriggerEvent[] = ['newTender', 'newOrUpdatedTender'];

/** "Fetch Test Event" shows this many items at most. */
const SAMPLE_SIZE = 5;

const PAGING_ADVICE = 'The trigger tries again on its next poll.';

export interface TriggerParameters {
	companyId: string;
	event: TriggerEvent;
	output: OutputMode;
	simplify: boolean;
	filters: ProjectFilters;
	emitOpenOnFirstRun: boolean;
}

export function readTriggerParameters(this: IPollFunctions): TriggerParameters {
	const node = this.getNode();
	const companyId = checkedCompanyId(node, this.getNodeParameter('companyId') as string);
	const event = this.getNodeParameter('event', 'newTender') as TriggerEvent;
	if (!EVENTS.includes(event)) {
		throw new NodeOperationError(
			node,
			`Event must be "newTender" or "newOrUpdatedTender" (got ${JSON.stringify(event)})`,
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
		emitOpenOnFirstRun: options.emitOpenOnFirstRun === true,
	};
}

function pagesOf(context: IPollFunctions, companyId: string): FetchPage {
	return async (page) => await requestResultsPage.call(context, companyId, page);
}

/** What "Fetch Test Event" shows: the first few matching tenders, announced as new. */
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
	let items: IDataObject[] = [];
	// Stops at the first page that fills the sample: the fewest requests for a test event.
	for await (const data of walkPages(fetchPage, () => MAX_PAGE_SIZE)) {
		for (const project of filterProjects(data, parameters.filters, today)) {
			found.push(project);
			for (const tender of project.tenders ?? []) {
				announcements.set(tender.id, { event: 'newTender' });
			}
		}
		items = announcedItems(found, announcements, parameters);
		if (items.length >= SAMPLE_SIZE) break;
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
		if (previous?.projectCount !== undefined) {
			await checkBudget.call(this, previous.projectCount);
		}
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
	const refusal = budgetRefusal(this.getNode(), previousProjectCount, await freeRequests(this));
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
		return await collectProjects(counted, {});
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
	const items = announcedItems(kept, announcements, parameters);
	return items.length === 0 ? null : [items.map((json) => ({ json }))];
}
