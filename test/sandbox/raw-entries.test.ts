import { createRawEntries } from '../../sandbox/raw-entries';

import { ids, harnessFor, SANDBOX_FIXTURES } from './harness';

describe('raw entries, on their own', () => {
	it('go into the first page only, each at its index, in the order they were added', () => {
		const raw = createRawEntries();
		expect(raw.add('c', { entry: null, at: 1 })).toBe(1);
		expect(raw.add('c', { entry: 'x' })).toBe(2);
		expect(raw.into('c', ['a', 'b'], true)).toEqual(['x', 'a', null, 'b']);
		expect(raw.into('c', ['a', 'b'], false)).toEqual(['a', 'b']);
		expect(raw.into('other', ['a'], true)).toEqual(['a']);
	});

	it('go last when their index is past the end, and leave the page they are put in untouched', () => {
		const raw = createRawEntries();
		raw.add('c', { entry: { projectId: 'p', tenders: 3 }, at: 50 });
		const data = ['a'];
		expect(raw.into('c', data, true)).toEqual(['a', { projectId: 'p', tenders: 3 }]);
		expect(data).toEqual(['a']);
	});

	it('are sent as they were given, whatever the caller changes later', () => {
		const raw = createRawEntries();
		const entry = { projectId: 'p', tenders: {} as Record<string, unknown> };
		raw.add('c', { entry });
		entry.tenders.later = 1;
		expect(raw.into('c', [], true)).toEqual([{ projectId: 'p', tenders: {} }]);
	});

	it('refuse a request without an entry, or with an index that is not a small whole number', () => {
		const raw = createRawEntries();
		expect(() => raw.add('c', {})).toThrow('a raw entry needs { entry }');
		expect(() => raw.add('c', { entry: null, at: -1 })).toThrow('at must be a whole number');
		expect(() => raw.add('c', { entry: null, at: 1.5 })).toThrow('at must be a whole number');
		expect(() => raw.add('c', { entry: null, at: '1' })).toThrow('at must be a whole number');
	});
});

describe('raw entries through the sandbox', () => {
	const company = SANDBOX_FIXTURES.companyId;
	// The cache stays on: adding an entry must show on the next request all the same.
	const harness = harnessFor({ rateLimit: false });

	const results = async (cursor?: string) =>
		(await harness.client.results({ token: harness.token, limit: 3, cursor })).body as {
			data: unknown[];
			_metadata: { nextCursor: string | null; hasNextPage: boolean };
		};

	it('puts a broken entry beside the clean projects of the first page, until cleared', async () => {
		const before = await results();
		const clean = before.data;
		expect(harness.sandbox.addRawEntry(company, { entry: null, at: 1 })).toBe(1);
		const first = await results();
		expect(first.data).toEqual([clean[0], null, ...clean.slice(1)]);
		// The cursor still follows the clean projects: the second page is as it was.
		expect(first._metadata).toEqual(before._metadata);
		const second = await results(first._metadata.nextCursor ?? undefined);
		expect(second.data).not.toContain(null);
		expect(ids(second.data as never)).toEqual(ids(harness.sandbox.listOpen(company).slice(3, 6)));
		harness.sandbox.clearRawEntries(company);
		expect((await results()).data).toEqual(clean);
	});
});
