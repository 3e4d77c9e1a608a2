/**
 * The bounds of every number and text a user or a model can set, in one place (the Limits of
 * docs/running-n8n.md and docs/reliability.md list them), and how a message quotes what was given.
 */

/** Quotes Due Within (Days) and Days Before Quotes Due: ten years ahead. */
export const MAX_DAYS = 3650;

/** Budget filters, in dollars: a trillion, above any project's budget. */
export const MAX_BUDGET = 1_000_000_000_000;

/**
 * Get Many's Limit: 100 pages of 100 projects, all the API's rate limit allows one credential in
 * 5 minutes (Return All walks further, paced, up to MAX_WALK_PAGES).
 */
export const MAX_LIMIT = 10_000;

/** Company ID, in characters: it is one path segment of every request. */
export const MAX_COMPANY_ID_LENGTH = 256;

/** Entries of one comma-separated filter list (project IDs, keywords, builders, locations…). */
export const MAX_LIST_ENTRIES = 500;

/** Characters of one entry of such a list. */
export const MAX_ENTRY_LENGTH = 100;

/** A quoted value longer than this is cut to this many characters. */
const QUOTED_LENGTH = MAX_ENTRY_LENGTH;

/** A number as messages write it: 1,048,576. */
export function counted(count: number): string {
	return count.toLocaleString('en-US');
}

/** The first characters of a long text, never half of one written as a surrogate pair. */
function prefixOf(text: string): string {
	const prefix = text.slice(0, QUOTED_LENGTH);
	return /[\uD800-\uDBFF]$/.test(prefix) ? prefix.slice(0, -1) : prefix;
}

/**
 * Text as a message or an answer quotes it: whole when short, else its first characters, an
 * ellipsis and its length, so a megabyte the user or a model gave is never echoed back.
 */
export function cut(text: string): string {
	if (text.length <= QUOTED_LENGTH) return text;
	return `${prefixOf(text)}… (${counted(text.length)} characters)`;
}

/** A value as messages quote it: JSON (numbers as written, NaN included), cut when long. */
export function quoted(value: unknown): string {
	if (typeof value === 'number') return String(value);
	if (typeof value === 'string' && value.length > QUOTED_LENGTH) {
		return `${JSON.stringify(`${prefixOf(value)}…`)} (${counted(value.length)} characters)`;
	}
	return cut(JSON.stringify(value) ?? String(value));
}
