/**
 * What a trigger should emit, worked out independently of the node from the ground truth: the
 * sandbox's complete listing at the moment of each poll that succeeded.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { Project, Tender } from '../../nodes/SupplierMatchedProjects/api/types';

/** The fields whose change is an update, in the API's words; builder by name. */
const WATCHED = ['quotesDueAt', 'status', 'name', 'type', 'builder'] as const;
type Watched = (typeof WATCHED)[number];
type Values = Record<Watched, string | null>;
export type Changes = Partial<Record<Watched, { from: string | null; to: string | null }>>;

/** One announcement, comparable whatever the output shape. */
export interface Announced {
	id: string;
	event: 'newTender' | 'updatedTender';
	changes?: Changes;
}

function valuesOf(tender: Tender): Values {
	return {
		quotesDueAt: tender.quotesDueAt,
		status: tender.status,
		name: tender.name,
		type: tender.type,
		builder: tender.builder.name,
	};
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
			const changes: Changes = {};
			for (const field of WATCHED) {
				if (before[field] !== now[field]) changes[field] = { from: before[field], to: now[field] };
			}
			if (Object.keys(changes).length > 0) {
				announced.push({ id: tender.id, event: 'updatedTender', changes });
			}
		}
		return announced.sort(byId);
	}
}

/** The announcements in emitted items: tender items (nested or simplified) or project items. */
export function announcedIn(items: INodeExecutionData[]): Announced[] {
	const announced: Announced[] = [];
	const add = (id: unknown, event: unknown, changes: unknown) => {
		const entry: Announced = { id: String(id), event: event as Announced['event'] };
		if (changes !== undefined) entry.changes = changes as Changes;
		announced.push(entry);
	};
	for (const { json } of items) {
		if (Array.isArray(json.tenders)) {
			for (const tender of json.tenders as IDataObject[])
				add(tender.id, tender.event, tender.changes);
		} else {
			add(json.tenderId ?? json.id, json.event, json.changes);
		}
	}
	return announced.sort(byId);
}

/**
 * The budget, category, location and builder filters as the README states them, in the filter
 * parameters' own shape (comma-separated text), written apart from the node's code.
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
