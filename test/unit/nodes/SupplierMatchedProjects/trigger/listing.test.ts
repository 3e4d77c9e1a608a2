import { isoDateToDay } from '../../../../../nodes/SupplierMatchedProjects/projects/dates';
import {
	diffPoll,
	type PollDiff,
	type TriggerEvent,
} from '../../../../../nodes/SupplierMatchedProjects/trigger/diff';
import {
	listedTenders,
	scopeOf,
} from '../../../../../nodes/SupplierMatchedProjects/trigger/listing';
import { announcedItems } from '../../../../../nodes/SupplierMatchedProjects/trigger/output';
import type { ProjectFilters } from '../../../../../nodes/SupplierMatchedProjects/projects/filters';
import { project, tender } from '../../../../support/engine/n8n-fixtures';

describe('listedTenders', () => {
	it('lists each tender once, in walk order, with the values an update compares', () => {
		const shared = tender({ id: 'shared', builder: { name: 'First Builder', website: null } });
		const projects = [
			project({ tenders: [tender({ id: 'a', quotesDueAt: null }), shared] }),
			project({
				tenders: [
					{ ...shared, builder: { name: 'Second Builder', website: null } },
					tender({ id: 'b' }),
				],
			}),
		];
		const listed = listedTenders(projects);
		expect(listed.map(({ id }) => id)).toEqual(['a', 'shared', 'b']);
		expect(listed[0].snapshot).toEqual({
			quotesDueAt: null,
			status: 'Open',
			name: expect.any(String),
			type: 'Tender',
			builder: 'Acme Builders',
		});
		expect(listed[1].snapshot.builder).toBe('First Builder');
	});
});

describe('scopeOf', () => {
	it('changes with the company and with every filter', () => {
		const variants: ProjectFilters[] = [
			{},
			{ tenderTypes: ['Tender'] },
			{ projectStatuses: ['Active'] },
			{ quotesDueWithinDays: 7 },
			{ matchedKeywords: ['roofing'] },
			{ budgetAtLeast: 1 },
			{ budgetAtLeast: 2 },
			{ budgetAtMost: 1 },
			{ budgetAtMost: 1, withoutBudget: 'keep' },
			{ withoutBudget: 'drop' },
			{ categories: ['Civic'] },
			{ locations: ['NSW'] },
			{ builders: ['NSW'] },
		];
		const scopes = [scopeOf('c2', {}), ...variants.map((filters) => scopeOf('c1', filters))];
		expect(new Set(scopes).size).toBe(scopes.length);
		expect(scopes[1]).toMatch(/^[\w-]{12}$/);
	});

	it('ignores order, case, repeats and (where the filter does) accents', () => {
		const sameScope = (filters: ProjectFilters, alike: ProjectFilters) =>
			expect(scopeOf('c1', filters)).toBe(scopeOf('c1', alike));
		sameScope(
			{ tenderTypes: ['Tender', 'Procurement'], matchedKeywords: ['Roofing'] },
			{ tenderTypes: ['Procurement', 'Tender'], matchedKeywords: ['roofing ', 'roofing'] },
		);
		sameScope({ categories: ['Civic', 'Retail'] }, { categories: ['retail', 'CIVIC', 'civic'] });
		sameScope({ locations: ['Café', 'NSW'] }, { locations: ['nsw', 'cafe'] });
		sameScope({ budgetAtLeast: 5 }, { budgetAtLeast: 5, withoutBudget: 'drop' });
	});
});

describe('a tender listed more than once', () => {
	const TODAY = isoDateToDay('2030-02-01') as number;
	const builder = { name: 'First Builder', website: null };
	const shared = tender({ id: 'shared', quotesDueAt: '2030-02-02', builder });
	const other = tender({ quotesDueAt: null });
	/** Twice in one project, then once more in another, with another builder. */
	const repeated = [
		project({ projectId: 'p1', tenders: [shared, other, shared] }),
		project({
			projectId: 'p2',
			tenders: [{ ...shared, builder: { name: 'Second Builder', website: null } }],
		}),
	];
	/** Before: the other tender, and but for newTender this one with a date outside the window. */
	const before = (event: TriggerEvent) => [
		project({
			projectId: 'p1',
			tenders: event === 'newTender' ? [other] : [other, { ...shared, quotesDueAt: '2030-03-30' }],
		}),
	];

	function diffs(event: TriggerEvent): PollDiff {
		const poll = (projects: typeof repeated, previous?: PollDiff) =>
			diffPoll({
				previous: previous?.next,
				scope: 'scope',
				today: TODAY,
				loadedFromStorage: false,
				listed: listedTenders(projects),
				projectCount: projects.length,
				event,
				dueSoon: { today: TODAY, days: 3 },
				emitOpenOnFirstRun: false,
			});
		return poll(repeated, poll(before(event)));
	}

	it.each([
		['newTender', { event: 'newTender' }],
		['newOrUpdatedTender', { event: 'updatedTender', changes: { quotesDueAt: expect.anything() } }],
		['quotesDueSoon', { event: 'quotesDueSoon', daysLeft: 1 }],
	] as const)('is announced once for %s, where it is first listed', (event, announced) => {
		const diff = diffs(event);
		const options = { simplify: false, event };
		const items = announcedItems(listedTenders(repeated), diff, { ...options, output: 'tenders' });
		expect(items).toHaveLength(1);
		expect(items[0]).toMatchObject({ id: 'shared', builder, project: { projectId: 'p1' } });
		// The first listing's values: the other builder is no change.
		expect(items[0]).toEqual(expect.objectContaining(announced));
		const projectItems = announcedItems(listedTenders(repeated), diff, {
			...options,
			output: 'projects',
		});
		expect(projectItems).toHaveLength(1);
		expect(projectItems[0]).toMatchObject({ projectId: 'p1', tenders: [{ id: 'shared' }] });
		expect(projectItems[0].tenders).toHaveLength(1);
	});
});
