import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { MAX_PAGE_SIZE } from '../transport/pages';
import type { ProjectFilters } from '../projects/filters';
import type { CompanyId } from '../transport';
import { readCompanyId, readFilters } from './index';
import { readCollection, readOption, readWholeNumber, type ReadAt } from './readers';

/** compact: the fields below; fields: the ones the user picked; raw: the API's projects. */
export type AnswerMode = 'compact' | 'fields' | 'raw';
export const ANSWER_MODES: readonly AnswerMode[] = ['compact', 'fields', 'raw'];

/**
 * Every field an answer can give, each saying once whether the compact answer has it: what a
 * salesperson asks a model about. Consultants, subcontractors and ids stay a choice away.
 */
const PROJECT_FIELDS_IN_COMPACT = {
	projectId: true,
	projectName: true,
	address: true,
	category: true,
	budget: true,
	status: true,
	url: true,
	consultants: false,
	tenderingSubcontractors: false,
};

/** Fields of each tender, listed under the project's `tenders`. */
const TENDER_FIELDS_IN_COMPACT = {
	tenderId: false,
	tenderName: true,
	tenderType: false,
	builder: true,
	builderWebsite: false,
	tenderOpenAt: false,
	quotesDueAt: true,
	daysLeft: true,
	tenderStatus: true,
	matchedKeywords: true,
};

export type ProjectAnswerField = keyof typeof PROJECT_FIELDS_IN_COMPACT;
export type TenderAnswerField = keyof typeof TENDER_FIELDS_IN_COMPACT;
export type AnswerField = ProjectAnswerField | TenderAnswerField;

export const PROJECT_ANSWER_FIELDS = Object.keys(PROJECT_FIELDS_IN_COMPACT) as ProjectAnswerField[];
export const TENDER_ANSWER_FIELDS = Object.keys(TENDER_FIELDS_IN_COMPACT) as TenderAnswerField[];

export const COMPACT_FIELDS: readonly AnswerField[] = [
	...PROJECT_ANSWER_FIELDS.filter((field) => PROJECT_FIELDS_IN_COMPACT[field]),
	...TENDER_ANSWER_FIELDS.filter((field) => TENDER_FIELDS_IN_COMPACT[field]),
];

/** The most projects one call returns: one page of the API. */
export const MAX_TOOL_LIMIT = MAX_PAGE_SIZE;

/** The default number of projects the tool returns, sized so a default answer stays near 4,000 tokens. */
export const DEFAULT_TOOL_LIMIT = 20;

/** What the model is told when a value it gave cannot be applied. */
export const MODEL_ARGUMENT_FIX =
	'This value came from the tool call: correct it or leave it out, then call again.';

/** Get Many's parameters when the node runs as an AI tool, read for one input item. */
export interface ToolParameters {
	companyId: CompanyId;
	/** Max Projects as asked: more than MAX_TOOL_LIMIT is lowered, and the answer says so. */
	asked: number;
	/** The limit the call uses. */
	limit: number;
	answer: AnswerMode;
	fields: readonly AnswerField[];
	/** The filters set in the tool's panel, then the ones the model gave in its call. */
	fixedFilters: ProjectFilters;
	modelFilters: ProjectFilters;
}

/** Max Projects: usually the model's; above MAX_TOOL_LIMIT it is lowered, not refused. */
export function readMaxProjects(at: ReadAt, value: unknown): number {
	return readWholeNumber(
		at,
		'Max Projects (limit)',
		value,
		{ min: 1, max: Infinity, unit: 'projects', maxText: String(MAX_TOOL_LIMIT) },
		{ description: MODEL_ARGUMENT_FIX },
	);
}

export function readAnswerFields(at: ReadAt, value: unknown): AnswerField[] {
	if (!Array.isArray(value) || value.length === 0) {
		throw new NodeOperationError(
			at.node,
			'Answer is Selected Fields but no field is chosen: open the tool and choose Fields, or set Answer to Compact',
			{ itemIndex: at.itemIndex },
		);
	}
	return value as AnswerField[];
}

/**
 * The model's filters with every value it left empty removed: a `$fromAI` field the model does not
 * fill gets its default, '' or 0, and that must filter nothing (a budget of at least $0 would
 * still drop projects without a budget, and 0 days would keep only tenders due today).
 */
export function withoutUnsetValues<T>(raw: Record<string, T>): Record<string, T> {
	const set: Record<string, T> = {};
	for (const [key, value] of Object.entries(raw)) {
		if (value === undefined || value === null || value === 0) continue;
		if (typeof value === 'string' && value.trim() === '') continue;
		set[key] = value;
	}
	return set;
}

/** The filters the model set; a value it cannot have meant is its to correct, so it is told so. */
export function readModelFilters(at: ReadAt, value: unknown): ProjectFilters {
	const raw = withoutUnsetValues(readCollection(at, 'Filters the Model Sets', value));
	try {
		return readFilters(at, raw);
	} catch (error) {
		// readFilters throws a NodeOperationError, which n8n's constructor hands back as it is.
		const failure = new NodeOperationError(at.node, error as Error, { itemIndex: at.itemIndex });
		failure.description = MODEL_ARGUMENT_FIX;
		throw failure;
	}
}

export function readToolParameters(context: IExecuteFunctions, itemIndex: number): ToolParameters {
	const at: ReadAt = { node: context.getNode(), itemIndex };
	const value = (name: string, fallback: unknown) =>
		context.getNodeParameter(name, itemIndex, fallback);
	const companyId = readCompanyId(at, context.getNodeParameter('companyId', itemIndex));
	const asked = readMaxProjects(at, value('maxProjects', DEFAULT_TOOL_LIMIT));
	const answer = readOption(at, 'Answer', value('answer', 'compact'), ANSWER_MODES, {
		fix: 'open the tool and choose an answer from its list',
	});
	return {
		companyId,
		asked,
		limit: Math.min(asked, MAX_TOOL_LIMIT),
		answer,
		fields: answer === 'fields' ? readAnswerFields(at, value('answerFields', [])) : COMPACT_FIELDS,
		fixedFilters: readFilters(at, value('filters', {})),
		modelFilters: readModelFilters(at, value('modelFilters', {})),
	};
}
