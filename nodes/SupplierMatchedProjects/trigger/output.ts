import type { IDataObject } from 'n8n-workflow';

import type { Project, Tender } from '../api/types';
import {
	projectFields,
	simplifyProject,
	simplifyTenderItem,
	type OutputMode,
} from '../projects/items';
import type { TenderChanges, TriggerEvent } from './diff';
import type { TenderSnapshot } from './state';

export type AnnouncedEvent = 'newTender' | 'updatedTender' | 'quotesDueSoon';

export interface Announcement {
	event: AnnouncedEvent;
	/** Only for updatedTender. */
	changes?: TenderChanges;
	/** Only for quotesDueSoon. */
	daysLeft?: number;
	/** Only for quotesDueSoon, when the tender was inside the window before with another date. */
	previousQuotesDueAt?: string | null;
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
	carried: Array<{ tender: Tender; announcement: Announcement }>,
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

/**
 * The items to emit for the announced tenders, in walk order, in the main node's shapes (see
 * projects/items) with an `event` field, `changes` ({ field: { from, to } }) on updates, and
 * `daysLeft` (plus `previousQuotesDueAt` when the date moved) on reminders. A tender listed more
 * than once is announced where it is first listed.
 */
export function announcedItems(
	projects: readonly Project[],
	announcements: ReadonlyMap<string, Announcement>,
	options: OutputOptions,
): IDataObject[] {
	const placed = new Set<string>();
	const items: IDataObject[] = [];
	for (const project of projects) {
		const carried: Array<{ tender: Tender; announcement: Announcement }> = [];
		for (const tender of project.tenders ?? []) {
			const announcement = announcements.get(tender?.id);
			if (announcement === undefined || placed.has(tender.id)) continue;
			placed.add(tender.id);
			carried.push({ tender, announcement });
		}
		if (carried.length === 0) continue;
		if (options.output === 'projects') {
			items.push(projectItem(project, carried, options));
			continue;
		}
		for (const { tender, announcement } of carried) {
			items.push(tenderItem(project, tender, announcement, options));
		}
	}
	return items;
}
