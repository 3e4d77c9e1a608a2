/**
 * What a trigger should emit, worked out independently of the node from the ground truth: the
 * sandbox's complete listing at the moment of each poll that succeeded.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { Project, Tender } from '../../nodes/SupplierMatchedProjects/api/types';

/** The fields whose change is an update, in the API's words; builder by name. */
const WATCHED = ['quotesDueAt', 'status', 'name', 'type', 'builder'] as const;
type Watched = (typeof WATCHED)[number];
/** A tender's watched fields, as the last poll that listed it saw them. */
export type Values = Record<Watched, string | null>;
export type Changes = Partial<Record<Watched, { from: string | null; to: string | null }>>;

/** One announcement, comparable whatever the output shape. */
export interface Announced {
	id: string;
	event: 'newTender' | 'updatedTender' | 'quotesDueSoon';
	changes?: Changes;
	/** Reminders only. */
	daysLeft?: number;
	/** Reminders only: the date of the tender's previous reminder, null on its first. */
	previousQuotesDueAt?: string | null;
}

export function valuesOf(tender: Tender): Values {
	return {
		quotesDueAt: tender.quotesDueAt,
		status: tender.status,
		name: tender.name,
		type: tender.type,
		builder: tender.builder.name,
	};
}

/** The watched fields that differ, each from and to: what an update announces. */
export function changesBetween(before: Values, now: Values): Changes {
	const changes: Changes = {};
	for (const field of WATCHED) {
		if (before[field] !== now[field]) changes[field] = { from: before[field], to: now[field] };
	}
	return changes;
}

function byId(a: Announced, b: Announced): number {
	return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export class Oracle {
	/** Every tender a good poll has listed (and passed the filter), with its values then. */
	private readonly known = new Map<string, Values>();

	constructor(
		private readonly watchUpdates: boolean,
		private readonly passes: (tender: Tender, project: Project) => boolean = () => true,
	) {}

	private listed(projects: Project[]): Tender[] {
		return projects.flatMap((project) =>
			project.tenders.filter((tender) => this.passes(tender, project)),
		);
	}

	/** The activation: what is listed is known, nothing is announced. */
	baseline(projects: Project[]): void {
		for (const tender of this.listed(projects)) this.known.set(tender.id, valuesOf(tender));
	}

	/** What a successful poll over this listing must announce; remembers it. */
	expect(projects: Project[]): Announced[] {
		const announced: Announced[] = [];
		for (const tender of this.listed(projects)) {
			const now = valuesOf(tender);
			const before = this.known.get(tender.id);
			this.known.set(tender.id, now);
			if (before === undefined) {
				announced.push({ id: tender.id, event: 'newTender' });
				continue;
			}
			if (!this.watchUpdates) continue;
			const changes = changesBetween(before, now);
			if (Object.keys(changes).length > 0) {
				announced.push({ id: tender.id, event: 'updatedTender', changes });
			}
		}
		return announced.sort(byId);
	}
}

/** Whole days from one calendar date (YYYY-MM-DD) to another. */
function daysBetween(from: string, to: string): number {
	return Math.round((Date.parse(`${to}T12:00:00Z`) - Date.parse(`${from}T12:00:00Z`)) / 86_400_000);
}

/** The calendar date at this instant in a time zone, as the people there read their calendar. */
export function calendarDateIn(timeZone: string, at: number): string {
	// Sweden writes dates as YYYY-MM-DD.
	return new Date(at).toLocaleDateString('sv-SE', { timeZone });
}

/**
 * Quotes Due Soon, straight from the issue: a listed open tender is announced when its due date is
 * from today to `days` ahead (in the workflow's time zone), once per tender and due date, naming
 * the date of its previous reminder; what is inside the window at activation is not announced.
 */
export class DueSoonOracle {
	/** Every date each tender has been inside the window with, ever. */
	private readonly dates = new Map<string, Set<string>>();
	/** The latest of those, per tender. */
	private readonly last = new Map<string, string>();

	constructor(
		private readonly days: number,
		private readonly timeZone: string,
	) {}

	private inside(projects: Project[], at: number): Array<{ tender: Tender; daysLeft: number }> {
		const today = calendarDateIn(this.timeZone, at);
		const found: Array<{ tender: Tender; daysLeft: number }> = [];
		const seen = new Set<string>();
		for (const tender of projects.flatMap((project) => project.tenders)) {
			if (seen.has(tender.id)) continue;
			seen.add(tender.id);
			if (tender.status !== 'Open' || tender.quotesDueAt === null) continue;
			const daysLeft = daysBetween(today, tender.quotesDueAt);
			if (daysLeft >= 0 && daysLeft <= this.days) found.push({ tender, daysLeft });
		}
		return found;
	}

	private remember(tender: Tender): void {
		const dates = this.dates.get(tender.id) ?? new Set<string>();
		dates.add(tender.quotesDueAt as string);
		this.dates.set(tender.id, dates);
		this.last.set(tender.id, tender.quotesDueAt as string);
	}

	/** The activation at `at`: what is inside the window counts as reminded. */
	baseline(projects: Project[], at: number): void {
		for (const { tender } of this.inside(projects, at)) this.remember(tender);
	}

	/** What a successful poll at `at` over this listing must announce; remembers it. */
	expect(projects: Project[], at: number): Announced[] {
		const announced: Announced[] = [];
		for (const { tender, daysLeft } of this.inside(projects, at)) {
			if (this.dates.get(tender.id)?.has(tender.quotesDueAt as string)) continue;
			announced.push({
				id: tender.id,
				event: 'quotesDueSoon',
				daysLeft,
				previousQuotesDueAt: this.last.get(tender.id) ?? null,
			});
			this.remember(tender);
		}
		return announced.sort(byId);
	}
}

/** The announcements in emitted items: tender items (nested or simplified) or project items. */
export function announcedIn(items: INodeExecutionData[]): Announced[] {
	const announced: Announced[] = [];
	const add = (id: unknown, source: IDataObject) => {
		const entry: Announced = { id: String(id), event: source.event as Announced['event'] };
		if (source.changes !== undefined) entry.changes = source.changes as Changes;
		if (source.event === 'quotesDueSoon') {
			entry.daysLeft = source.daysLeft as number;
			entry.previousQuotesDueAt = (source.previousQuotesDueAt as string | undefined) ?? null;
		}
		announced.push(entry);
	};
	for (const { json } of items) {
		if (Array.isArray(json.tenders)) {
			for (const tender of json.tenders as IDataObject[]) add(tender.id, tender);
		} else {
			add(json.tenderId ?? json.id, json);
		}
	}
	return announced.sort(byId);
}

/**
 * The budget, category, location and builder filters as docs/using-the-nodes.md states them, in
 * the filter parameters' own shape (comma-separated text), written apart from the node's code.
 */
export interface FilterParameters {
	budgetAtLeast?: number;
	budgetAtMost?: number;
	projectsWithoutBudget?: 'keep' | 'drop';
	categories?: string;
	locations?: string;
	builders?: string;
}

function entries(text: string | undefined): string[] {
	return text === undefined ? [] : text.split(',').map((entry) => entry.trim());
}

/** Lower case with the combining accents (U+0300 to U+036F) taken off the decomposed text. */
function plain(text: string): string {
	return text
		.normalize('NFD')
		.replace(/[\u0300-\u036f]/g, '')
		.toLowerCase();
}

export function filterOracle(parameters: FilterParameters) {
	const categories = entries(parameters.categories).map((entry) => entry.toUpperCase());
	const locations = entries(parameters.locations).map(plain);
	const builders = entries(parameters.builders).map(plain);
	const bounded = parameters.budgetAtLeast !== undefined || parameters.budgetAtMost !== undefined;
	const budgetFiltered = bounded || parameters.projectsWithoutBudget === 'drop';

	return (tender: Tender, project: Project): boolean => {
		if (budgetFiltered) {
			if (project.budget === null) {
				if (parameters.projectsWithoutBudget !== 'keep') return false;
			} else {
				// The band [low, high or no end] overlaps [at least or 0, at most or no end].
				const from = Math.max(project.budget.low, parameters.budgetAtLeast ?? 0);
				const to = Math.min(
					project.budget.high ?? Number.POSITIVE_INFINITY,
					parameters.budgetAtMost ?? Number.POSITIVE_INFINITY,
				);
				if (from > to) return false;
			}
		}
		if (categories.length > 0 && !categories.includes(project.category.trim().toUpperCase())) {
			return false;
		}
		if (locations.length > 0 && !locations.some((word) => plain(project.address).includes(word))) {
			return false;
		}
		if (
			builders.length > 0 &&
			!builders.some((word) => plain(tender.builder.name).includes(word))
		) {
			return false;
		}
		return true;
	};
}
