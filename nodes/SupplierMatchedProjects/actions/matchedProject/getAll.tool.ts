import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { Project } from '../../api/types';
import { quoted } from '../../projects/bounds';
import { DEFAULT_TOOL_LIMIT } from '../../descriptions/tool';
import { filterProjects, hasFilters, type ProjectFilters } from '../../projects/filters';
import { PagingError, walkToLimit, type FetchPage, type OnSkipped } from '../../transport/pages';
import {
	ANSWER_MODES,
	COMPACT_FIELDS,
	MAX_TOOL_LIMIT,
	answerProject,
	describeFilters,
	MODEL_ARGUMENT_FIX,
	toolAnswerOf,
	toolFailureOf,
	withoutUnsetValues,
	type AnswerField,
	type AnswerMode,
} from './tool-answer';
import { openWalk, type ApiConnection, type CompanyId } from '../../transport';
import { checkedFilters } from '../../parameters';

/**
 * Get Many as an AI tool: one answer per input item that says what it holds, with each project
 * cut to what a model needs. Same requests as the node: one page sized to the limit, or full pages
 * while filters leave the limit unmet.
 */

/** n8n shows `'@tool'` parameters when the node type's name ends with Tool; so does this. */
export function runsAsTool(node: INode): boolean {
	return node.type.endsWith('Tool');
}

function checkedLimit(node: INode, limit: unknown, itemIndex: number): number {
	if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) {
		throw new NodeOperationError(
			node,
			`Max Projects (limit) must be a whole number of projects from 1 to ${MAX_TOOL_LIMIT} (got ${quoted(limit)})`,
			{ itemIndex, description: MODEL_ARGUMENT_FIX },
		);
	}
	return limit;
}

function checkedAnswer(node: INode, answer: unknown, itemIndex: number): AnswerMode {
	if (!ANSWER_MODES.includes(answer as AnswerMode)) {
		throw new NodeOperationError(
			node,
			`Answer must be one of ${ANSWER_MODES.join(', ')} (got ${quoted(answer)}): open the tool and choose an answer from its list`,
			{ itemIndex },
		);
	}
	return answer as AnswerMode;
}

function checkedFields(node: INode, fields: unknown, itemIndex: number): AnswerField[] {
	if (!Array.isArray(fields) || fields.length === 0) {
		throw new NodeOperationError(
			node,
			'Answer is Selected Fields but no field is chosen: open the tool and choose Fields, or set Answer to Compact',
			{ itemIndex },
		);
	}
	return fields as AnswerField[];
}

/**
 * The first `limit` projects that pass both filter sets, and whether more match: known when a page
 * read held more, or when the last page said it was the last; unknown (null) when the limit was met
 * exactly on filtered pages and more pages exist, since finding out would cost another request.
 */
async function matchingProjects(
	fetchPage: FetchPage,
	limit: number,
	filterSets: ProjectFilters[],
	today: string,
	onSkipped: OnSkipped,
): Promise<{ projects: Project[]; moreMatch: boolean | null }> {
	const filtered = filterSets.some(hasFilters);
	const { items, moreRead, morePages } = await walkToLimit(
		fetchPage,
		limit,
		(projects) =>
			filterSets.reduce((kept, filters) => filterProjects(kept, filters, today), projects),
		{ fullPages: filtered, onSkipped },
	);
	if (moreRead) return { projects: items, moreMatch: true };
	if (!morePages) return { projects: items, moreMatch: false };
	return { projects: items, moreMatch: filtered ? null : true };
}

/** The filters the model set; a value it cannot have meant is its to correct, so it is told so. */
function modelFiltersOf(node: INode, raw: IDataObject, itemIndex: number): ProjectFilters {
	try {
		return checkedFilters(node, withoutUnsetValues(raw), itemIndex);
	} catch (error) {
		// checkedFilters throws a NodeOperationError, which n8n's constructor hands back as it is.
		const failure = new NodeOperationError(node, error as Error, { itemIndex });
		failure.description = MODEL_ARGUMENT_FIX;
		throw failure;
	}
}

export async function answerAsTool(
	context: IExecuteFunctions,
	api: ApiConnection,
	{ itemIndex, today, companyId }: { itemIndex: number; today: string; companyId: CompanyId },
): Promise<IDataObject> {
	const node = context.getNode();
	const asked = checkedLimit(
		node,
		context.getNodeParameter('maxProjects', itemIndex, DEFAULT_TOOL_LIMIT),
		itemIndex,
	);
	const limit = Math.min(asked, MAX_TOOL_LIMIT);
	const answer = checkedAnswer(
		node,
		context.getNodeParameter('answer', itemIndex, 'compact'),
		itemIndex,
	);
	const fields =
		answer === 'fields'
			? checkedFields(node, context.getNodeParameter('answerFields', itemIndex, []), itemIndex)
			: COMPACT_FIELDS;
	const fixedFilters = checkedFilters(
		node,
		context.getNodeParameter('filters', itemIndex, {}) as IDataObject,
		itemIndex,
	);
	const modelFilters = modelFiltersOf(
		node,
		context.getNodeParameter('modelFilters', itemIndex, {}) as IDataObject,
		itemIndex,
	);

	let unreadable = 0;
	const onSkipped = (entry: string) => {
		unreadable++;
		context.logger.warn(
			`Supplier Matched Projects "${node.name}" left out an unreadable entry: ${entry}`,
		);
	};
	const filterSets = [fixedFilters, modelFilters];
	const { projects, moreMatch } = await openWalk(api, context, companyId)
		.then(
			async (walk) =>
				await walk.inTurn(
					async () => await matchingProjects(walk.fetchPage, limit, filterSets, today, onSkipped),
				),
		)
		.catch((error: unknown) => {
			// Paging the service broke is, for a model, one more temporary failure of the API.
			if (!(error instanceof NodeApiError || error instanceof PagingError)) throw error;
			const status = error instanceof NodeApiError ? Number(error.httpCode) : NaN;
			const failure = toolFailureOf(Number.isInteger(status) && status > 0 ? status : undefined);
			throw new NodeOperationError(node, failure.message, {
				itemIndex,
				description: failure.description,
			});
		});
	const answered = toolAnswerOf(
		{
			returned: projects.length,
			moreMatch,
			limit,
			...(asked > limit ? { cappedFrom: asked } : {}),
			filtersApplied: [
				...describeFilters(fixedFilters, today),
				...describeFilters(modelFilters, today),
			],
			unreadable,
		},
		answer === 'raw' ? projects : projects.map((project) => answerProject(project, fields, today)),
	);
	return answered as unknown as IDataObject;
}
