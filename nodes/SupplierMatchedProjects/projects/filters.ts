import type { Project, ProjectStatus, Tender, TenderType } from '../api/types';
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
