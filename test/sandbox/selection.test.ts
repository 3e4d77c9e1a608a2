import { DAY_MS, ids, harnessFor, SANDBOX_FIXTURES, sandboxDay } from './harness';

const WINDOW_DAYS = 30;

describe('sandbox results endpoint: what is selected', () => {
	const harness = harnessFor({
		projects: 200,
		cacheSeconds: 0,
		rateLimit: false,
		windowDays: WINDOW_DAYS,
	});

	async function openIds(companyId: string = SANDBOX_FIXTURES.companyId) {
		return ids(
			(await harness.client.walk({ token: harness.token, companyId, limit: 100 })).projects,
		);
	}

	function tenderIds(companyId: string = SANDBOX_FIXTURES.companyId) {
		return harness.sandbox
			.listOpen(companyId)
			.flatMap((project) => project.tenders.map((tender) => tender.id));
	}

	it.each([
		['no keywords configured', SANDBOX_FIXTURES.noKeywordsCompanyId],
		['keywords that match nothing', SANDBOX_FIXTURES.noMatchesCompanyId],
	])('answers a company with %s with 200 and an empty page', async (_case, companyId) => {
		const result = await harness.client.results({ token: harness.token, companyId });

		expect(result.status).toBe(200);
		expect(result.body).toEqual({ data: [], _metadata: { nextCursor: null, hasNextPage: false } });
	});

	it('returns only open tenders inside the window, each with at least one tender', async () => {
		const today = sandboxDay(harness.sandbox);
		const lastDay = sandboxDay(harness.sandbox, WINDOW_DAYS);
		const { projects } = await harness.client.walk({ token: harness.token, limit: 100 });

		expect(projects.length).toBeGreaterThan(0);
		for (const project of projects) {
			expect(project.tenders.length).toBeGreaterThanOrEqual(1);
			for (const tender of project.tenders) {
				expect(tender.status).toBe('Open');
				if (tender.quotesDueAt !== null) {
					expect(tender.quotesDueAt >= today && tender.quotesDueAt <= lastDay).toBe(true);
				}
				if (tender.tenderOpenAt !== null) expect(tender.tenderOpenAt <= today).toBe(true);
			}
		}
	});

	it('reports the matched subset of the company keywords, found in the tender name or type', async () => {
		const keywords = ['plumbing', 'electrical', 'roofing', 'concrete', 'hvac'];
		const projects = harness.sandbox.listOpen(SANDBOX_FIXTURES.companyId);

		for (const tender of projects.flatMap((project) => project.tenders)) {
			expect(tender.matchedKeywords.length).toBeGreaterThan(0);
			for (const keyword of tender.matchedKeywords) {
				expect(keywords).toContain(keyword);
				expect(`${tender.name} ${tender.type}`.toLowerCase()).toContain(keyword);
			}
		}
		const second = harness.sandbox
			.listOpen(SANDBOX_FIXTURES.secondCompanyId)
			.flatMap((project) => project.tenders);
		expect(second.length).toBeGreaterThan(0);
		expect(
			second
				.flatMap((tender) => tender.matchedKeywords)
				.every((keyword) => !keywords.includes(keyword)),
		).toBe(true);
	});

	it('matches a several-word keyword only when every word is there', async () => {
		const otherToken = await harness.client.token({ ...SANDBOX_FIXTURES.otherClient });
		const { projects } = await harness.client.walk({
			token: otherToken,
			clientId: SANDBOX_FIXTURES.otherClient.clientId,
			companyId: SANDBOX_FIXTURES.otherClientCompanyId,
			limit: 100,
		});
		const fire = projects
			.flatMap((project) => project.tenders)
			.filter((tender) => tender.matchedKeywords.includes('fire protection'));

		expect(fire.length).toBeGreaterThan(0);
		for (const tender of fire) expect(tender.name.toLowerCase()).toMatch(/fire.*protection/);
	});

	it.each<[string, Record<string, number | null>, boolean]>([
		['due today', { quotesDueAt: 0 }, true],
		['due on the last day of the window', { quotesDueAt: WINDOW_DAYS }, true],
		['due the day after the window', { quotesDueAt: WINDOW_DAYS + 1 }, false],
		['due yesterday', { quotesDueAt: -1 }, false],
		['with no due date', { quotesDueAt: null }, true],
		['opening tomorrow', { tenderOpenAt: 1 }, false],
		['with no opening date', { tenderOpenAt: null }, true],
	])('a tender %s (days from today: %j) is listed: %s', async (_case, offsets, visible) => {
		const fields: Record<string, string | null> = {};
		for (const [field, days] of Object.entries(offsets)) {
			fields[field] = days === null ? null : sandboxDay(harness.sandbox, days);
		}

		const tender = harness.sandbox.openTender(fields);

		expect(tenderIds().includes(tender.id)).toBe(visible);
		expect((await openIds()).includes(tender.projectId)).toBe(visible);
	});

	it.each(['Closed', 'Awarded'] as const)('drops a tender once it is %s', async (status) => {
		const tender = harness.sandbox.openTender();
		expect(await openIds()).toContain(tender.projectId);

		harness.sandbox.closeTender(tender.id, status);

		expect(await openIds()).not.toContain(tender.projectId);
	});

	it('drops a tender when the sandbox clock passes its due date', async () => {
		const tender = harness.sandbox.openTender({ quotesDueAt: sandboxDay(harness.sandbox, 2) });
		expect(await openIds()).toContain(tender.projectId);

		harness.sandbox.clock.advance(3 * DAY_MS);
		try {
			// Three days on, the one-hour token has expired as well.
			harness.token = await harness.client.token();
			expect(await openIds()).not.toContain(tender.projectId);
		} finally {
			harness.sandbox.clock.advance(-3 * DAY_MS);
		}
		expect(await openIds()).toContain(tender.projectId);
	});

	it('groups tenders from several builders under one project entry', async () => {
		const first = harness.sandbox.openTender({ builder: 'Kōwhai Construction Ltd' });
		const second = harness.sandbox.addTenderUnderBuilder(
			first.projectId,
			{ name: 'Pacific Rim Builders', website: 'https://pacific-rim.example' },
			{ name: 'Electrical Services' },
		);

		const entries = harness.sandbox
			.listOpen(SANDBOX_FIXTURES.companyId)
			.filter((project) => project.projectId === first.projectId);
		const walked = (await openIds()).filter((id) => id === first.projectId);

		expect(walked).toHaveLength(1);
		expect(entries).toHaveLength(1);
		expect(entries[0].tenders.map((tender) => [tender.id, tender.builder.name])).toEqual(
			expect.arrayContaining([
				[first.id, 'Kōwhai Construction Ltd'],
				[second.id, 'Pacific Rim Builders'],
			]),
		);
		expect(entries[0].tenders.find((tender) => tender.id === first.id)?.builder.website).toBe(
			'https://kowhai-construction-ltd.example',
		);
	});

	it('only shows a tender to the companies whose keywords it matches', async () => {
		const tender = harness.sandbox.openTender({
			companyId: SANDBOX_FIXTURES.secondCompanyId,
			name: 'Glazing Package',
		});

		expect(tenderIds(SANDBOX_FIXTURES.secondCompanyId)).toContain(tender.id);
		expect(tenderIds(SANDBOX_FIXTURES.companyId)).not.toContain(tender.id);
		expect(() => harness.sandbox.openTender({ name: 'Glazing Package' })).toThrow(
			/matches none of company-1's keywords \(plumbing, electrical, roofing, concrete, hvac\)/,
		);
	});
});
