import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { filterProjects, hasFilters } from '../../projects/filters';
import type { Gathered } from '../../transport/pages';
import { ApiError, httpStatusOf } from '../../transport/errors';
import type { ApiConnection } from '../../transport';
import type { ToolParameters } from '../../parameters/tool';
import { answerProject, describeFilters, toolAnswerOf, toolFailureOf } from './tool-answer';
import { walkCompany } from './walk';

/**
 * Get Many as an AI tool: one answer per input item that says what it holds, with each project
 * cut to what a model needs. Same requests as the node: one page sized to the limit, or full pages
 * while filters leave the limit unmet.
 */

/** n8n shows `'@tool'` parameters when the node type's name ends with Tool; so does this. */
export function runsAsTool(node: INode): boolean {
	return node.type.endsWith('Tool');
}

/**
 * Whether more projects match than the walk returned: known when a page read held more, or when
 * the last page said it was the last; unknown (null) when the limit was met exactly on filtered
 * pages and more pages exist, since finding out would cost another request.
 */
export function moreMatchOf(
	{ moreRead, morePages }: Omit<Gathered<unknown>, 'items'>,
	filtered: boolean,
): boolean | null {
	if (moreRead) return true;
	if (!morePages) return false;
	return filtered ? null : true;
}

export async function answerAsTool(
	context: IExecuteFunctions,
	api: ApiConnection,
	parameters: ToolParameters,
	{ itemIndex, today }: { itemIndex: number; today: string },
): Promise<IDataObject> {
	const node = context.getNode();
	const { companyId, asked, limit, answer, fields, fixedFilters, modelFilters } = parameters;
	const filterSets = [fixedFilters, modelFilters];
	const filtered = filterSets.some(hasFilters);
	const walked = await walkCompany(context, api, companyId, {
		limit,
		take: (projects) =>
			filterSets.reduce((kept, filters) => filterProjects(kept, filters, today), projects),
		fullPages: filtered,
	}).catch((error: unknown) => {
		if (!(error instanceof ApiError)) throw error;
		const failure = toolFailureOf(error.kind, httpStatusOf(error));
		throw new NodeOperationError(node, failure.message, {
			itemIndex,
			description: failure.description,
		});
	});
	const projects = walked.items;
	const answered = toolAnswerOf(
		{
			returned: projects.length,
			moreMatch: moreMatchOf(walked, filtered),
			limit,
			...(asked > limit ? { cappedFrom: asked } : {}),
			filtersApplied: [
				...describeFilters(fixedFilters, today),
				...describeFilters(modelFilters, today),
			],
			unreadable: walked.skipped.length,
		},
		answer === 'raw' ? projects : projects.map((project) => answerProject(project, fields, today)),
	);
	return answered as unknown as IDataObject;
}
