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

/**
 * A tenders entry as the simplified rows read it. A malformed entry still counts, since
 * splitTenders makes an item of whatever the list holds: spread, a non-object gives its own keys
 * or none.
 */
function asTender(entry: Tender): Tender {
	return isObject(entry) ? entry : ({ ...(entry as object) } as Tender);
}

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

const KNOWN_PROJECT_FIELDS: ReadonlySet<string> = new Set([
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

const KNOWN_TENDER_FIELDS: ReadonlySet<string> = new Set([
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
	known: ReadonlySet<string>,
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

function budgetOf(project: ProjectFields) {
	return isObject(project.budget) ? project.budget : null;
}

/** The tender's lead builder, when the API sent one. */
export function builderOf(tender: Tender) {
	return isObject(tender.builder) ? tender.builder : null;
}

type Value<T> = (source: T) => FlatValue;
type Column<T> = readonly [name: string, value: Value<T>];

/**
 * A project's columns in the order rows give them: the name in a project row, the name in a tender
 * row (where it must not clash with the tender's own columns), and the value.
 */
const PROJECT_COLUMNS: ReadonlyArray<
	readonly [projectRowName: string, tenderRowName: string, value: Value<ProjectFields>]
> = [
	['projectId', 'projectId', (project) => cell(project.projectId)],
	['projectName', 'projectName', (project) => cell(project.projectName)],
	['address', 'projectAddress', (project) => cell(project.address)],
	['category', 'projectCategory', (project) => cell(project.category)],
	['status', 'projectStatus', (project) => cell(project.status)],
	['budgetLow', 'projectBudgetLow', (project) => cell(budgetOf(project)?.low)],
	['budgetHigh', 'projectBudgetHigh', (project) => cell(budgetOf(project)?.high)],
	['url', 'projectUrl', (project) => cell(project.url)],
];

/** A project's parties, the last columns of both rows, under the same names. */
const PARTY_COLUMNS: ReadonlyArray<Column<ProjectFields>> = [
	['consultants', (project) => partyNames(project.consultants)],
	['tenderingSubcontractors', (project) => partyNames(project.tenderingSubcontractors)],
];

/** A tender's own columns (a `project` field of its own is left out, as in a tender item). */
const TENDER_COLUMNS: ReadonlyArray<Column<Tender>> = [
	['tenderId', (tender) => cell(tender.id)],
	['tenderName', (tender) => cell(tender.name)],
	['tenderType', (tender) => cell(tender.type)],
	['tenderStatus', (tender) => cell(tender.status)],
	['tenderOpenAt', (tender) => cell(tender.tenderOpenAt)],
	['quotesDueAt', (tender) => cell(tender.quotesDueAt)],
	['builderName', (tender) => cell(builderOf(tender)?.name)],
	['builderWebsite', (tender) => cell(builderOf(tender)?.website)],
	['matchedKeywords', (tender) => joined(listOf(tender.matchedKeywords))],
];

/** Sets each column's value for this source, in the columns' order. */
function fill<T>(row: FlatRecord, columns: ReadonlyArray<Column<T>>, source: T): FlatRecord {
	for (const [name, value] of columns) row[name] = value(source);
	return row;
}

/**
 * One flat row per project: its fields, its budget band as two numbers, and its tenders summed up
 * (count, names, types, builders, keywords, earliest due date). Lists are joined with "; ".
 */
export function simplifyProject(project: Project): FlatRecord {
	const tenders = listOf(project.tenders).map(asTender);
	const row = unknownFields(project, KNOWN_PROJECT_FIELDS, '');
	for (const [name, , value] of PROJECT_COLUMNS) row[name] = value(project);
	row.tenderCount = tenders.length;
	row.tenderNames = joined(tenders.map((tender) => tender.name));
	row.tenderTypes = joined(tenders.map((tender) => tender.type));
	row.earliestQuotesDueAt = earliest(tenders.map((tender) => tender.quotesDueAt));
	row.builders = joined(tenders.map((tender) => builderOf(tender)?.name));
	row.matchedKeywords = joined(tenders.flatMap((tender) => listOf(tender.matchedKeywords)));
	return fill(row, PARTY_COLUMNS, project);
}

/** What every tender row of a project repeats, built once per project. */
interface ProjectPart {
	/** Project fields the API added later, prefixed "project". */
	added: FlatRecord;
	anyAdded: boolean;
	/** A tender row of this project with its tender columns still null. */
	row: FlatRecord;
}

function projectPart(project: ProjectFields): ProjectPart {
	const added = unknownFields(project, KNOWN_PROJECT_FIELDS, 'project');
	const row: FlatRecord = {};
	for (const [name] of TENDER_COLUMNS) row[name] = null;
	for (const [, name, value] of PROJECT_COLUMNS) row[name] = value(project);
	return { added, anyAdded: Object.keys(added).length > 0, row: fill(row, PARTY_COLUMNS, project) };
}

function tenderRow(tender: Tender, project: ProjectPart): FlatRecord {
	// A copy of the project's row is one compact object; filling in the tender's columns adds no key.
	const row = fill({ ...project.row }, TENDER_COLUMNS, tender);
	const added = unknownFields(tender, KNOWN_TENDER_FIELDS, 'tender');
	// Fields the API added come first, the tender's before its project's.
	if (!project.anyAdded && Object.keys(added).length === 0) return row;
	return Object.assign(added, project.added, row);
}

/** One flat row per tender: tender columns first, then its project's columns prefixed "project". */
export function simplifyTenderItem(item: TenderItem): FlatRecord {
	const project = isObject(item.project) ? item.project : ({} as ProjectFields);
	return tenderRow(item, projectPart(project));
}

/** The same rows as simplifyTenderItem of each tender item, with each project's columns built once. */
function simplifiedTenderRows(projects: Project[]): FlatRecord[] {
	const rows: FlatRecord[] = [];
	for (const project of projects) {
		const tenders = listOf(project.tenders);
		if (tenders.length === 0) continue;
		const part = projectPart(projectFields(project));
		for (const tender of tenders) rows.push(tenderRow(asTender(tender), part));
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
