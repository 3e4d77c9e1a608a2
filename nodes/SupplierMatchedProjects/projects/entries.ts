import type { Project, ResultsPage } from '../api/types';
import { isObject, listOf } from './values';

/**
 * What the walk can read of a page's `data`: one broken entry must not cost the clean ones beside
 * it, so each entry is judged alone and a broken one is left out where it stands, with a sentence
 * saying where it was and what was wrong.
 */

/** A results page as it arrives: its entries not yet read as projects. */
export type ListedPage = Omit<ResultsPage, 'data'> & { data: unknown[] };

/** Quoted values are cut to this many characters: a message must stay readable. */
const QUOTE_LENGTH = 40;

/** A project ID as a skipped-entry sentence quotes it: shorter than bounds.ts's `quoted`. */
function quotedBriefly(value: string): string {
	return JSON.stringify(
		value.length > QUOTE_LENGTH ? `${value.slice(0, QUOTE_LENGTH - 1)}…` : value,
	);
}

/** A value's kind in words: "null", "a string", "a list"... */
function kindOf(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'object') return 'an object';
	if (typeof value === 'boolean') return 'true or false';
	return value === undefined ? 'missing' : `a ${typeof value}`;
}

/** Why a tenders entry is not a tender that can be told from others, or undefined if it is one. */
export function tenderFault(entry: unknown): string | undefined {
	if (!isObject(entry)) return `is ${kindOf(entry)}, not a tender`;
	if (entry.id === undefined) return 'has no id';
	if (typeof entry.id !== 'string') return `has an id that is ${kindOf(entry.id)}, not text`;
	return undefined;
}

/**
 * Why a `data` entry cannot be read as a project, or undefined if it can: it must be an object
 * whose projectId is text and whose tenders, if set, is a list. A broken tender inside it does
 * not make the project broken; see `readPage`.
 */
export function projectFault(entry: unknown): string | undefined {
	if (!isObject(entry)) return `is ${kindOf(entry)}, not a project`;
	if (entry.projectId === undefined) return 'has no projectId';
	if (typeof entry.projectId !== 'string') {
		return `has a projectId that is ${kindOf(entry.projectId)}, not text`;
	}
	// Missing or null reads as no tenders, as every other field missing or null reads as unset.
	const { tenders } = entry;
	if (tenders !== undefined && tenders !== null && !Array.isArray(tenders)) {
		return `${project(entry.projectId)}'s tenders is ${kindOf(tenders)}, not a list`;
	}
	return undefined;
}

function project(projectId: string): string {
	return `project ${quotedBriefly(projectId)}`;
}

/** Where an entry stood: its page in the walk (from 1) and its index in that page's `data`. */
function entryAt(page: number, index: number): { where: string; slot: string } {
	return { where: `entry ${index + 1} of page ${page}`, slot: `data[${index}]` };
}

/** What was read of one page: its projects, and a sentence for each entry left out. */
export interface ReadPage {
	projects: Project[];
	skipped: string[];
}

function isTender(entry: unknown): boolean {
	return tenderFault(entry) === undefined;
}

/**
 * A page's readable projects in the API's order. A broken entry is left out; a project's broken
 * tenders are left out of it (a copy), since a tender without an id cannot be announced once.
 */
export function readPage(data: readonly unknown[], page: number): ReadPage {
	const projects: Project[] = [];
	const skipped: string[] = [];
	let index = -1;
	for (const entry of data) {
		index++;
		const fault = projectFault(entry);
		if (fault !== undefined) {
			const { where, slot } = entryAt(page, index);
			// A fault past the projectId names the project itself.
			const named = isObject(entry) && typeof entry.projectId === 'string';
			skipped.push(named ? `${fault} (${where}, ${slot})` : `${where} (${slot}) ${fault}`);
			continue;
		}
		const read = entry as unknown as Project;
		const tenders: unknown[] = listOf(read.tenders);
		if (tenders.every(isTender)) {
			projects.push(read);
			continue;
		}
		const { where, slot } = entryAt(page, index);
		tenders.forEach((tender, tenderIndex) => {
			const problem = tenderFault(tender);
			if (problem === undefined) return;
			skipped.push(
				`${project(read.projectId)}'s tender ${tenderIndex + 1} ${problem} (${where}, ${slot}, tenders[${tenderIndex}])`,
			);
		});
		projects.push({ ...read, tenders: tenders.filter(isTender) } as Project);
	}
	return { projects, skipped };
}

/** A run's skipped entries are named in full in the log; a summary names this many. */
const NAMED_IN_SUMMARY = 3;

/** How many entries a run left out, naming the first few: Get Many's hint above its output. */
export function skippedSummary(skipped: readonly string[]): string {
	const count =
		skipped.length === 1
			? '1 entry the API sent could not be read and was left out'
			: `${skipped.length} entries the API sent could not be read and were left out`;
	const more =
		skipped.length > NAMED_IN_SUMMARY ? `; and ${skipped.length - NAMED_IN_SUMMARY} more` : '';
	return `${count}: ${skipped.slice(0, NAMED_IN_SUMMARY).join('; ')}${more}.`;
}
