import { createHash } from 'crypto';

import type { Project } from '../api/types';
import type { ProjectFilters } from '../helpers/items';
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

function sortedLowerCase(values: readonly string[] | undefined): string[] {
	return [...new Set((values ?? []).map((value) => value.trim().toLowerCase()))].sort();
}

/**
 * A short fingerprint of what the walk selects. Equivalent filters (order, case, repeats) give the
 * same fingerprint, so reordering them does not start a new baseline.
 */
export function scopeOf(companyId: string, filters: ProjectFilters): string {
	const selection = [
		companyId,
		sortedLowerCase(filters.tenderTypes),
		sortedLowerCase(filters.projectStatuses),
		filters.quotesDueWithinDays ?? null,
		sortedLowerCase(filters.matchedKeywords),
	];
	return createHash('sha256').update(JSON.stringify(selection)).digest('base64url').slice(0, 12);
}
