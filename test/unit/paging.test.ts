import type { ResultsPage } from '../../nodes/SupplierMatchedProjects/api/types';
import {
	collectProjects,
	MAX_PAGE_SIZE,
	PagingError,
	walkPages,
	type FetchPage,
} from '../../nodes/SupplierMatchedProjects/helpers/paging';
import { page, projects } from '../support/n8n-fixtures';

type Request = { cursor?: string; limit: number };

/** A fake API over a list of projects: cursors are opaque strings with characters that need care. */
function fakeApi(total: number) {
	const all = projects(total);
	const requests: Request[] = [];
	const fetchPage: FetchPage = async (request) => {
		requests.push(request);
		const start = request.cursor === undefined ? 0 : Number(request.cursor.split('#')[1]);
		const end = Math.min(all.length, start + request.limit);
		return page(all.slice(start, end), end < all.length ? `c/+=?&#${end}` : null);
	};
	return { all, requests, fetchPage };
}

function scripted(pages: ResultsPage[]) {
	const requests: Request[] = [];
	const fetchPage: FetchPage = async (request) => {
		requests.push(request);
		const next = pages[requests.length - 1];
		if (next === undefined) throw new Error('no more scripted pages');
		return next;
	};
	return { requests, fetchPage };
}

describe('collectProjects', () => {
	it('walks every page 100 at a time when there is no limit, passing cursors back verbatim', async () => {
		const api = fakeApi(250);
		const result = await collectProjects(api.fetchPage, {});
		expect(result.map((p) => p.projectId)).toEqual(api.all.map((p) => p.projectId));
		expect(api.requests).toEqual([
			{ limit: 100 },
			{ cursor: 'c/+=?&#100', limit: 100 },
			{ cursor: 'c/+=?&#200', limit: 100 },
		]);
	});

	it('asks only for what is still missing and stops exactly at the limit across pages', async () => {
		const api = fakeApi(500);
		const result = await collectProjects(api.fetchPage, { limit: 150 });
		expect(result).toHaveLength(150);
		expect(result[149].projectId).toBe('p150');
		expect(api.requests).toEqual([{ limit: 100 }, { cursor: 'c/+=?&#100', limit: 50 }]);
	});

	it('uses one request when the limit fits in a page', async () => {
		const api = fakeApi(500);
		const result = await collectProjects(api.fetchPage, { limit: 30 });
		expect(result).toHaveLength(30);
		expect(api.requests).toEqual([{ limit: 30 }]);
	});

	it('returns fewer than the limit when the API runs out', async () => {
		const api = fakeApi(42);
		expect(await collectProjects(api.fetchPage, { limit: 1000 })).toHaveLength(42);
		expect(api.requests).toEqual([{ limit: 100 }]);
	});

	it('cuts a page that holds more than was asked for', async () => {
		const api = scripted([page(projects(10), 'next')]);
		expect(await collectProjects(api.fetchPage, { limit: 3 })).toHaveLength(3);
		expect(api.requests).toHaveLength(1);
	});

	it('returns an empty list for an empty first page', async () => {
		const api = scripted([page([])]);
		expect(await collectProjects(api.fetchPage, {})).toEqual([]);
	});

	it.each([0, -1, 1.5, Number.NaN])('refuses a limit of %p', async (limit) => {
		const api = scripted([]);
		await expect(collectProjects(api.fetchPage, { limit })).rejects.toThrow(PagingError);
		expect(api.requests).toHaveLength(0);
	});

	it('stops with a clear error when a next page is announced without a cursor', async () => {
		const api = scripted([
			page(projects(2), 'c1'),
			{ data: projects(2, 'q'), _metadata: { hasNextPage: true, nextCursor: null } },
		]);
		await expect(collectProjects(api.fetchPage, {})).rejects.toThrow(
			'The API said page 2 is followed by another but sent no cursor for it, so the walk stopped there',
		);
		expect(api.requests).toHaveLength(2);
	});

	it('treats an empty cursor like a missing one', async () => {
		const api = scripted([{ data: [], _metadata: { hasNextPage: true, nextCursor: '' } }]);
		await expect(collectProjects(api.fetchPage, {})).rejects.toThrow(PagingError);
	});

	it('stops with a clear error instead of looping when a cursor repeats', async () => {
		const api = scripted([
			page(projects(1), 'a'),
			page(projects(1, 'q'), 'b'),
			page(projects(1, 'r'), 'a'),
		]);
		await expect(collectProjects(api.fetchPage, {})).rejects.toThrow(
			'The API sent a cursor on page 3 that it had already sent, so the walk stopped rather than loop',
		);
		expect(api.requests.map((r) => r.cursor)).toEqual([undefined, 'a', 'b']);
	});

	it('trusts hasNextPage false even when a cursor is present', async () => {
		const api = scripted([
			{ data: projects(1), _metadata: { hasNextPage: false, nextCursor: 'x' } },
		]);
		expect(await collectProjects(api.fetchPage, {})).toHaveLength(1);
		expect(api.requests).toHaveLength(1);
	});
});

describe('walkPages', () => {
	it('fetches nothing more once the consumer stops', async () => {
		const api = fakeApi(1000);
		for await (const data of walkPages(api.fetchPage, () => MAX_PAGE_SIZE)) {
			expect(data).toHaveLength(100);
			break;
		}
		expect(api.requests).toHaveLength(1);
	});

	it('asks nextLimit for the size of every request', async () => {
		const api = fakeApi(30);
		const sizes = [10, 7, 20];
		const seen: number[][] = [];
		for await (const data of walkPages(api.fetchPage, () => sizes.shift() ?? 100)) {
			seen.push(data.map((p) => Number(p.projectId.slice(1))));
		}
		expect(api.requests.map((r) => r.limit)).toEqual([10, 7, 20]);
		expect(seen.flat()).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
	});
});
