import type { Project } from '../api/types';
import { readPage, type ListedPage } from '../projects/entries';

/** The API serves 1 to 100 projects per page. */
export const MAX_PAGE_SIZE = 100;

/**
 * The most pages one walk follows: 100,000 projects at 100 a page, far beyond any supplier's
 * keywords. Paced to the rate limit such a walk takes 50 minutes; an API whose pages never end
 * is stopped here rather than followed for ever.
 */
export const MAX_WALK_PAGES = 1_000;

/** One page asked for; `sendBy` (epoch ms): give up rather than wait past it for the rate limit. */
export interface PageRequest {
	cursor?: string;
	limit: number;
	sendBy?: number;
}

export type FetchPage = (page: PageRequest) => Promise<ListedPage>;

/** Told of each entry a walk left out, in a sentence that says where it was and what was wrong. */
export type OnSkipped = (skipped: string) => void;

/** The API's paging metadata cannot be followed; the walk stops instead of looping or restarting. */
export class PagingError extends Error {
	readonly kind = 'paging';
}

/** A request's outcome as a value, so a request read ahead never leaves a rejection unhandled. */
type Requested = { page: ListedPage } | { failure: unknown };

async function requested(
	fetchPage: FetchPage,
	cursor: string | undefined,
	limit: number,
): Promise<Requested> {
	try {
		return { page: await fetchPage(cursor === undefined ? { limit } : { cursor, limit }) };
	} catch (failure) {
		return { failure };
	}
}

/** The cursor of the page after this one; undefined after the last page. */
function cursorAfter(
	page: ListedPage,
	pageNumber: number,
	usedCursors: Set<string>,
): string | undefined | PagingError {
	const { hasNextPage, nextCursor } = page._metadata;
	if (!hasNextPage) return undefined;
	if (typeof nextCursor !== 'string' || nextCursor === '') {
		return new PagingError(
			`The API said page ${pageNumber} is followed by another but sent no cursor for it, so the walk stopped there`,
		);
	}
	if (usedCursors.has(nextCursor)) {
		return new PagingError(
			`The API sent a cursor on page ${pageNumber} that it had already sent, so the walk stopped rather than loop`,
		);
	}
	usedCursors.add(nextCursor);
	return nextCursor;
}

/**
 * Walks the result pages in order and yields each page's readable projects; `onSkipped` hears of
 * every entry left out (see readPage) before its page is yielded. Cursors go back exactly as the
 * API sent them; `from` starts at a cursor an earlier walk was given. `nextLimit` gives the page size of each request (1 to 100). Stops after the page
 * that says there is no next page, or when the consumer stops iterating.
 *
 * `everyPage` is for a consumer that takes every page (no Limit can stop it): the request for the
 * next page is then sent before the current page is handed over, so the consumer's work on a page
 * overlaps the next page's latency. Still one request at a time, and the consumer sees pages and
 * errors in the same order as without it; `nextLimit` is asked before the page is handed over. If
 * the consumer stops all the same, the walk ends once the request read ahead has settled, so no
 * request of the walk outlives it; that request's page or failure is dropped.
 */
export async function* walkPages(
	fetchPage: FetchPage,
	nextLimit: () => number,
	onSkipped: OnSkipped,
	options: { everyPage?: boolean; from?: string } = {},
): AsyncGenerator<Project[], void, undefined> {
	const { from } = options;
	const usedCursors = new Set<string>(from === undefined ? [] : [from]);
	let pending: Promise<Requested> | undefined = requested(fetchPage, from, nextLimit());
	try {
		for (let pageNumber = 1; pending !== undefined; pageNumber++) {
			const outcome: Requested = await pending;
			pending = undefined;
			if ('failure' in outcome) throw outcome.failure;
			let next = cursorAfter(outcome.page, pageNumber, usedCursors);
			if (typeof next === 'string' && pageNumber >= MAX_WALK_PAGES) {
				next = new PagingError(
					`The API said page ${pageNumber} is followed by another, past the ${MAX_WALK_PAGES * MAX_PAGE_SIZE} projects a walk follows at most, so the walk stopped there`,
				);
			}
			if (options.everyPage === true && typeof next === 'string') {
				pending = requested(fetchPage, next, nextLimit());
			}
			const { projects, skipped } = readPage(outcome.page.data, pageNumber);
			skipped.forEach(onSkipped);
			yield projects;
			if (next instanceof PagingError) throw next;
			if (next !== undefined) pending ??= requested(fetchPage, next, nextLimit());
		}
	} finally {
		if (pending !== undefined) await pending;
	}
}

/** Collects the projects of every page, 100 at a time, reading each next page ahead. */
export async function collectProjects(
	fetchPage: FetchPage,
	onSkipped: OnSkipped,
): Promise<Project[]> {
	const projects: Project[] = [];
	const pages = walkPages(fetchPage, () => MAX_PAGE_SIZE, onSkipped, { everyPage: true });
	for await (const data of pages) {
		projects.push(...data);
	}
	return projects;
}

/** What a walk to a limit gathered. */
export interface Gathered<T> {
	/** The first `limit` of what the pages gave, in page order. */
	items: T[];
	/** Whether the pages read gave more than `limit`. */
	moreRead: boolean;
	/** Whether the last page read said another follows. */
	morePages: boolean;
}

/**
 * Walks the pages until what `take` makes of their projects reaches `limit`; with a limit of
 * Infinity it takes every page, reading each next page ahead. `take` may drop projects or make
 * several items of one: with `fullPages` (it may drop some, so the share kept is unknown) every
 * request asks for a full page, which means fewest requests; without, it gives at least one item
 * per project, so a request asks only for what is still missing and never over-fetches.
 */
export async function walkToLimit<T>(
	fetchPage: FetchPage,
	limit: number,
	take: (projects: Project[]) => T[],
	options: { fullPages: boolean; onSkipped: OnSkipped },
): Promise<Gathered<T>> {
	let morePages = false;
	const recordingFetch: FetchPage = async (page) => {
		const results = await fetchPage(page);
		morePages = results._metadata.hasNextPage;
		return results;
	};
	const items: T[] = [];
	const nextLimit = () =>
		options.fullPages ? MAX_PAGE_SIZE : Math.min(MAX_PAGE_SIZE, limit - items.length);
	const everyPage = limit === Infinity;
	const pages = walkPages(recordingFetch, nextLimit, options.onSkipped, { everyPage });
	for await (const projects of pages) {
		items.push(...take(projects));
		if (items.length >= limit) break;
	}
	if (items.length <= limit) return { items, moreRead: false, morePages };
	return { items: items.slice(0, limit), moreRead: true, morePages };
}
