import type { Project, ResultsPage } from '../api/types';

/** The API serves 1 to 100 projects per page. */
export const MAX_PAGE_SIZE = 100;

export type FetchPage = (page: { cursor?: string; limit: number }) => Promise<ResultsPage>;

/** The API's paging metadata cannot be followed; the walk stops instead of looping or restarting. */
export class PagingError extends Error {}

/**
 * Walks the result pages in order and yields each page's projects. Cursors go back exactly as the
 * API sent them. `nextLimit` gives the page size of each request (1 to 100). Stops after the page
 * that says there is no next page, or when the consumer stops iterating.
 */
export async function* walkPages(
	fetchPage: FetchPage,
	nextLimit: () => number,
): AsyncGenerator<Project[], void, undefined> {
	const usedCursors = new Set<string>();
	let cursor: string | undefined;
	for (let pageNumber = 1; ; pageNumber++) {
		const limit = nextLimit();
		const page = await fetchPage(cursor === undefined ? { limit } : { cursor, limit });
		yield page.data;
		const { hasNextPage, nextCursor } = page._metadata;
		if (!hasNextPage) return;
		if (typeof nextCursor !== 'string' || nextCursor === '') {
			throw new PagingError(
				`The API said page ${pageNumber} is followed by another but sent no cursor for it, so the walk stopped there`,
			);
		}
		if (usedCursors.has(nextCursor)) {
			throw new PagingError(
				`The API sent a cursor on page ${pageNumber} that it had already sent, so the walk stopped rather than loop`,
			);
		}
		usedCursors.add(nextCursor);
		cursor = nextCursor;
	}
}

/**
 * Collects projects across pages. Without a limit it walks every page, 100 projects at a time;
 * with one it asks for no more than are still needed and stops exactly at the limit.
 */
export async function collectProjects(
	fetchPage: FetchPage,
	options: { limit?: number },
): Promise<Project[]> {
	const { limit } = options;
	if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
		throw new PagingError(`A limit must be a whole number of at least 1, not ${limit}`);
	}
	const projects: Project[] = [];
	const nextLimit = () =>
		limit === undefined ? MAX_PAGE_SIZE : Math.min(MAX_PAGE_SIZE, limit - projects.length);
	for await (const data of walkPages(fetchPage, nextLimit)) {
		projects.push(...data);
		if (limit !== undefined && projects.length >= limit) break;
	}
	return limit === undefined ? projects : projects.slice(0, limit);
}
