/**
 * The trigger where n8n's durable scheduler and a busy credential put it: every poll returns
 * within the budget n8n gives it, a walk that does not fit goes on at the next poll, and the
 * state n8n actually keeps (its durable cursor, or what it saves on emit) still gives each tender
 * once. n8n's engine runs the trigger in-process against the sandbox, on virtual time.
 */
import { sleep } from 'n8n-workflow';

import { isoDay, runInVirtualTime, useVirtualTime } from '../support/engine/clock';
import { busiestWindow } from '../support/engine/rate-window';
import { reportFigures } from '../support/reliability/report';
import { createSandboxClient } from '../support/sandbox/client';
import type { N8nProcess, PollHarness } from '../support/harness';
import {
	companyId,
	emittedTenderIds,
	MINUTE_MS,
	SANDBOX_FIXTURES,
	startPollWorld,
	type PollWorld,
} from '../support/engine/poll-world';

let world: PollWorld;

afterEach(async () => {
	announcedAt.clear();
	await world?.stop();
	jest.useRealTimers();
});

/** Waits `ms` of virtual time. */
async function pass(ms: number): Promise<void> {
	await runInVirtualTime(async () => await sleep(ms));
}

/** When each tender was announced (epoch ms), by id. */
const announcedAt = new Map<string, number[]>();

/** The scheduled polls of the next `minutes` minutes, one a minute: the tenders they announced. */
async function pollFor(trigger: PollHarness, minutes: number): Promise<string[]> {
	const announced: string[] = [];
	for (let minute = 0; minute < minutes; minute++) {
		const startedAt = Date.now();
		const outcome = await runInVirtualTime(async () => await trigger.poll());
		if (outcome.kind === 'emitted') {
			for (const id of emittedTenderIds(outcome.items)) {
				announced.push(id);
				announcedAt.set(id, [...(announcedAt.get(id) ?? []), Date.now()]);
			}
		}
		await pass(Math.max(0, MINUTE_MS - (Date.now() - startedAt)));
	}
	return announced;
}

function resultRequests() {
	return world.sandbox.requests().filter((entry) => entry.path.endsWith('/speci-finder/results'));
}

/** A world of `count` partner companies, each matching a keyword of its own, on the one client. */
async function startPartners(count: number, projects = 0): Promise<string[]> {
	const partners = Array.from({ length: count }, (_, index) => `partner-co-${index + 1}`);
	world = await startPollWorld({
		projects,
		companies: partners.map((id) => ({ companyId: id, keywords: [id.replace(/-/g, '')] })),
		clients: [
			{
				...SANDBOX_FIXTURES.client,
				scopes: [SANDBOX_FIXTURES.scope],
				companyIds: [companyId, ...partners],
			},
		],
	});
	return partners;
}

/** The company's trigger, activated under `scheduler`. */
async function activeTrigger(scheduler: 'legacy' | 'durable' = 'durable'): Promise<PollHarness> {
	const trigger = world.process.poll({ companyId }, 'UTC', scheduler);
	await runInVirtualTime(async () => await trigger.activate());
	return trigger;
}

/** Polls until the first walk, the baseline, is complete, announcing nothing. */
async function pollThroughTheBaseline(trigger: PollHarness): Promise<void> {
	while (trigger.memory().v === undefined || trigger.memory().w !== undefined) {
		expect(await pollFor(trigger, 1)).toEqual([]);
	}
}

describe("under n8n's durable scheduler in full", () => {
	beforeEach(() => useVirtualTime());

	it('a slow API: each poll returns within its budget, the walk goes on at the next poll, and a new tender on its last page is announced once', async () => {
		// About 1,000 matched projects: a walk of 10 pages, 50 s at 5 s a page.
		world = await startPollWorld({ projects: 2_350 });
		expect(world.sandbox.listOpen(companyId)).toHaveLength(1_007);
		world.sandbox.setLatency(5_000);
		const trigger = await activeTrigger();
		const opened = world.sandbox.openTender({ quotesDueAt: isoDay(59) });
		const openedAt = Date.now();

		const announced = await pollFor(trigger, 4);

		expect(announced).toEqual([opened.id]);
		expect(trigger.abandoned).toBe(0);
		expect(trigger.errors).toEqual([]);
		// The activation poll (5 minutes) walked all 11 pages; then each walk took two polls of 36 s.
		const walkStarts = resultRequests().filter((entry) => entry.query.cursor === undefined);
		expect(walkStarts).toHaveLength(3);
		expect((announcedAt.get(opened.id)?.[0] ?? Infinity) - openedAt).toBeLessThan(3 * MINUTE_MS);
	});

	it('keeps the baseline of the activation poll, whose state the durable cursor never takes', async () => {
		world = await startPollWorld({ projects: 30 });
		const trigger = await activeTrigger();
		// The cursor was made empty when the activation poll started, and that poll commits nothing.
		expect(trigger.savedNodeData()).toEqual({});
		// Opened between the activation and the first scheduled poll, past the API's short cache.
		await pass(10_000);
		const opened = world.sandbox.openTender();
		await pass(20_000);
		expect(await pollFor(trigger, 2)).toEqual([opened.id]);
	});

	it('keeps its state across a kill between two quiet polls: the durable cursor, not the memory', async () => {
		world = await startPollWorld({ projects: 30 });
		const trigger = await activeTrigger();
		expect(await pollFor(trigger, 2)).toEqual([]);
		const committed = trigger.savedNodeData();
		expect(committed.q).toBe(3);
		// A new process: nothing of the old one's memory.
		const restarted = world.newProcess();
		await trigger.restartIn(restarted);
		const opened = world.sandbox.openTender();
		expect(await pollFor(trigger, 2)).toEqual([opened.id]);
	});
});

describe.each([
	// 11 pages at 5 s against the durable scheduler's 36 s; 21 at 28 s against the poller's 5 minutes.
	['durable' as const, 2_350, 5_000],
	['legacy' as const, 4_700, 28_000],
])(
	'a kill in the middle of a walk that spans polls (%s scheduler)',
	(scheduler, projects, latencyMs) => {
		beforeEach(() => useVirtualTime());

		it('announces every tender once: opened before the kill, while n8n is down, and after', async () => {
			world = await startPollWorld({ projects });
			world.sandbox.setLatency(latencyMs);
			const trigger = await activeTrigger(scheduler);
			await pollThroughTheBaseline(trigger);
			const early = world.sandbox.openTender({ quotesDueAt: isoDay(2) });
			const late = world.sandbox.openTender({ quotesDueAt: isoDay(59) });
			// One poll: the early tender's page is read and announced, the late one's is not yet.
			expect(await pollFor(trigger, 1)).toEqual([early.id]);
			expect(trigger.memory().w).toBeDefined();

			const restarted = world.newProcess();
			const down = world.sandbox.openTender({ quotesDueAt: isoDay(30) });
			const restart = await runInVirtualTime(async () => await trigger.restartIn(restarted));
			const after = world.sandbox.openTender({ quotesDueAt: isoDay(10) });
			const announced = [
				...(restart.kind === 'emitted' ? emittedTenderIds(restart.items) : []),
				...(await pollFor(trigger, 6)),
			];

			expect(announced.sort()).toEqual([late.id, down.id, after.id].sort());
			expect(trigger.errors).toEqual([]);
			expect(trigger.abandoned).toBe(0);
		});
	},
);

/** Two n8n main instances (multi-main), each polling half the triggers of one credential. */
describe('two processes on one credential', () => {
	beforeEach(() => useVirtualTime());

	it("learn their shares from the API's 429s and announce every tender once, failing no poll", async () => {
		const companyIds = await startPartners(20);
		const other = world.newProcess();
		const { opened, announced, triggers } = await runCompanies(
			companyIds,
			'durable',
			16,
			(index) => (index % 2 === 0 ? world.process : other),
		);

		expect(triggers.flatMap((trigger) => trigger.errors)).toEqual([]);
		expect(triggers.reduce((sum, trigger) => sum + trigger.abandoned, 0)).toBe(0);
		for (const { id, companyId: company } of opened) {
			expect({ id, times: announced.get(`${company} ${id}`)?.length }).toEqual({ id, times: 1 });
		}
		expect(busiestWindow(resultRequests(), 5 * MINUTE_MS)).toBeLessThanOrEqual(100);
	}, 120_000);
});

describe('waiting for a turn of the rate limit', () => {
	beforeEach(() => useVirtualTime());

	/** The warnings the trigger logged. */
	const warnings = (trigger: PollHarness) =>
		trigger.logs.filter((entry) => entry.level === 'warn').map((entry) => entry.message);

	it('a poll whose turn does not come in time emits nothing, fails nothing, says so once, and the walk goes on', async () => {
		const others = await startPartners(25, 30);
		const trigger = await activeTrigger();
		expect(await pollFor(trigger, 1)).toEqual([]);
		const opened = world.sandbox.openTender();
		// 25 triggers activated at once go first, none having completed a walk: past the burst, 45 s.
		const activations = others.map(async (id) => {
			await world.process.poll({ companyId: id }, 'UTC', 'durable').activate();
		});
		expect(await pollFor(trigger, 1)).toEqual([]);
		await runInVirtualTime(async () => await Promise.all(activations));
		expect(await pollFor(trigger, 1)).toEqual([opened.id]);
		expect(trigger.errors).toEqual([]);
		expect(warnings(trigger)).toEqual([
			expect.stringMatching(
				/^Supplier Matched Projects Trigger ".+" is waiting for its turn: this credential's 100 requests per 5 minutes are spent evenly, one request every 3 s, and \d+ more requests were waiting; its last complete walk ended \d+ s ago\. Nothing is lost: the walk goes on at its next poll, and the trigger whose last complete walk is oldest goes first\. To be told sooner, use fewer triggers or companies per credential, narrower keywords \(fewer pages\), or a longer poll interval\.$/,
			),
		]);
	});

	it("a credential whose whole limit another client spent: quiet polls until the API's window clears, then catches up", async () => {
		world = await startPollWorld({ projects: 30 });
		const trigger = await activeTrigger();
		const other = createSandboxClient(world.sandbox.url);
		const token = await other.token();
		while ((await other.results({ token, limit: 1 })).status !== 429);
		const opened = world.sandbox.openTender();

		const announced = await pollFor(trigger, 8);

		expect(announced).toEqual([opened.id]);
		expect(trigger.errors).toEqual([]);
		expect(trigger.abandoned).toBe(0);
		expect(warnings(trigger)).toHaveLength(1);
	});
});

/** Figures of a run of many triggers, for the test's claims. */
interface Run {
	opened: Array<{ id: string; companyId: string; at: number }>;
	/** When each company's trigger announced each tender id, by "company tender". */
	announced: Map<string, number[]>;
	triggers: PollHarness[];
}

/**
 * One trigger per company on one credential, each polling every minute at its own second (as
 * n8n's durable scheduler spreads them) for `minutes`, while a tender opens every 25 s for a
 * company in turn until five minutes before the end.
 */
async function runCompanies(
	companyIds: string[],
	scheduler: 'legacy' | 'durable',
	minutes: number,
	processOf: (index: number) => N8nProcess = () => world.process,
): Promise<Run> {
	const triggers = companyIds.map((id, index) =>
		processOf(index).poll({ companyId: id }, 'UTC', scheduler),
	);
	const run: Run = { opened: [], announced: new Map(), triggers };
	const start = Date.now();
	const until = async (at: number) => await sleep(Math.max(0, at - Date.now()));
	const pollEveryMinute = async (trigger: PollHarness, index: number) => {
		await trigger.activate();
		const spread = Math.floor((index * MINUTE_MS) / companyIds.length);
		for (let minute = 1; minute <= minutes; minute++) {
			await until(start + minute * MINUTE_MS + spread);
			const outcome = await trigger.poll();
			if (outcome.kind !== 'emitted') continue;
			for (const id of emittedTenderIds(outcome.items)) {
				const key = `${companyIds[index]} ${id}`;
				run.announced.set(key, [...(run.announced.get(key) ?? []), Date.now()]);
			}
		}
	};
	const openTenders = async () => {
		for (let second = 40, turn = 0; second < (minutes - 5) * 60; second += 25, turn += 7) {
			await until(start + second * 1_000);
			const companyId = companyIds[turn % companyIds.length];
			run.opened.push({
				id: world.sandbox.openTender({ companyId }).id,
				companyId,
				at: Date.now(),
			});
		}
	};
	await runInVirtualTime(async () => {
		await Promise.all([...triggers.map(pollEveryMinute), openTenders()]);
	});
	return run;
}

/** The value below which `share` of the values lie (nearest rank). */
function quantile(values: number[], share: number): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.max(0, Math.ceil(share * sorted.length) - 1)];
}

/** The longest time between two walks of one company: first pages, asked without a cursor. */
function longestGap(companyId: string): number {
	const starts = world.sandbox
		.requests()
		.filter((entry) => entry.path.includes(`/${companyId}/`) && entry.query.cursor === undefined)
		.map((entry) => Date.parse(entry.at));
	return Math.max(...starts.slice(1).map((at, index) => at - starts[index]));
}

describe.each([
	[30, 'durable' as const],
	[30, 'legacy' as const],
	[50, 'durable' as const],
])(
	'%i companies on one credential, one page each, under the %s scheduler',
	(companies, scheduler) => {
		/** Companies × one page × 3 s a request: the shortest cycle the limit allows. */
		const FLOOR_MS = Math.max(companies * 3_000, MINUTE_MS);

		beforeEach(() => useVirtualTime());

		it('announces every tender once to its company, with no failed poll, no 429, and fair turns', async () => {
			const companyIds = await startPartners(companies);
			const { opened, announced, triggers } = await runCompanies(companyIds, scheduler, 16);

			const failed = triggers.flatMap((trigger) => trigger.errors);
			const abandoned = triggers.reduce((sum, trigger) => sum + trigger.abandoned, 0);
			const refused = world.sandbox.requests().filter((entry) => entry.status === 429);
			expect(failed).toEqual([]);
			expect(abandoned).toBe(0);
			expect(refused).toEqual([]);
			expect(announced.size).toBe(opened.length);
			const latencies = opened.map(({ id, companyId, at }) => {
				const times = announced.get(`${companyId} ${id}`) ?? [];
				expect(times).toHaveLength(1);
				return times[0] - at;
			});
			const p95 = quantile(latencies, 0.95);
			const gaps = companyIds.map(longestGap);
			reportFigures(
				`${companies} companies on one credential, ${scheduler} scheduler (virtual time)`,
				{
					tenders: opened.length,
					failedPolls: failed.length,
					abandonedPolls: abandoned,
					answersOf429: refused.length,
					floorCycleSeconds: FLOOR_MS / 1000,
					latencyMedianSeconds: quantile(latencies, 0.5) / 1000,
					latencyP95Seconds: p95 / 1000,
					latencyMaxSeconds: Math.max(...latencies) / 1000,
					p95OverFloor: Number((p95 / FLOOR_MS).toFixed(2)),
					longestWaitInCycles: Number((Math.max(...gaps) / FLOOR_MS).toFixed(2)),
				},
			);
			expect(p95).toBeLessThanOrEqual(1.5 * FLOOR_MS);
			expect(Math.max(...gaps)).toBeLessThanOrEqual(3 * FLOOR_MS);
		}, 120_000);
	},
);

describe.each([['durable' as const], ['legacy' as const]])(
	'20,000 matched projects: 200 pages, twice what the limit allows in 5 minutes (%s scheduler)',
	(scheduler) => {
		/** 200 pages × 3 s a request. */
		const FLOOR_MS = 200 * 3_000;

		beforeEach(() => useVirtualTime());

		it('walks across polls and windows, and announces every new tender once, refusing nothing', async () => {
			world = await startPollWorld({ projects: 48_800 });
			expect(world.sandbox.listOpen(companyId)).toHaveLength(20_029);
			const trigger = await activeTrigger(scheduler);
			await pollThroughTheBaseline(trigger);
			const opened = [];
			for (let index = 0; index < 4; index++) {
				opened.push({ id: world.sandbox.openTender().id, at: Date.now() });
				await pollFor(trigger, 3);
			}
			await pollFor(trigger, 30);

			expect(trigger.errors).toEqual([]);
			expect(trigger.abandoned).toBe(0);
			const requests = resultRequests();
			expect(requests.filter((entry) => entry.status === 429)).toEqual([]);
			expect(busiestWindow(requests, 5 * MINUTE_MS)).toBeLessThanOrEqual(100);
			const latencies = opened.map(({ id, at }) => {
				const times = announcedAt.get(id) ?? [];
				expect(times).toHaveLength(1);
				return times[0] - at;
			});
			reportFigures(`20,000 matched projects, ${scheduler} scheduler (virtual time)`, {
				tenders: opened.length,
				floorWalkSeconds: FLOOR_MS / 1000,
				latencyMedianSeconds: quantile(latencies, 0.5) / 1000,
				latencyMaxSeconds: Math.max(...latencies) / 1000,
				maxOverFloor: Number((Math.max(...latencies) / FLOOR_MS).toFixed(2)),
			});
			// Found by the walk under way, or at worst by the next: within two walks and a poll.
			expect(Math.max(...latencies)).toBeLessThanOrEqual(2 * FLOOR_MS + MINUTE_MS);
		}, 300_000 /* a loaded machine: 200 pages through n8n's engine */);
	},
);
