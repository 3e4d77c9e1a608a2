/**
 * A model-based property test of the trigger (New Tender, Tender Type filter "Tender"): fast-check
 * generates sequences of listing changes (tenders opening, closing, changing type or due date,
 * odd ids such as `__proto__`, broken entries), polls, overlapping polls whose page answers its scheduler orders,
 * failures, restarts and clock moves, and runs them against the trigger's real poll code in n8n's
 * engine (test/support/harness/poll.ts) over HTTP to the sandbox. After every command:
 *
 * - no tender is announced twice;
 * - nothing is announced that never passed the filters;
 * - the trigger's memory holds no tender that never passed them (so it stays bounded);
 * - after a good poll, every tender it listed that passes the filters has been announced, or was
 *   in the baseline.
 *
 * Broken entries (a `null`, a string, a project whose `tenders` is an object or a number, a tender
 * without a text id) stand in the first page beside clean projects until fixed: none of their
 * tenders may be announced while unreadable, and a readable one must be, once, when it is fixed.
 *
 * CI size by default (200 runs, fixed seed); `npm run soak` runs 5,000 runs of up to 50 commands,
 * SOAK_MODEL_RUNS sets the count (test/support/reliability/report.js).
 */
import fc from 'fast-check';

import { readTriggerState } from '../../nodes/SupplierMatchedProjects/trigger/state';
import { advanceTime, isoDay, useVirtualTime } from '../support/engine/clock';
import type { PollHarness } from '../support/harness';
import {
	companyId,
	DAY_MS,
	emittedTenderIds,
	MINUTE_MS,
	startPollWorld,
	type PollWorld,
} from '../support/engine/poll-world';
import { reportFigures, soakSize } from '../support/reliability/report';

const SEED = 27;
const size = soakSize();
const RUNS = size.modelRuns;

const ODD_IDS = ['__proto__', '__proto__~', 'constructor', 'hasOwnProperty', 'toString', 'toJSON'];

interface Real {
	world: PollWorld;
	trigger: PollHarness;
	/** Every tender opened, in order. */
	opened: string[];
}

/** What the trigger must have done, from the listings alone; its state is never consulted. */
interface Model {
	baseline: Set<string>;
	/** Tenders listed with type Tender at some moment: the only ones that may be announced. */
	everPassed: Set<string>;
	/** Tenders a good poll listed passing the filters: each must be announced (or baseline). */
	due: Set<string>;
	/** Entries the sandbox puts in the first page as given, and the passing tenders readable in them. */
	raw: Array<{ entry: unknown; readable: string[]; fixed?: unknown }>;
	rawCount: number;
	figures: Figures;
}

function noFigures() {
	return {
		commands: 0,
		polls: 0,
		goodPolls: 0,
		overlapping: 0,
		skippedAsRunning: 0,
		restarts: 0,
		failedPolls: 0,
		announced: 0,
		oddIdsAnnounced: 0,
		brokenEntries: 0,
		fixedEntriesAnnounced: 0,
	};
}

type Figures = ReturnType<typeof noFigures>;

function passingNow(world: PollWorld, model?: Model): string[] {
	return world.sandbox
		.listOpen(companyId)
		.flatMap((project) => project.tenders)
		.filter((tender) => tender.type === 'Tender')
		.map((tender) => tender.id)
		.concat((model?.raw ?? []).flatMap((raw) => raw.readable));
}

/** A tender of type Tender, open and due in five days, as the API lists one. */
function rawTender(id: string): Record<string, unknown> {
	return {
		id,
		name: 'Roofing',
		type: 'Tender',
		builder: { name: 'Kauri Build', website: null },
		tenderOpenAt: isoDay(0),
		quotesDueAt: isoDay(5),
		status: 'Open',
		matchedKeywords: ['roofing'],
	};
}

function rawProject(projectId: string, tenders: unknown): Record<string, unknown> {
	return {
		projectId,
		projectName: 'Raw entry',
		address: '1 Quay St, Auckland',
		category: 'Residential',
		budget: null,
		status: 'Active',
		consultants: [],
		tenders,
		tenderingSubcontractors: [],
		url: `https://app.example/projects/${projectId}`,
	};
}

function announcedCounts(trigger: PollHarness): Map<string, number> {
	const counts = new Map<string, number>();
	for (const items of trigger.emits) {
		for (const id of emittedTenderIds(items)) counts.set(id, (counts.get(id) ?? 0) + 1);
	}
	return counts;
}

/** Every listed tender passing now may be announced, now or later. */
function noteListing(model: Model, world: PollWorld): string[] {
	const passing = passingNow(world, model);
	for (const id of passing) model.everPassed.add(id);
	return passing;
}

function checkInvariants(model: Model, real: Real): void {
	const counts = announcedCounts(real.trigger);
	for (const [id, count] of counts) {
		if (count > 1) throw new Error(`tender ${JSON.stringify(id)} was announced ${count} times`);
		if (!model.everPassed.has(id)) {
			throw new Error(`tender ${JSON.stringify(id)} was announced but never passed the filters`);
		}
		if (model.baseline.has(id)) {
			throw new Error(`tender ${JSON.stringify(id)} of the baseline was announced`);
		}
	}
	for (const id of model.due) {
		if (!counts.has(id) && !model.baseline.has(id)) {
			throw new Error(`tender ${JSON.stringify(id)} was listed by a good poll but not announced`);
		}
	}
	const memory = readTriggerState(real.trigger.memory());
	if (memory.kind !== 'state') throw new Error(`the trigger's memory is ${memory.kind}`);
	for (const id of memory.state.tenders.keys()) {
		if (!model.everPassed.has(id) && !model.baseline.has(id)) {
			throw new Error(
				`the trigger remembers ${JSON.stringify(id)}, which never passed the filters`,
			);
		}
	}
	model.figures.announced = counts.size;
	model.figures.oddIdsAnnounced = [...counts.keys()].filter((id) => ODD_IDS.includes(id)).length;
	model.figures.fixedEntriesAnnounced = [...counts.keys()].filter((id) =>
		id.startsWith('raw-fixed-'),
	).length;
}

/** A failed or dropped poll warns so; a warning of an entry left out is not a failure. */
function failedSince(trigger: PollHarness, logsBefore: number, errorsBefore: number): boolean {
	const warned = trigger.logs
		.slice(logsBefore)
		.some(
			({ level, message }) =>
				level === 'warn' &&
				(message.includes('skipped a poll') || message.includes('dropped a poll')),
		);
	return warned || trigger.errors.length > errorsBefore;
}

type Command = fc.AsyncCommand<Model, Real>;

class OpenTender implements Command {
	constructor(
		readonly type: 'Tender' | 'Procurement',
		readonly dueInDays: number,
		readonly oddId: number | undefined,
	) {}
	check = () => true;
	async run(model: Model, real: Real): Promise<void> {
		const id = this.oddId === undefined ? undefined : ODD_IDS[this.oddId];
		const options = { type: this.type, quotesDueAt: isoDay(this.dueInDays) };
		const tender =
			id === undefined || real.opened.includes(id)
				? real.world.sandbox.openTender(options)
				: real.world.sandbox.openTenderWithId(id, options);
		real.opened.push(tender.id);
		noteListing(model, real.world);
	}
	toString = () => `open(${this.type}, due +${this.dueInDays}d, odd ${String(this.oddId)})`;
}

class ChangeTender implements Command {
	constructor(
		readonly pick: number,
		readonly change: 'close' | 'reopen' | 'type' | 'redate',
		readonly dueInDays: number,
	) {}
	check = () => true;
	async run(model: Model, real: Real): Promise<void> {
		if (real.opened.length === 0) return;
		const id = real.opened[this.pick % real.opened.length];
		const tender = real.world.sandbox.getTender(id);
		const patch =
			this.change === 'close'
				? { status: 'Closed' as const }
				: this.change === 'reopen'
					? { status: 'Open' as const }
					: this.change === 'type'
						? { type: tender.type === 'Tender' ? ('Procurement' as const) : ('Tender' as const) }
						: { quotesDueAt: isoDay(this.dueInDays) };
		real.world.sandbox.updateTender(id, patch);
		noteListing(model, real.world);
	}
	toString = () => `${this.change}(#${this.pick}, +${this.dueInDays}d)`;
}

/** A minute on, the listing noted and the trigger's logs and errors so far counted. */
function startPolling(model: Model, real: Real) {
	advanceTime(MINUTE_MS);
	const { trigger, world } = real;
	const passing = noteListing(model, world);
	return { trigger, world, passing, logs: trigger.logs.length, errors: trigger.errors.length };
}

class Poll implements Command {
	check = () => true;
	async run(model: Model, real: Real): Promise<void> {
		const { trigger, passing, logs, errors } = startPolling(model, real);
		await trigger.poll();
		model.figures.polls++;
		if (!failedSince(trigger, logs, errors)) {
			model.figures.goodPolls++;
			for (const id of passing) model.due.add(id);
		} else model.figures.failedPolls++;
		checkInvariants(model, real);
	}
	toString = () => 'poll';
}

/**
 * Two or three polls of the trigger at once, as two Poll Times falling due together start them;
 * the scheduler decides in which order their page answers arrive, and may open a tender between
 * two of them.
 */
class OverlappingPolls implements Command {
	constructor(
		readonly count: number,
		readonly openMidway: boolean,
		readonly scheduler: fc.Scheduler,
	) {}
	check = () => true;
	async run(model: Model, real: Real): Promise<void> {
		const { trigger, world, passing, logs, errors } = startPolling(model, real);
		const s = this.scheduler;
		trigger.requestGate = (answer) => s.schedule(answer);
		try {
			const polls = Array.from({ length: this.count }, () => trigger.poll());
			const midway = this.openMidway
				? s.schedule(Promise.resolve(), 'open midway').then(() => {
						real.opened.push(world.sandbox.openTender({ type: 'Tender' }).id);
						noteListing(model, world);
					})
				: Promise.resolve();
			await s.waitFor(Promise.all([...polls, midway]));
		} finally {
			trigger.requestGate = undefined;
		}
		model.figures.polls += this.count;
		model.figures.overlapping++;
		const logged = trigger.logs.slice(logs);
		model.figures.skippedAsRunning += logged.filter(({ message }) =>
			message.includes('is still running'),
		).length;
		const failed = failedSince(trigger, logs, errors);
		// A tender opened midway may or may not be in the walk: only the listing before counts.
		if (!failed) for (const id of passing) model.due.add(id);
		checkInvariants(model, real);
	}
	toString = () => `overlapping(${this.count}${this.openMidway ? ', open midway' : ''})`;
}

/** The n-th broken entry of each shape, and the passing tenders readable in it. */
const BROKEN_SHAPES = {
	null: () => ({ entry: null, readable: [] }),
	text: () => ({ entry: 'not a project', readable: [] }),
	tendersObject: (n) => ({
		entry: rawProject(`raw-p${n}`, rawTender(`raw-fixed-${n}`)),
		readable: [],
		fixed: rawProject(`raw-p${n}`, [rawTender(`raw-fixed-${n}`)]),
	}),
	tendersNumber: (n) => ({ entry: rawProject(`raw-p${n}`, 7), readable: [] }),
	// The clean tender beside the broken one is readable and listed.
	tenderWithoutId: (n) => ({
		entry: rawProject(`raw-p${n}`, [{ id: n }, rawTender(`raw-beside-${n}`)]),
		readable: [`raw-beside-${n}`],
	}),
} satisfies Record<string, (n: number) => Model['raw'][number]>;

/**
 * An entry the trigger cannot read in the first page, beside the clean projects, until fixed. A
 * project whose `tenders` is an object can be fixed: its tender is then readable, and new.
 */
class BrokenEntry implements Command {
	constructor(
		readonly shape: keyof typeof BROKEN_SHAPES,
		readonly at: number,
	) {}
	check = () => true;
	async run(model: Model, real: Real): Promise<void> {
		const broken = BROKEN_SHAPES[this.shape](++model.rawCount);
		real.world.sandbox.addRawEntry(companyId, { entry: broken.entry, at: this.at });
		model.raw.push(broken);
		model.figures.brokenEntries++;
		noteListing(model, real.world);
	}
	toString = () => `broken(${this.shape} at ${this.at})`;
}

/** The service repairs its records: each fixable entry becomes readable, the others go. */
class FixEntries implements Command {
	check = (model: Readonly<Model>) => model.raw.length > 0;
	async run(model: Model, real: Real): Promise<void> {
		real.world.sandbox.clearRawEntries(companyId);
		const kept: Model['raw'] = [];
		for (const raw of model.raw) {
			if (raw.fixed !== undefined) {
				const project = raw.fixed as { tenders: Array<{ id: string }> };
				kept.push({ entry: raw.fixed, readable: project.tenders.map((tender) => tender.id) });
			} else if (raw.readable.length > 0) kept.push(raw);
		}
		for (const raw of kept) real.world.sandbox.addRawEntry(companyId, { entry: raw.entry });
		model.raw = kept;
		noteListing(model, real.world);
	}
	toString = () => 'fix entries';
}

/** The API fails the next requests on its side; the poll may come through on a retry or not. */
class Failure implements Command {
	constructor(
		readonly kind: 'serverError' | 'fetchFailed',
		readonly times: number,
	) {}
	check = () => true;
	async run(_model: Model, real: Real): Promise<void> {
		real.world.sandbox.injectFault({ kind: this.kind, on: 'results', times: this.times });
	}
	toString = () => `fail(${this.kind} x${this.times})`;
}

/** n8n restarts: only what it saved survives; the activation polls once. */
class Restart implements Command {
	check = () => true;
	async run(model: Model, real: Real): Promise<void> {
		const { trigger, passing, logs, errors } = startPolling(model, real);
		await trigger.restart();
		model.figures.restarts++;
		if (!failedSince(trigger, logs, errors)) for (const id of passing) model.due.add(id);
		checkInvariants(model, real);
	}
	toString = () => 'restart';
}

class MoveClock implements Command {
	constructor(readonly ms: number) {}
	check = () => true;
	async run(model: Model, real: Real): Promise<void> {
		advanceTime(this.ms);
		// Due dates pass and tenders leave the listing; none comes in unseen.
		noteListing(model, real.world);
	}
	toString = () => `clock(+${Math.round(this.ms / MINUTE_MS)} min)`;
}

const commands = [
	fc
		.tuple(
			fc.constantFrom<'Tender' | 'Procurement'>('Tender', 'Tender', 'Procurement'),
			fc.integer({ min: 0, max: 20 }),
			fc.option(fc.integer({ min: 0, max: ODD_IDS.length - 1 }), { freq: 3, nil: undefined }),
		)
		.map(([type, due, odd]) => new OpenTender(type, due, odd)),
	fc
		.tuple(
			fc.nat(),
			fc.constantFrom<ChangeTender['change']>('close', 'reopen', 'type', 'redate'),
			fc.integer({ min: 0, max: 20 }),
		)
		.map(([pick, change, due]) => new ChangeTender(pick, change, due)),
	fc.constant(new Poll()),
	fc.constant(new Poll()),
	fc
		.tuple(fc.integer({ min: 2, max: 3 }), fc.boolean(), fc.scheduler())
		.map(([count, midway, s]) => new OverlappingPolls(count, midway, s)),
	fc
		.tuple(
			fc.constantFrom('serverError' as const, 'fetchFailed' as const),
			fc.integer({ min: 1, max: 6 }),
		)
		.map(([kind, times]) => new Failure(kind, times)),
	fc.constant(new Restart()),
	fc
		.tuple(
			fc.constantFrom(...(Object.keys(BROKEN_SHAPES) as Array<BrokenEntry['shape']>)),
			fc.integer({ min: 0, max: 3 }),
		)
		.map(([shape, at]) => new BrokenEntry(shape, at)),
	fc.constant(new FixEntries()),
	fc
		.oneof(
			fc.integer({ min: 1, max: 120 }).map((m) => m * MINUTE_MS),
			fc.constant(DAY_MS),
		)
		.map((ms) => new MoveClock(ms)),
];

const totals = noFigures();

test(
	`exactly once over ${RUNS} generated runs of listing changes, overlapping polls, failures, restarts and clock moves`,
	async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(
					fc.tuple(
						fc.constantFrom<'Tender' | 'Procurement'>('Tender', 'Procurement'),
						fc.boolean(),
					),
					{ maxLength: 4 },
				),
				fc.commands(commands, { maxCommands: size.modelCommands }),
				async (initial, generated) => {
					useVirtualTime({ dateOnly: true });
					const world = await startPollWorld({ cacheSeconds: 0, rateLimit: false });
					try {
						const opened: string[] = [];
						for (const [type, odd] of initial) {
							const options = { type, quotesDueAt: isoDay(5) };
							const id = odd ? ODD_IDS[opened.length % ODD_IDS.length] : undefined;
							const tender =
								id === undefined
									? world.sandbox.openTender(options)
									: world.sandbox.openTenderWithId(id, options);
							opened.push(tender.id);
						}
						const trigger = await world.activeTrigger({ filters: { tenderTypes: ['Tender'] } });
						const baseline = new Set(passingNow(world));
						const model: Model = {
							baseline,
							everPassed: new Set(baseline),
							due: new Set(),
							raw: [],
							rawCount: 0,
							figures: noFigures(),
						};
						const real: Real = { world, trigger, opened };
						await fc.asyncModelRun(() => ({ model, real }), generated);
						// A last good poll: whatever is listed now must be announced by it at the latest.
						world.sandbox.clearFaults();
						await new Poll().run(model, real);
						model.figures.commands = [...generated].length;
						for (const key of Object.keys(totals) as Array<keyof Figures>) {
							totals[key] += model.figures[key];
						}
					} finally {
						await world.stop();
						jest.useRealTimers();
					}
				},
			),
			{ seed: SEED, numRuns: RUNS },
		);
		reportFigures(`Trigger model (${RUNS} runs, seed ${SEED})`, { ...totals });
		expect(totals.overlapping).toBeGreaterThan(0);
		expect(totals.skippedAsRunning).toBeGreaterThan(0);
		expect(totals.oddIdsAnnounced).toBeGreaterThan(0);
		expect(totals.restarts).toBeGreaterThan(0);
		expect(totals.failedPolls).toBeGreaterThan(0);
		expect(totals.brokenEntries).toBeGreaterThan(0);
		expect(totals.fixedEntriesAnnounced).toBeGreaterThan(0);
	},
	size.timeoutMs,
);
