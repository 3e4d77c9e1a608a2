/**
 * The trigger where n8n's durable scheduler and a busy credential put it: every poll returns
 * within the budget n8n gives it, a walk that does not fit goes on at the next poll, and the
 * state n8n actually keeps (its durable cursor, or what it saves on emit) still gives each tender
 * once. n8n's engine runs the trigger in-process against the sandbox, on virtual time.
 */
import type { INodeParameters } from 'n8n-workflow';

import { isoDay, runInVirtualTime, useVirtualTime } from '../support/clock';
import { n8nProcess, type PollHarness } from '../support/harness';
import {
	companyId,
	emittedTenderIds,
	MINUTE_MS,
	SANDBOX_FIXTURES,
	startPollWorld,
	type PollWorld,
} from '../support/poll-world';

let world: PollWorld;

afterEach(async () => {
	announcedAt.clear();
	await world?.stop();
	jest.useRealTimers();
});

/** Waits `ms` of virtual time. */
async function pass(ms: number): Promise<void> {
	await runInVirtualTime(async () => await new Promise((done) => setTimeout(done, ms)));
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

function resultPaths(): Array<{ cursor: unknown; at: string }> {
	return world.sandbox
		.requests()
		.filter((entry) => entry.path.endsWith('/speci-finder/results'))
		.map((entry) => ({ cursor: entry.query.cursor, at: entry.at }));
}

async function durableTrigger(parameters: INodeParameters = {}): Promise<PollHarness> {
	const trigger = world.process.poll({ companyId, ...parameters }, 'UTC', 'durable');
	await runInVirtualTime(async () => await trigger.activate());
	return trigger;
}

describe("under n8n's durable scheduler in full", () => {
	beforeEach(() => useVirtualTime());

	it('a slow API: each poll returns within its budget, the walk goes on at the next poll, and a new tender on its last page is announced once', async () => {
		// About 1,000 matched projects: a walk of 10 pages, 50 s at 5 s a page.
		world = await startPollWorld({ projects: 2_350 });
		expect(world.sandbox.listOpen(companyId)).toHaveLength(1_007);
		world.sandbox.setLatency(5_000);
		const trigger = await durableTrigger();
		const opened = world.sandbox.openTender({ quotesDueAt: isoDay(59) });
		const openedAt = Date.now();

		const announced = await pollFor(trigger, 4);

		expect(announced).toEqual([opened.id]);
		expect(trigger.abandoned).toBe(0);
		expect(trigger.errors).toEqual([]);
		// The activation poll (5 minutes) walked all 11 pages; then each walk took two polls of 36 s.
		const walkStarts = resultPaths().filter((entry) => entry.cursor === undefined);
		expect(walkStarts).toHaveLength(3);
		expect((announcedAt.get(opened.id)?.[0] ?? Infinity) - openedAt).toBeLessThan(3 * MINUTE_MS);
	});

	it('keeps the baseline of the activation poll, whose state the durable cursor never takes', async () => {
		world = await startPollWorld({ projects: 30 });
		const trigger = await durableTrigger();
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
		const trigger = await durableTrigger();
		expect(await pollFor(trigger, 2)).toEqual([]);
		const committed = trigger.savedNodeData();
		expect(committed.q).toBe(3);
		// A new process: nothing of the old one's memory.
		const restarted = n8nProcess({
			credential: { authUrl: world.sandbox.url, baseUrl: world.sandbox.url, ...SANDBOX_FIXTURES.client },
		});
		await trigger.restartIn(restarted);
		const opened = world.sandbox.openTender();
		expect(await pollFor(trigger, 2)).toEqual([opened.id]);
	});
});
