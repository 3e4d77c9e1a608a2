import type { ResultsPage } from '../../nodes/SupplierMatchedProjects/api/types';
import { ids, harnessFor, SANDBOX_FIXTURES, sandboxDay, sortKey, withHarness } from './harness';

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Replaces one base64url character by another, chosen from its alphabet index. */
function replaceAt(text: string, position: number, change: (index: number) => number): string {
	const replacement = BASE64URL.charAt(change(BASE64URL.indexOf(text.charAt(position))));
	return `${text.slice(0, position)}${replacement}${text.slice(position + 1)}`;
}

describe('sandbox results endpoint: limit, ordering and cursors', () => {
	const harness = harnessFor({ projects: 300, cacheSeconds: 0, rateLimit: false });

	async function page(
		options: { cursor?: string; limit?: number | string; companyId?: string } = {},
	) {
		const result = await harness.client.results({ token: harness.token, ...options });
		expect(result.status).toBe(200);
		return result.body as ResultsPage;
	}

	describe('limit', () => {
		// The 100 row proves the company has more than the default 25 to list.
		it.each([
			[undefined, 25],
			[1, 1],
			[100, 100],
			['007', 7],
		])('limit %s (undefined: the default) gives a page of %s', async (limit, size) => {
			const first = await page({ limit });

			expect(first.data).toHaveLength(size);
		});

		// 101 and a cursor that is no cursor at all: the contract test.
		const once = 'limit must be a whole number from 1 to 100';
		it.each([
			['0', 'limit=0', once],
			['a fraction', 'limit=1.5', once],
			['a word', 'limit=abc', once],
			['empty', 'limit=', once],
			['negative', 'limit=-1', once],
			['padded', 'limit=+5', once],
			['exponent', 'limit=1e2', once],
			['huge', 'limit=99999999999999999999', once],
			['sent twice', 'limit=5&limit=5', 'limit was sent more than once'],
		])('refuses %s with 400 INVALID_LIMIT', async (_case, query, message) => {
			const result = await harness.client.results({ token: harness.token, query });

			expect(result.status).toBe(400);
			expect(result.body).toEqual({
				code: 'INVALID_LIMIT',
				message: expect.stringContaining(message),
			});
		});
	});

	describe('ordering', () => {
		it('orders by earliest open quotesDueAt, projects without a date last, ties by projectId', async () => {
			const { projects } = await harness.client.walk({ token: harness.token, limit: 100 });
			const keys = projects.map(sortKey);

			expect(keys).toEqual([...keys].sort());
			expect(new Set(ids(projects)).size).toBe(projects.length);
			const undated = projects.filter((project) =>
				project.tenders.every((tender) => tender.quotesDueAt === null),
			);
			expect(undated.length).toBeGreaterThan(0);
			expect(projects.slice(-undated.length)).toEqual(undated);
			const dueDates = projects.map((project) => sortKey(project).split('|')[0]);
			expect(dueDates.some((date, index) => index > 0 && date === dueDates[index - 1])).toBe(true);
		});

		it('orders tenders inside a project by quotesDueAt, undated last', async () => {
			const projects = harness.sandbox.listOpen(SANDBOX_FIXTURES.companyId);
			const multi = projects.filter((project) => project.tenders.length > 1);

			expect(multi.length).toBeGreaterThan(0);
			for (const project of multi) {
				const dates = project.tenders.map((tender) => tender.quotesDueAt ?? '~');
				expect(dates).toEqual([...dates].sort());
			}
		});
	});

	describe('cursor', () => {
		it('walks exactly listOpen, the ground truth, even when limit changes between pages, with hasNextPage exactly when nextCursor is not null', async () => {
			const limits = [3, 17, 1, 100, 4, 25, 2];
			const pages: ResultsPage[] = [];
			let cursor: string | undefined;
			do {
				const next = await page({ cursor, limit: limits[pages.length % limits.length] });
				expect(next._metadata.hasNextPage).toBe(next._metadata.nextCursor !== null);
				pages.push(next);
				cursor = next._metadata.nextCursor ?? undefined;
			} while (cursor !== undefined);

			expect(pages.length).toBeGreaterThan(2);
			expect(pages.flatMap((each) => each.data)).toEqual(
				harness.sandbox.listOpen(SANDBOX_FIXTURES.companyId),
			);
			expect(pages.at(-1)?._metadata).toEqual({ nextCursor: null, hasNextPage: false });
		});

		it('keeps its position when data changes mid-walk: nothing after it is skipped or repeated', async () => {
			const before = harness.sandbox.listOpen(SANDBOX_FIXTURES.companyId);
			const first = await page({ limit: 10 });
			const lastKey = sortKey(first.data[first.data.length - 1]);

			// Close every open tender of the first returned project: with offset paging this would shift everything.
			for (const tender of first.data[0].tenders) harness.sandbox.closeTender(tender.id);
			const later = harness.sandbox.openTender({ quotesDueAt: sandboxDay(harness.sandbox, 59) });
			const earlier = harness.sandbox.openTender({ quotesDueAt: sandboxDay(harness.sandbox, 0) });
			const after = harness.sandbox.listOpen(SANDBOX_FIXTURES.companyId);

			const cursor = first._metadata.nextCursor as string;
			const { projects: rest } = await harness.client.walk({
				token: harness.token,
				limit: 10,
				cursor,
			});

			expect(rest).toEqual(after.filter((project) => sortKey(project) > lastKey));
			expect(ids(rest)).toContain(later.projectId);
			expect(ids(rest)).not.toContain(earlier.projectId);
			const unchangedAfterCursor = before.filter(
				(project) => sortKey(project) > lastKey && ids(after).includes(project.projectId),
			);
			for (const project of unchangedAfterCursor) {
				expect(ids(rest).filter((id) => id === project.projectId)).toHaveLength(1);
			}
			expect(ids(rest).filter((id) => ids(first.data).includes(id))).toEqual([]);
		});

		it('keeps working when the project it points at disappears', async () => {
			const first = await page({ limit: 3 });
			const pointedAt = first.data[first.data.length - 1];
			for (const tender of pointedAt.tenders) harness.sandbox.closeTender(tender.id);

			const next = await page({ cursor: first._metadata.nextCursor ?? undefined, limit: 3 });

			const truth = harness.sandbox.listOpen(SANDBOX_FIXTURES.companyId);
			const expected = truth.filter((project) => sortKey(project) > sortKey(pointedAt)).slice(0, 3);
			expect(ids(next.data)).toEqual(ids(expected));
		});

		it.each<[string, (cursor: string) => string]>([
			[
				'an edited payload',
				(cursor) => `${cursor.charAt(0) === 'W' ? 'X' : 'W'}${cursor.slice(1)}`,
			],
			[
				'an edited signature',
				(cursor) => replaceAt(cursor, cursor.length - 10, (index) => index ^ 8),
			],
			// The last character of a 32-byte signature carries two unused bits; they must not be ignored.
			[
				'a signature with its spare bits changed',
				(cursor) => replaceAt(cursor, cursor.length - 1, (index) => index ^ 1),
			],
			['a truncated cursor', (cursor) => cursor.slice(0, cursor.length - 5)],
			[
				'a made-up cursor',
				() => Buffer.from(JSON.stringify({ after: 'prj-000001' })).toString('base64url'),
			],
			['an empty cursor', () => ''],
		])('refuses %s with 400 INVALID_CURSOR', async (_case, tamper) => {
			const first = await page({ limit: 2 });
			const cursor = first._metadata.nextCursor as string;

			const result = await harness.client.results({
				token: harness.token,
				cursor: tamper(cursor),
				limit: 2,
			});

			expect(result.status).toBe(400);
			expect(result.body).toEqual({
				code: 'INVALID_CURSOR',
				message: expect.stringContaining('cursor'),
			});
		});

		it("refuses another company's cursor, a repeated cursor and another sandbox's cursor", async () => {
			const second = await page({ limit: 2, companyId: SANDBOX_FIXTURES.secondCompanyId });
			const cursor = second._metadata.nextCursor as string;
			await withHarness({ projects: 300 }, async (elsewhere) => {
				const foreignCompany = await harness.client.results({
					token: harness.token,
					cursor,
					limit: 2,
				});
				const repeated = await harness.client.results({
					token: harness.token,
					query: `cursor=${encodeURIComponent(cursor)}&cursor=${encodeURIComponent(cursor)}`,
					companyId: SANDBOX_FIXTURES.secondCompanyId,
				});
				const foreignSandbox = await elsewhere.client.results({
					token: elsewhere.token,
					cursor,
					companyId: SANDBOX_FIXTURES.secondCompanyId,
				});

				for (const result of [foreignCompany, repeated, foreignSandbox]) {
					expect(result.status).toBe(400);
					expect(result.body).toMatchObject({ code: 'INVALID_CURSOR' });
				}
			});
		});

		it('is opaque: it names no project, date or company in plain text', async () => {
			const first = await page({ limit: 1 });
			const cursor = first._metadata.nextCursor as string;

			expect(cursor).not.toContain(first.data[0].projectId);
			expect(cursor).not.toContain(SANDBOX_FIXTURES.companyId);
			expect(cursor).toMatch(/^[A-Za-z0-9_.-]+$/);
		});
	});
});
