import {
	addDays,
	FilterError,
	filterProjects,
	hasFilters,
	parseFilters,
	todayIn,
} from '../../nodes/SupplierMatchedProjects/helpers/items';
import { project, tender } from '../support/n8n-fixtures';

const today = '2030-03-01';

const list = () => [
	project({
		projectId: 'active',
		status: 'Active',
		tenders: [
			tender({
				id: 'a-tender-soon',
				type: 'Tender',
				quotesDueAt: '2030-03-05',
				matchedKeywords: ['Plumbing'],
			}),
			tender({
				id: 'a-proc-late',
				type: 'Procurement',
				quotesDueAt: '2030-04-30',
				matchedKeywords: ['roofing'],
			}),
			tender({ id: 'a-undated', type: 'Tender', quotesDueAt: null, matchedKeywords: ['hvac'] }),
		],
	}),
	project({
		projectId: 'closed',
		status: 'Closed',
		tenders: [
			tender({ id: 'c-proc-today', type: 'Procurement', quotesDueAt: today, matchedKeywords: [] }),
		],
	}),
];

const ids = (projects: ReturnType<typeof list>) =>
	projects.map((p) => `${p.projectId}:${p.tenders.map((t) => t.id).join(',')}`);

describe('filterProjects', () => {
	it('returns the very same projects when no filter is set', () => {
		const input = list();
		expect(filterProjects(input, {}, today)).toBe(input);
	});

	it('keeps tenders of the chosen types and drops projects left without tenders', () => {
		expect(ids(filterProjects(list(), { tenderTypes: ['Procurement'] }, today))).toEqual([
			'active:a-proc-late',
			'closed:c-proc-today',
		]);
	});

	it('keeps projects of the chosen statuses', () => {
		expect(ids(filterProjects(list(), { projectStatuses: ['Closed'] }, today))).toEqual([
			'closed:c-proc-today',
		]);
	});

	it('keeps tenders due from today to N days ahead, inclusive, and never undated ones', () => {
		expect(ids(filterProjects(list(), { quotesDueWithinDays: 4 }, today))).toEqual([
			'active:a-tender-soon',
			'closed:c-proc-today',
		]);
		expect(ids(filterProjects(list(), { quotesDueWithinDays: 0 }, today))).toEqual([
			'closed:c-proc-today',
		]);
		expect(ids(filterProjects(list(), { quotesDueWithinDays: 60 }, today))).toEqual([
			'active:a-tender-soon,a-proc-late',
			'closed:c-proc-today',
		]);
	});

	it('leaves out tenders already past due', () => {
		const past = [project({ tenders: [tender({ quotesDueAt: '2030-02-28' })] })];
		expect(filterProjects(past, { quotesDueWithinDays: 30 }, today)).toEqual([]);
	});

	it('matches keywords without regard to case or surrounding spaces', () => {
		expect(ids(filterProjects(list(), { matchedKeywords: [' plumbing ', 'HVAC'] }, today))).toEqual(
			['active:a-tender-soon,a-undated'],
		);
	});

	it('combines filters: every one must pass', () => {
		expect(
			ids(
				filterProjects(
					list(),
					{ tenderTypes: ['Tender'], quotesDueWithinDays: 10, matchedKeywords: ['plumbing'] },
					today,
				),
			),
		).toEqual(['active:a-tender-soon']);
	});

	it('does not change the projects it filters', () => {
		const input = list();
		const copy = structuredClone(input);
		filterProjects(input, { tenderTypes: ['Tender'] }, today);
		expect(input).toEqual(copy);
	});
});

describe('parseFilters', () => {
	it('reads the collection as the node gets it', () => {
		expect(
			parseFilters({
				tenderTypes: ['Tender'],
				projectStatuses: ['Active', 'Closed'],
				quotesDueWithinDays: 7,
				matchedKeywords: 'plumbing, roofing ,,',
			}),
		).toEqual({
			tenderTypes: ['Tender'],
			projectStatuses: ['Active', 'Closed'],
			quotesDueWithinDays: 7,
			matchedKeywords: ['plumbing', 'roofing'],
		});
	});

	it('treats empty values as no filter', () => {
		const filters = parseFilters({ tenderTypes: [], projectStatuses: [], matchedKeywords: ' , ' });
		expect(filters).toEqual({});
		expect(hasFilters(filters)).toBe(false);
		expect(parseFilters(undefined)).toEqual({});
	});

	it.each([
		[
			{ tenderTypes: ['Auction'] },
			'Tender Type filter: "Auction" is not one of Tender, Procurement',
		],
		[{ projectStatuses: 'Open' }, 'Project Status filter: "Open" is not one of Active, Closed'],
		[
			{ quotesDueWithinDays: -1 },
			'Quotes Due Within (Days) filter: enter a whole number of days, 0 or more (got -1)',
		],
		[
			{ quotesDueWithinDays: 2.5 },
			'Quotes Due Within (Days) filter: enter a whole number of days, 0 or more (got 2.5)',
		],
		[
			{ quotesDueWithinDays: '7' },
			'Quotes Due Within (Days) filter: enter a whole number of days, 0 or more (got "7")',
		],
		[
			{ matchedKeywords: ['a'] },
			'Matched Keywords filter: enter keywords separated by commas (got ["a"])',
		],
	])('refuses %j with a message saying what to enter', (raw, message) => {
		expect(() => parseFilters(raw)).toThrow(new FilterError(message));
	});
});

describe('dates', () => {
	it("gives today's date in the workflow's time zone", () => {
		const instant = new Date('2030-03-01T20:30:00Z');
		expect(todayIn('UTC', instant)).toBe('2030-03-01');
		expect(todayIn('Australia/Sydney', instant)).toBe('2030-03-02');
		expect(todayIn('America/Los_Angeles', instant)).toBe('2030-03-01');
	});

	it('adds days across month and year ends', () => {
		expect(addDays('2030-02-27', 2)).toBe('2030-03-01');
		expect(addDays('2030-12-31', 1)).toBe('2031-01-01');
		expect(addDays('2032-02-28', 1)).toBe('2032-02-29');
	});
});
