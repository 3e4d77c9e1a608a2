import type { CodexData, INodeProperties } from 'n8n-workflow';

import { MAX_BUDGET, MAX_DAYS } from '../projects/bounds';
import { PROJECT_STATUSES, TENDER_TYPES } from '../projects/filters';

/**
 * Parameters both nodes show. They carry no display conditions; each node adds its own
 * (see updateDisplayOptions in n8n-workflow).
 */

/** What n8n reads of a `<Node>.node.json` file (its `getCodex`). */
interface CodexFile {
	categories: string[];
	alias: string[];
	resources: Required<NonNullable<CodexData['resources']>>;
}

/**
 * A node's categories and search aliases, from its `<Node>.node.json`. n8n takes the description's
 * own `codex` for a package installed from the Community Nodes panel (`~/.n8n/nodes`) and only the
 * file for `~/.n8n/custom`; both come from the file, so they cannot differ.
 */
export function codexOf(file: CodexFile): CodexData {
	return { categories: file.categories, alias: file.alias, resources: file.resources };
}

/** A filter that picks from the values the API spells out, each shown as spelled, in alphabetical order. */
function valuesFilter(
	displayName: string,
	name: string,
	values: readonly string[],
	description: string,
): INodeProperties {
	const options = [...values].sort().map((value) => ({ name: value, value }));
	return { displayName, name, type: 'multiOptions', options, default: [], description };
}

export const companyIdProperty: INodeProperties = {
	displayName: 'Company ID',
	name: 'companyId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 4f6d2a1c',
	description:
		'ID of the supplier company whose matched projects to read. It must be registered to the client ID of the credential.',
	builderHint: {
		propertyHint:
			"Required: the supplier company's ID on the Supplier Matched-Projects API (e.g. 4f6d2a1c), which is not the credential's client ID. Ask the user for it; the API refuses a company not registered to the credential's client.",
	},
};

export const outputProperty: INodeProperties = {
	displayName: 'Output',
	name: 'output',
	type: 'options',
	options: [
		{
			name: 'Projects',
			value: 'projects',
			description: 'One item per project, as the API returns it, with its tenders',
		},
		{
			name: 'Tenders',
			value: 'tenders',
			description: "One item per tender, with its project's fields under project",
		},
	],
	default: 'projects',
	description: 'One item per project with its tenders, or one item per tender with its project',
	builderHint: {
		propertyHint:
			"For emails, chat messages and spreadsheet rows use output 'tenders' with simplify true: one flat item per tender with the columns tenderId, tenderName, tenderType, tenderStatus, tenderOpenAt, quotesDueAt, builderName, builderWebsite, matchedKeywords, projectId, projectName, projectAddress, projectCategory, projectStatus, projectBudgetLow, projectBudgetHigh, projectUrl, consultants, tenderingSubcontractors (dates as YYYY-MM-DD, lists joined with '; '). Without simplify a tender item is the API's tender (id, name, type, builder.name, quotesDueAt, status, matchedKeywords[]) with its project under project. Output 'projects' gives one item per project (projectId, projectName, address, category, budget, status, url, tenders[]); simplified, one row per project with tenderCount, tenderNames, earliestQuotesDueAt and builders.",
	},
};

export const simplifyProperty: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: false,
	description:
		'Whether to return flat, spreadsheet-ready columns (lists joined with "; ") instead of the nested data',
};

export const filtersProperty: INodeProperties = {
	displayName: 'Filters',
	name: 'filters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	description: 'Applied by the node to what the API returns; the API itself has no filters',
	builderHint: {
		propertyHint:
			'Set only the filters the user asked for; each one left out keeps everything. Text filters take comma-separated words, any one of which matches; budgets are in dollars, days count from today.',
	},
	options: [
		{
			displayName: 'Budget At Least',
			name: 'budgetAtLeast',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: MAX_BUDGET, numberPrecision: 0 },
			default: 0,
			placeholder: 'e.g. 500000',
			description:
				'Keep projects whose budget band reaches this many dollars: its top end is at least this, or it has no top end. Projects without a budget are left out unless Projects Without Budget says Keep.',
		},
		{
			displayName: 'Budget At Most',
			name: 'budgetAtMost',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: MAX_BUDGET, numberPrecision: 0 },
			default: 1000000,
			placeholder: 'e.g. 2000000',
			description:
				'Keep projects whose budget band starts at or below this many dollars. Projects without a budget are left out unless Projects Without Budget says Keep.',
		},
		{
			displayName: 'Builder',
			name: 'builders',
			type: 'string',
			default: '',
			placeholder: 'e.g. Acme, Hansen',
			description:
				"Keep tenders whose lead builder's name contains one of these words (comma-separated, case- and accent-insensitive)",
		},
		{
			displayName: 'Category',
			name: 'categories',
			type: 'string',
			default: '',
			placeholder: 'e.g. Residential, Aged Care',
			description:
				'Keep projects in one of these categories (comma-separated, whole category, case-insensitive). The API does not publish its list of categories.',
		},
		{
			displayName: 'Location',
			name: 'locations',
			type: 'string',
			default: '',
			placeholder: 'e.g. NSW, Parramatta, 3000',
			description:
				'Keep projects whose address contains one of these words or postcodes (comma-separated, case- and accent-insensitive)',
		},
		{
			displayName: 'Matched Keywords',
			name: 'matchedKeywords',
			type: 'string',
			default: '',
			placeholder: 'e.g. plumbing, roofing',
			description:
				'Keep tenders that matched one of these keywords (comma-separated, case-insensitive)',
		},
		valuesFilter(
			'Project Status',
			'projectStatuses',
			PROJECT_STATUSES,
			'Keep projects with one of these statuses',
		),
		{
			displayName: 'Projects Without Budget',
			name: 'projectsWithoutBudget',
			type: 'options',
			options: [
				{
					name: 'Drop',
					value: 'drop',
					description: 'Leave out projects that have no budget',
				},
				{
					name: 'Keep',
					value: 'keep',
					description: 'Keep projects that have no budget, whatever the budget bounds say',
				},
			],
			default: 'drop',
			description:
				'Whether projects that have no budget pass the budget filter. With Budget At Least or At Most set and this left out, they are dropped.',
		},
		{
			displayName: 'Quotes Due Within (Days)',
			name: 'quotesDueWithinDays',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: MAX_DAYS, numberPrecision: 0 },
			default: 14,
			description:
				"Keep tenders whose quotes are due from today up to this many days ahead, in the workflow's time zone. Tenders without a due date are left out.",
		},
		valuesFilter('Tender Type', 'tenderTypes', TENDER_TYPES, 'Keep tenders of these types'),
	],
};

const projectIdsFilter: INodeProperties = {
	displayName: 'Project IDs',
	name: 'projectIds',
	type: 'string',
	default: '',
	placeholder: 'e.g. prj-000012, prj-000047',
	description: 'Keep the projects with these IDs (comma-separated, exact)',
};

/**
 * Get Many's Filters: the shared ones with Project IDs in its place, so a workflow or a model can
 * fetch chosen projects again (the trigger, which watches every project, goes without it).
 */
export const getManyFiltersProperty: INodeProperties = {
	...filtersProperty,
	options: [...(filtersProperty.options as INodeProperties[]), projectIdsFilter].sort((a, b) =>
		a.displayName.localeCompare(b.displayName),
	),
};
