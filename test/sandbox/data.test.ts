import type { Project } from '../../nodes/SupplierMatchedProjects/api/types';
import { createSandboxData, type SandboxOptions } from '../../sandbox';
import { SANDBOX_FIXTURES, START, withHarness } from './harness';

const COMPANIES = [
	SANDBOX_FIXTURES.companyId,
	SANDBOX_FIXTURES.secondCompanyId,
	SANDBOX_FIXTURES.otherClientCompanyId,
];

type Store = ReturnType<typeof createSandboxData>['store'];

/** What startSandbox serves, without a server: a complete walk is listOpen (test/sandbox/paging). */
const storeOf = (options: SandboxOptions) => createSandboxData({ now: START, ...options }).store;

function everything(store: Store): Project[] {
	return COMPANIES.flatMap((companyId) => store.listOpen(companyId));
}

describe('sandbox data', () => {
	it('is the same for the same seed and start, and different for another seed', () => {
		const [first, second, other] = [7, 7, 8].map((seed) => storeOf({ seed, projects: 150 }));

		expect(everything(first)).toEqual(everything(second));
		expect(everything(first)).not.toEqual(everything(other));
		expect(first.counts()).toEqual(second.counts());
		expect(first.openTender()).toEqual(second.openTender());
	});

	describe('looks like the real thing', () => {
		const store = storeOf({ projects: 2000 });
		const projects = everything(store);

		it('has 1 to 5 tenders per project', () => {
			const { projects: projectCount, tenders } = store.counts();

			expect(projectCount).toBe(2000);
			expect(tenders / projectCount).toBeGreaterThan(2);
			expect(tenders / projectCount).toBeLessThan(4);
			for (const project of projects) {
				expect(project.tenders.length).toBeGreaterThanOrEqual(1);
				expect(project.tenders.length).toBeLessThanOrEqual(5);
			}
		});

		it('has budgets that are banded, open-ended or missing', () => {
			const budgets = projects.map((project) => project.budget);

			expect(budgets).toContain(null);
			expect(budgets.some((budget) => budget !== null && budget.high === null)).toBe(true);
			expect(
				budgets.some(
					(budget) => budget !== null && budget.high !== null && budget.high > budget.low,
				),
			).toBe(true);
		});

		it('has tenders without a due date or opening date, of both types, from many builders', () => {
			const tenders = projects.flatMap((project) => project.tenders);

			expect(tenders.some((tender) => tender.quotesDueAt === null)).toBe(true);
			expect(tenders.some((tender) => tender.tenderOpenAt === null)).toBe(true);
			expect(new Set(tenders.map((tender) => tender.type))).toEqual(
				new Set(['Tender', 'Procurement']),
			);
			expect(new Set(tenders.map((tender) => tender.builder.name)).size).toBeGreaterThanOrEqual(8);
			expect(
				projects.some(
					(project) => new Set(project.tenders.map((tender) => tender.builder.name)).size > 1,
				),
			).toBe(true);
		});

		it('has unicode names and addresses', () => {
			const text = projects.map((project) => `${project.projectName} ${project.address}`).join(' ');

			expect(text).toMatch(/[āēīōū]/);
			expect(text).toMatch(/[éèçü]/);
			expect(projects.every((project) => /, (New Zealand|Australia)$/.test(project.address))).toBe(
				true,
			);
		});

		it('has parties with https websites or none, consultants and deduplicated subcontractors', () => {
			const parties = projects.flatMap((project) => [
				...project.consultants,
				...project.tenderingSubcontractors,
				...project.tenders.map((tender) => tender.builder),
			]);

			expect(
				parties.every((party) => party.website === null || party.website.startsWith('https://')),
			).toBe(true);
			expect(parties.some((party) => party.website === null)).toBe(true);
			expect(projects.some((project) => project.consultants.length === 0)).toBe(true);
			expect(projects.some((project) => project.consultants.length > 0)).toBe(true);
			expect(projects.some((project) => project.tenderingSubcontractors.length > 0)).toBe(true);
			for (const project of projects) {
				const names = project.tenderingSubcontractors.map((party) => party.name);
				expect(new Set(names).size).toBe(names.length);
			}
		});

		it('has Active and Closed projects with https deep links', () => {
			expect(new Set(projects.map((project) => project.status))).toEqual(
				new Set(['Active', 'Closed']),
			);
			expect(
				projects.every(
					(project) =>
						project.url ===
						`https://app.supplier-matched-projects.invalid/projects/${project.projectId}`,
				),
			).toBe(true);
		});
	});

	it('puts exactly the asked number of consultants and subcontractors on every project, and refuses a bad count', () => {
		const store = storeOf({ projects: 40, partyCounts: { consultants: 2, subcontractors: 2 } });
		store.openTender();
		const projects = everything(store);

		expect(projects.length).toBeGreaterThan(1);
		for (const project of projects) {
			expect(project.consultants).toHaveLength(2);
			expect(project.tenderingSubcontractors).toHaveLength(2);
		}
		expect(() => storeOf({ partyCounts: { subcontractors: 1.5 } })).toThrow(
			'startSandbox: partyCounts.subcontractors must be a whole number from 0 to 8 (got 1.5)',
		);
	});

	// Speed is the benchmark's business (machines here are noisy); this proves the largest size works.
	it('serves 100,000 projects: pages walk in order and a change shows on the next page', async () => {
		await withHarness({ projects: 100_000, cacheSeconds: 0, rateLimit: false }, async (harness) => {
			expect(harness.sandbox.counts().projects).toBe(100_000);
			const seen = new Set<string>();
			let cursor: string | undefined;
			for (let request = 0; request < 20; request++) {
				const result = await harness.client.results({ token: harness.token, limit: 100, cursor });
				expect(result.status).toBe(200);
				const body = result.body as {
					data: Array<{ projectId: string }>;
					_metadata: { nextCursor: string };
				};
				expect(body.data).toHaveLength(100);
				for (const project of body.data) seen.add(project.projectId);
				cursor = body._metadata.nextCursor;
			}
			expect(seen.size).toBe(2_000);

			const opened = harness.sandbox.openTender({ quotesDueAt: null });
			const open = harness.sandbox.listOpen(harness.sandbox.fixtures.companyId);
			expect(open.some((project) => project.projectId === opened.projectId)).toBe(true);
		});
	}, 120_000);
});
