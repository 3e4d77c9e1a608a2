import {
	DEFAULT_PAGE_SIZE,
	MAX_PAGE_SIZE,
	pagesFor,
	requestFloor,
	tokenFloor,
} from '../../../../scripts/bench/floors';
import { renderSections } from '../../../../scripts/bench/tables';

describe('bench arithmetic', () => {
	it('needs one request per started page, and the first one when there is nothing to list', () => {
		expect(pagesFor(100, MAX_PAGE_SIZE)).toBe(1);
		expect(pagesFor(101, MAX_PAGE_SIZE)).toBe(2);
		expect(pagesFor(10_000, MAX_PAGE_SIZE)).toBe(100);
		expect(pagesFor(10_000, DEFAULT_PAGE_SIZE)).toBe(400);
		expect(pagesFor(1, DEFAULT_PAGE_SIZE)).toBe(1);
		expect(pagesFor(0, MAX_PAGE_SIZE)).toBe(1);
	});

	it('puts the request floor at full pages plus one token', () => {
		expect(requestFloor(100)).toEqual({ results: 1, tokens: 1 });
		expect(requestFloor(1_000)).toEqual({ results: 10, tokens: 1 });
		expect(requestFloor(10_001)).toEqual({ results: 101, tokens: 1 });
	});

	it('needs one token per lifetime started', () => {
		const hour = 3_600_000;

		expect(tokenFloor(0, hour)).toBe(1);
		expect(tokenFloor(hour - 1, hour)).toBe(1);
		expect(tokenFloor(hour, hour)).toBe(2);
		expect(tokenFloor(245 * 60_000, hour)).toBe(5);
	});

	it('right-aligns columns of numbers in its tables and escapes pipes in cells', () => {
		const table = renderSections([
			{
				title: 'Requests',
				headers: ['client', 'count'],
				rows: [
					['ours', '1'],
					['recipe | OAuth2', '1,000'],
				],
			},
		]);
		expect(table.split('\n')).toEqual([
			'',
			'**Requests**',
			'',
			'| client           | count |',
			'| :--------------- | ----: |',
			'| ours             |     1 |',
			'| recipe \\| OAuth2 | 1,000 |',
		]);
	});
});
