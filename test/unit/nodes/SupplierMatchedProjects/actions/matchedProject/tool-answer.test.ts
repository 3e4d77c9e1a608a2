import {
	answerProject,
	budgetText,
	daysLeft,
	describeFilters,
	summaryOf,
	toolFailureOf,
} from '../../../../../../nodes/SupplierMatchedProjects/actions/matchedProject/tool-answer';
import { parseFilters } from '../../../../../../nodes/SupplierMatchedProjects/parameters/filters';
import { COMPACT_FIELDS } from '../../../../../../nodes/SupplierMatchedProjects/parameters/tool';
import type { FailureKind } from '../../../../../../nodes/SupplierMatchedProjects/transport/errors';
import { project, tender } from '../../../../../support/engine/n8n-fixtures';

describe('compact projects', () => {
	it('are flat per project with their tenders, budget in words and days left', () => {
		const subject = project({
			projectId: 'prj-1',
			projectName: 'Depot',
			address: '1 Main St, Perth WA 6000, Australia',
			category: 'Industrial',
			budget: { low: 500_000, high: null },
			status: 'Active',
			url: 'https://app.example/projects/prj-1',
			consultants: [{ name: 'Plan & Co', website: null }],
			tenders: [
				tender({
					name: 'Roofing',
					builder: { name: 'Acme', website: 'https://acme.example' },
					quotesDueAt: '2026-12-01',
					status: 'Open',
					matchedKeywords: ['roofing', 'metal'],
				}),
			],
		});
		expect(answerProject(subject, COMPACT_FIELDS, '2026-11-25')).toEqual({
			projectId: 'prj-1',
			projectName: 'Depot',
			address: '1 Main St, Perth WA 6000, Australia',
			category: 'Industrial',
			budget: '$500,000 or more',
			status: 'Active',
			url: 'https://app.example/projects/prj-1',
			tenders: [
				{
					tenderName: 'Roofing',
					builder: 'Acme',
					quotesDueAt: '2026-12-01',
					daysLeft: 6,
					tenderStatus: 'Open',
					matchedKeywords: 'roofing; metal',
				},
			],
		});
	});

	it('give null for what the API left out, and no tenders key without tender fields', () => {
		const subject = project({
			tenders: [tender({ quotesDueAt: null, builder: null as never })],
		});
		expect(answerProject(subject, ['quotesDueAt', 'daysLeft', 'builder'], '2026-11-25')).toEqual({
			tenders: [{ builder: null, quotesDueAt: null, daysLeft: null }],
		});
		expect(answerProject(subject, ['projectId'], '2026-11-25')).toEqual({
			projectId: subject.projectId,
		});
	});
});

describe('budget bands and days', () => {
	it.each([
		[{ low: 500_000, high: 1_000_000 }, '$500,000 to $1,000,000'],
		[{ low: 5_000_000, high: null }, '$5,000,000 or more'],
		[null, 'not set'],
		[{ high: 5 }, 'not set'],
	])('%j reads %s', (budget, words) => {
		expect(budgetText(budget)).toBe(words);
	});

	it('counts calendar days, negative when past, null without a date', () => {
		expect(daysLeft('2026-12-30', '2027-01-02')).toBe(3);
		expect(daysLeft('2026-03-28', '2026-03-30')).toBe(2);
		expect(daysLeft('2026-11-25', '2026-11-20')).toBe(-5);
		expect(daysLeft('2026-11-25', null)).toBeNull();
		expect(daysLeft('2026-11-25', 'soon')).toBeNull();
	});
});

describe('model filters', () => {
	it('are described one phrase each', () => {
		const filters = parseFilters({
			projectIds: 'a, b',
			locations: 'NSW',
			budgetAtLeast: 500_000,
			quotesDueWithinDays: 7,
		});
		expect(describeFilters(filters, '2026-11-25')).toEqual([
			'project ID is a or b',
			'address contains NSW',
			'budget reaches $500,000',
			'projects without a budget left out',
			'quotes due within 7 days of 2026-11-25',
		]);
	});
});

describe('the summary', () => {
	const facts = { returned: 20, limit: 20, filtersApplied: [], unreadable: 0 };

	it('says whether more match and how to get them', () => {
		expect(summaryOf({ ...facts, moreMatch: true })).toBe(
			'20 matched projects with open tenders, earliest quotes due first. More projects match: to see them, call again with a higher limit (up to 100) or narrow the search with a filter.',
		);
		expect(summaryOf({ ...facts, returned: 1, moreMatch: false })).toBe(
			'1 matched project with open tenders, earliest quotes due first. No other project matches.',
		);
		expect(summaryOf({ ...facts, moreMatch: null, filtersApplied: ['category is Civic'] })).toBe(
			'20 matched projects with open tenders, earliest quotes due first; filters applied: category is Civic. More may match in results not read yet: to find out, call again with a higher limit (up to 100) or narrow the search with a filter.',
		);
	});

	it('says in words that nothing matches, with or without filters', () => {
		const none = { ...facts, returned: 0, moreMatch: false };
		expect(summaryOf(none)).toMatch(
			/^No project matches the supplier's keywords right now\. The API lists only currently open tenders/,
		);
		expect(summaryOf({ ...none, filtersApplied: ['address contains Perth'] })).toBe(
			'No matched project with open tenders passes the filters applied: address contains Perth. Remove or widen a filter to see more.',
		);
	});
});

describe('failures told to a model', () => {
	it.each<[FailureKind, number | undefined, RegExp, RegExp]>([
		['credentials', 401, /refused/, /owner must fix/],
		['client', 400, /refused/, /calling again will not help/],
		[
			'credentials',
			undefined,
			/refused the request for the supplier's projects\.$/,
			/owner must fix/,
		],
		['notFound', 404, /Base URL/, /owner must fix/],
		[
			'notAPage',
			200,
			/Base URL answered with something that is not a page of results \(HTTP 200\)/,
			/owner must fix/,
		],
		['rateLimited', 429, /rate limit/, /Wait a few minutes/],
		['waiting', 429, /rate limit/, /Wait a few minutes/],
		['server', 503, /failed or could not be reached \(HTTP 503\)/, /call again in a few minutes/],
		['unreachable', undefined, /failed or could not be reached\.$/, /call again in a few minutes/],
		['paging', undefined, /failed or could not be reached\.$/, /call again in a few minutes/],
	])('%s (HTTP %s)', (kind, status, message, description) => {
		const failure = toolFailureOf(kind, status);
		expect(failure.message).toMatch(message);
		expect(failure.description).toMatch(description);
	});
});
