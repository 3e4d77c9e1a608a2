import {
	cut,
	MAX_BUDGET,
	MAX_DAYS,
	MAX_ENTRY_LENGTH,
	MAX_LIST_ENTRIES,
	quoted,
} from '../../../../../nodes/SupplierMatchedProjects/projects/bounds';
import { addDays } from '../../../../../nodes/SupplierMatchedProjects/projects/dates';
import { filterProjects } from '../../../../../nodes/SupplierMatchedProjects/projects/filters';
import {
	FilterError,
	parseFilters,
} from '../../../../../nodes/SupplierMatchedProjects/parameters/filters';
import { describeFilters } from '../../../../../nodes/SupplierMatchedProjects/actions/matchedProject/tool-answer';
import { project, tender } from '../../../../support/engine/n8n-fixtures';

const MEGABYTE = 'x'.repeat(1_048_576);

const badDays = (got: string) =>
	`Quotes Due Within (Days) filter: enter a whole number of days from 0 to 3650 (ten years) (got ${got})`;

describe('cut and quoted: long values are never echoed whole', () => {
	it('keeps short text whole', () => {
		expect(cut('NSW')).toBe('NSW');
		expect(cut('a'.repeat(MAX_ENTRY_LENGTH))).toBe('a'.repeat(MAX_ENTRY_LENGTH));
		expect(quoted('NSW')).toBe('"NSW"');
		expect(quoted(12)).toBe('12');
		expect(quoted(Number.NaN)).toBe('NaN');
		expect(quoted(['NSW', 'VIC'])).toBe('["NSW","VIC"]');
		expect(quoted(undefined)).toBe('undefined');
	});

	it('cuts long text to a prefix, an ellipsis and the length', () => {
		expect(cut(MEGABYTE)).toBe(`${'x'.repeat(100)}… (1,048,576 characters)`);
		expect(quoted(MEGABYTE)).toBe(`"${'x'.repeat(100)}…" (1,048,576 characters)`);
		expect(quoted(MEGABYTE).length).toBeLessThan(130);
		const list = quoted(Array.from({ length: 10_000 }, (_, index) => `entry-${index}`));
		expect(list).toMatch(/^\["entry-0","entry-1",.*… \(\d{3},\d{3} characters\)$/);
	});

	it('never cuts a character written as a surrogate pair in half', () => {
		const text = `${'a'.repeat(99)}${'🏗'.repeat(10)}`;
		expect(cut(text)).toBe(`${'a'.repeat(99)}… (119 characters)`);
		expect(cut(text)).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
	});
});

describe('parseFilters: every value within its bounds', () => {
	it.each([
		[{ quotesDueWithinDays: MAX_DAYS }, { quotesDueWithinDays: 3650 }],
		[{ budgetAtLeast: MAX_BUDGET }, { budgetAtLeast: 1_000_000_000_000 }],
		[
			{ locations: Array.from({ length: MAX_LIST_ENTRIES }, (_, index) => `${index}`).join(',') },
			{ locations: Array.from({ length: 500 }, (_, index) => `${index}`) },
		],
		[{ builders: 'b'.repeat(MAX_ENTRY_LENGTH) }, { builders: ['b'.repeat(100)] }],
	])('accepts %#: the bound itself', (raw, parsed) => {
		expect(parseFilters(raw)).toEqual(parsed);
	});

	it.each([
		[{ quotesDueWithinDays: 100_000_000 }, badDays('100000000')],
		[{ quotesDueWithinDays: 3651 }, badDays('3651')],
		[
			{ budgetAtMost: 1e300 },
			'Budget At Most filter: enter a number of dollars from 0 to 1,000,000,000,000 (a trillion), without "$" or commas (got 1e+300)',
		],
		[
			{ projectIds: Array.from({ length: 501 }, (_, index) => `p${index}`).join(',') },
			'Project IDs filter: 501 entries are more than the 500 a filter takes; enter fewer project IDs',
		],
		[
			{ matchedKeywords: 'k,'.repeat(600) },
			'Matched Keywords filter: 600 entries are more than the 500 a filter takes; enter fewer keywords',
		],
		[
			{ locations: `NSW, ${MEGABYTE}` },
			`Location filter: the entry "${'x'.repeat(100)}…" (1,048,576 characters) is longer than 100 characters; enter words or postcodes of at most 100 characters each, separated by commas`,
		],
		[
			{ categories: 'c'.repeat(101) },
			`Category filter: the entry "${'c'.repeat(100)}…" (101 characters) is longer than 100 characters; enter categories of at most 100 characters each, separated by commas`,
		],
		[
			{ builders: `${MEGABYTE},,` },
			`Builder filter: "${'x'.repeat(100)}…" (1,048,578 characters) has an empty entry; remove the extra comma or enter words of builder names between the commas`,
		],
		[
			{ tenderTypes: ['A', 'B', 'C', 'D', MEGABYTE] },
			'Tender Type filter: "A", "B", "C" and 2 more is not one of Tender, Procurement',
		],
		[
			{ projectsWithoutBudget: MEGABYTE },
			`Projects Without Budget filter: "${'x'.repeat(100)}…" (1,048,576 characters) is not one of keep, drop`,
		],
	])(
		'refuses %#: says the bound and what to enter, quoting no more than a prefix',
		(raw, message) => {
			expect(() => parseFilters(raw)).toThrow(new FilterError(message));
		},
	);

	it('filters with the most days it takes (100,000,000 days gave "Invalid time value")', () => {
		const today = '2030-03-01';
		expect(addDays(today, MAX_DAYS)).toBe('2040-02-27');
		const filters = parseFilters({ quotesDueWithinDays: MAX_DAYS });
		const kept = filterProjects(
			[project({ tenders: [tender({ quotesDueAt: '2040-02-27' })] })],
			filters,
			today,
		);
		expect(kept).toHaveLength(1);
	});
});

describe('describeFilters: what the answer repeats of a model filter', () => {
	it('names ten values at most and cuts each long one', () => {
		const phrases = describeFilters(
			{
				projectIds: Array.from({ length: 40 }, (_, index) => `p${index}`),
				locations: [MEGABYTE],
			},
			'2030-03-01',
		);
		expect(phrases).toEqual([
			'project ID is p0 or p1 or p2 or p3 or p4 or p5 or p6 or p7 or p8 or p9 or 30 more',
			`address contains ${'x'.repeat(100)}… (1,048,576 characters)`,
		]);
	});

	it('repeats a value at its bound whole', () => {
		const { locations = [] } = parseFilters({ locations: 'l'.repeat(MAX_ENTRY_LENGTH) });
		expect(describeFilters({ locations }, '2030-03-01')).toEqual([
			`address contains ${'l'.repeat(100)}`,
		]);
	});
});
