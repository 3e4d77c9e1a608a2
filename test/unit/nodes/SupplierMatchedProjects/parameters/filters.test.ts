import {
	FilterError,
	parseFilters,
} from '../../../../../nodes/SupplierMatchedProjects/parameters/filters';

const badDays = (got: string) =>
	`Quotes Due Within (Days) filter: enter a whole number of days from 0 to 3650 (ten years) (got ${got})`;

const badDollars = (field: string, got: string) =>
	`${field} filter: enter a number of dollars from 0 to 1,000,000,000,000 (a trillion), without "$" or commas (got ${got})`;

const emptyEntry = (field: string, value: string, what: string) =>
	`${field} filter: "${value}" has an empty entry; remove the extra comma or enter ${what} between the commas`;

describe('parseFilters', () => {
	// Strict: a filter left empty is no key at all, not one holding undefined.
	it.each<[Record<string, unknown> | undefined, object]>([
		// Numbers given as plain text, as the other number parameters take them.
		[
			{ quotesDueWithinDays: ' 7 ', budgetAtLeast: '500000', budgetAtMost: '2500000.5' },
			{ quotesDueWithinDays: 7, budgetAtLeast: 500_000, budgetAtMost: 2_500_000.5 },
		],
		// A budget range whose bounds are equal.
		[
			{ budgetAtLeast: 1_000_000, budgetAtMost: 1_000_000 },
			{ budgetAtLeast: 1_000_000, budgetAtMost: 1_000_000 },
		],
		// The collection as the node gets it.
		[
			{
				tenderTypes: ['Tender'],
				projectStatuses: ['Active', 'Closed'],
				quotesDueWithinDays: 7,
				matchedKeywords: 'plumbing, roofing ,,',
			},
			{
				tenderTypes: ['Tender'],
				projectStatuses: ['Active', 'Closed'],
				quotesDueWithinDays: 7,
				matchedKeywords: ['plumbing', 'roofing'],
			},
		],
		// Budget bounds, the without-budget choice and comma-separated words.
		[
			{
				budgetAtLeast: 0,
				budgetAtMost: 2_500_000.5,
				projectsWithoutBudget: 'keep',
				categories: ' Residential , aged care',
				locations: 'NSW,Café',
				builders: ' Acme ',
			},
			{
				budgetAtLeast: 0,
				budgetAtMost: 2_500_000.5,
				withoutBudget: 'keep',
				categories: ['Residential', 'aged care'],
				locations: ['NSW', 'Café'],
				builders: ['Acme'],
			},
		],
		// Empty values, blank lists and empty bounds are no filter.
		[{ tenderTypes: [], projectStatuses: [], matchedKeywords: ' , ' }, {}],
		[{ categories: '  ', locations: '', builders: null, budgetAtLeast: '' }, {}],
		[{ projectIds: ' ' }, {}],
		[{ projectIds: '' }, {}],
		[undefined, {}],
	])('reads %j as %j', (raw, parsed) => {
		expect(parseFilters(raw)).toStrictEqual(parsed);
	});

	it.each([
		[
			{ tenderTypes: ['Auction'] },
			'Tender Type filter: "Auction" is not one of Tender, Procurement',
		],
		[{ projectStatuses: 'Open' }, 'Project Status filter: "Open" is not one of Active, Closed'],
		[{ quotesDueWithinDays: -1 }, badDays('-1')],
		[{ quotesDueWithinDays: 2.5 }, badDays('2.5')],
		[{ quotesDueWithinDays: 'seven' }, badDays('"seven"')],
		[{ quotesDueWithinDays: '7 days' }, badDays('"7 days"')],
		[
			{ matchedKeywords: ['a'] },
			'Matched Keywords filter: enter keywords separated by commas (got ["a"])',
		],
		[{ budgetAtLeast: -1 }, badDollars('Budget At Least', '-1')],
		[{ budgetAtMost: '1,000' }, badDollars('Budget At Most', '"1,000"')],
		[{ budgetAtMost: Number.NaN }, badDollars('Budget At Most', 'NaN')],
		[{ budgetAtLeast: '$1,000,000' }, badDollars('Budget At Least', '"$1,000,000"')],
		[
			{ budgetAtLeast: 2_000_000, budgetAtMost: 1_000_000 },
			'Budget filters: Budget At Least (2000000) is more than Budget At Most (1000000); lower Budget At Least or raise Budget At Most',
		],
		[
			{ projectsWithoutBudget: 'maybe' },
			'Projects Without Budget filter: "maybe" is not one of keep, drop',
		],
		[
			{ categories: 'Residential,,Civic' },
			emptyEntry('Category', 'Residential,,Civic', 'categories'),
		],
		[{ locations: 'NSW, ' }, emptyEntry('Location', 'NSW, ', 'words or postcodes')],
		[{ builders: ',Acme' }, emptyEntry('Builder', ',Acme', 'words of builder names')],
		[{ builders: ' , ' }, emptyEntry('Builder', ' , ', 'words of builder names')],
		[{ projectIds: 'p1,,p2' }, emptyEntry('Project IDs', 'p1,,p2', 'project IDs')],
		[
			{ locations: ['NSW', 'VIC'] },
			'Location filter: enter words or postcodes separated by commas (got ["NSW","VIC"])',
		],
		[
			{ builders: ['Acme'] },
			'Builder filter: enter words of builder names separated by commas (got ["Acme"])',
		],
	])('refuses %j with a message naming the field and what to enter', (raw, message) => {
		expect(() => parseFilters(raw)).toThrow(new FilterError(message));
	});
});
