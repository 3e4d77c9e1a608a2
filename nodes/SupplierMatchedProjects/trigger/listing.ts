import { createHash } from 'crypto';

import type { Project } from '../api/types';
import { categoryKey, folded, withoutBudgetRule, type ProjectFilters } from '../helpers/filters';
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
			listed.push({
				id: tender.id,
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
 * A short fingerprint of what the walk selects. Equivalent filters (order, case, repeats, and
 * accents where the filter ignores them) give the same fingerprint, so rewording them does not
 * start a new baseline.
 */
export function scopeOf(companyId: string, filters: ProjectFilters): string {
	const selection: unknown[] = [
		companyId,
		sortedKeys(filters.tenderTypes),
		sortedKeys(filters.projectStatuses),
		filters.quotesDueWithinDays ?? null,
		sortedKeys(filters.matchedKeywords),
	];
	// Later filters join the fingerprint only when set, so a trigger saved before they existed
	// keeps its fingerprint, and its baseline, across the upgrade.
	const later = {
		budgetAtLeast: filters.budgetAtLeast,
		budgetAtMost: filters.budgetAtMost,
		withoutBudget: withoutBudgetRule(filters),
		categories: filters.categories?.length ? sortedKeys(filters.categories) : undefined,
		locations: filters.locations?.length ? sortedKeys(filters.locations, folded) : undefined,
		builders: filters.builders?.length ? sortedKeys(filters.builders, folded) : undefined,
	};
	if (Object.values(later).some((value) => value !== undefined)) selection.push(later);
	return createHash('sha256').update(JSON.stringify(selection)).digest('base64url').slice(0, 12);
}
