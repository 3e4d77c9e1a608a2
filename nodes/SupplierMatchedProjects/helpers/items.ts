import type { Party, Project, Tender } from '../api/types';
import { isObject, listOf } from './values';

export type OutputMode = 'projects' | 'tenders';

export const OUTPUT_MODES: readonly OutputMode[] = ['projects', 'tenders'];

/** A project without its tenders: what a tender item carries of its project. */
export type ProjectFields = Omit<Project, 'tenders'>;

/**
 * One item per tender: the tender's own fields at the top level, and its project's fields (all
 * but `tenders`) under `project`, so no project field can collide with a tender field.
 */
export type TenderItem = Tender & { project: ProjectFields };

/** A spreadsheet cell: no nested objects or arrays. */
export type FlatValue = string | number | boolean | null;
export type FlatRecord = Record<string, FlatValue>;

/** Joins list values in one cell; names may contain commas, so a semicolon separates them. */
export const LIST_SEPARATOR = '; ';

// ---- splitting ----

export function projectFields(project: Project): ProjectFields {
	// Copying all but tenders, rather than deleting the key from a copy, keeps the object in V8's
	// fast mode for everything that reads or serialises it later.
	const fields: Record<string, unknown> = {};
	for (const key of Object.keys(project)) {
		if (key !== 'tenders') fields[key] = project[key as keyof Project];
	}
	return fields as ProjectFields;
}

export function splitTenders(project: Project): TenderItem[] {
	const fields = projectFields(project);
	return listOf(project.tenders).map((tender) => ({ ...tender, project: fields }));
}

// ---- simplifying ----

function cell(value: unknown): FlatValue {
	if (value === undefined || value === null) return null;
	if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
		return value;
	}
	return JSON.stringify(value);
}

function joined(values: Array<string | null | undefined>): string {
	if (values.length === 1) return typeof values[0] === 'string' ? values[0] : '';
	const seen = new Set<string>();
	for (const value of values) {
		if (typeof value === 'string' && value !== '') seen.add(value);
	}
	return [...seen].join(LIST_SEPARATOR);
}

/** The parties' names in one cell, each once. */
export function partyNames(parties: Party[] | null | undefined): string {
	return joined(listOf(parties).map((party) => (isObject(party) ? party.name : undefined)));
}

function capitalised(name: string): string {
	return name.charAt(0).toUpperCase() + name.slice(1);
}

const KNOWN_PROJECT_FIELDS = new Set([
	'projectId',
	'projectName',
	'address',
	'category',
	'budget',
	'status',
	'consultants',
	'tenders',
	'tenderingSubcontractors',
	'url',
]);

const KNOWN_TENDER_FIELDS = new Set([
	'id',
	'name',
	'type',
	'builder',
	'tenderOpenAt',
	'quotesDueAt',
	'status',
	'matchedKeywords',
	'project',
]);

/** Fields the API added after this node was written, flattened under a prefix that cannot clash. */
function unknownFields(
	source: Record<string, unknown>,
	known: Set<string>,
	prefix: string,
): FlatRecord {
	const extra: FlatRecord = {};
	for (const name of Object.keys(source)) {
		if (!known.has(name))
			extra[prefix === '' ? name : `${prefix}${capitalised(name)}`] = cell(source[name]);
	}
	return extra;
}

function earliest(dates: Array<string | null | undefined>): string | null {
	const known = dates.filter((date): date is string => typeof date === 'string' && date !== '');
	return known.length === 0 ? null : known.reduce((min, date) => (date < min ? date : min));
}

/**
 * One flat row per project: its fields, its budget band as two numbers, and its tenders summed up
 * (count, names, types, builders, keywords, earliest due date). Lists are joined with "; ".
 */
export function simplifyProject(project: Project): FlatRecord {
	const tenders = listOf(project.tenders);
	const columns = projectColumns(project, '');
	return {
		...columns.added,
		projectId: columns.id,
		projectName: columns.name,
		address: columns.address,
		category: columns.category,
		status: columns.status,
		budgetLow: columns.budgetLow,
		budgetHigh: columns.budgetHigh,
		url: columns.url,
		tenderCount: tenders.length,
		tenderNames: joined(tenders.map((tender) => tender.name)),
		tenderTypes: joined(tenders.map((tender) => tender.type)),
		earliestQuotesDueAt: earliest(tenders.map((tender) => tender.quotesDueAt)),
		builders: joined(
			tenders.map((tender) => (isObject(tender.builder) ? tender.builder.name : null)),
		),
		matchedKeywords: joined(tenders.flatMap((tender) => listOf(tender.matchedKeywords))),
		consultants: columns.consultants,
		tenderingSubcontractors: columns.tenderingSubcontractors,
	};
}

/** A project's own columns: what every tender row of it repeats (built once per project). */
interface ProjectColumns {
	/** Project fields the API added later, with the caller's prefix. */
	added: FlatRecord;
	anyAdded: boolean;
	id: FlatValue;
	name: FlatValue;
	address: FlatValue;
	category: FlatValue;
	status: FlatValue;
	budgetLow: FlatValue;
	budgetHigh: FlatValue;
	url: FlatValue;
	consultants: string;
	tenderingSubcontractors: string;
}

function projectColumns(project: ProjectFields, prefix: string): ProjectColumns {
	const budget = isObject(project.budget) ? project.budget : null;
	const added = unknownFields(project, KNOWN_PROJECT_FIELDS, prefix);
	return {
		added,
		anyAdded: Object.keys(added).length > 0,
		id: cell(project.projectId),
		name: cell(project.projectName),
		address: cell(project.address),
		category: cell(project.category),
		status: cell(project.status),
		budgetLow: cell(budget?.low),
		budgetHigh: cell(budget?.high),
		url: cell(project.url),
		consultants: partyNames(project.consultants),
		tenderingSubcontractors: partyNames(project.tenderingSubcontractors),
	};
}

/** A tender's own fields (a `project` field of its own is left out, as in a tender item). */
function tenderRow(tender: Tender, project: ProjectColumns): FlatRecord {
	const builder = isObject(tender.builder) ? tender.builder : null;
	// One literal with every column keeps a row a single compact object.
	const row: FlatRecord = {
		tenderId: cell(tender.id),
		tenderName: cell(tender.name),
		tenderType: cell(tender.type),
		tenderStatus: cell(tender.status),
		tenderOpenAt: cell(tender.tenderOpenAt),
		quotesDueAt: cell(tender.quotesDueAt),
		builderName: cell(builder?.name),
		builderWebsite: cell(builder?.website),
		matchedKeywords: joined(listOf(tender.matchedKeywords)),
		projectId: project.id,
		projectName: project.name,
		projectAddress: project.address,
		projectCategory: project.category,
		projectStatus: project.status,
		projectBudgetLow: project.budgetLow,
		projectBudgetHigh: project.budgetHigh,
		projectUrl: project.url,
		consultants: project.consultants,
		tenderingSubcontractors: project.tenderingSubcontractors,
	};
	const added = unknownFields(tender, KNOWN_TENDER_FIELDS, 'tender');
	// Fields the API added come first, the tender's before its project's.
	if (!project.anyAdded && Object.keys(added).length === 0) return row;
	return Object.assign(added, project.added, row);
}

/** One flat row per tender: tender columns first, then its project's columns prefixed "project". */
export function simplifyTenderItem(item: TenderItem): FlatRecord {
	const project = isObject(item.project) ? item.project : ({} as ProjectFields);
	return tenderRow(item, projectColumns(project, 'project'));
}

/** The same rows as simplifyTenderItem of each tender item, with each project's columns built once. */
function simplifiedTenderRows(projects: Project[]): FlatRecord[] {
	const rows: FlatRecord[] = [];
	for (const project of projects) {
		const tenders = listOf(project.tenders);
		if (tenders.length === 0) continue;
		const columns = projectColumns(projectFields(project), 'project');
		for (const tender of tenders) {
			// splitTenders spreads whatever the list holds; a non-object spreads to its own keys.
			rows.push(
				tenderRow(isObject(tender) ? tender : ({ ...(tender as object) } as Tender), columns),
			);
		}
	}
	return rows;
}

/** The JSON of the output items for these projects, in the order the API listed them. */
export function shapeItems(
	projects: Project[],
	options: { output: OutputMode; simplify: boolean },
): Array<Record<string, unknown>> {
	if (options.output === 'tenders') {
		return options.simplify ? simplifiedTenderRows(projects) : projects.flatMap(splitTenders);
	}
	return options.simplify ? projects.map(simplifyProject) : projects;
}
