import type { Project, ProjectStatus, Tender, TenderType } from '../api/types';
import {
	counted,
	MAX_BUDGET,
	MAX_DAYS,
	MAX_ENTRY_LENGTH,
	MAX_LIST_ENTRIES,
	quoted,
} from './bounds';
import { addDays } from './dates';
import { isObject, listOf } from './values';

/**
 * The filters both nodes apply to what the API returns (the API itself has none). A project
 * filter keeps or drops a project with all its tenders; a tender filter keeps the tenders that
 * pass, and their project when any does. Kinds combine with AND, values of one kind with OR.
 */

export const TENDER_TYPES: readonly TenderType[] = ['Tender', 'Procurement'];
export const PROJECT_STATUSES: readonly ProjectStatus[] = ['Active', 'Closed'];

export type WithoutBudget = 'keep' | 'drop';
export const WITHOUT_BUDGET: readonly WithoutBudget[] = ['keep', 'drop'];

export interface ProjectFilters {
	/** Keep the projects with these IDs (exact). */
	projectIds?: string[];
	/** Keep tenders of these types. */
	tenderTypes?: TenderType[];
	/** Keep projects with these statuses. */
	projectStatuses?: ProjectStatus[];
	/** Keep tenders whose quotes are due from today up to this many days ahead. */
	quotesDueWithinDays?: number;
	/** Keep tenders that matched one of these keywords (case-insensitive). */
	matchedKeywords?: string[];
	/** Keep projects whose budget band reaches this many dollars (its top end is at least this). */
	budgetAtLeast?: number;
	/** Keep projects whose budget band starts at or below this many dollars. */
	budgetAtMost?: number;
	/** What becomes of a project without a budget; a budget bound alone drops it. */
	withoutBudget?: WithoutBudget;
	/** Keep projects in one of these categories (case and surrounding spaces aside). */
	categories?: string[];
	/** Keep projects whose address contains one of these words (case and accents aside). */
	locations?: string[];
	/** Keep tenders whose lead builder's name contains one of these words (case and accents aside). */
	builders?: string[];
}

/** A filter value the user gave cannot be applied; the message says what to enter instead. */
export class FilterError extends Error {}

/** Text compared without regard to case or accents: "Café" and "CAFE" fold alike. */
export function folded(text: string): string {
	return text.trim().normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/** Categories are compared whole, without regard to case and surrounding spaces. */
export function categoryKey(category: string): string {
	return category.trim().toLowerCase();
}

/**
 * What the budget filter does with a project without a budget, or undefined when no budget filter
 * is set: a bound alone drops it (it cannot be shown to be in range), "keep" alone filters nothing.
 */
export function withoutBudgetRule(filters: ProjectFilters): WithoutBudget | undefined {
	if (filters.budgetAtLeast === undefined && filters.budgetAtMost === undefined) {
		return filters.withoutBudget === 'drop' ? 'drop' : undefined;
	}
	return filters.withoutBudget ?? 'drop';
}

export function hasFilters(filters: ProjectFilters): boolean {
	return (
		(filters.projectIds?.length ?? 0) > 0 ||
		(filters.tenderTypes?.length ?? 0) > 0 ||
		(filters.projectStatuses?.length ?? 0) > 0 ||
		filters.quotesDueWithinDays !== undefined ||
		(filters.matchedKeywords?.length ?? 0) > 0 ||
		withoutBudgetRule(filters) !== undefined ||
		(filters.categories?.length ?? 0) > 0 ||
		(filters.locations?.length ?? 0) > 0 ||
		(filters.builders?.length ?? 0) > 0
	);
}

/**
 * Whether a project's banded budget overlaps the range asked for: its top end (none when
 * `high` is null) is at least Budget At Least, and its bottom end at most Budget At Most. A
 * band only partly inside the range passes, since the project's value may be inside it.
 */
export function budgetPasses(budget: unknown, filters: ProjectFilters): boolean {
	if (!isObject(budget) || typeof budget.low !== 'number' || !Number.isFinite(budget.low)) {
		return withoutBudgetRule(filters) === 'keep';
	}
	const high = typeof budget.high === 'number' ? budget.high : Infinity;
	if (filters.budgetAtLeast !== undefined && high < filters.budgetAtLeast) return false;
	if (filters.budgetAtMost !== undefined && budget.low > filters.budgetAtMost) return false;
	return true;
}

function containsAny(text: unknown, words: readonly string[]): boolean {
	if (typeof text !== 'string') return false;
	const haystack = folded(text);
	return words.some((word) => haystack.includes(word));
}

/** The filters with every word folded once, for one pass over many projects. */
function matcherOf(filters: ProjectFilters, today: string) {
	const projectIds = new Set(listOf(filters.projectIds));
	const keywords = new Set(listOf(filters.matchedKeywords).map(categoryKey));
	const categories = new Set(listOf(filters.categories).map(categoryKey));
	const locations = listOf(filters.locations).map(folded);
	const builders = listOf(filters.builders).map(folded);
	const lastDue =
		filters.quotesDueWithinDays === undefined
			? undefined
			: addDays(today, filters.quotesDueWithinDays);
	const budget = withoutBudgetRule(filters) !== undefined;

	const projectPasses = (project: Project): boolean => {
		if (projectIds.size > 0 && !projectIds.has(project.projectId)) return false;
		if (filters.projectStatuses?.length && !filters.projectStatuses.includes(project.status)) {
			return false;
		}
		if (budget && !budgetPasses(project.budget, filters)) return false;
		if (categories.size > 0) {
			if (typeof project.category !== 'string' || !categories.has(categoryKey(project.category))) {
				return false;
			}
		}
		if (locations.length > 0 && !containsAny(project.address, locations)) return false;
		return true;
	};

	const tenderPasses = (tender: Tender): boolean => {
		if (!isObject(tender)) return false;
		if (filters.tenderTypes?.length && !filters.tenderTypes.includes(tender.type)) return false;
		if (lastDue !== undefined) {
			const due = tender.quotesDueAt;
			if (typeof due !== 'string' || due < today || due > lastDue) return false;
		}
		if (keywords.size > 0) {
			const matched = listOf(tender.matchedKeywords).some(
				(keyword) => typeof keyword === 'string' && keywords.has(categoryKey(keyword)),
			);
			if (!matched) return false;
		}
		if (builders.length > 0) {
			const builder = isObject(tender.builder) ? tender.builder.name : undefined;
			if (!containsAny(builder, builders)) return false;
		}
		return true;
	};

	return { projectPasses, tenderPasses };
}

/**
 * Keeps the projects that pass the project filters and still have a tender that passes the tender
 * filters. A kept project lists only its passing tenders; it is returned unchanged when all pass.
 */
export function filterProjects(
	projects: Project[],
	filters: ProjectFilters,
	today: string,
): Project[] {
	if (!hasFilters(filters)) return projects;
	const { projectPasses, tenderPasses } = matcherOf(filters, today);
	const kept: Project[] = [];
	for (const project of projects) {
		if (!projectPasses(project)) continue;
		const tenders = listOf(project.tenders);
		const passing = tenders.filter(tenderPasses);
		if (passing.length === 0) continue;
		kept.push(passing.length === tenders.length ? project : { ...project, tenders: passing });
	}
	return kept;
}

// ---- reading the Filters collection ----

function given(value: unknown): boolean {
	return value !== undefined && value !== null && value !== '';
}

function allowedValues<T extends string>(
	value: unknown,
	allowed: readonly T[],
	label: string,
): T[] | undefined {
	if (!given(value)) return undefined;
	const values = Array.isArray(value) ? value : [value];
	const wrong = values.filter((entry) => !allowed.includes(entry as T));
	if (wrong.length > 0) {
		const named = wrong.slice(0, 3).map(quoted).join(', ');
		const more = wrong.length > 3 ? ` and ${counted(wrong.length - 3)} more` : '';
		throw new FilterError(`${label} filter: ${named}${more} is not one of ${allowed.join(', ')}`);
	}
	return values.length > 0 ? (values as T[]) : undefined;
}

function dollars(value: unknown, label: string): number | undefined {
	if (!given(value)) return undefined;
	if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > MAX_BUDGET) {
		throw new FilterError(
			`${label} filter: enter a number of dollars from 0 to ${counted(MAX_BUDGET)} (a trillion), without "$" or commas (got ${quoted(value)})`,
		);
	}
	return value;
}

/** A list within its bounds: so many entries, each so long. */
function bounded(words: string[], label: string, what: string): string[] {
	if (words.length > MAX_LIST_ENTRIES) {
		throw new FilterError(
			`${label} filter: ${counted(words.length)} entries are more than the ${MAX_LIST_ENTRIES} a filter takes; enter fewer ${what}`,
		);
	}
	const long = words.find((word) => word.length > MAX_ENTRY_LENGTH);
	if (long !== undefined) {
		throw new FilterError(
			`${label} filter: the entry ${quoted(long)} is longer than ${MAX_ENTRY_LENGTH} characters; enter ${what} of at most ${MAX_ENTRY_LENGTH} characters each, separated by commas`,
		);
	}
	return words;
}

/**
 * A comma-separated list of words. A blank value is no filter, as for Matched Keywords; an empty
 * entry inside a list is refused, since it would match everything or nothing depending on reading.
 */
function wordList(value: unknown, label: string, what: string): string[] | undefined {
	if (value === undefined || value === null) return undefined;
	if (typeof value !== 'string') {
		throw new FilterError(
			`${label} filter: enter ${what} separated by commas (got ${quoted(value)})`,
		);
	}
	if (value.trim() === '') return undefined;
	const words = value.split(',').map((word) => word.trim());
	if (words.some((word) => word === '')) {
		throw new FilterError(
			`${label} filter: ${quoted(value)} has an empty entry; remove the extra comma or enter ${what} between the commas`,
		);
	}
	return bounded(words, label, what);
}

/** Reads the Filters collection as the node receives it, checking every value. */
export function parseFilters(raw: Record<string, unknown> | undefined): ProjectFilters {
	const filters: ProjectFilters = {};
	if (raw === undefined) return filters;
	const projectIds = wordList(raw.projectIds, 'Project IDs', 'project IDs');
	if (projectIds) filters.projectIds = projectIds;
	const tenderTypes = allowedValues(raw.tenderTypes, TENDER_TYPES, 'Tender Type');
	if (tenderTypes) filters.tenderTypes = tenderTypes;
	const projectStatuses = allowedValues(raw.projectStatuses, PROJECT_STATUSES, 'Project Status');
	if (projectStatuses) filters.projectStatuses = projectStatuses;
	const days = raw.quotesDueWithinDays;
	if (given(days)) {
		if (typeof days !== 'number' || !Number.isInteger(days) || days < 0 || days > MAX_DAYS) {
			throw new FilterError(
				`Quotes Due Within (Days) filter: enter a whole number of days from 0 to ${MAX_DAYS} (ten years) (got ${quoted(days)})`,
			);
		}
		filters.quotesDueWithinDays = days;
	}
	const keywords = raw.matchedKeywords;
	if (keywords !== undefined && keywords !== null) {
		if (typeof keywords !== 'string') {
			throw new FilterError(
				`Matched Keywords filter: enter keywords separated by commas (got ${quoted(keywords)})`,
			);
		}
		const list = keywords
			.split(',')
			.map((keyword) => keyword.trim())
			.filter((keyword) => keyword !== '');
		if (list.length > 0) filters.matchedKeywords = bounded(list, 'Matched Keywords', 'keywords');
	}
	readBudget(raw, filters);
	const categories = wordList(raw.categories, 'Category', 'categories');
	if (categories) filters.categories = categories;
	const locations = wordList(raw.locations, 'Location', 'words or postcodes');
	if (locations) filters.locations = locations;
	const builders = wordList(raw.builders, 'Builder', 'words of builder names');
	if (builders) filters.builders = builders;
	return filters;
}

function readBudget(raw: Record<string, unknown>, filters: ProjectFilters): void {
	const atLeast = dollars(raw.budgetAtLeast, 'Budget At Least');
	const atMost = dollars(raw.budgetAtMost, 'Budget At Most');
	if (atLeast !== undefined && atMost !== undefined && atLeast > atMost) {
		throw new FilterError(
			`Budget filters: Budget At Least (${atLeast}) is more than Budget At Most (${atMost}); lower Budget At Least or raise Budget At Most`,
		);
	}
	const without = raw.projectsWithoutBudget;
	if (given(without) && !WITHOUT_BUDGET.includes(without as WithoutBudget)) {
		throw new FilterError(
			`Projects Without Budget filter: ${quoted(without)} is not one of ${WITHOUT_BUDGET.join(', ')}`,
		);
	}
	if (atLeast !== undefined) filters.budgetAtLeast = atLeast;
	if (atMost !== undefined) filters.budgetAtMost = atMost;
	if (given(without)) filters.withoutBudget = without as WithoutBudget;
}
