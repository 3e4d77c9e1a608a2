/**
 * Eighty days of a live sandbox, polled by six triggers the way n8n runs them (real PollContext,
 * static data saved only at activation and on emits, restarts that lose the rest): tenders open,
 * close, reopen, change date, name, type and builder, leave the window and come back, projects
 * gain tenders under a second builder, faults strike mid-walk, tokens are revoked, the token
 * issuer fails, n8n restarts. After every poll that succeeded, each trigger must have announced
 * exactly what the oracle derives from the sandbox's complete listing: each new tender once, each
 * update once, each tender once per due date when that date comes within the days set (in the
 * workflow's time zone, on both sides of UTC), nothing else.
 */
import type { Project, Tender } from '../../nodes/SupplierMatchedProjects/api/types';
import { createRandom } from '../../sandbox/random';
import { advanceTime, isoDay } from '../support/engine/clock';
import type { PollHarness, PollOutcome } from '../support/harness';
import {
	companyId,
	DAY_MS,
	MINUTE_MS,
	freshPollWorldEachTest,
	type PollWorld,
} from '../support/engine/poll-world';
import {
	announcedIn,
	DueSoonOracle,
	filterOracle,
	Oracle,
	type Announced,
	type FilterParameters,
} from './oracle';

const DAYS = 80;
const BUILDERS = [
	'Kōwhai Construction Ltd',
	'Bluegum Builders',
	'Tōtara Projects',
	'Wairua Construction',
];

/** Broad enough that tenders pass and fail each of them; builder changes move tenders in and out. */
const NEW_FILTERS: FilterParameters = {
	budgetAtLeast: 1_000_000,
	budgetAtMost: 5_000_000,
	projectsWithoutBudget: 'keep',
	categories: ' civic, RESIDENTIAL ,Industrial,Hospitality,Education',
	locations: 'Auckland, nsw, 3220, Taupo, Rue Berenice',
	builders: 'construction, BUILDERS',
};

const idsOf = (projects: Project[]) => projects.map((project) => project.projectId);

/** What a trigger must announce, worked out from the listing at the moment of each poll. */
interface Expectation {
	baseline(projects: Project[], at: number): void;
	expect(projects: Project[], at: number): Announced[];
}

interface Watched {
	name: string;
	harness: PollHarness;
	oracle: Expectation;
	active: boolean;
	/** How often each tender was announced as new, over the whole timeline. */
	newCounts: Map<string, number>;
	/** Reminders announced over the whole timeline. */
	reminders: number;
	goodPolls: number;
	/** Good polls that read part of a walk: it spanned polls. */
	partialPolls: number;
	failedPolls: number;
}

let world: PollWorld;

freshPollWorldEachTest((fresh) => (world = fresh), { projects: 300, seed: 11 });

it('announces each new tender exactly once and each update once, through eighty eventful days', async () => {
	const { sandbox } = world;
	const random = createRandom(20_300_310);
	expect(sandbox.listOpen(companyId).length).toBeGreaterThan(100);

	const watch = (name: string, harness: PollHarness, oracle: Expectation): Watched => ({
		name,
		harness,
		oracle,
		active: false,
		newCounts: new Map(),
		reminders: 0,
		goodPolls: 0,
		partialPolls: 0,
		failedPolls: 0,
	});
	const triggers = [
		watch(
			'new tenders',
			world.trigger({ event: 'newTender', output: 'tenders' }),
			new Oracle(false),
		),
		watch(
			'new or updated, per project',
			world.trigger({ event: 'newOrUpdatedTender', output: 'projects' }),
			new Oracle(true),
		),
		watch(
			'new Tender-type tenders, simplified',
			world.trigger({
				event: 'newTender',
				output: 'tenders',
				simplify: true,
				filters: { tenderTypes: ['Tender'] },
			}),
			new Oracle(false, (tender: Tender) => tender.type === 'Tender'),
		),
		watch(
			'new or updated, budget, category, location and builder filters',
			world.trigger({
				event: 'newOrUpdatedTender',
				output: 'tenders',
				filters: { ...NEW_FILTERS },
			}),
			new Oracle(true, filterOracle(NEW_FILTERS)),
		),
		watch(
			'quotes due within 3 days, Los Angeles time, simplified',
			world.trigger(
				{ event: 'quotesDueSoon', daysBeforeQuotesDue: 3, output: 'tenders', simplify: true },
				'America/Los_Angeles',
			),
			new DueSoonOracle(3, 'America/Los_Angeles'),
		),
		watch(
			'quotes due today, Auckland time, per project',
			world.trigger(
				{ event: 'quotesDueSoon', daysBeforeQuotesDue: 0, output: 'projects' },
				'Pacific/Auckland',
			),
			new DueSoonOracle(0, 'Pacific/Auckland'),
		),
	];

	const record = (watched: Watched, announced: Announced[]) => {
		for (const { id, event } of announced) {
			if (event === 'newTender') watched.newCounts.set(id, (watched.newCounts.get(id) ?? 0) + 1);
			if (event === 'quotesDueSoon') watched.reminders++;
		}
	};

	/**
	 * The projects of the pages a poll read, in order, each once: the listing the oracle judges
	 * when the poll's walk did not run from the first page to the last (a walk that spans polls).
	 */
	const capturePages = (watched: Watched): (() => Project[]) => {
		const read = new Map<string, Project>();
		watched.harness.requestGate = async (answer) => {
			const response = await answer;
			const body = (response as { statusCode?: number; body?: { data?: unknown } }).body;
			if (Array.isArray(body?.data)) {
				for (const project of body.data as Project[]) {
					if (!read.has(project.projectId)) read.set(project.projectId, project);
				}
			}
			return response;
		};
		return () => [...read.values()];
	};

	/** One poll (or restart) of one trigger, checked against the oracle when it succeeded. */
	const pollOne = async (watched: Watched, restart: boolean, when: string) => {
		const listing = sandbox.listOpen(companyId);
		const warnings = watched.harness.logs.filter((log) => log.level === 'warn').length;
		const requestsBefore = sandbox.requests().length;
		const read = capturePages(watched);
		let outcome: PollOutcome;
		if (restart || !watched.active) {
			try {
				outcome = await watched.harness.restart();
				watched.active = true;
			} catch {
				// A failed activation poll: n8n tries the activation again later.
				watched.harness.requestGate = undefined;
				watched.active = false;
				watched.failedPolls++;
				return;
			}
		} else {
			outcome = await watched.harness.poll();
		}
		watched.harness.requestGate = undefined;
		const skipped = watched.harness.logs.filter((log) => log.level === 'warn').length > warnings;
		if (outcome.kind === 'error' || skipped) {
			expect({ when, trigger: watched.name, outcome: outcome.kind }).not.toMatchObject({
				outcome: 'emitted',
			});
			watched.failedPolls++;
			return;
		}
		// A complete walk read exactly the listing; part of one is judged by the pages it read.
		const [first] = sandbox
			.requests()
			.slice(requestsBefore)
			.filter((entry) => entry.path.endsWith('/speci-finder/results'));
		if (first === undefined) {
			// It waits for its turn of the rate limit, which it says once a streak: nothing was read.
			expect({ when, trigger: watched.name, outcome: outcome.kind }).toEqual({
				when,
				trigger: watched.name,
				outcome: 'nothing',
			});
			expect(watched.harness.logs.at(-1)?.message).toContain('is waiting for its turn');
			return;
		}
		const wholeWalk = first.query.cursor === undefined && watched.harness.memory().w === undefined;
		const judged = wholeWalk ? listing : read();
		if (wholeWalk) {
			expect({ when, trigger: watched.name, read: idsOf(read()) }).toEqual({
				when,
				trigger: watched.name,
				read: idsOf(listing),
			});
		} else {
			watched.partialPolls++;
		}
		const announced = outcome.kind === 'emitted' ? announcedIn(outcome.items) : [];
		expect({ when, trigger: watched.name, announced }).toEqual({
			when,
			trigger: watched.name,
			announced: watched.oracle.expect(judged, Date.now()),
		});
		record(watched, announced);
		watched.goodPolls++;
	};

	/** Polls every trigger, starting with `firstIndex`: the one an injected fault hits. */
	const pollAll = async (
		when: string,
		restarts: ReadonlySet<number> = new Set(),
		firstIndex = 0,
	) => {
		for (let offset = 0; offset < triggers.length; offset++) {
			const index = (firstIndex + offset) % triggers.length;
			await pollOne(triggers[index], restarts.has(index), when);
		}
	};

	const halfAnHourOn = async (when: string, restarts?: ReadonlySet<number>) => {
		advanceTime(30 * MINUTE_MS);
		await pollAll(when, restarts);
	};

	// Day 0: activation records the baseline and announces nothing.
	for (const watched of triggers) {
		watched.oracle.baseline(sandbox.listOpen(companyId), Date.now());
		expect(await watched.harness.activate()).toEqual({ kind: 'nothing' });
		watched.active = true;
	}

	// The named events first, one by one.
	const first = sandbox.openTender({ builder: BUILDERS[0] });
	const second = sandbox.openTender({ type: 'Procurement' });
	await halfAnHourOn('tenders open');

	sandbox.updateTender(first.id, { quotesDueAt: isoDay(12) });
	await halfAnHourOn('a due date changes');

	sandbox.addTenderUnderBuilder(first.projectId, BUILDERS[1]);
	await halfAnHourOn('a project gains a tender under a second builder');

	sandbox.openTender();
	sandbox.injectFault({ kind: 'latencySpike', ms: 0 });
	sandbox.injectFault({ kind: 'serverError', times: 5 });
	await halfAnHourOn('a fault outlasts the retries on the second page of the first trigger');
	expect(triggers[0].failedPolls).toBe(1);

	sandbox.revokeTokens();
	sandbox.updateTender(second.id, { type: 'Tender', name: 'Electrical Services' });
	await halfAnHourOn('tokens are revoked; a Procurement becomes a Tender');

	sandbox.updateTender(first.id, { quotesDueAt: isoDay(200) });
	await halfAnHourOn('a tender leaves the window');
	sandbox.closeTender(second.id);
	await halfAnHourOn('a tender closes');
	sandbox.updateTender(first.id, { quotesDueAt: isoDay(30) });
	sandbox.updateTender(second.id, { status: 'Open' });
	await halfAnHourOn('both come back, one with a new due date', new Set([1]));

	// Then eighty days of everything at once, twice a day.
	const opened: string[] = [first.id, second.id];
	for (let day = 1; day <= DAYS; day++) {
		for (const half of ['morning', 'evening']) {
			const when = `day ${day} ${half}`;
			const listed = sandbox.listOpen(companyId).flatMap((project) => project.tenders);
			const target = listed.length > 0 ? random.pick(listed) : undefined;
			const actions = random.int(1, 3);
			for (let action = 0; action < actions; action++) {
				const roll = random.int(0, 11);
				if (roll <= 2 || target === undefined) {
					const tender = sandbox.openTender({
						type: random.chance(0.3) ? 'Procurement' : 'Tender',
						quotesDueAt: isoDay(random.int(1, 90)),
					});
					opened.push(tender.id);
				} else if (roll === 3) {
					sandbox.updateTender(target.id, { quotesDueAt: isoDay(random.int(1, 50)) });
				} else if (roll === 4) {
					sandbox.updateTender(target.id, { builder: random.pick(BUILDERS) });
				} else if (roll === 5) {
					sandbox.updateTender(target.id, {
						type: target.type === 'Tender' ? 'Procurement' : 'Tender',
					});
				} else if (roll === 6) {
					const tender = sandbox.getTender(random.pick(opened));
					if (tender.status === 'Open')
						sandbox.closeTender(tender.id, random.pick(['Closed', 'Awarded'] as const));
					else
						sandbox.updateTender(tender.id, {
							status: 'Open',
							quotesDueAt: isoDay(random.int(5, 24)),
						});
				} else if (roll === 7) {
					sandbox.addTenderUnderBuilder(
						random.pick(sandbox.listOpen(companyId)).projectId,
						random.pick(BUILDERS),
					);
				} else if (roll === 8) {
					// Mid-walk: the first page is served, the next request fails every attempt.
					sandbox.injectFault({ kind: 'latencySpike', ms: 0 });
					sandbox.injectFault({
						kind: random.pick(['serverError', 'drop', 'html'] as const),
						times: 5,
					});
				} else if (roll === 9) {
					sandbox.injectFault({ kind: 'rateLimited', retryAfterSeconds: 0, times: 2 });
				} else if (roll === 10) {
					sandbox.revokeTokens();
					if (random.chance(0.3))
						sandbox.injectFault({ kind: 'serverError', on: 'token', times: 5 });
				} else {
					sandbox.updateTender(target.id, { name: `${target.name} (revised)` });
				}
			}
			const restarts = new Set<number>();
			if (random.chance(0.15)) restarts.add(random.int(0, triggers.length - 1));
			advanceTime(12 * 60 * MINUTE_MS - random.int(0, 59) * MINUTE_MS);
			await pollAll(when, restarts, random.int(0, triggers.length - 1));
			sandbox.clearFaults();
		}
	}

	// Whatever failed along the way, one quiet poll catches up, and nothing was ever announced twice.
	advanceTime(DAY_MS / 2);
	await pollAll('catch-up');
	for (const watched of triggers) {
		const twice = [...watched.newCounts].filter(([, count]) => count > 1);
		expect({ trigger: watched.name, announcedTwice: twice }).toEqual({
			trigger: watched.name,
			announcedTwice: [],
		});
		expect(watched.failedPolls).toBeGreaterThan(0);
		expect(watched.goodPolls).toBeGreaterThan(100);
	}
	expect(triggers[0].newCounts.size).toBeGreaterThan(opened.length / 2);
	// The filtered trigger saw tenders pass and tenders fail its filters.
	expect(triggers[3].newCounts.size).toBeGreaterThan(5);
	expect(triggers[3].newCounts.size).toBeLessThan(triggers[0].newCounts.size / 2);
	for (const watched of triggers.slice(4)) {
		// Enough reminders that the rules were exercised, not a quiet timeline.
		expect(watched.reminders).toBeGreaterThan(20);
		expect(watched.failedPolls).toBeGreaterThan(0);
	}
}, 360_000);
