import { markdownTable, textTable } from '../../scripts/bench/report';
import {
	DEFAULT_PAGE_SIZE,
	MAX_PAGE_SIZE,
	median,
	pagesFor,
	perSecond,
	ratio,
	requestFloor,
	tokenFloor,
	verdict,
} from '../../scripts/bench/stats';

describe('bench arithmetic', () => {
	describe('pagesFor', () => {
		it('needs one request per started page', () => {
			expect(pagesFor(100, MAX_PAGE_SIZE)).toBe(1);
			expect(pagesFor(101, MAX_PAGE_SIZE)).toBe(2);
			expect(pagesFor(10_000, MAX_PAGE_SIZE)).toBe(100);
			expect(pagesFor(10_000, DEFAULT_PAGE_SIZE)).toBe(400);
			expect(pagesFor(1, DEFAULT_PAGE_SIZE)).toBe(1);
		});

		it('still needs the first request when there is nothing to list', () => {
			expect(pagesFor(0, MAX_PAGE_SIZE)).toBe(1);
		});

		it('refuses sizes that are not whole numbers', () => {
			expect(() => pagesFor(-1, 100)).toThrow('projects must be a whole number');
			expect(() => pagesFor(10, 0)).toThrow('pageSize must be a whole number, 1 or more');
			expect(() => pagesFor(10, 2.5)).toThrow('pageSize');
		});
	});

	it('puts the request floor at full pages plus one token', () => {
		expect(requestFloor(100)).toEqual({ results: 1, tokens: 1 });
		expect(requestFloor(1_000)).toEqual({ results: 10, tokens: 1 });
		expect(requestFloor(10_001)).toEqual({ results: 101, tokens: 1 });
	});

	describe('tokenFloor', () => {
		const hour = 3_600_000;

		it('needs one token per lifetime started', () => {
			expect(tokenFloor(0, hour)).toBe(1);
			expect(tokenFloor(hour - 1, hour)).toBe(1);
			expect(tokenFloor(hour, hour)).toBe(2);
			expect(tokenFloor(245 * 60_000, hour)).toBe(5);
		});

		it('refuses a negative span or a lifetime of zero', () => {
			expect(() => tokenFloor(-1, hour)).toThrow('tokenFloor');
			expect(() => tokenFloor(10, 0)).toThrow('positive lifetime');
		});
	});

	describe('median', () => {
		it('takes the middle value, or the mean of the two middle ones', () => {
			expect(median([3, 1, 2])).toBe(2);
			expect(median([4, 1, 3, 2])).toBe(2.5);
			expect(median([7])).toBe(7);
		});

		it('leaves its input in order', () => {
			const values = [3, 1, 2];
			median(values);
			expect(values).toEqual([3, 1, 2]);
		});

		it('has nothing to say about no values', () => {
			expect(() => median([])).toThrow('no values');
		});
	});

	it('divides by the floor and counts per second', () => {
		expect(ratio(5_250, 5_000)).toBeCloseTo(1.05, 10);
		expect(() => ratio(1, 0)).toThrow('the floor must be positive');
		expect(perSecond(30_000, 300)).toBe(100_000);
		expect(() => perSecond(1, 0)).toThrow('the time must be positive');
	});

	describe('verdict', () => {
		const format = (value: number) => `${value} ms`;

		it('meets an upper bound at the bound and misses it above', () => {
			expect(verdict('t', 1.05, '<=', 1.05, format).met).toBe(true);
			expect(verdict('t', 1.051, '<=', 1.05, format).met).toBe(false);
		});

		it('misses a strict upper bound at the bound', () => {
			expect(verdict('t', 200, '<', 200, format)).toEqual({
				target: 't',
				measured: '200 ms',
				met: false,
			});
			expect(verdict('t', 199.9, '<', 200, format).met).toBe(true);
		});

		it('meets a lower bound at the bound and misses it below', () => {
			expect(verdict('t', 100_000, '>=', 100_000, format).met).toBe(true);
			expect(verdict('t', 99_999, '>=', 100_000, format).met).toBe(false);
		});
	});

	describe('tables', () => {
		it('lines up columns and right-aligns numbers', () => {
			const table = textTable(
				['name', 'count'],
				[
					['ours', '1'],
					['recipe', '1,000'],
				],
			);
			expect(table.split('\n')).toEqual([
				'name    count',
				'------  -----',
				'ours        1',
				'recipe  1,000',
			]);
		});

		it('escapes pipes in Markdown cells', () => {
			expect(markdownTable(['a'], [['x | y']])).toBe('| a |\n| --- |\n| x \\| y |');
		});
	});
});
