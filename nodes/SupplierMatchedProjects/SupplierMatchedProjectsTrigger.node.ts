import type {
	IDataObject,
	INode,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeApiError, NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import type { Project } from './api/types';
import {
	companyIdProperty,
	filtersProperty,
	outputProperty,
	simplifyProperty,
} from './descriptions';
import {
	FilterError,
	filterProjects,
	OUTPUT_MODES,
	parseFilters,
	todayIn,
	type OutputMode,
	type ProjectFilters,
} from './helpers/items';
import {
	collectProjects,
	MAX_PAGE_SIZE,
	PagingError,
	walkPages,
	type FetchPage,
} from './helpers/paging';
import { companyIdProblem, freeRequests, isRateBudgetError, requestResultsPage } from './transport';
import { budgetExhausted, budgetRefusal } from './trigger/budget';
import { diffPoll, type TriggerEvent } from './trigger/diff';
import { passesOnItsOwn } from './trigger/failures';
import { listedTenders, scopeOf } from './trigger/listing';
import { announcedItems, type Announcement } from './trigger/output';
import { dayOf, readTriggerState, writeTriggerState } from './trigger/state';

const EVENTS: readonly TriggerEvent[] = ['newTender', 'newOrUpdatedTender'];

/** "Fetch Test Event" shows this many items at most. */
const SAMPLE_SIZE = 5;

/**
 * Static data objects this process has already written. One that is not among them was just read
 * from the database (activation, restart, workflow update), so the polls since its last save are
 * unknown: the state is told, and keeps every remembered tender for a full retention period.
 */
const statesWrittenHere = new WeakSet<object>();

interface TriggerParameters {
	companyId: string;
	event: TriggerEvent;
	output: OutputMode;
	simplify: boolean;
	filters: ProjectFilters;
	emitOpenOnFirstRun: boolean;
}

function readParameters(this: IPollFunctions): TriggerParameters {
	const node = this.getNode();
	const companyId = this.getNodeParameter('companyId') as string;
	const problem = companyIdProblem(companyId);
	if (problem !== undefined) throw new NodeOperationError(node, problem, { level: 'warning' });
	const event = this.getNodeParameter('event', 'newTender') as TriggerEvent;
	if (!EVENTS.includes(event)) {
		throw new NodeOperationError(
			node,
			`Event must be "newTender" or "newOrUpdatedTender" (got ${JSON.stringify(event)})`,
		);
	}
	const output = this.getNodeParameter('output', 'tenders') as OutputMode;
	if (!OUTPUT_MODES.includes(output)) {
		throw new NodeOperationError(
			node,
			`Output must be "projects" or "tenders" (got ${JSON.stringify(output)})`,
		);
	}
	let filters: ProjectFilters;
	try {
		filters = parseFilters(this.getNodeParameter('filters', {}) as IDataObject);
	} catch (error) {
		if (error instanceof FilterError) {
			throw new NodeOperationError(node, error.message, { level: 'warning' });
		}
		throw new NodeOperationError(node, error as Error);
	}
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

/** Refuses a walk the rate budget cannot carry, before anything is sent. */
async function checkBudget(this: IPollFunctions, previousProjectCount: number): Promise<void> {
	const refusal = budgetRefusal(this.getNode(), previousProjectCount, await freeRequests(this));
	if (refusal !== undefined) throw refusal;
}

function asNodeError(node: INode, error: unknown): Error {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	if (error instanceof PagingError) {
		return new NodeApiError(
			node,
			{ message: error.message },
			{
				message: error.message,
				description:
					'The service sent paging information that cannot be followed. The trigger tries again on its next poll.',
			},
		);
	}
	return new NodeOperationError(node, error as Error);
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
			? budgetExhausted(this.getNode(), requests, projectsSoFar)
			: asNodeError(this.getNode(), error);
	}
}

/** Replaces the node's static data key by key, which is how n8n notices that it changed. */
function replaceStaticData(staticData: IDataObject, next: IDataObject): void {
	for (const key of Object.keys(staticData)) if (!(key in next)) delete staticData[key];
	Object.assign(staticData, next);
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

export class SupplierMatchedProjectsTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Supplier Matched Projects Trigger',
		name: 'supplierMatchedProjectsTrigger',
		icon: {
			light: 'file:supplierMatchedProjects.svg',
			dark: 'file:supplierMatchedProjects.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle:
			'={{$parameter["event"] === "newOrUpdatedTender" ? "New or updated tender" : "New tender"}}',
		description:
			"Starts the workflow when a tender opens that matches a supplier company's keywords",
		defaults: {
			name: 'Supplier Matched Projects Trigger',
		},
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'supplierMatchedProjectsApi',
				required: true,
			},
		],
		properties: [
			companyIdProperty,
			{
				displayName: 'Event',
				name: 'event',
				type: 'options',
				options: [
					{
						name: 'New Tender',
						value: 'newTender',
						description: "A tender opens that matches the supplier's keywords",
					},
					{
						name: 'New or Updated Tender',
						value: 'newOrUpdatedTender',
						description:
							'Also when a known tender changes its quotes due date, status, name, type or builder; the item says what changed, from what to what',
					},
				],
				default: 'newTender',
			},
			{
				...outputProperty,
				options: [
					{
						name: 'Projects',
						value: 'projects',
						description: 'One item per project, carrying only its new or updated tenders',
					},
					{
						name: 'Tenders',
						value: 'tenders',
						description: "One item per tender, with its project's fields under project",
					},
				],
				default: 'tenders',
			},
			simplifyProperty,
			filtersProperty,
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Emit Open Tenders on First Run',
						name: 'emitOpenOnFirstRun',
						type: 'boolean',
						default: false,
						description:
							'Whether the first poll after activation emits the tenders open now, once. Off: it only records them and waits for new ones.',
					},
				],
			},
		],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const node = this.getNode();
		const parameters = readParameters.call(this);
		const today = todayIn(this.getTimezone());
		const fetchPage: FetchPage = async (page) =>
			await requestResultsPage.call(this, parameters.companyId, page);

		if (this.getMode() === 'manual') {
			try {
				return await sample.call(this, parameters, fetchPage, today);
			} catch (error) {
				throw asNodeError(node, error);
			}
		}

		const staticData = this.getWorkflowStaticData('node');
		const read = readTriggerState(staticData);
		if (read.kind === 'unreadable') {
			this.logger.warn(
				`Supplier Matched Projects Trigger "${node.name}" cannot read its saved state (${read.reason}); it records the open tenders as a new baseline`,
			);
		}
		const previous = read.kind === 'state' ? read.state : undefined;

		let projects: Project[];
		try {
			if (previous?.projectCount !== undefined) {
				await checkBudget.call(this, previous.projectCount);
			}
			projects = await walkAll.call(this, fetchPage);
		} catch (error) {
			// The state is untouched: the tenders this poll missed come with the next good one.
			if (previous === undefined || !passesOnItsOwn(error)) throw asNodeError(node, error);
			this.logger.warn(
				`Supplier Matched Projects Trigger "${node.name}" skipped a poll: ${(error as Error).message}. Nothing was emitted; the next poll catches up.`,
			);
			return null;
		}

		const kept = filterProjects(projects, parameters.filters, today);
		const diff = diffPoll({
			previous,
			scope: scopeOf(parameters.companyId, parameters.filters),
			today: dayOf(Date.now()),
			loadedFromStorage: !statesWrittenHere.has(staticData),
			listed: listedTenders(kept),
			projectCount: projects.length,
			event: parameters.event,
			emitOpenOnFirstRun: parameters.emitOpenOnFirstRun,
		});
		replaceStaticData(staticData, writeTriggerState(diff.next));
		statesWrittenHere.add(staticData);

		const announcements = new Map<string, Announcement>();
		for (const id of diff.newTenderIds) announcements.set(id, { event: 'newTender' });
		for (const { id, changes } of diff.updates) {
			announcements.set(id, { event: 'updatedTender', changes });
		}
		const items = announcedItems(kept, announcements, parameters);
		return items.length === 0 ? null : [items.map((json) => ({ json }))];
	}
}
