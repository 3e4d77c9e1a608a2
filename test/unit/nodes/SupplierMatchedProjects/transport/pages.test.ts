import { NodeApiError, sleep } from 'n8n-workflow';

import type { ResultsPage } from '../../../../../nodes/SupplierMatchedProjects/api/types';
import {
	MAX_PAGE_SIZE,
	MAX_WALK_PAGES,
	pagingError,
	walkPages,
	walkToLimit,
	type FetchPage,
	type OnSkipped,
	type PageSource,
} from '../../../../../nodes/SupplierMatchedProjects/transport/pages';
import { page, projects, workflowNode } from '../../../../support/engine/n8n-fixtures';

type Request = { cursor?: string; limit: number };

const node = workflowNode(
	'n',
	'Supplier Matched Projects',
	'n8n-nodes-supplier-matched-projects.supplierMatchedProjects',
);

const ADVICE = 'Try again later.';

/** A walk's pages as the loop reads them, over this request of one page. */
function sourceOf(fetchPage: FetchPage): PageSource {
	return { fetchPage, cannotFollow: (reason) => pagingError(node, reason, ADVICE) };
}

/** What the walk throws for paging it cannot follow, for this reason. */
function unfollowable(reason: string) {
	return {
		kind: 'paging',
		message: reason,
		description: `The service sent paging information that cannot be followed. ${ADVICE}`,
	};
}

type Projects = ReturnType<typeof projects>;
const everyProject = (found: Projects) => found;

/** Walks to `limit` items, each page's projects kept as `keep` says; a skip is a bug unless told. */
async function walkOn(
	source: PageSource,
	limit: number,
	keep = everyProject,
	options: { fullPages?: boolean; onSkipped?: OnSkipped } = {},
) {
	return await walkToLimit(source, limit, keep, {
		fullPages: false,
		onSkipped: noSkips,
		...options,
	});
}

/** Every project of the walk, 100 a page, each next page read ahead. */
async function everyProjectOf(source: PageSource) {
	return (await walkOn(source, Infinity, everyProject, { fullPages: true })).items;
}

/** These pages hold only clean entries: a skip would be a bug in reading them. */
const noSkips: OnSkipped = (entry) => {
	throw new Error(`left out a clean entry: ${entry}`);
};

function idsOf(items: Array<{ projectId: string }>): string[] {
	return items.map((p) => p.projectId);
}

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
	return { all, requests, ...sourceOf(fetchPage) };
}

function pageOf(data: unknown[], hasNextPage: boolean, nextCursor: string | null): ResultsPage {
	return { data, _metadata: { hasNextPage, nextCursor } } as ResultsPage;
}

function scripted(pages: ResultsPage[]) {
	const requests: Request[] = [];
	const fetchPage: FetchPage = async (request) => {
		requests.push(request);
		const next = pages[requests.length - 1];
		if (next === undefined) throw new Error('no more scripted pages');
		return next;
	};
	return { requests, ...sourceOf(fetchPage) };
}

describe('walking every page', () => {
	it('walks every page 100 at a time, passing cursors back verbatim and reading ahead', async () => {
		const api = fakeApi(250);
		const sentBeforeTaking: number[] = [];
		const keep = (found: Projects) => {
			sentBeforeTaking.push(api.requests.length);
			return found;
		};
		const gathered = await walkOn(api, Infinity, keep, { fullPages: true });
		expect(gathered.items).toEqual(api.all);
		expect(api.requests).toEqual([
			{ limit: 100 },
			{ cursor: 'c/+=?&#100', limit: 100 },
			{ cursor: 'c/+=?&#200', limit: 100 },
		]);
		// A limit of Infinity reads ahead: page 2 was asked for before page 1 was taken, and so on.
		expect(sentBeforeTaking).toEqual([2, 3, 3]);
	});

	it('returns an empty list for an empty first page', async () => {
		const api = scripted([page([])]);
		expect(await everyProjectOf(api)).toEqual([]);
	});

	it.each([
		['without a cursor', [page(projects(2), 'c1'), pageOf(projects(2, 'q'), true, null)], 2],
		['with an empty cursor', [pageOf([], true, '')], 1],
	])('stops with a clear error when a next page is announced %s', async (_case, pages, last) => {
		const api = scripted(pages);
		await expect(everyProjectOf(api)).rejects.toMatchObject(
			unfollowable(
				`The API said page ${last} is followed by another but sent no cursor for it, so the walk stopped there`,
			),
		);
		expect(api.requests).toHaveLength(last);
	});

	it('stops with a clear error instead of looping when a cursor repeats', async () => {
		const api = scripted([
			page(projects(1), 'a'),
			page(projects(1, 'q'), 'b'),
			page(projects(1, 'r'), 'a'),
		]);
		await expect(everyProjectOf(api)).rejects.toMatchObject(
			unfollowable(
				'The API sent a cursor on page 3 that it had already sent, so the walk stopped rather than loop',
			),
		);
		expect(api.requests.map((r) => r.cursor)).toEqual([undefined, 'a', 'b']);
	});

	it('trusts hasNextPage false even when a cursor is present', async () => {
		const api = scripted([pageOf(projects(1), false, 'x')]);
		expect(await everyProjectOf(api)).toHaveLength(1);
		expect(api.requests).toHaveLength(1);
	});
});

describe('paging the walk cannot follow', () => {
	it("is an n8n API error of kind paging, with the API's fault and the advice its caller chose", () => {
		const error = pagingError(node, 'a cursor repeated', ADVICE);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error).toMatchObject(unfollowable('a cursor repeated'));
	});

	it('is met only by a consumer that wants the page after it: a limit met on its page avoids it', async () => {
		const faulty = () => scripted([pageOf(projects(3), true, null)]);
		const gathered = await walkOn(faulty(), 3);
		expect(idsOf(gathered.items)).toEqual(['p1', 'p2', 'p3']);
		await expect(walkOn(faulty(), 4)).rejects.toMatchObject(
			unfollowable(
				'The API said page 1 is followed by another but sent no cursor for it, so the walk stopped there',
			),
		);
	});
});

describe('walkPages: a consumer that stops, a cursor to start from, and its bound', () => {
	it('fetches nothing more once the consumer stops', async () => {
		const api = fakeApi(1000);
		for await (const data of walkPages(api, () => MAX_PAGE_SIZE, noSkips)) {
			expect(data).toHaveLength(100);
			break;
		}
		expect(api.requests).toHaveLength(1);
	});

	it('starts at the cursor an earlier walk was given, and never follows it again', async () => {
		const api = fakeApi(300);
		const seen: string[] = [];
		const from = 'c/+=?&#100';
		for await (const data of walkPages(api, () => 100, noSkips, { from })) {
			seen.push(...idsOf(data));
		}
		expect(api.requests.map((request) => request.cursor)).toEqual([from, 'c/+=?&#200']);
		expect(seen[0]).toBe(api.all[100].projectId);
		expect(seen).toHaveLength(200);
	});

	it('refuses the cursor it started at when the API sends it back', async () => {
		const api = scripted([page(projects(1), 'a')]);
		const walk = async () => {
			for await (const data of walkPages(api, () => 100, noSkips, { from: 'a' })) idsOf(data);
		};
		await expect(walk()).rejects.toThrow(/a cursor on page 1 that it had already sent/);
		expect(api.requests.map((request) => request.cursor)).toEqual(['a']);
	});

	it('stops a walk whose pages never end at MAX_WALK_PAGES, with a paging error', async () => {
		let requests = 0;
		const endless: FetchPage = async () => {
			requests++;
			return pageOf([], true, `c${requests}`);
		};
		await expect(everyProjectOf(sourceOf(endless))).rejects.toMatchObject(
			unfollowable(
				'The API said page 1000 is followed by another, past the 100000 projects a walk follows at most, so the walk stopped there',
			),
		);
		expect(requests).toBe(MAX_WALK_PAGES);
	});
});

describe('walkToLimit', () => {
	it('asks only for what is still missing when each project gives an item', async () => {
		const api = fakeApi(250);
		const gathered = await walkOn(api, 130);
		expect(api.requests.map((r) => r.limit)).toEqual([100, 30]);
		expect(gathered.items).toHaveLength(130);
		expect(gathered).toMatchObject({ moreRead: false, morePages: true });
	});

	it('asks for full pages when projects may be dropped, and cuts what it read to the limit', async () => {
		const api = fakeApi(250);
		const odd = (projects: Projects) =>
			projects.filter((p) => Number(p.projectId.slice(1)) % 2 === 1);
		const gathered = await walkOn(api, 60, odd, { fullPages: true });
		expect(api.requests.map((r) => r.limit)).toEqual([100, 100]);
		expect(idsOf(gathered.items)).toEqual(idsOf(odd(api.all).slice(0, 60)));
		expect(gathered).toMatchObject({ moreRead: true, morePages: true });
	});

	it('says when the last page read was the last', async () => {
		const api = fakeApi(40);
		const gathered = await walkOn(api, 50);
		expect(api.requests.map((r) => r.limit)).toEqual([50]);
		expect(gathered).toMatchObject({ moreRead: false, morePages: false });
		expect(gathered.items).toHaveLength(40);
	});
});

/**
 * A fake API whose answers the test releases one at a time, recording what happens in order:
 * requests sent, answers given, pages handed to the consumer.
 */
function controlledApi(total: number, options: { failAt?: number } = {}) {
	const all = projects(total);
	const events: string[] = [];
	const waiting: Array<() => void> = [];
	let inFlight = 0;
	let mostInFlight = 0;
	let sent = 0;
	const fetchPage: FetchPage = async (request) => {
		const number = ++sent;
		events.push(`request ${number}`);
		inFlight++;
		mostInFlight = Math.max(mostInFlight, inFlight);
		await new Promise<void>((release) => waiting.push(release));
		inFlight--;
		events.push(`answer ${number}`);
		if (number === options.failAt) throw new Error(`page ${number} failed`);
		const start = request.cursor === undefined ? 0 : Number(request.cursor);
		const end = Math.min(all.length, start + request.limit);
		return page(all.slice(start, end), end < all.length ? String(end) : null);
	};
	/** Answers every request as it comes, after a turn of the event loop. */
	const answerAll = async (stop: () => boolean) => {
		while (!stop()) {
			const release = waiting.shift();
			if (release !== undefined) release();
			await sleep(1);
		}
	};
	return {
		events,
		...sourceOf(fetchPage),
		answerAll,
		mostInFlight: () => mostInFlight,
		inFlight: () => inFlight,
		sent: () => sent,
	};
}

/** Walks to the end, consuming each page with a pause, and records every step. */
async function consume(
	api: ReturnType<typeof controlledApi>,
	everyPage: boolean,
	stopAfter = Infinity,
): Promise<{ error?: unknown; pages: number }> {
	let pages = 0;
	let done = false;
	const answering = api.answerAll(() => done);
	try {
		for await (const data of walkPages(api, () => 10, noSkips, { everyPage })) {
			pages++;
			api.events.push(`consume ${pages} (${data.length})`);
			await sleep(5);
			api.events.push(`consumed ${pages}`);
			if (pages >= stopAfter) break;
		}
		return { pages };
	} catch (error) {
		return { error, pages };
	} finally {
		api.events.push('walk ended');
		done = true;
		await answering;
	}
}

describe('walkPages reading ahead (everyPage)', () => {
	it('sends the next request before handing over the current page, one request at a time', async () => {
		const api = controlledApi(25);
		expect(await consume(api, true)).toEqual({ pages: 3 });
		expect(api.events).toEqual([
			'request 1',
			'answer 1',
			'request 2',
			'consume 1 (10)',
			'answer 2',
			'consumed 1',
			'request 3',
			'consume 2 (10)',
			'answer 3',
			'consumed 2',
			'consume 3 (5)',
			'consumed 3',
			'walk ended',
		]);
		expect(api.mostInFlight()).toBe(1);
	});

	it('without everyPage, asks for the next page only once the consumer wants it', async () => {
		const api = controlledApi(25);
		expect(await consume(api, false)).toEqual({ pages: 3 });
		expect(api.events).toEqual([
			'request 1',
			'answer 1',
			'consume 1 (10)',
			'consumed 1',
			'request 2',
			'answer 2',
			'consume 2 (10)',
			'consumed 2',
			'request 3',
			'answer 3',
			'consume 3 (5)',
			'consumed 3',
			'walk ended',
		]);
	});

	it('hands over the pages before a failed request, then its error, in the same order as without', async () => {
		for (const everyPage of [true, false]) {
			const api = controlledApi(50, { failAt: 3 });
			const outcome = await consume(api, everyPage);
			expect(outcome.pages).toBe(2);
			expect(outcome.error).toEqual(new Error('page 3 failed'));
			expect(api.events.indexOf('consumed 2')).toBeLessThan(api.events.indexOf('walk ended'));
			expect(api.sent()).toBe(3);
		}
	});

	it('does not surface a failure read ahead for a consumer that stopped, and ends only once it settled', async () => {
		const api = controlledApi(50, { failAt: 2 });
		expect(await consume(api, true, 1)).toEqual({ pages: 1 });
		expect(api.sent()).toBe(2);
		expect(api.inFlight()).toBe(0);
		expect(api.events.indexOf('answer 2')).toBeLessThan(api.events.indexOf('walk ended'));
	});
});

describe('broken entries on a walk', () => {
	it('are left out where they stand, each told with its page before that page is handed over, and the walk goes on', async () => {
		const first = projects(2, 'a');
		const second = projects(2, 'b');
		const api = scripted([
			pageOf([first[0], null, first[1]], true, 'c1'),
			pageOf(['x', ...second], false, null),
		]);
		const told: string[] = [];
		const handedOver = (found: Projects) => {
			told.push(`page of ${found.length}`);
			return found;
		};
		const onSkipped = (entry: string) => told.push(entry);
		const gathered = await walkOn(api, Infinity, handedOver, { fullPages: true, onSkipped });
		expect(gathered.items).toEqual([...first, ...second]);
		expect(told).toEqual([
			'entry 2 of page 1 (data[1]) is null, not a project',
			'page of 2',
			'entry 1 of page 2 (data[0]) is a string, not a project',
			'page of 2',
		]);
	});

	it('do not count toward a limit: the walk reads on until it has that many clean projects', async () => {
		const clean = projects(3);
		const api = scripted([
			pageOf([clean[0], null], true, 'c1'),
			pageOf(clean.slice(1), false, null),
		]);
		const gathered = await walkOn(api, 2, everyProject, { onSkipped: () => undefined });
		expect(idsOf(gathered.items)).toEqual(['p1', 'p2']);
		expect(api.requests).toEqual([{ limit: 2 }, { cursor: 'c1', limit: 1 }]);
	});
});
