import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { Project, Tender } from '../api/types';
import {
	projectFields,
	simplifyProject,
	simplifyTenderItem,
	type OutputMode,
} from '../projects/items';
import type { PollDiff, TenderChanges, TriggerEvent } from './diff';
import type { ListingTender } from './listing';
import type { TenderSnapshot } from './state';

export type AnnouncedEvent = 'newTender' | 'updatedTender' | 'quotesDueSoon';

interface Announcement {
	event: AnnouncedEvent;
	/** Only for updatedTender. */
	changes?: TenderChanges;
	/** Only for quotesDueSoon. */
	daysLeft?: number;
	/** Only for quotesDueSoon, when the tender was inside the window before with another date. */
	previousQuotesDueAt?: string | null;
}

/** An announced tender and the project it is listed in. */
interface Carried {
	project: Project;
	tender: Tender;
	announcement: Announcement;
}

export interface OutputOptions {
	output: OutputMode;
	simplify: boolean;
	/** The trigger's Event parameter: newOrUpdatedTender adds the change columns to simplified rows. */
	event: TriggerEvent;
}

/** Simplified column of the previous value of each field an update can change. */
const PREVIOUS_COLUMNS: Record<keyof TenderSnapshot, string> = {
	quotesDueAt: 'previousQuotesDueAt',
	status: 'previousTenderStatus',
	name: 'previousTenderName',
	type: 'previousTenderType',
	builder: 'previousBuilderName',
};

/**
 * Spreadsheet rows need the same columns on every row: the change columns are always there when
 * updates are watched, empty for a new tender.
 */
function changeColumns(changes: TenderChanges | undefined): IDataObject {
	const columns: IDataObject = {
		changedFields: Object.keys(changes ?? {}).join('; '),
	};
	for (const [field, column] of Object.entries(PREVIOUS_COLUMNS)) {
		columns[column] = changes?.[field as keyof TenderSnapshot]?.from ?? null;
	}
	return columns;
}

/** A reminder's own fields; the previous date only when there is one. */
function reminderFields(announcement: Announcement): IDataObject {
	const fields: IDataObject = { daysLeft: announcement.daysLeft ?? null };
	if (announcement.previousQuotesDueAt) {
		fields.previousQuotesDueAt = announcement.previousQuotesDueAt;
	}
	return fields;
}

function annotatedTender(tender: Tender, announcement: Announcement): IDataObject {
	if (announcement.event === 'quotesDueSoon') {
		return { event: announcement.event, ...reminderFields(announcement), ...tender };
	}
	return announcement.changes === undefined
		? { event: announcement.event, ...tender }
		: { event: announcement.event, changes: announcement.changes, ...tender };
}

/** Every simplified reminder row has both columns, so spreadsheet columns stay stable. */
function reminderColumns(announcement: Announcement): IDataObject {
	return {
		daysLeft: announcement.daysLeft ?? null,
		previousQuotesDueAt: announcement.previousQuotesDueAt ?? null,
	};
}

function tenderItem(
	project: Project,
	tender: Tender,
	announcement: Announcement,
	options: OutputOptions,
): IDataObject {
	const item = { ...tender, project: projectFields(project) };
	if (!options.simplify) return annotatedTender(item, announcement);
	const extra =
		options.event === 'newOrUpdatedTender'
			? changeColumns(announcement.changes)
			: options.event === 'quotesDueSoon'
				? reminderColumns(announcement)
				: {};
	return { event: announcement.event, ...simplifyTenderItem(item), ...extra };
}

function projectItem(
	project: Project,
	carried: readonly Carried[],
	options: OutputOptions,
): IDataObject {
	const newCount = carried.filter(({ announcement }) => announcement.event === 'newTender').length;
	// A project item is about new tenders when it brings any; each tender says its own event.
	const event: AnnouncedEvent =
		options.event === 'quotesDueSoon'
			? 'quotesDueSoon'
			: newCount > 0
				? 'newTender'
				: 'updatedTender';
	if (!options.simplify) {
		return {
			event,
			...project,
			tenders: carried.map(({ tender, announcement }) => annotatedTender(tender, announcement)),
		};
	}
	// A reminder row says how soon its most urgent tender closes, the figure a sales team sorts by.
	const counts =
		options.event === 'newOrUpdatedTender'
			? { newTenderCount: newCount, updatedTenderCount: carried.length - newCount }
			: options.event === 'quotesDueSoon'
				? {
						daysLeft: Math.min(
							...carried.map(({ announcement }) => announcement.daysLeft ?? Infinity),
						),
					}
				: {};
	return {
		event,
		...simplifyProject({ ...project, tenders: carried.map(({ tender }) => tender) }),
		...counts,
	};
}

/** What a diff announces: its new tenders, updates and reminders. */
export type Announced = Pick<PollDiff, 'newTenderIds' | 'updates' | 'reminders'>;

function announcementsOf(announced: Announced): Map<string, Announcement> {
	const announcements = new Map<string, Announcement>();
	for (const id of announced.newTenderIds) announcements.set(id, { event: 'newTender' });
	for (const { id, changes } of announced.updates) {
		announcements.set(id, { event: 'updatedTender', changes });
	}
	for (const { id, daysLeft, previousQuotesDueAt } of announced.reminders) {
		announcements.set(id, { event: 'quotesDueSoon', daysLeft, previousQuotesDueAt });
	}
	return announcements;
}

/**
 * The items to emit for the announced tenders, in walk order, in the main node's shapes (see
 * projects/items) with an `event` field, `changes` ({ field: { from, to } }) on updates, and
 * `daysLeft` (plus `previousQuotesDueAt` when the date moved) on reminders. Each tender is in the
 * project the listing first listed it in.
 */
export function announcedItems(
	listed: readonly ListingTender[],
	announced: Announced,
	options: OutputOptions,
): IDataObject[] {
	const announcements = announcementsOf(announced);
	const carried: Carried[] = [];
	for (const { id, project, tender } of listed) {
		const announcement = announcements.get(id);
		if (announcement !== undefined) carried.push({ project, tender, announcement });
	}
	if (options.output === 'tenders') {
		return carried.map(({ project, tender, announcement }) =>
			tenderItem(project, tender, announcement, options),
		);
	}
	return byProject(carried).map((run) => projectItem(run[0].project, run, options));
}

/** A project's tenders are listed one after another: each run is one project's. */
function byProject(carried: readonly Carried[]): Carried[][] {
	const runs: Carried[][] = [];
	for (const entry of carried) {
		const run = runs[runs.length - 1];
		if (run !== undefined && run[0].project === entry.project) run.push(entry);
		else runs.push([entry]);
	}
	return runs;
}

/** The poll's output: one item per announced tender (or per project), null when none. */
export function emittedItems(
	listed: readonly ListingTender[],
	announced: Announced,
	options: OutputOptions,
): INodeExecutionData[][] | null {
	const items = announcedItems(listed, announced, options);
	return items.length === 0 ? null : [items.map((json) => ({ json }))];
}
