import type { Project } from '../../../../../nodes/SupplierMatchedProjects/api/types';
import { listedTenders } from '../../../../../nodes/SupplierMatchedProjects/trigger/listing';
import {
	announcedItems,
	type Announced,
} from '../../../../../nodes/SupplierMatchedProjects/trigger/output';
import { project, tender } from '../../../../support/engine/n8n-fixtures';

const due = { quotesDueAt: { from: '2030-02-01', to: '2030-02-08' } };

type Shape = Parameters<typeof announcedItems>[2];

/** The items for what a diff announced, over the listing of these projects. */
const itemsOf = (projects: Project[], announced: Partial<Announced>, options: Shape) =>
	announcedItems(
		listedTenders(projects),
		{ newTenderIds: [], updates: [], reminders: [], ...announced },
		options,
	);
/** How the items are shaped: which output, for which event, simplified or not. */
const shape = (output: Shape['output'], event: Shape['event'], simplify = false): Shape => ({
	output,
	simplify,
	event,
});

describe('announcedItems', () => {
	const first = project({
		projectId: 'p1',
		tenders: [tender({ id: 'new-1' }), tender({ id: 'old' }), tender({ id: 'upd-1' })],
	});
	const second = project({
		projectId: 'p2',
		tenders: [tender({ id: 'upd-2' }), tender({ id: 'new-1' })],
	});
	const announcements: Partial<Announced> = {
		newTenderIds: ['new-1'],
		updates: [
			{ id: 'upd-1', changes: due },
			{ id: 'upd-2', changes: due },
		],
	};

	it('gives one tender item per announced tender, where it is first listed, with event and changes', () => {
		const items = itemsOf([first, second], announcements, shape('tenders', 'newOrUpdatedTender'));
		expect(
			items.map((item) => [item.id, item.event, (item.project as { projectId: string }).projectId]),
		).toEqual([
			['new-1', 'newTender', 'p1'],
			['upd-1', 'updatedTender', 'p1'],
			['upd-2', 'updatedTender', 'p2'],
		]);
		expect(items[0]).not.toHaveProperty('changes');
		expect(items[1].changes).toEqual(due);
		expect(items[0].project).not.toHaveProperty('tenders');
	});

	it('gives one project item per project, carrying only its announced tenders, counted when simplified', () => {
		const items = itemsOf([first, second], announcements, shape('projects', 'newOrUpdatedTender'));
		expect(items.map((item) => [item.projectId, item.event])).toEqual([
			['p1', 'newTender'],
			['p2', 'updatedTender'],
		]);
		expect((items[0].tenders as Array<{ id: string }>).map(({ id }) => id)).toEqual([
			'new-1',
			'upd-1',
		]);
		expect(items[1].tenders).toEqual([
			expect.objectContaining({ id: 'upd-2', event: 'updatedTender', changes: due }),
		]);
		// Simplified, a project row counts its new and updated tenders.
		const [row] = itemsOf([first], announcements, shape('projects', 'newOrUpdatedTender', true));
		expect(row).toMatchObject({
			event: 'newTender',
			projectId: 'p1',
			tenderCount: 2,
			newTenderCount: 1,
			updatedTenderCount: 1,
		});
	});

	it('leaves the change columns off simplified rows when only new tenders are watched', () => {
		const onlyNew = { newTenderIds: ['new-1'] };
		const [row] = itemsOf([first], onlyNew, shape('tenders', 'newTender', true));
		expect(row).toMatchObject({ event: 'newTender', tenderId: 'new-1', projectId: 'p1' });
		expect(row).not.toHaveProperty('changedFields');
		expect(Object.values(row).every((value) => value === null || typeof value !== 'object')).toBe(
			true,
		);
	});
});

describe('announcedItems: quotesDueSoon', () => {
	const reminded = project({
		projectId: 'p1',
		tenders: [
			tender({ id: 'soon', quotesDueAt: '2030-02-03' }),
			tender({ id: 'quiet' }),
			tender({ id: 'moved', quotesDueAt: '2030-02-05' }),
		],
	});
	const reminders: Partial<Announced> = {
		reminders: [
			{ id: 'soon', quotesDueAt: '2030-02-03', daysLeft: 1, previousQuotesDueAt: null },
			{ id: 'moved', quotesDueAt: '2030-02-05', daysLeft: 3, previousQuotesDueAt: '2030-01-20' },
		],
	};

	it('gives tender items the days left, and the previous date only when the date moved', () => {
		const items = itemsOf([reminded], reminders, shape('tenders', 'quotesDueSoon'));
		expect(items.map((item) => [item.id, item.event, item.daysLeft, item.quotesDueAt])).toEqual([
			['soon', 'quotesDueSoon', 1, '2030-02-03'],
			['moved', 'quotesDueSoon', 3, '2030-02-05'],
		]);
		expect(items[0]).not.toHaveProperty('previousQuotesDueAt');
		expect(items[1].previousQuotesDueAt).toBe('2030-01-20');
		expect(items[0].project).toMatchObject({ projectId: 'p1' });
	});

	it('gives simplified rows the tender columns of the other events plus daysLeft and previousQuotesDueAt on every row', () => {
		const rows = itemsOf([reminded], reminders, shape('tenders', 'quotesDueSoon', true));
		const simplifiedNew = shape('tenders', 'newTender', true);
		const [newTenderRow] = itemsOf([reminded], { newTenderIds: ['soon'] }, simplifiedNew);
		expect(rows.map((row) => [row.tenderId, row.daysLeft, row.previousQuotesDueAt])).toEqual([
			['soon', 1, null],
			['moved', 3, '2030-01-20'],
		]);
		expect(Object.keys(rows[0])).toEqual(Object.keys(rows[1]));
		expect(Object.keys(rows[0])).toEqual([
			...Object.keys(newTenderRow),
			'daysLeft',
			'previousQuotesDueAt',
		]);
	});

	it('gives project items the quotesDueSoon event and only the reminded tenders, each with its days left, the simplified row the fewest', () => {
		const [item] = itemsOf([reminded], reminders, shape('projects', 'quotesDueSoon'));
		expect(item.event).toBe('quotesDueSoon');
		expect(item.tenders).toEqual([
			expect.objectContaining({ id: 'soon', event: 'quotesDueSoon', daysLeft: 1 }),
			expect.objectContaining({ id: 'moved', daysLeft: 3, previousQuotesDueAt: '2030-01-20' }),
		]);
		const [row] = itemsOf([reminded], reminders, shape('projects', 'quotesDueSoon', true));
		expect(row).toMatchObject({ event: 'quotesDueSoon', tenderCount: 2, daysLeft: 1 });
	});
});
