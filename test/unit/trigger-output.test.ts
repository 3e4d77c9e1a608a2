import {
	advisedInterval,
	budgetExhausted,
	budgetRefusal,
	expectedRequests,
	requestsFor,
} from '../../nodes/SupplierMatchedProjects/trigger/budget';
import { listedTenders, scopeOf } from '../../nodes/SupplierMatchedProjects/trigger/listing';
import {
	announcedItems,
	type Announcement,
} from '../../nodes/SupplierMatchedProjects/trigger/output';
import { project, tender, workflowNode } from '../support/n8n-fixtures';

const node = workflowNode(
	'trigger',
	'Supplier Matched Projects Trigger',
	'supplierMatchedProjectsTrigger',
);

const due = { quotesDueAt: { from: '2030-02-01', to: '2030-02-08' } };

type Shape = Parameters<typeof announcedItems>[2];
/** How the items are shaped: which output, for which event, simplified or not. */
const shape = (output: Shape['output'], event: Shape['event'], simplify = false): Shape => ({
	output,
	simplify,
	event,
});

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
	it('gives equivalent filters the same fingerprint', () => {
		expect(
			scopeOf('c1', { tenderTypes: ['Tender', 'Procurement'], matchedKeywords: ['Roofing'] }),
		).toBe(
			scopeOf('c1', {
				tenderTypes: ['Procurement', 'Tender'],
				matchedKeywords: ['roofing ', 'roofing'],
			}),
		);
	});

	it('changes with the company and with every filter', () => {
		const base = scopeOf('c1', {});
		const others = [
			scopeOf('c2', {}),
			scopeOf('c1', { tenderTypes: ['Tender'] }),
			scopeOf('c1', { projectStatuses: ['Active'] }),
			scopeOf('c1', { quotesDueWithinDays: 14 }),
			scopeOf('c1', { matchedKeywords: ['plumbing'] }),
		];
		expect(new Set([base, ...others]).size).toBe(6);
		expect(base).toMatch(/^[\w-]{12}$/);
	});
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
	const announcements = new Map<string, Announcement>([
		['new-1', { event: 'newTender' }],
		['upd-1', { event: 'updatedTender', changes: due }],
		['upd-2', { event: 'updatedTender', changes: due }],
	]);

	it('gives one tender item per announced tender, where it is first listed, with event and changes', () => {
		const items = announcedItems(
			[first, second],
			announcements,
			shape('tenders', 'newOrUpdatedTender'),
		);
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

	it('gives one project item per project, carrying only its announced tenders', () => {
		const items = announcedItems(
			[first, second],
			announcements,
			shape('projects', 'newOrUpdatedTender'),
		);
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
	});

	it('counts new and updated tenders on simplified project rows when updates are watched', () => {
		const [row] = announcedItems(
			[first],
			announcements,
			shape('projects', 'newOrUpdatedTender', true),
		);
		expect(row).toMatchObject({
			event: 'newTender',
			projectId: 'p1',
			tenderCount: 2,
			newTenderCount: 1,
			updatedTenderCount: 1,
		});
	});

	it('leaves the change columns off simplified rows when only new tenders are watched', () => {
		const [row] = announcedItems(
			[first],
			new Map([['new-1', { event: 'newTender' }]]),
			shape('tenders', 'newTender', true),
		);
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
	const reminders = new Map<string, Announcement>([
		['soon', { event: 'quotesDueSoon', daysLeft: 1, previousQuotesDueAt: null }],
		['moved', { event: 'quotesDueSoon', daysLeft: 3, previousQuotesDueAt: '2030-01-20' }],
	]);

	it('gives tender items the days left, and the previous date only when the date moved', () => {
		const items = announcedItems([reminded], reminders, shape('tenders', 'quotesDueSoon'));
		expect(items.map((item) => [item.id, item.event, item.daysLeft, item.quotesDueAt])).toEqual([
			['soon', 'quotesDueSoon', 1, '2030-02-03'],
			['moved', 'quotesDueSoon', 3, '2030-02-05'],
		]);
		expect(items[0]).not.toHaveProperty('previousQuotesDueAt');
		expect(items[1].previousQuotesDueAt).toBe('2030-01-20');
		expect(items[0].project).toMatchObject({ projectId: 'p1' });
	});

	it('gives simplified rows the tender columns of the other events plus daysLeft and previousQuotesDueAt on every row', () => {
		const rows = announcedItems([reminded], reminders, shape('tenders', 'quotesDueSoon', true));
		const newTenderRow = announcedItems(
			[reminded],
			new Map([['soon', { event: 'newTender' }]]),
			shape('tenders', 'newTender', true),
		)[0];
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
		const [item] = announcedItems([reminded], reminders, shape('projects', 'quotesDueSoon'));
		expect(item.event).toBe('quotesDueSoon');
		expect(item.tenders).toEqual([
			expect.objectContaining({ id: 'soon', event: 'quotesDueSoon', daysLeft: 1 }),
			expect.objectContaining({ id: 'moved', daysLeft: 3, previousQuotesDueAt: '2030-01-20' }),
		]);
		const [row] = announcedItems([reminded], reminders, shape('projects', 'quotesDueSoon', true));
		expect(row).toMatchObject({ event: 'quotesDueSoon', tenderCount: 2, daysLeft: 1 });
	});
});

describe('rate budget arithmetic', () => {
	it.each([
		[0, 1],
		[100, 1],
		[101, 2],
		[10_000, 100],
		[10_001, 101],
	])('a walk over %i projects takes %i requests', (projects, requests) => {
		expect(requestsFor(projects)).toBe(requests);
	});

	it.each([
		[1, 'every minute'],
		[20, 'every minute'],
		[21, 'every 2 minutes'],
		[100, 'every 5 minutes'],
	])('walks of %i requests fit when polling %s', (requests, interval) => {
		expect(advisedInterval(requests)).toBe(interval);
	});

	it('lets a walk through that fits in what is left', () => {
		expect(
			budgetRefusal(node, { projectCount: 2_500 }, { free: 25, underLimit: 25 }),
		).toBeUndefined();
	});

	it('refuses a walk that needs more than is left, naming projects, requests and budget', () => {
		const refusal = budgetRefusal(node, { projectCount: 2_501 }, { free: 25, underLimit: 25 });
		expect(refusal?.message).toBe(
			'A poll over 2501 matched projects needs 26 requests, but this credential has 25 of its 100 requests per 5 minutes left',
		);
		expect(refusal?.description).toContain('Set the poll interval to every 2 minutes or more');
		expect(refusal?.httpCode).toBe('429');
		expect(refusal?.spentBy).toBe('process');
	});

	it.each([
		[
			"the API's 429s, when the whole limit would carry it",
			{ free: 20, underLimit: 90 },
			"the API's answers of 429 hold this n8n process to 20 more for now: other processes or clients are using the credential's 100 requests per 5 minutes",
			'api',
		],
		[
			"this process's own count, when even the whole limit would not carry it",
			{ free: 5, underLimit: 20 },
			'this credential has 20 of its 100 requests per 5 minutes left',
			'process',
		],
	])('says who holds the walk back: %s', (_, room, reason, spentBy) => {
		const refusal = budgetRefusal(node, { projectCount: 2_501 }, room);
		expect(refusal?.message).toBe(
			`A poll over 2501 matched projects needs 26 requests, but ${reason}`,
		);
		expect(refusal?.spentBy).toBe(spentBy);
	});

	it('judges a walk by the requests the previous one took, not by its projects', () => {
		// One oversized page from an API that ignores the page size: 12,000 projects, 1 request.
		const previous = { projectCount: 12_000, pages: 1 };
		expect(expectedRequests(previous)).toBe(1);
		expect(budgetRefusal(node, previous, { free: 1, underLimit: 1 })).toBeUndefined();
		expect(
			budgetRefusal(node, { projectCount: 150, pages: 3 }, { free: 2, underLimit: 2 }),
		).toBeDefined();
	});

	it('never refuses for good: a count above 10,000 without pages is judged at the limit', () => {
		const previous = { projectCount: 15_000 };
		expect(expectedRequests(previous)).toBe(100);
		expect(budgetRefusal(node, previous, { free: 100, underLimit: 100 })).toBeUndefined();
		const refusal = budgetRefusal(node, previous, { free: 99, underLimit: 99 });
		expect(refusal?.message).toBe(
			'A poll over 15000 matched projects needs 100 requests, but this credential has 99 of its 100 requests per 5 minutes left',
		);
		expect(refusal?.failure).toEqual({ cause: 'quota-exhausted' });
	});

	it('says a walk stopped past 100 requests cannot fit, as a configuration to change', () => {
		const stopped = budgetExhausted(node, 101, 10_000);
		expect(stopped.description).toContain("narrow the supplier account's keywords");
		expect(stopped.failure).toEqual({ cause: 'configuration-invalid' });
		expect(budgetExhausted(node, 3, 200, 'api').failure).toEqual({ cause: 'rate-limited' });
	});

	it('says where a walk stopped when the budget ran out partway', () => {
		expect(budgetExhausted(node, 37, 3_600).message).toBe(
			"The poll stopped at request 37, after 3600 matched projects: this credential's 100 requests per 5 minutes are used up",
		);
	});
});
