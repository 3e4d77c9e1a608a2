import {
	filterProjects,
	hasFilters,
	PROJECT_STATUSES,
	TENDER_TYPES,
	type ProjectFilters,
} from '../../../../../nodes/SupplierMatchedProjects/projects/filters';
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { filtersProperty } from '../../../../../nodes/SupplierMatchedProjects/descriptions';
import { addDays } from '../../../../../nodes/SupplierMatchedProjects/projects/dates';
import { project, tender } from '../../../../support/engine/n8n-fixtures';

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

/** The projects and tenders of `list()` these filters keep, as `ids` names them. */
const keptOfList = (filters: ProjectFilters) => ids(filterProjects(list(), filters, today));

describe('filterProjects', () => {
	it('returns the very same projects when no filter is set, Keep Without Budget alone being none', () => {
		const input = list();
		expect(filterProjects(input, {}, today)).toBe(input);
		expect(filterProjects(input, { withoutBudget: 'keep' }, today)).toBe(input);
	});

	// tenderTypes drops a project left without tenders; a due window runs from today to N days
	// ahead, inclusive, and never takes an undated tender; keywords ignore case and spaces.
	it.each<[ProjectFilters, string[]]>([
		[{ tenderTypes: ['Procurement'] }, ['active:a-proc-late', 'closed:c-proc-today']],
		[{ projectStatuses: ['Closed'] }, ['closed:c-proc-today']],
		[{ quotesDueWithinDays: 4 }, ['active:a-tender-soon', 'closed:c-proc-today']],
		[{ quotesDueWithinDays: 0 }, ['closed:c-proc-today']],
		[{ quotesDueWithinDays: 60 }, ['active:a-tender-soon,a-proc-late', 'closed:c-proc-today']],
		[{ matchedKeywords: [' plumbing ', 'HVAC'] }, ['active:a-tender-soon,a-undated']],
		[
			{ tenderTypes: ['Tender'], quotesDueWithinDays: 10, matchedKeywords: ['plumbing'] },
			['active:a-tender-soon'],
		],
	])('with %j keeps %j', (filters, kept) => {
		expect(keptOfList(filters)).toEqual(kept);
	});

	it('leaves out tenders already past due', () => {
		const past = [project({ tenders: [tender({ quotesDueAt: '2030-02-28' })] })];
		expect(filterProjects(past, { quotesDueWithinDays: 30 }, today)).toEqual([]);
	});

	it('does not change the projects it filters', () => {
		const input = list();
		const copy = structuredClone(input);
		filterProjects(input, { tenderTypes: ['Tender'] }, today);
		expect(input).toEqual(copy);
	});

	it('needs every kind of filter to pass and any value within a kind', () => {
		const input = [
			project({
				projectId: 'yes',
				category: 'Civic',
				address: 'Parramatta NSW 2150',
				budget: { low: 2_000_000, high: null },
				tenders: [
					tender({ id: 'y1', builder: { name: 'Acme', website: null } }),
					tender({ id: 'y2', builder: { name: 'Zed', website: null } }),
				],
			}),
			project({
				projectId: 'wrong-place',
				category: 'Civic',
				address: 'Hobart TAS 7000',
				budget: { low: 2_000_000, high: null },
				tenders: [tender({ id: 'w1', builder: { name: 'Acme', website: null } })],
			}),
			project({
				projectId: 'too-small',
				category: 'Retail',
				address: 'Parramatta NSW 2150',
				budget: { low: 0, high: 100_000 },
				tenders: [tender({ id: 's1', builder: { name: 'Acme', website: null } })],
			}),
		];
		const filters: ProjectFilters = {
			budgetAtLeast: 1_000_000,
			categories: ['civic', 'retail'],
			locations: ['2150', 'Geelong'],
			builders: ['acme', 'bravo'],
			tenderTypes: ['Tender'],
		};
		expect(ids(filterProjects(input, filters, today))).toEqual(['yes:y1']);
	});

	it('keeps the projects with the exact IDs asked for, in the order the API listed them', () => {
		const filters: ProjectFilters = { projectIds: ['p3', 'p1'] };
		expect(hasFilters(filters)).toBe(true);
		const projects = ['p1', 'p2', 'p3', 'P1'].map((projectId) => project({ projectId }));
		expect(filterProjects(projects, filters, today).map((kept) => kept.projectId)).toEqual([
			'p1',
			'p3',
		]);
	});
});

describe('budget', () => {
	const budgeted = () => [
		project({ projectId: 'small', budget: { low: 100_000, high: 500_000 } }),
		project({ projectId: 'middle', budget: { low: 1_000_000, high: 5_000_000 } }),
		project({ projectId: 'open-top', budget: { low: 10_000_000, high: null } }),
		project({ projectId: 'none', budget: null }),
	];
	const kept = (filters: ProjectFilters) =>
		filterProjects(budgeted(), filters, today).map((p) => p.projectId);

	// A band is kept when it overlaps the bounds, each bound included; an open top end (high null)
	// reaches any At Least; without a budget a project goes when a bound is set, unless kept.
	it.each<[ProjectFilters, string[]]>([
		[{ budgetAtLeast: 500_000 }, ['small', 'middle', 'open-top']],
		[{ budgetAtLeast: 500_001 }, ['middle', 'open-top']],
		[{ budgetAtLeast: 3_000_000 }, ['middle', 'open-top']],
		[{ budgetAtLeast: 1e12 }, ['open-top']],
		[{ budgetAtMost: 1_000_000 }, ['small', 'middle']],
		[{ budgetAtMost: 999_999 }, ['small']],
		[{ budgetAtMost: 10_000_000 }, ['small', 'middle', 'open-top']],
		[{ budgetAtLeast: 400_000, budgetAtMost: 2_000_000 }, ['small', 'middle']],
		[{ budgetAtLeast: 600_000, budgetAtMost: 900_000 }, []],
		[{ budgetAtLeast: 2_000_000, budgetAtMost: 2_000_000 }, ['middle']],
		[{ budgetAtLeast: 0 }, ['small', 'middle', 'open-top']],
		[{ budgetAtLeast: 0, withoutBudget: 'drop' }, ['small', 'middle', 'open-top']],
		[{ budgetAtMost: 200_000, withoutBudget: 'keep' }, ['small', 'none']],
		[{ withoutBudget: 'drop' }, ['small', 'middle', 'open-top']],
	])('with %j keeps %j', (filters, expected) => {
		expect(kept(filters)).toEqual(expected);
	});

	it('treats a budget without a numeric bottom end as no budget', () => {
		const odd = [
			project({ projectId: 'no-low', budget: { high: 10 } as never }),
			project({ projectId: 'text', budget: 'lots' as never }),
		];
		expect(filterProjects(odd, { budgetAtMost: 1e9 }, today)).toEqual([]);
		expect(
			filterProjects(odd, { budgetAtMost: 1e9, withoutBudget: 'keep' }, today).map(
				(p) => p.projectId,
			),
		).toEqual(['no-low', 'text']);
	});

	it('keeps or drops a project with all its tenders', () => {
		const two = [
			project({ budget: { low: 1, high: 2 }, tenders: [tender({ id: 'x' }), tender({ id: 'y' })] }),
		];
		expect(ids(filterProjects(two, { budgetAtLeast: 1 }, today))).toEqual([
			`${two[0].projectId}:x,y`,
		]);
	});
});

describe('category', () => {
	const categorised = () => [
		project({ projectId: 'res', category: 'Residential' }),
		project({ projectId: 'aged', category: '  Aged Care ' }),
		project({ projectId: 'com', category: 'Commercial' }),
		project({ projectId: 'none', category: null as never }),
	];
	const kept = (categories: string[]) =>
		filterProjects(categorised(), { categories }, today).map((p) => p.projectId);

	it('keeps projects in any of the categories, case and surrounding spaces aside, whole', () => {
		expect(kept(['residential', 'AGED CARE'])).toEqual(['res', 'aged']);
		expect(kept([' Commercial  '])).toEqual(['com']);
		// Whole categories, not parts of them.
		expect(kept(['Aged'])).toEqual([]);
		expect(kept(['Residential Care'])).toEqual([]);
	});
});

describe('location', () => {
	const placed = () => [
		project({ projectId: 'cafe', address: '12 Rue du Café, Nouméa 98800, New Caledonia' }),
		project({ projectId: 'syd', address: '1 George St, Sydney NSW 2000, Australia' }),
		project({ projectId: 'mel', address: '5 Collins St, Melbourne VIC 3000, Australia' }),
		project({ projectId: 'none', address: null as never }),
	];
	const kept = (locations: string[]) =>
		filterProjects(placed(), { locations }, today).map((p) => p.projectId);

	it('finds accented text from unaccented words and the other way round', () => {
		expect(kept(['cafe'])).toEqual(['cafe']);
		expect(kept(['NOUMEA'])).toEqual(['cafe']);
		const plain = [project({ projectId: 'plain', address: '3 Cafe Lane, Hobart TAS 7000' })];
		expect(filterProjects(plain, { locations: ['Café'] }, today)).toHaveLength(1);
	});

	it('keeps projects whose address contains any word or postcode, case aside', () => {
		expect(kept(['nsw', '3000'])).toEqual(['syd', 'mel']);
		expect(kept(['Perth'])).toEqual([]);
		// Within words: a word is text the address contains.
		expect(kept(['Sydne'])).toEqual(['syd']);
		expect(kept(['300'])).toEqual(['mel']);
	});
});

describe('builder', () => {
	const built = () => [
		project({
			projectId: 'p',
			tenders: [
				tender({ id: 'acme', builder: { name: 'Acme Builders Pty Ltd', website: null } }),
				tender({ id: 'hansen', builder: { name: 'Hänsen & Søn', website: null } }),
				tender({ id: 'nobody', builder: null as never }),
			],
		}),
		project({
			projectId: 'q',
			tenders: [tender({ id: 'other', builder: { name: 'Other' } as never })],
		}),
	];

	it('keeps the tenders whose lead builder name contains any word, and their project', () => {
		expect(ids(filterProjects(built(), { builders: ['acme'] }, today))).toEqual(['p:acme']);
		expect(ids(filterProjects(built(), { builders: ['HANSEN', 'other'] }, today))).toEqual([
			'p:hansen',
			'q:other',
		]);
		// A project none of whose tenders pass goes.
		expect(ids(filterProjects(built(), { builders: ['Zenith'] }, today))).toEqual([]);
	});
});

describe('dates', () => {
	it('adds days across month and year ends', () => {
		expect(addDays('2030-02-27', 2)).toBe('2030-03-01');
		expect(addDays('2030-12-31', 1)).toBe('2031-01-01');
		expect(addDays('2032-02-28', 1)).toBe('2032-02-29');
	});
});

describe('the Filters a user picks from', () => {
	// Built from the accepted values, so the lint's check of a literal list's order cannot see them.
	const choices = (name: string) =>
		((filtersProperty.options as INodeProperties[]).find((option) => option.name === name)
			?.options ?? []) as INodePropertyOptions[];

	it.each([
		['projectStatuses', PROJECT_STATUSES],
		['tenderTypes', TENDER_TYPES],
	])(
		'offers exactly the %s the filter accepts, each named as its value, in alphabetical order',
		(name, accepted) => {
			const offered = choices(name);
			expect(offered.map((option) => option.value)).toEqual([...accepted].sort());
			for (const option of offered) expect(option.name).toBe(option.value);
		},
	);
});
