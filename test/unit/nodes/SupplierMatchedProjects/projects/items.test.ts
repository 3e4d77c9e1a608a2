import type { Project } from '../../../../../nodes/SupplierMatchedProjects/api/types';
import {
	shapeItems,
	simplifyProject,
	simplifyTenderItem,
	splitTenders,
	type FlatRecord,
} from '../../../../../nodes/SupplierMatchedProjects/projects/items';
import { project, tender } from '../../../../support/engine/n8n-fixtures';

function isFlat(record: FlatRecord): boolean {
	return Object.values(record).every((value) => value === null || typeof value !== 'object');
}

const sample = (): Project =>
	project({
		projectId: 'p1',
		projectName: 'Harbour Tower',
		address: '1 Quay St, Sydney NSW 2000, Australia',
		category: 'Commercial',
		budget: { low: 2_000_000, high: null },
		status: 'Closed',
		consultants: [
			{ name: 'Smith, Jones & Co', website: null },
			{ name: 'Arup', website: 'https://arup.example' },
		],
		tenderingSubcontractors: [{ name: 'Sparky Pty', website: null }],
		url: 'https://app.example/p1',
		tenders: [
			tender({
				id: 't1',
				name: 'Plumbing',
				type: 'Tender',
				quotesDueAt: '2030-03-10',
				builder: { name: 'Acme', website: 'https://acme.example' },
				matchedKeywords: ['plumbing', 'hvac'],
			}),
			tender({
				id: 't2',
				name: 'Roofing',
				type: 'Procurement',
				quotesDueAt: null,
				tenderOpenAt: null,
				builder: { name: 'Bolt Construct', website: null },
				matchedKeywords: ['roofing', 'plumbing'],
			}),
		],
	});

/** The simplified row of `sample()`, its columns in the order a spreadsheet gets them. */
const SAMPLE_PROJECT_ROW = {
	projectId: 'p1',
	projectName: 'Harbour Tower',
	address: '1 Quay St, Sydney NSW 2000, Australia',
	category: 'Commercial',
	status: 'Closed',
	budgetLow: 2_000_000,
	budgetHigh: null,
	url: 'https://app.example/p1',
	tenderCount: 2,
	tenderNames: 'Plumbing; Roofing',
	tenderTypes: 'Tender; Procurement',
	earliestQuotesDueAt: '2030-03-10',
	builders: 'Acme; Bolt Construct',
	matchedKeywords: 'plumbing; hvac; roofing',
	consultants: 'Smith, Jones & Co; Arup',
	tenderingSubcontractors: 'Sparky Pty',
};

/** The simplified row of the second tender of `sample()`, its columns in order. */
const SAMPLE_SECOND_TENDER_ROW = {
	tenderId: 't2',
	tenderName: 'Roofing',
	tenderType: 'Procurement',
	tenderStatus: 'Open',
	tenderOpenAt: null,
	quotesDueAt: null,
	builderName: 'Bolt Construct',
	builderWebsite: null,
	matchedKeywords: 'roofing; plumbing',
	projectId: 'p1',
	projectName: 'Harbour Tower',
	projectAddress: '1 Quay St, Sydney NSW 2000, Australia',
	projectCategory: 'Commercial',
	projectStatus: 'Closed',
	projectBudgetLow: 2_000_000,
	projectBudgetHigh: null,
	projectUrl: 'https://app.example/p1',
	consultants: 'Smith, Jones & Co; Arup',
	tenderingSubcontractors: 'Sparky Pty',
};

describe('splitTenders', () => {
	it("gives one item per tender, the tender's fields on top and its project's under project", () => {
		const input = sample();
		const items = splitTenders(input);
		expect(items).toHaveLength(2);
		const { tenders, ...projectWithoutTenders } = input;
		expect(items[0]).toEqual({ ...tenders[0], project: projectWithoutTenders });
		expect(items[1].id).toBe('t2');
		expect('tenders' in items[0].project).toBe(false);
		// The project split is left as it was.
		expect(input).toEqual(sample());
	});

	it('keeps unknown fields of tenders and projects untouched', () => {
		const input = { ...sample(), newField: { deep: [1, 2] } } as Project;
		input.tenders[0] = { ...input.tenders[0], tenderExtra: 'x' } as Project['tenders'][number];
		const [first] = splitTenders(input);
		expect(first).toMatchObject({ tenderExtra: 'x', project: { newField: { deep: [1, 2] } } });
	});
});

describe('simplifyProject', () => {
	it('gives flat columns, joins lists with "; " and sums up the tenders', () => {
		const row = simplifyProject(sample());
		expect(row).toEqual(SAMPLE_PROJECT_ROW);
		expect(isFlat(row)).toBe(true);
	});

	it('copes with every null the API allows', () => {
		const row = simplifyProject(
			project({
				budget: null,
				consultants: [],
				tenders: [tender({ quotesDueAt: null, tenderOpenAt: null, matchedKeywords: [] })],
			}),
		);
		expect(row).toMatchObject({
			budgetLow: null,
			budgetHigh: null,
			earliestQuotesDueAt: null,
			matchedKeywords: '',
			consultants: '',
		});
	});

	it('sums up the tenders around an entry that is not a tender, as splitting keeps it', () => {
		const tenders = [null, tender({ name: 'Roofing', quotesDueAt: '2030-01-02T00:00:00Z' })];
		const row = simplifyProject(project({ tenders } as unknown as Partial<Project>));
		expect(row).toMatchObject({
			tenderCount: 2,
			tenderNames: 'Roofing',
			earliestQuotesDueAt: '2030-01-02T00:00:00Z',
		});
		expect(splitTenders(project({ tenders } as unknown as Partial<Project>))).toHaveLength(2);
	});

	it('flattens fields the API added later instead of dropping them, and puts them first', () => {
		const row = simplifyProject({ ...sample(), rating: 4, tags: ['a', 'b'] } as Project);
		expect(row).toMatchObject({ rating: 4, tags: '["a","b"]' });
		expect(isFlat(row)).toBe(true);
		// A spreadsheet takes its columns in this order; toEqual does not look at it.
		expect(Object.keys(row)).toEqual(['rating', 'tags', ...Object.keys(SAMPLE_PROJECT_ROW)]);
	});
});

describe('simplifyTenderItem', () => {
	it('gives tender columns and its project columns prefixed "project"', () => {
		const [, second] = splitTenders(sample());
		expect(simplifyTenderItem(second)).toEqual(SAMPLE_SECOND_TENDER_ROW);
	});

	it('prefixes unknown tender and project fields so they cannot clash, and puts them first', () => {
		const input = { ...sample(), region: 'NSW' } as Project;
		input.tenders[0] = { ...input.tenders[0], region: 'North' } as Project['tenders'][number];
		const row = simplifyTenderItem(splitTenders(input)[0]);
		expect(row).toMatchObject({ tenderRegion: 'North', projectRegion: 'NSW' });
		expect(isFlat(row)).toBe(true);
		// Added fields first, the tender's columns, then its project's, as shapeItems gives them too.
		const [first, second] = shapeItems([input], { output: 'tenders', simplify: true });
		const tenderColumns = Object.keys(SAMPLE_SECOND_TENDER_ROW);
		expect(Object.keys(first)).toEqual(['tenderRegion', 'projectRegion', ...tenderColumns]);
		expect(Object.keys(second)).toEqual(['projectRegion', ...tenderColumns]);
	});
});

describe('shapeItems', () => {
	const two = [sample(), project({ projectId: 'p2', tenders: [tender({ id: 't3' })] })];

	it('returns the projects as the API sent them, one item per tender in API order, or simplified', () => {
		expect(shapeItems(two, { output: 'projects', simplify: false })).toEqual(two);
		const items = shapeItems(two, { output: 'tenders', simplify: false });
		expect(items.map((item) => item.id)).toEqual(['t1', 't2', 't3']);
		expect(shapeItems(two, { output: 'projects', simplify: true })[1]).toMatchObject({
			projectId: 'p2',
			tenderCount: 1,
		});
	});

	it('gives simplified tender rows byte for byte as splitting, then simplifying each tender item', () => {
		const odd = [
			{ ...sample(), region: 'NSW', budget: null, tags: ['a', 'b'] } as Project,
			project({
				projectId: 'p2',
				consultants: undefined,
				tenders: [
					{ ...tender({ id: 't3', matchedKeywords: [] }), project: 'own', lot: { n: 1 } },
					{ ...tender({ id: 't4', matchedKeywords: ['x', '', 'x', 'y'] }), builder: null },
					null,
					tender({ id: 't5', matchedKeywords: ['solo'] }),
				] as unknown as Project['tenders'],
			}),
			project({ projectId: 'p3', tenders: [] }),
			two[0],
		];
		const expected = odd.flatMap(splitTenders).map(simplifyTenderItem);
		const rows = shapeItems(odd, { output: 'tenders', simplify: true });
		expect(rows).toHaveLength(8);
		expect(JSON.stringify(rows)).toBe(JSON.stringify(expected));
		expect(rows[0]).toMatchObject({ projectRegion: 'NSW', projectTags: '["a","b"]' });
		expect(rows[2]).toMatchObject({ tenderLot: '{"n":1}', consultants: '' });
		expect('tenderProject' in rows[2]).toBe(false);
		expect(rows[3].matchedKeywords).toBe('x; y');
	});

	it('reads missing and null fields as unset, and a project without tenders gives no tender', () => {
		const bare = [
			{ projectId: 'bare' },
			{ projectId: 'nulls', projectName: null, budget: null, consultants: null, tenders: null },
			{
				projectId: 'null-tender',
				tenderingSubcontractors: null,
				tenders: [{ id: 't-null', builder: null, matchedKeywords: null, quotesDueAt: null }],
			},
			project({ projectId: 'no-tenders', tenders: [] }),
		] as unknown as Project[];
		const rows = shapeItems(bare, { output: 'projects', simplify: true });
		expect(rows.map((row) => row.tenderCount)).toEqual([0, 0, 1, 0]);
		const tenders = shapeItems(bare, { output: 'tenders', simplify: true });
		expect(tenders.map((row) => [row.tenderId, row.builderName, row.projectBudgetLow])).toEqual([
			['t-null', null, null],
		]);
		expect(shapeItems(bare, { output: 'tenders', simplify: false })).toHaveLength(1);
	});
});
