import {
	counted,
	MAX_BUDGET,
	MAX_DAYS,
	MAX_ENTRY_LENGTH,
	MAX_LIST_ENTRIES,
	quoted,
} from '../projects/bounds';
import {
	PROJECT_STATUSES,
	TENDER_TYPES,
	WITHOUT_BUDGET,
	type ProjectFilters,
	type WithoutBudget,
} from '../projects/filters';
import { numberOf, wholeNumberIn } from './readers';

/**
 * The Filters collection read as the node receives it, every value checked: a number may come as
 * text written plainly ("7"), as the other number parameters take it.
 */

/** A filter value the user gave cannot be applied; the message says what to enter instead. */
export class FilterError extends Error {}

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

/** A budget bound read from the Filters: a number of dollars, or unset. */
function readDollars(value: unknown, label: string): number | undefined {
	if (!given(value)) return undefined;
	const amount = numberOf(value);
	if (amount === undefined || !Number.isFinite(amount) || amount < 0 || amount > MAX_BUDGET) {
		throw new FilterError(
			`${label} filter: enter a number of dollars from 0 to ${counted(MAX_BUDGET)} (a trillion), without "$" or commas (got ${quoted(value)})`,
		);
	}
	return amount;
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
		const within = wholeNumberIn(days, { min: 0, max: MAX_DAYS });
		if (within === undefined) {
			throw new FilterError(
				`Quotes Due Within (Days) filter: enter a whole number of days from 0 to ${MAX_DAYS} (ten years) (got ${quoted(days)})`,
			);
		}
		filters.quotesDueWithinDays = within;
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
	const atLeast = readDollars(raw.budgetAtLeast, 'Budget At Least');
	const atMost = readDollars(raw.budgetAtMost, 'Budget At Most');
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
