import { createHash } from 'crypto';

import type { Project } from '../api/types';
import { isoDateToDay } from '../projects/dates';
import { categoryKey, folded, withoutBudgetRule, type ProjectFilters } from '../projects/filters';
import type { ListedTender } from './diff';

/**
 * The tenders of a walk (already filtered), once per tender id, in walk order. The first listing
 * of an id wins, so the outcome does not depend on how often a project repeats a tender.
 */
export function listedTenders(projects: readonly Project[]): ListedTender[] {
	const listed: ListedTender[] = [];
	const seen = new Set<string>();
	for (const project of projects) {
		for (const tender of project.tenders ?? []) {
			if (typeof tender?.id !== 'string' || seen.has(tender.id)) continue;
			seen.add(tender.id);
			const openedDay =
				typeof tender.tenderOpenAt === 'string' ? isoDateToDay(tender.tenderOpenAt) : undefined;
			listed.push({
				id: tender.id,
				...(openedDay === undefined ? {} : { openedDay }),
				snapshot: {
					quotesDueAt: tender.quotesDueAt ?? null,
					status: tender.status,
					name: tender.name,
					type: tender.type,
					builder: tender.builder?.name ?? '',
				},
			});
		}
	}
	return listed;
}

function sortedKeys(values: readonly string[] | undefined, key = categoryKey): string[] {
	return [...new Set((values ?? []).map(key))].sort();
}

/**
 * Each filter as the fingerprint sees it: values the filter treats alike (order, case, repeats,
 * and accents where the filter ignores them) give the same key. A filter missing here would not
 * start a new baseline when changed, so the type asks for every one.
 */
const SCOPE_KEYS: {
	[Name in keyof Required<ProjectFilters>]: (filters: ProjectFilters) => unknown;
} = {
	tenderTypes: (filters) => sortedKeys(filters.tenderTypes),
	projectStatuses: (filters) => sortedKeys(filters.projectStatuses),
	quotesDueWithinDays: (filters) => filters.quotesDueWithinDays,
	matchedKeywords: (filters) => sortedKeys(filters.matchedKeywords),
	budgetAtLeast: (filters) => filters.budgetAtLeast,
	budgetAtMost: (filters) => filters.budgetAtMost,
	withoutBudget: withoutBudgetRule,
	categories: (filters) => sortedKeys(filters.categories),
	locations: (filters) => sortedKeys(filters.locations, folded),
	builders: (filters) => sortedKeys(filters.builders, folded),
	// IDs are matched exactly, so only order and repeats are alike.
	projectIds: (filters) => sortedKeys(filters.projectIds, (id) => id),
};

/** A short fingerprint of what the walk selects: equivalent filters give the same one. */
export function scopeOf(companyId: string, filters: ProjectFilters): string {
	const selection = Object.entries(SCOPE_KEYS).map(([name, key]) => [name, key(filters) ?? null]);
	return createHash('sha256')
		.update(JSON.stringify([companyId, selection]))
		.digest('base64url')
		.slice(0, 12);
}
