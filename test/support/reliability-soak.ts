/**
 * The fault soak. The trigger polls, and the Get Many node walks every page, against the sandbox
 * over HTTP while the sandbox fails on purpose (5xx, 429 with Retry-After, dropped connections,
 * latency spikes), tokens are revoked and n8n restarts. Between polls tenders open, close, change,
 * leave the near-term window and come back, and the clock moves on (`Date` is faked, timers are
 * not), so token lifetimes, the rate window and day changes behave as in production.
 *
 * What should have been emitted is worked out from the sandbox alone: what `listOpen` listed at
 * every poll whose walk the sandbox fully served (its request log says so), compared with what
 * was listed before. The trigger's own state is never consulted.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { Project, Tender } from '../../nodes/SupplierMatchedProjects/api/types';
import type { RetryPolicy } from '../../nodes/SupplierMatchedProjects/transport/retry';
import { SANDBOX_FIXTURES, startSandbox } from '../../sandbox';
import { useFakeDate } from './poll-world';
import type { FaultRates } from '../../sandbox/faults';
import type { RequestLogEntry } from '../../sandbox/server';
import { n8nProcess, type N8nProcess, type PollHarness } from './harness';
import { captureLogs } from './reliability-logs';
import { reportProgress } from './reliability-report';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const RATE_WINDOW_MS = 5 * MINUTE_MS;
const PAGE_SIZE = 100;
const { companyId } = SANDBOX_FIXTURES;

/** What the issue asks for: about 20% 5xx, 5% 429 with Retry-After, drops and latency spikes. */
export const SOAK_FAULT_RATES: FaultRates = {
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
export const SOAK_START = '2030-03-10T07:00:00.000Z';

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

/** A small seeded generator (mulberry32): the same seed gives the same run. */
export function seededRandom(seed: number): {
	next: () => number;
	int: (min: number, max: number) => number;
	pick: <T>(list: readonly T[]) => T;
	chance: (probability: number) => boolean;
} {
	let state = seed >>> 0;
	const next = (): number => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
	};
	const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
	return {
		next,
		int,
		pick: <T>(list: readonly T[]): T => list[int(0, list.length - 1)],
		chance: (probability: number) => next() < probability,
	};
}

/**
 * Fakes only `Date`, which then runs on at real speed from `start` and jumps when the soak moves it
 * on. Sockets, sleeps and the sandbox's timers stay real, so a wait (Retry-After, backoff, the rate
 * budget) lets virtual time pass just as it lets real time pass.
 */
export function useVirtualClock(start: string): void {
	useFakeDate(start, { runs: true });
}

/**
 * Moves the clock on, and past midnight (UTC) when it would land in the half hour before it: a day
 * change in the middle of a walk would change what the sandbox lists while it is being walked.
 */
function advanceClock(ms: number): void {
	const next = Date.now() + ms;
	const untilMidnight = DAY_MS - (next % DAY_MS);
	jest.setSystemTime(untilMidnight < 30 * MINUTE_MS ? next + untilMidnight + MINUTE_MS : next);
}

function isoDay(daysFromNow: number): string {
	return new Date(Date.now() + daysFromNow * DAY_MS).toISOString().slice(0, 10);
}

/** The fields whose change is an update, as the trigger's Event option documents them. */
interface Snapshot {
	quotesDueAt: string | null;
	status: string;
	name: string;
	type: string;
	builder: string;
}

function snapshotOf(tender: Tender): Snapshot {
	return {
		quotesDueAt: tender.quotesDueAt,
		status: tender.status,
		name: tender.name,
		type: tender.type,
		builder: tender.builder.name,
	};
}

function changesBetween(
	from: Snapshot,
	to: Snapshot,
): Record<string, { from: unknown; to: unknown }> {
	const changes: Record<string, { from: unknown; to: unknown }> = {};
	for (const field of Object.keys(from) as Array<keyof Snapshot>) {
		if (from[field] !== to[field]) changes[field] = { from: from[field], to: to[field] };
	}
	return changes;
}

/** The order does not matter when comparing changes. */
function changesKey(id: string, changes: unknown): string {
	const entries = Object.entries(changes as Record<string, unknown>).sort(([a], [b]) =>
		a < b ? -1 : 1,
	);
	return `${id} ${JSON.stringify(entries)}`;
}

/** Every listed tender with its project, in walk order. */
function listedTenders(projects: Project[]): Map<string, { tender: Tender; project: Project }> {
	const listed = new Map<string, { tender: Tender; project: Project }>();
	for (const project of projects) {
		for (const tender of project.tenders) {
			if (!listed.has(tender.id)) listed.set(tender.id, { tender, project });
		}
	}
	return listed;
}

/**
 * Whether the sandbox served a whole walk: one untouched 200 for the first page and for each
 * following cursor, as many as the listing needs at 100 projects a page.
 */
function walkServed(entries: RequestLogEntry[], projectCount: number): boolean {
	const pagesNeeded = Math.max(1, Math.ceil(projectCount / PAGE_SIZE));
	const served = new Set<string>();
	for (const entry of entries) {
		if (!entry.path.endsWith('/speci-finder/results')) continue;
		if (entry.status !== 200 || (entry.fault !== null && entry.fault !== 'latencySpike')) continue;
		const cursor = entry.query.cursor;
		served.add(typeof cursor === 'string' ? cursor : '');
	}
	return served.size >= pagesNeeded && served.has('');
}

/** The most requests any client sent in any 5-minute window of sandbox time. */
function busiestWindow(entries: RequestLogEntry[]): number {
	const byClient = new Map<string, number[]>();
	for (const entry of entries) {
		if (!entry.path.endsWith('/speci-finder/results') || entry.clientId === null) continue;
		const times = byClient.get(entry.clientId) ?? [];
		times.push(Date.parse(entry.at));
		byClient.set(entry.clientId, times);
	}
	let busiest = 0;
	for (const times of byClient.values()) {
		times.sort((a, b) => a - b);
		let start = 0;
		for (let end = 0; end < times.length; end++) {
			while (times[end] - times[start] >= RATE_WINDOW_MS) start++;
			busiest = Math.max(busiest, end - start + 1);
		}
	}
	return busiest;
}

/** Sandbox churn between polls, counted. */
interface Churn {
	opened: number;
	openedUnderSecondBuilder: number;
	closed: number;
	changed: number;
	leftWindow: number;
	reentered: number;
	reopened: number;
}

const SECOND_BUILDERS = ['Harbour Construct', 'Ridgeline Builders', 'Northgate Projects'];

/** Changes the sandbox the way a day of tendering does. */
function churn(
	sandbox: Sandbox,
	random: ReturnType<typeof seededRandom>,
	counts: Churn,
	away: Set<string>,
	closed: Set<string>,
): void {
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

export interface TriggerSoakFigures {
	polls: number;
	pollsFullyServed: number;
	pollsSkipped: number;
	activations: number;
	activationsFailed: number;
	restarts: number;
	tokenRevocations: number;
	faultsInjected: Record<string, number>;
	churn: Churn;
	virtualDays: number;
	tendersOpened: number;
	expectedNew: number;
	emittedNew: number;
	lost: number;
	duplicated: number;
	unexpected: number;
	mismatched: number;
	updatesExpected: number;
	updatesEmitted: number;
	updatesLost: number;
	updatesDuplicated: number;
	updatesUnexpected: number;
	requestsMade: number;
	requestsByStatus: Record<string, number>;
	tokensIssued: number;
	busiestFiveMinutes: number;
	rateLimitedByTheApi: number;
	realSeconds: number;
	/** The first few tender ids behind each non-zero loss or duplicate figure. */
	examples: Record<string, string[]>;
}

function byStatus(entries: RequestLogEntry[]): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const entry of entries) counts[entry.status] = (counts[entry.status] ?? 0) + 1;
	return counts;
}

/** An item's own tender fields, to compare with what the sandbox listed. */
function tenderFieldsOf(json: IDataObject): Record<string, unknown> {
	const fields: Record<string, unknown> = { ...json };
	delete fields.event;
	delete fields.changes;
	delete fields.project;
	return fields;
}

/** Drives the trigger for `polls` polls and checks every emitted item against the sandbox. */
export async function soakTrigger(
	polls: number,
	options: SoakOptions,
): Promise<TriggerSoakFigures> {
	const startedAt = performance.now();
	useVirtualClock(SOAK_START);
	const logs = captureLogs();
	const random = seededRandom(options.seed);
	const sandbox = await startSandbox({ port: 0, seed: options.seed, projects: options.projects });
	const startMs = Date.now();
	let harness = triggerIn(sandbox, options.retryPolicy);
	/** Logs of the harnesses of processes that restarted. */
	const restartedLogs: PollHarness['logs'] = [];
	sandbox.setFaultRates(SOAK_FAULT_RATES, options.seed);

	const counts: Churn = {
		opened: 0,
		openedUnderSecondBuilder: 0,
		closed: 0,
		changed: 0,
		leftWindow: 0,
		reentered: 0,
		reopened: 0,
	};
	const away = new Set<string>();
	const closed = new Set<string>();
	/** Ground truth: the last listed values of every tender a served walk has listed. */
	const known = new Map<string, Snapshot>();
	const expectedNew = new Set<string>();
	const expectedUpdates = new Map<string, number>();
	const emittedNew = new Map<string, number>();
	const emittedUpdates = new Map<string, number>();
	const mismatched: string[] = [];
	const unserved: string[] = [];
	const log: RequestLogEntry[] = [];
	let baselined = false;
	let active = false;
	let fullyServed = 0;
	let activations = 0;
	let activationsFailed = 0;
	let restarts = 0;
	let revocations = 0;
	let endMs = startMs;

	try {
		for (let poll = 0; poll < polls; poll++) {
			if (poll > 0) {
				advanceClock(random.int(1, 10) * MINUTE_MS);
				churn(sandbox, random, counts, away, closed);
				if (random.chance(options.revokeChance)) {
					sandbox.revokeTokens();
					revocations++;
				}
				if (active && random.chance(options.restartChance)) {
					// The process is gone with all it kept in memory; the database stays.
					const saved = harness.savedNodeData();
					restartedLogs.push(...harness.logs);
					harness = triggerIn(sandbox, options.retryPolicy);
					harness.setSavedNodeData(saved);
					active = false;
					restarts++;
				}
			}
			const listing = sandbox.listOpen(companyId);
			const listed = listedTenders(listing);
			sandbox.resetRequests();
			const logsBefore = logs.length + harness.logs.length;
			if (poll % 50 === 0) {
				reportProgress(
					`trigger soak: poll ${poll + 1}/${polls}, ${listing.length} projects listed, ${expectedNew.size} new tenders expected so far, ${Math.round(performance.now() - startedAt) / 1000} s`,
				);
			}

			let items: INodeExecutionData[] = [];
			if (active) {
				const outcome = await harness.poll();
				if (outcome.kind === 'emitted') items = outcome.items;
				if (outcome.kind === 'error') throw outcome.error;
			} else {
				activations++;
				try {
					const outcome = await (baselined ? harness.restart() : harness.activate());
					if (outcome.kind === 'emitted') items = outcome.items;
					active = true;
				} catch {
					activationsFailed++;
				}
			}
			const entries = sandbox.requests();
			log.push(...entries);
			const served = walkServed(entries, listing.length);
			if (served) fullyServed++;
			else if (unserved.length < 5) {
				const answers = entries.map(
					(entry) => `${entry.status}${entry.fault ? ` ${entry.fault}` : ''}`,
				);
				unserved.push(
					`poll ${poll + 1}: ${answers.join(', ')}; ${logs.length + harness.logs.length - logsBefore} log lines`,
				);
			}

			for (const { json } of items) {
				const id = String(json.id);
				const truth = listed.get(id);
				if (
					truth === undefined ||
					JSON.stringify(tenderFieldsOf(json)) !== JSON.stringify(truth.tender)
				) {
					mismatched.push(id);
				}
				if (json.event === 'newTender') emittedNew.set(id, (emittedNew.get(id) ?? 0) + 1);
				else {
					const key = changesKey(id, json.changes);
					emittedUpdates.set(key, (emittedUpdates.get(key) ?? 0) + 1);
				}
			}

			if (!served || !active) continue;
			for (const [id, { tender }] of listed) {
				const snapshot = snapshotOf(tender);
				const previous = known.get(id);
				known.set(id, snapshot);
				if (previous === undefined) {
					if (baselined) expectedNew.add(id);
					continue;
				}
				const changes = changesBetween(previous, snapshot);
				if (Object.keys(changes).length > 0) {
					const key = changesKey(id, changes);
					expectedUpdates.set(key, (expectedUpdates.get(key) ?? 0) + 1);
				}
			}
			baselined = true;
		}
		endMs = Date.now();
	} finally {
		await sandbox.stop();
		jest.useRealTimers();
	}

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
	const sum = (values: Iterable<number>) => [...values].reduce((total, value) => total + value, 0);
	return {
		polls,
		pollsFullyServed: fullyServed,
		// The poll harness hands the trigger its own logger; n8n's other logging is in `logs`.
		pollsSkipped: [...restartedLogs, ...harness.logs].filter((entry) =>
			entry.message.includes('skipped a poll'),
		).length,
		activations,
		activationsFailed,
		restarts,
		tokenRevocations: revocations,
		faultsInjected: Object.fromEntries(
			Object.entries(sandbox.faultsInjected()).filter(([, times]) => times > 0),
		),
		churn: counts,
		virtualDays: Math.round(((endMs - startMs) / DAY_MS) * 10) / 10,
		tendersOpened: sandbox.history().filter((event) => event.type === 'opened').length,
		expectedNew: expectedNew.size,
		emittedNew: sum(emittedNew.values()),
		lost: lost.length,
		duplicated: sum(duplicated.map(([, times]) => times - 1)),
		unexpected: unexpected.length,
		mismatched: mismatched.length,
		updatesExpected: sum(expectedUpdates.values()),
		updatesEmitted: sum(emittedUpdates.values()),
		updatesLost: sum(updatesLost.map(([key, times]) => times - (emittedUpdates.get(key) ?? 0))),
		updatesDuplicated: sum(
			updatesDuplicated.map(([key, times]) => times - (expectedUpdates.get(key) ?? 0)),
		),
		updatesUnexpected: updatesUnexpected.length,
		requestsMade: log.length,
		requestsByStatus: byStatus(log),
		tokensIssued: sandbox.tokensIssued(),
		busiestFiveMinutes: busiestWindow(log),
		rateLimitedByTheApi: log.filter((entry) => entry.status === 429 && entry.fault === null).length,
		realSeconds: Math.round((performance.now() - startedAt) / 100) / 10,
		examples: {
			lost: lost.slice(0, 5),
			duplicated: duplicated.slice(0, 5).map(([id]) => id),
			unexpected: unexpected.slice(0, 5),
			mismatched: mismatched.slice(0, 5),
			updatesLost: updatesLost.slice(0, 5).map(([key]) => key),
			updatesUnexpected: updatesUnexpected.slice(0, 5),
			notFullyServed: unserved,
		},
	};
}

export interface WalkSoakFigures {
	walks: number;
	exact: number;
	wrong: number;
	firstRunFailures: number;
	rerunsNeeded: number;
	failedAfterReruns: number;
	failureMessages: Record<string, number>;
	tokenRevocations: number;
	faultsInjected: Record<string, number>;
	projectsPerWalk: { min: number; max: number };
	requestsMade: number;
	requestsByStatus: Record<string, number>;
	tokensIssued: number;
	busiestFiveMinutes: number;
	rateLimitedByTheApi: number;
	realSeconds: number;
}

/** Runs the Get Many node with Return All `walks` times and compares each result with listOpen. */
export async function soakWalks(
	walks: number,
	options: SoakOptions & { reruns: number },
): Promise<WalkSoakFigures> {
	const startedAt = performance.now();
	useVirtualClock(SOAK_START);
	captureLogs();
	const random = seededRandom(options.seed);
	const sandbox = await startSandbox({ port: 0, seed: options.seed, projects: options.projects });
	const proc = processFor(sandbox, options.retryPolicy);
	sandbox.setFaultRates(SOAK_FAULT_RATES, options.seed);
	const counts: Churn = {
		opened: 0,
		openedUnderSecondBuilder: 0,
		closed: 0,
		changed: 0,
		leftWindow: 0,
		reentered: 0,
		reopened: 0,
	};
	const away = new Set<string>();
	const closed = new Set<string>();
	const failureMessages: Record<string, number> = {};
	const log: RequestLogEntry[] = [];
	let exact = 0;
	let wrong = 0;
	let firstRunFailures = 0;
	let rerunsNeeded = 0;
	let failedAfterReruns = 0;
	let revocations = 0;
	let fewest = Infinity;
	let most = 0;

	try {
		for (let walk = 0; walk < walks; walk++) {
			if (walk > 0) {
				advanceClock(random.int(1, 10) * MINUTE_MS);
				churn(sandbox, random, counts, away, closed);
				if (random.chance(options.revokeChance)) {
					sandbox.revokeTokens();
					revocations++;
				}
			}
			const expected = JSON.stringify(sandbox.listOpen(companyId));
			if (walk % 25 === 0) {
				reportProgress(
					`walk soak: walk ${walk + 1}/${walks}, ${exact} exact so far, ${Math.round(performance.now() - startedAt) / 1000} s`,
				);
			}
			fewest = Math.min(fewest, sandbox.listOpen(companyId).length);
			most = Math.max(most, sandbox.listOpen(companyId).length);
			let settled = false;
			for (let run = 0; run <= options.reruns && !settled; run++) {
				if (run > 0) rerunsNeeded++;
				sandbox.resetRequests();
				const result = await proc.getMany({ companyId, output: 'projects' });
				log.push(...sandbox.requests());
				if (result.error !== undefined) {
					if (run === 0) firstRunFailures++;
					const message = result.error.message.replace(/\d+ attempts/, 'N attempts');
					failureMessages[message] = (failureMessages[message] ?? 0) + 1;
					continue;
				}
				settled = true;
				const got = JSON.stringify((result.items ?? []).map((item) => item.json));
				if (got === expected) exact++;
				else wrong++;
			}
			if (!settled) failedAfterReruns++;
		}
	} finally {
		await sandbox.stop();
		jest.useRealTimers();
	}
	return {
		walks,
		exact,
		wrong,
		firstRunFailures,
		rerunsNeeded,
		failedAfterReruns,
		failureMessages,
		tokenRevocations: revocations,
		faultsInjected: Object.fromEntries(
			Object.entries(sandbox.faultsInjected()).filter(([, times]) => times > 0),
		),
		projectsPerWalk: { min: fewest, max: most },
		requestsMade: log.length,
		requestsByStatus: byStatus(log),
		tokensIssued: sandbox.tokensIssued(),
		busiestFiveMinutes: busiestWindow(log),
		rateLimitedByTheApi: log.filter((entry) => entry.status === 429 && entry.fault === null).length,
		realSeconds: Math.round((performance.now() - startedAt) / 100) / 10,
	};
}
