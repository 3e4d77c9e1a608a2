import type { INodeProperties } from 'n8n-workflow';

import { MAX_DAYS } from '../projects/bounds';
import {
	COMPACT_FIELDS,
	DEFAULT_TOOL_LIMIT,
	PROJECT_ANSWER_FIELDS,
	TENDER_ANSWER_FIELDS,
} from '../parameters/tool';

/**
 * Parameters of the node's tool copy (the `<name>Tool` type n8n makes of a `usableAsTool` node).
 * n8n shows a parameter only there when its display conditions include `'@tool': [true]`
 * (n8n-workflow's node-helpers: `@tool` is "the node type's name ends with Tool").
 */

/**
 * What the model reads before it calls the tool. A node property named toolDescription replaces
 * the one n8n would add, whose automatic text is only "Get many matched projects in ...".
 */
export const TOOL_DESCRIPTION =
	"Lists the construction projects whose currently open tenders match the supplier's keywords, earliest quotes due date first (the API holds only open tenders). Each project gives its ID, name, address, category, budget band, status and link, and for each tender its name, builder, quotes due date, days left, status and matched keywords. Optional filters: location, category, builder, matched keywords, budget range, quotes due within a number of days, and project IDs (to fetch chosen projects again). The answer's summary says how many projects it returns and whether more match.";

/**
 * The words an agent builder types when it wants the node as a tool, on top of the node's own
 * aliases: n8n copies the node's codex to its tool copy, and these are for the copy alone.
 */
export const TOOL_ALIASES: readonly string[] = [
	'Tender Search',
	'Search Tenders',
	'Find Tenders',
	'Find Bids',
	'Tender Lookup',
];

/**
 * A parameter value filled in by the model, written as n8n's own "let the model define this"
 * button writes it (so the editor shows it the same way), with a description and a default that
 * make the field optional for the model.
 */
export function fromAi(
	key: string,
	description: string,
	type: 'string' | 'number',
	defaultValue: string | number,
): string {
	const literal = typeof defaultValue === 'number' ? String(defaultValue) : `''`;
	return `={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('${key}', \`${description}\`, '${type}', ${literal}) }}`;
}

/** The keys under which the model fills each filter; docs/using-the-nodes.md lists them. */
export const MODEL_FILTER_KEYS = {
	projectIds: 'projectIds',
	locations: 'location',
	categories: 'category',
	builders: 'builder',
	matchedKeywords: 'matchedKeywords',
	budgetAtLeast: 'budgetAtLeast',
	budgetAtMost: 'budgetAtMost',
	quotesDueWithinDays: 'quotesDueWithinDays',
} as const;

const MODEL_FILTER_HELP = {
	projectIds:
		'Project IDs to fetch, separated by commas, exactly as earlier answers gave them. Empty: any project.',
	locations:
		'Words or postcodes the project address must contain, separated by commas (any one matches), e.g. "NSW, Parramatta". Empty: anywhere.',
	categories:
		'Project categories, separated by commas (any one matches, whole category), e.g. "Residential". Empty: any category.',
	builders:
		'Words of the lead builder name, separated by commas (any one matches). Empty: any builder.',
	matchedKeywords:
		"Supplier keywords a tender must have matched, separated by commas (any one matches). Empty: any of the supplier's keywords.",
	budgetAtLeast:
		'Smallest budget in dollars: keeps projects whose budget band reaches it; projects without a budget are left out. 0: no minimum.',
	budgetAtMost:
		'Largest budget in dollars: keeps projects whose budget band starts at or below it; projects without a budget are left out. 0: no maximum.',
	quotesDueWithinDays: `Keep tenders whose quotes are due from today up to this many days ahead, at most ${MAX_DAYS}. 0: any due date.`,
} as const;

const LIMIT_HELP =
	'How many projects to return, earliest quotes due first, from 1 to 100. Default 20; ask for more only when the summary says more match.';

const showInTool = { '@tool': [true] };

export function toolProperties(showForOperation: Record<string, string[]>): INodeProperties[] {
	const show = { ...showForOperation, ...showInTool };
	return [
		{
			displayName: 'Description',
			name: 'toolDescription',
			type: 'string',
			default: TOOL_DESCRIPTION,
			typeOptions: { rows: 4 },
			displayOptions: { show },
			description:
				'What the model reads about this tool: what it returns and when to call it. Leave it empty to use n8n\'s automatic "Get many matched projects in Supplier Matched Projects".',
		},
		{
			displayName: 'Max Projects',
			name: 'maxProjects',
			type: 'number',
			default: fromAi('limit', LIMIT_HELP, 'number', DEFAULT_TOOL_LIMIT),
			displayOptions: { show },
			description:
				'Max number of projects in one answer (1 to 100). By default the model chooses, 20 when it does not.',
		},
		{
			displayName: 'Answer',
			name: 'answer',
			type: 'options',
			noDataExpression: true,
			options: [
				{
					name: 'Compact',
					value: 'compact',
					description: `Per project: ${COMPACT_FIELDS.join(', ')} (tender fields under tenders)`,
				},
				{
					name: 'Selected Fields',
					value: 'fields',
					description: 'Per project, only the fields chosen below',
				},
				{
					name: 'Full API Projects',
					value: 'raw',
					description:
						'Every field the API sends, consultants and subcontractors included: about twice the size of Compact',
				},
			],
			default: 'compact',
			displayOptions: { show },
			description: 'How much of each project the model receives',
		},
		{
			displayName: 'Fields',
			name: 'answerFields',
			type: 'multiOptions',
			options: [...PROJECT_ANSWER_FIELDS, ...TENDER_ANSWER_FIELDS]
				.map((field) => ({ name: field, value: field }))
				.sort((a, b) => a.name.localeCompare(b.name)),
			default: [...COMPACT_FIELDS],
			displayOptions: { show: { ...show, answer: ['fields'] } },
			description: 'Fields of each project the model receives; tender fields go under tenders',
		},
		{
			displayName: 'Filters the Model Sets',
			name: 'modelFilters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {
				...Object.fromEntries(modelFilterOptions().map((option) => [option.name, option.default])),
			},
			displayOptions: { show },
			description:
				'Each is filled in by the model when it calls the tool (empty or 0: no filter). They apply on top of Filters, which the model cannot change. Delete one to keep it from the model, or type a fixed value.',
			options: modelFilterOptions(),
		},
	];
}

function modelFilterOptions(): INodeProperties[] {
	const option = (
		displayName: string,
		name: keyof typeof MODEL_FILTER_KEYS,
		type: 'string' | 'number',
	): INodeProperties => ({
		displayName,
		name,
		type,
		default: fromAi(
			MODEL_FILTER_KEYS[name],
			MODEL_FILTER_HELP[name],
			type,
			type === 'number' ? 0 : '',
		),
		description: MODEL_FILTER_HELP[name],
	});
	return [
		option('Budget At Least', 'budgetAtLeast', 'number'),
		option('Budget At Most', 'budgetAtMost', 'number'),
		option('Builder', 'builders', 'string'),
		option('Category', 'categories', 'string'),
		option('Location', 'locations', 'string'),
		option('Matched Keywords', 'matchedKeywords', 'string'),
		option('Project IDs', 'projectIds', 'string'),
		option('Quotes Due Within (Days)', 'quotesDueWithinDays', 'number'),
	];
}
