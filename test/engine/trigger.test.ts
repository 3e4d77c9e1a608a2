import type { IDataObject } from 'n8n-workflow';

import { readTriggerState } from '../../nodes/SupplierMatchedProjects/trigger/state';
import { advanceTime, isoDay } from '../support/engine/clock';
import type { PollHarness, PollOutcome } from '../support/harness';
import { closedPort } from '../support/reliability/server';
import {
	companyId,
	DAY_MS,
	emittedTenderIds,
	jsonOf,
	MINUTE_MS,
	freshPollWorldEachTest,
	SANDBOX_FIXTURES,
	startPollWorld,
	type PollWorld,
} from '../support/engine/poll-world';

let world: PollWorld;

function trackedIds(data: IDataObject): string[] {
	const read = readTriggerState(data);
	if (read.kind !== 'state')
		throw new Error(`expected a trigger state, got ${JSON.stringify(read)}`);
	return [...read.state.tenders.keys()].sort();
}

function openIds(): string[] {
	return world.sandbox
		.listOpen(companyId)
		.flatMap((project) => project.tenders.map((tender) => tender.id))
		.sort();
}

function resultRequests(): number {
	return world.sandbox.requests().filter((request) => request.path.endsWith('/results')).length;
}

/** The next scheduled poll, a few minutes later. */
async function pollLater(trigger: PollHarness, minutes = 5) {
	advanceTime(minutes * MINUTE_MS);
	return await trigger.poll();
}

/** The items of an outcome that must be an emit. */
function emitted(outcome: PollOutcome) {
	if (outcome.kind !== 'emitted') throw new Error(`expected an emit, got ${outcome.kind}`);
	return outcome.items;
}

/** The error of an outcome that must be one. */
function failed(outcome: PollOutcome) {
	if (outcome.kind !== 'error') throw new Error(`expected an error, got ${outcome.kind}`);
	return outcome.error;
}

/** The poll raised nothing and logged only that it was skipped, for this reason. */
function expectSkipped(trigger: PollHarness, reason: string): void {
	expect(trigger.errors).toEqual([]);
	expect(trigger.logs).toEqual([
		{ level: 'warn', message: expect.stringContaining(`skipped a poll: ${reason}`) },
	]);
}

async function newIdsOf(trigger: PollHarness, minutes = 5): Promise<string[]> {
	const outcome = await pollLater(trigger, minutes);
	if (outcome.kind === 'error') throw outcome.error;
	return outcome.kind === 'emitted' ? emittedTenderIds(outcome.items) : [];
}

freshPollWorldEachTest((fresh) => (world = fresh));

describe('activation and new tenders', () => {
	it('emits a tender opened after activation once, as a tender item with its project', async () => {
		world.sandbox.openTender();
		const trigger = await world.activeTrigger();
		const opened = world.sandbox.openTender();
		advanceTime(5 * MINUTE_MS);
		const items = emitted(await trigger.poll());
		const [item] = jsonOf(items);
		expect(items).toHaveLength(1);
		expect(item).toMatchObject({
			event: 'newTender',
			id: opened.id,
			name: opened.name,
			quotesDueAt: opened.quotesDueAt,
			builder: opened.builder,
			project: { projectId: opened.projectId },
		});
		expect(item.project).not.toHaveProperty('tenders');
		expect(trigger.saves).toBe(2);
		expect(await newIdsOf(trigger)).toEqual([]);
	});

	it('emits what is open on activation when the option is on, then only new tenders', async () => {
		const first = world.sandbox.openTender();
		const second = world.sandbox.openTender();
		const trigger = world.trigger({ options: { emitOpenOnFirstRun: true } });
		const items = emitted(await trigger.activate());
		expect(emittedTenderIds(items).sort()).toEqual([first.id, second.id].sort());
		expect(await newIdsOf(trigger)).toEqual([]);
		const third = world.sandbox.openTender();
		expect(await newIdsOf(trigger)).toEqual([third.id]);
	});

	it('records what is open as the baseline on activation, emits nothing, and saves it, walking pages of 100 projects in as few requests as it needs', async () => {
		await world.stop();
		world = await startPollWorld({ projects: 600 });
		const projectCount = world.sandbox.listOpen(companyId).length;
		expect(projectCount).toBeGreaterThan(200);
		const trigger = world.trigger();
		world.sandbox.resetRequests();
		expect(await trigger.activate()).toEqual({ kind: 'nothing' });
		expect(trigger.saves).toBe(1);
		const limits = world.sandbox
			.requests()
			.filter((request) => request.path.endsWith('/results'))
			.map((request) => request.query.limit);
		expect(limits).toHaveLength(Math.ceil(projectCount / 100));
		expect(new Set(limits)).toEqual(new Set(['100']));
		expect(trackedIds(trigger.savedNodeData())).toEqual(openIds());
	});
});

describe('Fetch Test Event', () => {
	it('returns a small sample of current tenders and leaves the state alone', async () => {
		for (let index = 0; index < 7; index++) world.sandbox.openTender();
		const trigger = world.trigger();
		const sample = await trigger.fetchTestEvent();
		expect(sample).toHaveLength(5);
		for (const item of jsonOf(sample)) expect(item).toMatchObject({ event: 'newTender' });
		expect(trigger.saved).toEqual({});
		await trigger.activate();
		const saved = JSON.stringify(trigger.saved);
		await trigger.fetchTestEvent();
		expect(JSON.stringify(trigger.saved)).toBe(saved);
	});

	it('applies the filters to the sample, and says clearly when nothing matches', async () => {
		world.sandbox.openTender({ type: 'Procurement' });
		const trigger = world.trigger({ filters: { tenderTypes: ['Tender'] } });
		await expect(trigger.fetchTestEvent()).rejects.toThrow(
			'No open tender matches for company "company-1" right now',
		);
		const tender = world.sandbox.openTender({ type: 'Tender' });
		advanceTime(MINUTE_MS);
		expect(emittedTenderIds((await trigger.fetchTestEvent()) ?? [])).toEqual([tender.id]);
	});
});

describe('failures', () => {
	it('emits nothing and changes nothing when a fault outlasts the retries mid-walk', async () => {
		await world.stop();
		world = await startPollWorld({ projects: 600 });
		const trigger = await world.activeTrigger();
		const before = trigger.memory();
		const opened = world.sandbox.openTender();
		// The first page is served, then every attempt at the second fails.
		world.sandbox.injectFault({ kind: 'latencySpike', ms: 0 });
		world.sandbox.injectFault({ kind: 'serverError', times: 5 });
		const requestsBefore = resultRequests();
		expect(await pollLater(trigger)).toEqual({ kind: 'nothing' });
		expect(resultRequests() - requestsBefore).toBe(6);
		expectSkipped(trigger, 'The API failed on its side after 5 attempts (INTERNAL_SERVER_ERROR)');
		expect(trigger.memory()).toEqual(before);
		expect(await newIdsOf(trigger)).toEqual([opened.id]);
	});
});

describe('failures of the credential', () => {
	const WRONG_SECRET = 'wrong-secret-the-trigger-must-never-show';

	it.each([
		[
			'the API refuses the client access to the company (401)',
			() => world.useCredential(SANDBOX_FIXTURES.otherClient),
			() => 'The API refused access to company "company-1" (Unauthorised)',
			'the company "company-1" is not registered to client "other-client"',
		],
		[
			'the issuer rejects the client secret (401 invalid_client)',
			() => world.useCredential({ clientSecret: WRONG_SECRET }),
			() => 'The token issuer rejected the client ID or client secret (invalid_client)',
			"Check the credential's Client ID and Client Secret",
		],
	])(
		'reports a failed poll when %s, and catches up once it is fixed',
		async (_case, arrange, message, fix) => {
			const trigger = await world.activeTrigger();
			const before = trigger.memory();
			arrange();
			const opened = world.sandbox.openTender();
			const error = failed(await pollLater(trigger));
			expect(error.message).toBe(message());
			expect((error as { description?: string }).description).toContain(fix);
			expect(JSON.stringify(error)).not.toContain(WRONG_SECRET);
			expect(`${error.message} ${error.stack}`).not.toContain(WRONG_SECRET);
			expect(trigger.errors).toEqual([error]);
			expect(trigger.logs).toEqual([]);
			expect(trigger.memory()).toEqual(before);
			world.useCredential();
			expect(await newIdsOf(trigger)).toEqual([opened.id]);
		},
	);

	it('only logs a poll whose issuer could not be reached, and catches up', async () => {
		const trigger = await world.activeTrigger();
		const before = trigger.memory();
		const nowhere = `http://127.0.0.1:${await closedPort()}`;
		world.useCredential({ authUrl: nowhere });
		const opened = world.sandbox.openTender();
		expect(await pollLater(trigger)).toEqual({ kind: 'nothing' });
		expectSkipped(
			trigger,
			`Could not reach the token issuer at ${nowhere}: the connection was refused`,
		);
		expect(trigger.memory()).toEqual(before);
		world.useCredential();
		expect(await newIdsOf(trigger)).toEqual([opened.id]);
	});
});

describe('restarts (only what n8n saved survives)', () => {
	it('emits on the restart poll a tender that opened while n8n was down', async () => {
		const trigger = await world.activeTrigger();
		expect(await newIdsOf(trigger)).toEqual([]);
		advanceTime(3 * 60 * MINUTE_MS);
		const opened = world.sandbox.openTender();
		const items = emitted(await trigger.restart());
		expect(emittedTenderIds(items)).toEqual([opened.id]);
		expect(await newIdsOf(trigger)).toEqual([]);
	});

	it('marks a tender the filters leave out as seen only once it passes them and is emitted', async () => {
		const trigger = await world.activeTrigger({ filters: { tenderTypes: ['Tender'] } });
		const procurement = world.sandbox.openTender({ type: 'Procurement' });
		expect(await newIdsOf(trigger)).toEqual([]);
		advanceTime(MINUTE_MS);
		await trigger.restart();
		world.sandbox.updateTender(procurement.id, { type: 'Tender' });
		expect(await newIdsOf(trigger)).toEqual([procurement.id]);
		advanceTime(MINUTE_MS);
		await trigger.restart();
		expect(await newIdsOf(trigger)).toEqual([]);
	});

	it('takes a state it cannot read as no state: a new baseline, said in the log', async () => {
		const known = world.sandbox.openTender();
		const trigger = world.trigger();
		trigger.setSavedNodeData({
			version: 1,
			seenTenderIds: [known.id],
			lastPollAt: new Date(Date.now() - DAY_MS).toISOString(),
		});
		const opened = world.sandbox.openTender();
		expect(await trigger.restart()).toEqual({ kind: 'nothing' });
		expect(trigger.logs).toEqual([
			{
				level: 'warn',
				message: expect.stringMatching(
					/^Supplier Matched Projects Trigger ".+" cannot read its saved state \(it was not saved in this node's layout\); it records the open tenders as a new baseline$/,
				),
			},
		]);
		expect(trackedIds(trigger.savedNodeData())).toEqual([known.id, opened.id].sort());
		const next = world.sandbox.openTender();
		expect(await newIdsOf(trigger)).toEqual([next.id]);
	});
});

describe('updates (New or Updated Tender)', () => {
	it('emits a changed due date once, saying from what to what', async () => {
		const tender = world.sandbox.openTender({ quotesDueAt: isoDay(20) });
		const trigger = await world.activeTrigger({ event: 'newOrUpdatedTender' });
		const from = tender.quotesDueAt;
		const to = isoDay(27);
		world.sandbox.updateTender(tender.id, { quotesDueAt: to });
		const items = emitted(await pollLater(trigger));
		expect(jsonOf(items)).toEqual([
			expect.objectContaining({
				event: 'updatedTender',
				id: tender.id,
				quotesDueAt: to,
				changes: { quotesDueAt: { from, to } },
			}),
		]);
		expect(await newIdsOf(trigger)).toEqual([]);
	});

	it('gives simplified rows the change columns', async () => {
		const tender = world.sandbox.openTender({ builder: 'Tōtara Projects' });
		const trigger = await world.activeTrigger({ event: 'newOrUpdatedTender', simplify: true });
		world.sandbox.updateTender(tender.id, { builder: 'Bluegum Builders' });
		const fresh = world.sandbox.openTender();
		const items = emitted(await pollLater(trigger));
		const rows = jsonOf(items);
		const updated = rows.find((row) => row.tenderId === tender.id);
		const added = rows.find((row) => row.tenderId === fresh.id);
		expect(updated).toMatchObject({
			event: 'updatedTender',
			builderName: 'Bluegum Builders',
			changedFields: 'builder',
			previousBuilderName: 'Tōtara Projects',
			previousQuotesDueAt: null,
		});
		expect(added).toMatchObject({
			event: 'newTender',
			changedFields: '',
			previousBuilderName: null,
		});
		expect(Object.keys(updated ?? {})).toEqual(Object.keys(added ?? {}));
	});
});

describe('parameters', () => {
	it('refuses a bad filter value on activation, naming the field', async () => {
		const trigger = world.trigger({ filters: { budgetAtLeast: 5, budgetAtMost: 1 } });
		await expect(trigger.activate()).rejects.toThrow(
			'Budget filters: Budget At Least (5) is more than Budget At Most (1); lower Budget At Least or raise Budget At Most',
		);
		expect(trigger.saved).toEqual({});
	});

	it('takes a new baseline when the company changes, instead of emitting all its tenders', async () => {
		world.sandbox.openTender();
		world.sandbox.openTender({ companyId: SANDBOX_FIXTURES.secondCompanyId });
		const trigger = await world.activeTrigger();
		trigger.setParameters({ companyId: SANDBOX_FIXTURES.secondCompanyId });
		advanceTime(MINUTE_MS);
		expect(await trigger.activate('update')).toEqual({ kind: 'nothing' });
		const opened = world.sandbox.openTender({ companyId: SANDBOX_FIXTURES.secondCompanyId });
		expect(await newIdsOf(trigger)).toEqual([opened.id]);
	});
});

describe('Quotes Due Soon', () => {
	const dueSoon = (parameters: IDataObject = {}, timezone?: string) =>
		world.trigger({ event: 'quotesDueSoon', daysBeforeQuotesDue: 3, ...parameters }, timezone);

	it('announces nothing on activation, then a tender re-dated into the window once, with its days left', async () => {
		// Inside the window at activation: never announced for this date.
		world.sandbox.openTender({ quotesDueAt: isoDay(2) });
		const later = world.sandbox.openTender({ quotesDueAt: isoDay(20) });
		const trigger = dueSoon();
		expect(await trigger.activate()).toEqual({ kind: 'nothing' });
		expect(trigger.saves).toBe(1);
		expect(await newIdsOf(trigger)).toEqual([]);

		world.sandbox.redateTender(later.id, 3);
		const items = emitted(await pollLater(trigger));
		expect(jsonOf(items)).toEqual([
			expect.objectContaining({
				event: 'quotesDueSoon',
				daysLeft: 3,
				id: later.id,
				quotesDueAt: isoDay(3),
				project: expect.objectContaining({ projectId: later.projectId }),
			}),
		]);
		expect(jsonOf(items)[0]).not.toHaveProperty('previousQuotesDueAt');
		expect(trigger.saves).toBe(2);
		expect(await newIdsOf(trigger)).toEqual([]);
		advanceTime(MINUTE_MS);
		expect(await trigger.restart()).toEqual({ kind: 'nothing' });
		expect(await newIdsOf(trigger, 24 * 60)).toEqual([]);
	});

	it('reads the option given by an expression as its words say', async () => {
		world.sandbox.openTender({ quotesDueAt: isoDay(1) });
		const off = dueSoon({ options: { emitOpenOnFirstRun: '={{ "no" }}' } });
		expect(await off.activate()).toEqual({ kind: 'nothing' });
	});

	it("counts days in the workflow's time zone: due tomorrow in UTC is due today in Auckland first", async () => {
		// 09:00 UTC on 10 March 2030 is 22:00 in Auckland (UTC+13).
		const tender = world.sandbox.openTender({ quotesDueAt: '2030-03-11' });
		const auckland = dueSoon({ daysBeforeQuotesDue: 0 }, 'Pacific/Auckland');
		const utc = dueSoon({ daysBeforeQuotesDue: 0 }, 'UTC');
		await auckland.activate();
		await utc.activate();
		expect(await newIdsOf(auckland, 60)).toEqual([]);
		expect(await newIdsOf(utc, 0)).toEqual([]);
		// 11:00 UTC: midnight has passed in Auckland, not in UTC.
		const inAuckland = await newIdsOf(auckland, 60);
		const inUtc = await newIdsOf(utc, 0);
		expect([inAuckland, inUtc]).toEqual([[tender.id], []]);
		advanceTime(13 * 60 * MINUTE_MS);
		expect(await newIdsOf(utc, 0)).toEqual([tender.id]);
		expect(await newIdsOf(auckland, 0)).toEqual([]);
	});

	it('shows only tenders inside the window as the test event, or says there are none', async () => {
		world.sandbox.openTender({ quotesDueAt: isoDay(30) });
		const trigger = dueSoon({ daysBeforeQuotesDue: 1 });
		await expect(trigger.fetchTestEvent()).rejects.toThrow(
			'No matching tender of company "company-1" has quotes due within 1 day right now',
		);
		const soon = world.sandbox.openTender({ quotesDueAt: isoDay(1) });
		advanceTime(MINUTE_MS);
		const sample = jsonOf(await trigger.fetchTestEvent());
		expect(sample).toEqual([
			expect.objectContaining({ event: 'quotesDueSoon', id: soon.id, daysLeft: 1 }),
		]);
		expect(trigger.saved).toEqual({});
	});
});
