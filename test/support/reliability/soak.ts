/**
 * The fault soak. The trigger polls, and the Get Many node walks every page, against the sandbox
 * over HTTP while the sandbox fails on purpose (5xx, 429 with Retry-After, dropped connections,
 * latency spikes), tokens are revoked and n8n restarts. Between polls tenders open, close, change,
 * leave the near-term window and come back, and the clock moves on. On virtual time (./clock) no
 * wait takes real time, and with the product's random draws seeded too, the same seeds give the
 * same figures.
 *
 * What should have been emitted is worked out from the sandbox alone: what `listOpen` listed at
 * every poll whose walk the sandbox fully served (its request log says so), compared with what
 * was listed before. The trigger's own state is never consulted.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { Project, Tender } from '../../../nodes/SupplierMatchedProjects/api/types';
import type { RetryPolicy } from '../../../nodes/SupplierMatchedProjects/transport/retry';
import { readTriggerState } from '../../../nodes/SupplierMatchedProjects/trigger/state';
import { SANDBOX_FIXTURES, startSandbox } from '../../../sandbox';
import type { FaultRates } from '../../../sandbox/faults';
import type { RequestLogEntry } from '../../../sandbox/server';
import {
	advanceTime,
	DAY_MS,
	isoDay,
	MINUTE_MS,
	runInVirtualTime,
	useVirtualTime,
} from '../engine/clock';
import { createRandom, type Random } from '../../../sandbox/random';
import type { Sandbox } from '../engine/poll-world';
import { busiestWindow } from '../engine/rate-window';
import { n8nProcess, type N8nProcess, type PollHarness } from '../harness';
import { Oracle } from '../../timeline/oracle';
import { captureLogs } from './logs';
import { reportProgress } from './report';

const RATE_WINDOW_MS = 5 * MINUTE_MS;
const PAGE_SIZE = 100;
const { companyId } = SANDBOX_FIXTURES;

/** What the issue asks for: about 20% 5xx, 5% 429 with Retry-After, drops and latency spikes. */
const SOAK_FAULT_RATES: FaultRates = {
	serverError: 0.1,
	fetchFailed: 0.1,
	rateLimited: 0.05,
	drop: 0.03,
	latencySpike: 0.03,
	latencySpikeMs: 1500,
	retryAfterSeconds: 1,
	on: 'results',
};

/** A fixed start, so due dates and day changes do not depend on the day the soak runs. */
const SOAK_START = '2030-03-10T07:00:00.000Z';

export interface SoakOptions {
	seed: number;
	/** Projects the sandbox generates at the start (about 40% match the company). */
	projects: number;
	/** Replaces parts of the transport's retry policy for the run (CI keeps backoff short). */
	retryPolicy?: Partial<RetryPolicy>;
	/** Chance per poll that every live token is revoked. */
	revokeChance: number;
	/** Chance per poll that n8n restarts before it. */
	restartChance: number;
}

/** A walk that failed is run again, as n8n's Retry On Fail would, up to `reruns` times. */
type WalkSoakOptions = Omit<SoakOptions, 'restartChance'> & { reruns: number };

/**
 * Moves the clock on, and past midnight (UTC) when it would land in the half hour before it: a day
 * change in the middle of a walk would change what the sandbox lists while it is being walked.
 */
function advanceClock(ms: number): void {
	const untilMidnight = DAY_MS - ((Date.now() + ms) % DAY_MS);
	advanceTime(untilMidnight < 30 * MINUTE_MS ? ms + untilMidnight + MINUTE_MS : ms);
}

/**
 * Seeds Math.random, the transport's backoff jitter and rate-share spread: on virtual time they
 * decide when each request leaves. A stream apart from the soak's own; returns the undo.
 */
function seedProductRandom(seed: number): () => void {
	const spy = jest.spyOn(Math, 'random').mockImplementation(createRandom(seed + 1).next);
	return () => spy.mockRestore();
}

/** The order does not matter when comparing changes. */
function changesKey(id: string, changes: unknown): string {
	const entries = Object.entries(changes as Record<string, unknown>).sort(([a], [b]) =>
		a < b ? -1 : 1,
	);
	return `${id} ${JSON.stringify(entries)}`;
}

type Listed = Map<string, { tender: Tender; project: Project }>;

/** Every listed tender with its project, in walk order. */
function listedTenders(projects: Project[]): Listed {
	const listed: Listed = new Map();
	for (const project of projects) {
		for (const tender of project.tenders) {
			if (!listed.has(tender.id)) listed.set(tender.id, { tender, project });
		}
	}
	return listed;
}

const isResults = (entry: RequestLogEntry) => entry.path.endsWith('/speci-finder/results');

/** The poll went on with a walk an earlier poll started: its first page had a cursor. */
function walkSpansPolls(entries: RequestLogEntry[]): boolean {
	const cursor = entries.find(isResults)?.query.cursor;
	return typeof cursor === 'string' && cursor !== '';
}

/** A page the trigger got whole: a 200 the sandbox neither broke nor cut short. */
const pageRead = (entry: RequestLogEntry) =>
	entry.status === 200 && (entry.fault === null || entry.fault === 'latencySpike');

/**
 * Whether the sandbox served a whole walk: one untouched 200 for the first page and for each
 * following cursor, as many as the listing needs at 100 projects a page.
 */
function walkServed(entries: RequestLogEntry[], projectCount: number): boolean {
	const pagesNeeded = Math.max(1, Math.ceil(projectCount / PAGE_SIZE));
	const served = new Set<string>();
	for (const entry of entries.filter(isResults)) {
		if (!pageRead(entry)) continue;
		const cursor = entry.query.cursor;
		served.add(typeof cursor === 'string' ? cursor : '');
	}
	return served.size >= pagesNeeded && served.has('');
}

const SECOND_BUILDERS = ['Harbour Construct', 'Ridgeline Builders', 'Northgate Projects'];

/** Changes the sandbox the way a day of tendering does. */
function churn({ sandbox, random, counts, away, closed }: Interlude): void {
	const listed = [...listedTenders(sandbox.listOpen(companyId)).values()];
	const someListed = () => (listed.length === 0 ? undefined : random.pick(listed));
	// About as many tenders open as leave, so the listing stays at a few pages through the soak.
	const opens = random.chance(0.55) ? random.int(1, 2) : 0;
	for (let index = 0; index < opens; index++) {
		const target = someListed();
		if (target !== undefined && random.chance(0.25)) {
			sandbox.addTenderUnderBuilder(target.project.projectId, random.pick(SECOND_BUILDERS), {
				name: target.tender.name,
				quotesDueAt: isoDay(random.int(1, 50)),
			});
			counts.openedUnderSecondBuilder++;
		} else {
			sandbox.openTender({});
		}
		counts.opened++;
	}
	if (random.chance(0.5)) {
		const target = someListed();
		if (target !== undefined) {
			sandbox.closeTender(target.tender.id, random.chance(0.5) ? 'Closed' : 'Awarded');
			closed.add(target.tender.id);
			counts.closed++;
		}
	}
	if (random.chance(0.35)) {
		const target = someListed();
		if (target !== undefined) {
			const other = someListed();
			const patch = random.pick([
				{ quotesDueAt: isoDay(random.int(1, 55)) },
				{ builder: random.pick(SECOND_BUILDERS) },
				{ type: target.tender.type === 'Tender' ? ('Procurement' as const) : ('Tender' as const) },
				{ name: other?.tender.name ?? target.tender.name },
			]);
			sandbox.updateTender(target.tender.id, patch);
			counts.changed++;
		}
	}
	if (random.chance(0.1)) {
		const target = someListed();
		if (target !== undefined) {
			// Due well past the near-term window: the tender stops being listed, still open.
			sandbox.updateTender(target.tender.id, { quotesDueAt: isoDay(random.int(80, 120)) });
			away.add(target.tender.id);
			counts.leftWindow++;
		}
	}
	if (away.size > 0 && random.chance(0.15)) {
		const id = random.pick([...away]);
		away.delete(id);
		if (sandbox.getTender(id).status === 'Open') {
			sandbox.updateTender(id, { quotesDueAt: isoDay(random.int(1, 40)) });
			counts.reentered++;
		}
	}
	if (closed.size > 0 && random.chance(0.08)) {
		const id = random.pick([...closed]);
		closed.delete(id);
		sandbox.updateTender(id, { status: 'Open', quotesDueAt: isoDay(random.int(1, 40)) });
		counts.reopened++;
	}
}

/** What happens between two runs: the clock moves on, the sandbox churns, tokens may be revoked. */
class Interlude {
	readonly counts = {
		opened: 0,
		openedUnderSecondBuilder: 0,
		closed: 0,
		changed: 0,
		leftWindow: 0,
		reentered: 0,
		reopened: 0,
	};

	revocations = 0;
	readonly away = new Set<string>();
	readonly closed = new Set<string>();

	constructor(
		readonly sandbox: Sandbox,
		readonly random: Random,
		private readonly revokeChance: number,
	) {}

	pass(): void {
		advanceClock(this.random.int(1, 10) * MINUTE_MS);
		churn(this);
		if (this.random.chance(this.revokeChance)) {
			this.sandbox.revokeTokens();
			this.revocations++;
		}
	}
}

/** Virtual time from SOAK_START, the seeded draws and the faulty sandbox; `stop` undoes them. */
async function startSoak(options: Omit<SoakOptions, 'restartChance'>) {
	const startedAt = performance.now();
	useVirtualTime({ start: SOAK_START });
	const restoreRandom = seedProductRandom(options.seed);
	captureLogs();
	const random = createRandom(options.seed);
	const sandbox = await startSandbox({ port: 0, seed: options.seed, projects: options.projects });
	sandbox.setFaultRates(SOAK_FAULT_RATES, options.seed);
	const between = new Interlude(sandbox, random, options.revokeChance);
	const stop = async () => {
		await sandbox.stop();
		restoreRandom();
		jest.useRealTimers();
	};
	return { startedAt, random, sandbox, between, stop };
}

/** A fresh process with the credential pointed at the sandbox. */
function processFor(sandbox: Sandbox, retryPolicy: SoakOptions['retryPolicy']): N8nProcess {
	return n8nProcess({
		retryPolicy,
		credential: { authUrl: sandbox.url, baseUrl: sandbox.url, ...SANDBOX_FIXTURES.client },
	});
}

/** The trigger of a soak, in a fresh process; its database is the harness's saved static data. */
function triggerIn(sandbox: Sandbox, retryPolicy: SoakOptions['retryPolicy']): PollHarness {
	return processFor(sandbox, retryPolicy).poll(
		{ companyId, event: 'newOrUpdatedTender', output: 'tenders' },
		'UTC',
	);
}

export type TriggerSoakFigures = Awaited<ReturnType<typeof soakTrigger>>;

function byStatus(entries: RequestLogEntry[]): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const entry of entries) counts[entry.status] = (counts[entry.status] ?? 0) + 1;
	return counts;
}

/** The faults the sandbox injected, those that happened at least once. */
function faultsOf(sandbox: Sandbox): Record<string, number> {
	return Object.fromEntries(
		Object.entries(sandbox.faultsInjected()).filter(([, times]) => times > 0),
	);
}

/** What the API saw of a soak, the last figures of both soaks. */
function apiFigures(sandbox: Sandbox, log: RequestLogEntry[], startedAt: number) {
	return {
		requestsMade: log.length,
		requestsByStatus: byStatus(log),
		tokensIssued: sandbox.tokensIssued(),
		busiestFiveMinutes: busiestWindow(log.filter(isResults), RATE_WINDOW_MS),
		rateLimitedByTheApi: log.filter((entry) => entry.status === 429 && entry.fault === null).length,
		realSeconds: Math.round((performance.now() - startedAt) / 100) / 10,
	};
}

/** An item's own tender fields, to compare with what the sandbox listed. */
function tenderFieldsOf(json: IDataObject): Record<string, unknown> {
	const fields: Record<string, unknown> = { ...json };
	delete fields.event;
	delete fields.changes;
	delete fields.project;
	return fields;
}

const bump = (counts: Map<string, number>, key: string) =>
	counts.set(key, (counts.get(key) ?? 0) + 1);
const sum = (values: Iterable<number>) => [...values].reduce((total, value) => total + value, 0);

/** Ground truth from the sandbox alone, and what the trigger emitted against it. */
class TriggerLedger {
	/** The timeline's oracle, fed only the listings of served walks. */
	private readonly oracle = new Oracle(true);
	readonly expectedNew = new Set<string>();
	private readonly expectedUpdates = new Map<string, number>();
	private readonly emittedNew = new Map<string, number>();
	private readonly emittedUpdates = new Map<string, number>();
	private readonly mismatched: string[] = [];
	baselined = false;

	/** Counts what a poll emitted, each item checked against what the sandbox listed for it. */
	record(items: INodeExecutionData[], listed: Listed): void {
		for (const { json } of items) {
			const id = String(json.id);
			// Not listed at all stringifies to undefined: a mismatch too.
			const truth = JSON.stringify(listed.get(id)?.tender);
			if (JSON.stringify(tenderFieldsOf(json)) !== truth) this.mismatched.push(id);
			if (json.event === 'newTender') bump(this.emittedNew, id);
			else bump(this.emittedUpdates, changesKey(id, json.changes));
		}
	}

	/** After a fully served poll of a running trigger: what it should have emitted. */
	learn(listing: Project[]): void {
		if (!this.baselined) this.oracle.baseline(listing);
		else {
			for (const { id, event, changes } of this.oracle.expect(listing)) {
				if (event === 'newTender') this.expectedNew.add(id);
				else bump(this.expectedUpdates, changesKey(id, changes));
			}
		}
		this.baselined = true;
	}

	/** Expected against emitted, with the first few ids behind each non-zero loss or duplicate. */
	outcome() {
		const { expectedNew, emittedNew, expectedUpdates, emittedUpdates } = this;
		const lost = [...expectedNew].filter((id) => !emittedNew.has(id));
		const duplicated = [...emittedNew].filter(([, times]) => times > 1);
		const unexpected = [...emittedNew.keys()].filter((id) => !expectedNew.has(id));
		const updatesLost = [...expectedUpdates].filter(
			([key, times]) => (emittedUpdates.get(key) ?? 0) < times,
		);
		const updatesDuplicated = [...emittedUpdates].filter(
			([key, times]) => times > (expectedUpdates.get(key) ?? 0) && expectedUpdates.has(key),
		);
		const updatesUnexpected = [...emittedUpdates.keys()].filter((key) => !expectedUpdates.has(key));
		return {
			expectedNew: expectedNew.size,
			emittedNew: sum(emittedNew.values()),
			lost: lost.length,
			duplicated: sum(duplicated.map(([, times]) => times - 1)),
			unexpected: unexpected.length,
			mismatched: this.mismatched.length,
			updatesExpected: sum(expectedUpdates.values()),
			updatesEmitted: sum(emittedUpdates.values()),
			updatesLost: sum(updatesLost.map(([key, times]) => times - (emittedUpdates.get(key) ?? 0))),
			updatesDuplicated: sum(
				updatesDuplicated.map(([key, times]) => times - (expectedUpdates.get(key) ?? 0)),
			),
			updatesUnexpected: updatesUnexpected.length,
			examples: {
				lost: lost.slice(0, 5),
				duplicated: duplicated.slice(0, 5).map(([id]) => id),
				unexpected: unexpected.slice(0, 5),
				mismatched: this.mismatched.slice(0, 5),
				updatesLost: updatesLost.slice(0, 5).map(([key]) => key),
				updatesUnexpected: updatesUnexpected.slice(0, 5),
			},
		};
	}
}

/** The trigger's side of the soak: its polls and activations, each checked by the ledger. */
class TriggerRun {
	readonly ledger = new TriggerLedger();
	readonly log: RequestLogEntry[] = [];
	/** How the first few silent partial walks were answered. */
	readonly unserved: string[] = [];
	/** Each poll by how it went, and the activations and restarts, as the figures print them. */
	readonly counts = {
		pollsFullyServed: 0,
		pollsSkipped: 0,
		/** Polls whose walk stopped before its last page to go on at the next poll, or went on. */
		pollsSpanningWalks: 0,
		/** Polls that waited for a request slot and read nothing; the walk starts at a later poll. */
		pollsWaitingForTheirTurn: 0,
		/** Polls that read part of the listing and neither logged a skip nor left a walk to go on. */
		silentPartialWalks: 0,
		activations: 0,
		activationsFailed: 0,
		restarts: 0,
	};

	active = false;
	private waiting = false;

	/** What the trigger logged in processes that have since restarted. */
	private readonly earlierLogs: PollHarness['logs'] = [];

	constructor(
		private readonly sandbox: Sandbox,
		private harness: PollHarness,
		private readonly startedAt: number,
	) {}

	/** n8n restarts: a new process, with the trigger's static data as the database kept it. */
	restart(next: PollHarness): void {
		next.setSavedNodeData(this.harness.savedNodeData());
		this.earlierLogs.push(...this.harness.logs);
		this.harness = next;
		this.active = false;
		this.counts.restarts++;
	}

	/** Every line the trigger logged, in every process. */
	triggerLogs(): PollHarness['logs'] {
		return [...this.earlierLogs, ...this.harness.logs];
	}

	/** One poll, or an activation when n8n has (re)started; then what it should have emitted. */
	async poll(poll: number, polls: number): Promise<void> {
		const listing = this.sandbox.listOpen(companyId);
		const listed = listedTenders(listing);
		this.sandbox.resetRequests();
		if (poll % 50 === 0) {
			reportProgress(
				`trigger soak: poll ${poll + 1}/${polls}, ${listing.length} projects listed, ${this.ledger.expectedNew.size} new tenders expected so far, ${Math.round(performance.now() - this.startedAt) / 1000} s`,
			);
		}
		const saidBefore = this.triggerLogs().length;
		const failedBefore = this.counts.activationsFailed;
		const items = this.active ? await this.pollOnce() : await this.activate();
		const entries = this.sandbox.requests();
		this.log.push(...entries);
		const served = walkServed(entries, listing.length);
		const waits = !served && this.waits(saidBefore, entries);
		const { counts } = this;
		if (served) counts.pollsFullyServed++;
		else if (this.saidSince(saidBefore, 'skipped a poll')) counts.pollsSkipped++;
		else if (walkSpansPolls(entries) || this.walkGoesOn()) counts.pollsSpanningWalks++;
		else if (waits) counts.pollsWaitingForTheirTurn++;
		else if (counts.activationsFailed === failedBefore) this.noteSilent(poll, entries, saidBefore);
		this.waiting = waits;
		this.ledger.record(items, listed);
		if (served && this.active) this.ledger.learn(listing);
	}

	/** Counts a silent partial walk, and keeps how the first few were answered. */
	private noteSilent(poll: number, entries: RequestLogEntry[], saidBefore: number): void {
		this.counts.silentPartialWalks++;
		if (this.unserved.length >= 5) return;
		const answers = entries.map(
			(entry) => `${entry.status}${entry.fault ? ` ${entry.fault}` : ''}`,
		);
		this.unserved.push(
			`poll ${poll + 1}: ${answers.join(', ')}; said: ${this.triggerLogs()
				.slice(saidBefore)
				.map((entry) => entry.message.slice(0, 120))
				.join(' / ')}`,
		);
	}

	/**
	 * The poll waited for a request slot and read no page. The trigger says so once per streak of
	 * such polls, so a poll that reads nothing right after one that waited is in the same streak.
	 */
	private waits(since: number, entries: RequestLogEntry[]): boolean {
		const said = this.saidSince(since, 'is waiting for its turn');
		return said || (this.waiting && !entries.some((entry) => isResults(entry) && pageRead(entry)));
	}

	private saidSince(since: number, words: string): boolean {
		return this.triggerLogs()
			.slice(since)
			.some((entry) => entry.message.includes(words));
	}

	/** The saved state holds a walk under way: the next poll goes on from its cursor. */
	private walkGoesOn(): boolean {
		const saved = this.active ? readTriggerState(this.harness.memory()) : undefined;
		return saved?.kind === 'state' && saved.state.walk !== undefined;
	}

	private async pollOnce(): Promise<INodeExecutionData[]> {
		const outcome = await runInVirtualTime(() => this.harness.poll());
		if (outcome.kind === 'error') throw outcome.error;
		return outcome.kind === 'emitted' ? outcome.items : [];
	}

	private async activate(): Promise<INodeExecutionData[]> {
		this.counts.activations++;
		try {
			const outcome = await runInVirtualTime(() =>
				this.ledger.baselined ? this.harness.restart() : this.harness.activate(),
			);
			this.active = true;
			return outcome.kind === 'emitted' ? outcome.items : [];
		} catch {
			this.counts.activationsFailed++;
			return [];
		}
	}
}

/** Drives the trigger for `polls` polls and checks every emitted item against the sandbox. */
export async function soakTrigger(polls: number, options: SoakOptions) {
	const { startedAt, random, sandbox, between, stop } = await startSoak(options);
	const startMs = Date.now();
	const run = new TriggerRun(sandbox, triggerIn(sandbox, options.retryPolicy), startedAt);
	let endMs = startMs;

	try {
		for (let poll = 0; poll < polls; poll++) {
			if (poll > 0) {
				between.pass();
				if (run.active && random.chance(options.restartChance)) {
					// The process is gone with all it kept in memory; the database stays.
					run.restart(triggerIn(sandbox, options.retryPolicy));
				}
			}
			await run.poll(poll, polls);
		}
		endMs = Date.now();
	} finally {
		await stop();
	}
	const { examples, ...outcome } = run.ledger.outcome();
	return {
		polls,
		...run.counts,
		tokenRevocations: between.revocations,
		faultsInjected: faultsOf(sandbox),
		churn: between.counts,
		virtualDays: Math.round(((endMs - startMs) / DAY_MS) * 10) / 10,
		tendersOpened: sandbox.history().filter((event) => event.type === 'opened').length,
		...outcome,
		...apiFigures(sandbox, run.log, startedAt),
		examples: { ...examples, silentPartialWalks: run.unserved },
	};
}

/** The Get Many side of the soak: each walk, rerun when it failed, compared with listOpen. */
class WalkTally {
	readonly log: RequestLogEntry[] = [];
	/** The walks by how they went, as the figures print them. */
	readonly counts = {
		exact: 0,
		wrong: 0,
		firstRunFailures: 0,
		rerunsNeeded: 0,
		failedAfterReruns: 0,
	};
	readonly failureMessages: Record<string, number> = {};
	fewest = Infinity;
	most = 0;

	constructor(
		private readonly sandbox: Sandbox,
		private readonly process: N8nProcess,
		private readonly reruns: number,
	) {}

	async walk(): Promise<void> {
		const listing = this.sandbox.listOpen(companyId);
		const expected = JSON.stringify(listing);
		this.fewest = Math.min(this.fewest, listing.length);
		this.most = Math.max(this.most, listing.length);
		const { counts } = this;
		for (let run = 0; run <= this.reruns; run++) {
			if (run > 0) counts.rerunsNeeded++;
			this.sandbox.resetRequests();
			const result = await runInVirtualTime(() =>
				this.process.getMany({ companyId, output: 'projects' }),
			);
			this.log.push(...this.sandbox.requests());
			if (result.error === undefined) {
				const got = JSON.stringify((result.items ?? []).map((item) => item.json));
				if (got === expected) counts.exact++;
				else counts.wrong++;
				return;
			}
			if (run === 0) counts.firstRunFailures++;
			const message = result.error.message.replace(/\d+ attempts/, 'N attempts');
			this.failureMessages[message] = (this.failureMessages[message] ?? 0) + 1;
		}
		counts.failedAfterReruns++;
	}
}

/** Runs the Get Many node with Return All `walks` times and compares each result with listOpen. */
export async function soakWalks(walks: number, options: WalkSoakOptions) {
	const { startedAt, sandbox, between, stop } = await startSoak(options);
	const tally = new WalkTally(sandbox, processFor(sandbox, options.retryPolicy), options.reruns);

	try {
		for (let walk = 0; walk < walks; walk++) {
			if (walk > 0) between.pass();
			if (walk % 25 === 0) {
				reportProgress(
					`walk soak: walk ${walk + 1}/${walks}, ${tally.counts.exact} exact so far, ${Math.round(performance.now() - startedAt) / 1000} s`,
				);
			}
			await tally.walk();
		}
	} finally {
		await stop();
	}
	return {
		walks,
		...tally.counts,
		failureMessages: tally.failureMessages,
		tokenRevocations: between.revocations,
		faultsInjected: faultsOf(sandbox),
		projectsPerWalk: { min: tally.fewest, max: tally.most },
		...apiFigures(sandbox, tally.log, startedAt),
	};
}
