import type { Project, Tender } from '../../api/types';
import { counted, cut } from '../../projects/bounds';
import { isoDateToDay } from '../../projects/dates';
import { withoutBudgetRule, type ProjectFilters } from '../../projects/filters';
import { builderOf, LIST_SEPARATOR, partyNames, type FlatValue } from '../../projects/items';
import type { FailureKind } from '../../transport/errors';
import {
	MAX_TOOL_LIMIT,
	PROJECT_ANSWER_FIELDS,
	TENDER_ANSWER_FIELDS,
	type AnswerField,
	type ProjectAnswerField,
	type TenderAnswerField,
} from '../../parameters/tool';
import { isObject, listOf } from '../../projects/values';

/**
 * What the node answers when it runs as an AI tool: one object a model can read at once, saying
 * what it holds and what it left out, with each project cut to the fields a model asks about.
 * Pure functions: the operation fetches, these shape.
 */

export type AnswerTender = Partial<Record<TenderAnswerField, FlatValue>>;
export type AnswerProject = Partial<Record<ProjectAnswerField, FlatValue>> & {
	tenders?: AnswerTender[];
};

export interface ToolAnswer {
	/** Plain sentences: how many, in which order, whether more match and how to get them. */
	summary: string;
	returned: number;
	/** null: not known without reading pages the call did not read. */
	moreMatch: boolean | null;
	filtersApplied: string[];
	projects: Array<AnswerProject | Project>;
}

function text(value: unknown): FlatValue {
	return typeof value === 'string' || typeof value === 'number' ? value : null;
}

/** An amount as the answer writes it: "$1,500,000". */
function dollarsText(amount: number): string {
	return `$${Math.round(amount).toLocaleString('en-US')}`;
}

/** A budget band in words: "$500,000 to $1,000,000", "$5,000,000 or more" or "not set". */
export function budgetText(budget: unknown): string {
	if (!isObject(budget) || typeof budget.low !== 'number' || !Number.isFinite(budget.low)) {
		return 'not set';
	}
	if (typeof budget.high !== 'number' || !Number.isFinite(budget.high)) {
		return `${dollarsText(budget.low)} or more`;
	}
	return `${dollarsText(budget.low)} to ${dollarsText(budget.high)}`;
}

/** Whole days from `today` to a YYYY-MM-DD date (negative when past), or null without a date. */
export function daysLeft(today: string, date: unknown): number | null {
	if (typeof date !== 'string') return null;
	const from = isoDateToDay(today);
	const to = isoDateToDay(date);
	return from === undefined || to === undefined ? null : to - from;
}

function projectValue(project: Project, field: ProjectAnswerField): FlatValue {
	switch (field) {
		case 'budget':
			return budgetText(project.budget);
		case 'consultants':
			return partyNames(project.consultants);
		case 'tenderingSubcontractors':
			return partyNames(project.tenderingSubcontractors);
		default:
			return text(project[field]);
	}
}

/** How each tender field is read from a tender. */
const TENDER_VALUES: Record<TenderAnswerField, (tender: Tender, today: string) => FlatValue> = {
	tenderId: (tender) => text(tender.id),
	tenderName: (tender) => text(tender.name),
	tenderType: (tender) => text(tender.type),
	builder: (tender) => text(builderOf(tender)?.name),
	builderWebsite: (tender) => text(builderOf(tender)?.website),
	tenderOpenAt: (tender) => text(tender.tenderOpenAt),
	quotesDueAt: (tender) => text(tender.quotesDueAt),
	daysLeft: (tender, today) => daysLeft(today, tender.quotesDueAt),
	tenderStatus: (tender) => text(tender.status),
	matchedKeywords: (tender) =>
		listOf(tender.matchedKeywords)
			.filter((keyword) => typeof keyword === 'string')
			.join(LIST_SEPARATOR),
};

/**
 * One project with only the chosen fields, in the list's order whatever the choice's order; its
 * tenders' chosen fields go under `tenders`, which is left out when no tender field is chosen.
 */
export function answerProject(
	project: Project,
	fields: readonly AnswerField[],
	today: string,
): AnswerProject {
	const chosen = new Set<string>(fields);
	const answer: AnswerProject = {};
	for (const field of PROJECT_ANSWER_FIELDS) {
		if (chosen.has(field)) answer[field] = projectValue(project, field);
	}
	const tenderFields = TENDER_ANSWER_FIELDS.filter((field) => chosen.has(field));
	if (tenderFields.length > 0) {
		answer.tenders = listOf(project.tenders)
			.filter(isObject)
			.map((tender) => {
				const row: AnswerTender = {};
				for (const field of tenderFields) row[field] = TENDER_VALUES[field](tender, today);
				return row;
			});
	}
	return answer;
}

// ---- what the answer says ----

/** Values named in a phrase; more than these are counted, not repeated back. */
const NAMED_VALUES = 10;

/** Filter values as the answer repeats them: the first few, each cut when long. */
function either(values: readonly string[]): string {
	const named = values.slice(0, NAMED_VALUES).map(cut);
	const more = values.length - named.length;
	return `${named.join(' or ')}${more > 0 ? ` or ${counted(more)} more` : ''}`;
}

/** The filters in effect, one phrase each, as a model can repeat them to its user. */
export function describeFilters(filters: ProjectFilters, today: string): string[] {
	const phrases: string[] = [];
	if (filters.projectIds?.length) phrases.push(`project ID is ${either(filters.projectIds)}`);
	if (filters.locations?.length) phrases.push(`address contains ${either(filters.locations)}`);
	if (filters.categories?.length) phrases.push(`category is ${either(filters.categories)}`);
	if (filters.builders?.length) phrases.push(`builder name contains ${either(filters.builders)}`);
	if (filters.matchedKeywords?.length) {
		phrases.push(`tender matched keyword ${either(filters.matchedKeywords)}`);
	}
	if (filters.budgetAtLeast !== undefined) {
		phrases.push(`budget reaches ${dollarsText(filters.budgetAtLeast)}`);
	}
	if (filters.budgetAtMost !== undefined) {
		phrases.push(`budget starts at or below ${dollarsText(filters.budgetAtMost)}`);
	}
	const withoutBudget = withoutBudgetRule(filters);
	if (withoutBudget !== undefined) {
		phrases.push(
			withoutBudget === 'keep'
				? 'projects without a budget kept'
				: 'projects without a budget left out',
		);
	}
	if (filters.quotesDueWithinDays !== undefined) {
		phrases.push(`quotes due within ${filters.quotesDueWithinDays} days of ${today}`);
	}
	if (filters.tenderTypes?.length) phrases.push(`tender type is ${either(filters.tenderTypes)}`);
	if (filters.projectStatuses?.length) {
		phrases.push(`project status is ${either(filters.projectStatuses)}`);
	}
	return phrases;
}

export interface AnswerFacts {
	returned: number;
	moreMatch: boolean | null;
	/** The limit the call used (at most MAX_TOOL_LIMIT). */
	limit: number;
	/** The limit asked for, when it was more than one call returns. */
	cappedFrom?: number;
	filtersApplied: string[];
	/** Entries of the pages read that could not be read as a project or a tender, left out. */
	unreadable: number;
}

function projectsWord(count: number): string {
	return count === 1 ? '1 matched project' : `${count} matched projects`;
}

/** What the answer cannot say: entries the API sent that could not be read. */
function unreadableSentence(unreadable: number): string[] {
	if (unreadable === 0) return [];
	const entries =
		unreadable === 1 ? '1 entry the API sent was' : `${unreadable} entries the API sent were`;
	return [
		`${entries} unreadable and left out; calling again returns the same until the service fixes its data.`,
	];
}

/** The answer's sentences: what it holds, what it does not, and what to ask for next. */
export function summaryOf(facts: AnswerFacts): string {
	const { returned, moreMatch, limit, filtersApplied } = facts;
	const sentences: string[] = [];
	const filtered = filtersApplied.length > 0;
	if (returned === 0) {
		sentences.push(
			filtered
				? `No matched project with open tenders passes the filters applied: ${filtersApplied.join('; ')}. Remove or widen a filter to see more.`
				: "No project matches the supplier's keywords right now. The API lists only currently open tenders, and the keywords are set on the supplier account, not in this tool.",
			...unreadableSentence(facts.unreadable),
		);
		return sentences.join(' ');
	}
	sentences.push(
		`${projectsWord(returned)} with open tenders, earliest quotes due first${filtered ? `; filters applied: ${filtersApplied.join('; ')}` : ''}.`,
	);
	if (facts.cappedFrom !== undefined) {
		sentences.push(
			`The limit of ${facts.cappedFrom} was lowered to ${limit}, the most one call returns.`,
		);
	}
	sentences.push(...unreadableSentence(facts.unreadable));
	if (moreMatch === false) {
		sentences.push('No other project matches.');
	} else {
		const next =
			limit < MAX_TOOL_LIMIT
				? `call again with a higher limit (up to ${MAX_TOOL_LIMIT}) or narrow the search with a filter`
				: 'narrow the search with a filter';
		sentences.push(
			moreMatch === true
				? `More projects match: to see them, ${next}.`
				: `More may match in results not read yet: to find out, ${next}.`,
		);
	}
	return sentences.join(' ');
}

/** The answer object: its facts, then the projects. */
export function toolAnswerOf(
	facts: AnswerFacts,
	projects: Array<AnswerProject | Project>,
): ToolAnswer {
	return {
		summary: summaryOf(facts),
		returned: facts.returned,
		moreMatch: facts.moreMatch,
		filtersApplied: facts.filtersApplied,
		projects,
	};
}

// ---- failures a model can act on ----

export interface ToolFailure {
	/** The cause, in a sentence. */
	message: string;
	/** Who can fix it and how; whether calling again helps. */
	description: string;
}

const OWNER_FIXES =
	"The workflow's owner must fix this in n8n (the tool's credential or Company ID); calling again will not help.";

/**
 * An API failure as a model can act on it: whether calling again can help, in two sentences. The
 * user-facing error names the company, the client and what the API said; none of that helps a
 * model, and an assistant outside n8n should not read it.
 */
export function toolFailureOf(kind: FailureKind, status: number | undefined): ToolFailure {
	const http = status === undefined ? '' : ` (HTTP ${status})`;
	switch (kind) {
		case 'waiting':
		case 'rateLimited':
			return {
				message: "The API's rate limit for this credential is reached (HTTP 429).",
				description:
					'Wait a few minutes before calling again; ask for more projects per call rather than making more calls.',
			};
		case 'notAPage':
			return {
				message: `The credential's Base URL answered with something that is not a page of results${http}.`,
				description: OWNER_FIXES,
			};
		case 'notFound':
			return {
				message: `No Supplier Matched-Projects API answered at the credential's Base URL${http}.`,
				description: OWNER_FIXES,
			};
		case 'credentials':
		case 'client':
			return {
				message: `The API refused the request for the supplier's projects${http}.`,
				description: OWNER_FIXES,
			};
		default:
			// Paging the service broke is, for a model, one more temporary failure of the API.
			return {
				message: `The API failed or could not be reached${http}.`,
				description: 'This is usually temporary: call again in a few minutes.',
			};
	}
}
