// @ts-check
'use strict';

/**
 * The trigger's state work per poll at scale, with the package's own functions in the order its
 * poll calls them: read the stored state back, list the walk's tenders, compare (diffPoll), write
 * the next state. 100,000 tracked tenders; the walk lists 100,000, of which 1% are new and 1%
 * changed, and 1% of the tracked ones are gone. quotesDueSoon remembers only tenders inside its
 * window: one as wide as the tenders' due dates (60 days) tracks them all. Load after
 * runtime.installRuntime().
 */

const { median } = require('simple-statistics');

const { BUILDERS, TRADE_PACKAGES, tenderIdFor } = require('../../sandbox/data');
const { createRandom } = require('../../sandbox/random');
const { fromBuild } = require('./runtime');

/** @type {typeof import('../../nodes/SupplierMatchedProjects/trigger/diff')} */
const { diffPoll } = fromBuild('nodes/SupplierMatchedProjects/trigger/diff');
/** @type {typeof import('../../nodes/SupplierMatchedProjects/trigger/listing')} */
const { listedTenders } = fromBuild('nodes/SupplierMatchedProjects/trigger/listing');
/** @type {typeof import('../../nodes/SupplierMatchedProjects/trigger/state')} */
const { readTriggerState, writeTriggerState } = fromBuild(
	'nodes/SupplierMatchedProjects/trigger/state',
);

/** @typedef {import('../../nodes/SupplierMatchedProjects/api/types').Tender} Tender */
/** @typedef {import('../../nodes/SupplierMatchedProjects/trigger/diff').TriggerEvent} TriggerEvent */
/** @typedef {import('../../nodes/SupplierMatchedProjects/trigger/state').TriggerState} TriggerState */

const DAY_MS = 86_400_000;
const TODAY = Math.floor(Date.parse('2025-03-03T00:00:00Z') / DAY_MS);
const DUE_SOON_DAYS = 60;
const TENDERS_PER_PROJECT = [3, 1, 5, 2, 4];

/**
 * Tenders like the sandbox's: trade package names, its builders, due dates over 60 days.
 * @param {number} count
 * @param {number} first the first tender's sequence number
 * @param {(sequence: number) => string} idOf
 * @returns {Tender[]}
 */
function tenders(count, first, idOf) {
	const random = createRandom(first);
	const day = (/** @type {number} */ offset) =>
		new Date((TODAY + offset) * DAY_MS).toISOString().slice(0, 10);
	return Array.from({ length: count }, (_, index) => ({
		id: idOf(first + index),
		name: random.pick(TRADE_PACKAGES),
		type: random.chance(0.25) ? 'Procurement' : 'Tender',
		builder: { ...random.pick(BUILDERS) },
		tenderOpenAt: day(-random.int(0, 30)),
		quotesDueAt: day(random.int(0, 60)),
		status: 'Open',
		matchedKeywords: ['tender'],
	}));
}

/**
 * Tenders grouped into projects of 1 to 5, in order.
 * @param {Tender[]} list
 */
function projectsOf(list) {
	/** @type {import('../../nodes/SupplierMatchedProjects/api/types').Project[]} */
	const projects = [];
	for (let start = 0, index = 0; start < list.length; index++) {
		const count = TENDERS_PER_PROJECT[index % TENDERS_PER_PROJECT.length];
		const projectId = `prj-${String(index + 1).padStart(6, '0')}`;
		projects.push({
			projectId,
			projectName: `Bench project ${index + 1}`,
			address: '1 Queen Street, Te Aro, Wellington 6011, New Zealand',
			category: 'Commercial',
			budget: null,
			status: 'Active',
			consultants: [],
			tenders: list.slice(start, start + count),
			tenderingSubcontractors: [],
			url: `https://app.supplier-matched-projects.invalid/projects/${projectId}`,
		});
		start += count;
	}
	return projects;
}

/**
 * One poll's comparison.
 * @param {TriggerEvent} event
 * @param {TriggerState | undefined} previous
 * @param {ReturnType<typeof listedTenders>} listed
 * @param {number} projectCount
 * @param {number} today
 */
function compare(event, previous, listed, projectCount, today) {
	return diffPoll({
		previous,
		scope: 'bench-scope',
		today,
		loadedFromStorage: false,
		listed,
		projectCount,
		event,
		dueSoon: { today, days: DUE_SOON_DAYS },
		emitOpenOnFirstRun: false,
	});
}

/**
 * The state stored after a first poll of `tracked` tenders, and the projects of the next day's walk.
 * @param {TriggerEvent} event
 * @param {number} tracked
 * @param {(sequence: number) => string} idOf
 */
function scenario(event, tracked, idOf) {
	const churn = Math.round(tracked / 100);
	const before = tenders(tracked, 1, idOf);
	const first = projectsOf(before);
	const baseline = compare(event, undefined, listedTenders(first), first.length, TODAY);
	const stored = JSON.parse(JSON.stringify(writeTriggerState(baseline.next)));
	const kept = before
		.slice(churn)
		.map((tender, index) => (index < churn ? { ...tender, quotesDueAt: null } : tender));
	const added = tenders(churn, tracked + 1, idOf);
	// Reminders the next day: the new tenders inside the window (the kept ones were already).
	const reminders = added.filter((tender) => {
		const due = Date.parse(`${tender.quotesDueAt}T00:00:00Z`) / DAY_MS;
		return due >= TODAY + 1 && due <= TODAY + 1 + DUE_SOON_DAYS;
	}).length;
	const expected =
		event === 'quotesDueSoon'
			? { news: 0, updates: 0, reminders }
			: { news: churn, updates: event === 'newOrUpdatedTender' ? churn : 0, reminders: 0 };
	return { stored, walk: projectsOf([...kept, ...added]), expected };
}

/** @param {TriggerState} state */
const bytesPerTender = (state) =>
	Buffer.byteLength(JSON.stringify(writeTriggerState(state))) / state.tenders.size;

/**
 * CPU and wall ms of each step, medians over the repetitions after two unmeasured rounds (so the
 * code is compiled, as in a long-running n8n). On a busy machine wall time also holds the wait for
 * a core.
 * @param {{ event: TriggerEvent, tracked: number, repetitions: number }} options
 */
function measureTrigger({ event, tracked, repetitions }) {
	const { stored, walk, expected } = scenario(event, tracked, tenderIdFor);
	const now = () => {
		const { user, system } = process.cpuUsage();
		return { cpu: (user + system) / 1000, wall: performance.now() };
	};
	/** @type {ReturnType<typeof now>[][]} */
	const rounds = [];
	/** @type {TriggerState | undefined} */
	let next;
	for (let round = -2; round < repetitions; round++) {
		const t0 = now();
		const read = readTriggerState(stored);
		const t1 = now();
		const listed = listedTenders(walk);
		const t2 = now();
		if (read.kind !== 'state')
			throw new Error(`the stored trigger state read back as ${read.kind}`);
		const diff = compare(event, read.state, listed, walk.length, TODAY + 1);
		const t3 = now();
		writeTriggerState(diff.next);
		const t4 = now();
		const found = {
			news: diff.newTenderIds.length,
			updates: diff.updates.length,
			reminders: diff.reminders.length,
		};
		if (JSON.stringify(found) !== JSON.stringify(expected)) {
			throw new Error(
				`the comparison found ${JSON.stringify(found)}; ${JSON.stringify(expected)} were made`,
			);
		}
		next = diff.next;
		if (round >= 0) rounds.push([t0, t1, t2, t3, t4]);
	}
	/** @param {number} from @param {number} to */
	const step = (from, to) => ({
		cpuMs: median(rounds.map((times) => times[to].cpu - times[from].cpu)),
		wallMs: median(rounds.map((times) => times[to].wall - times[from].wall)),
	});
	const uuid = readTriggerState(
		scenario(event, tracked, (n) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`)
			.stored,
	);
	if (next === undefined || uuid.kind !== 'state') throw new Error('no trigger state to weigh');
	return {
		event,
		tracked,
		read: step(0, 1),
		list: step(1, 2),
		diff: step(2, 3),
		write: step(3, 4),
		total: step(0, 4),
		stateBytes: Buffer.byteLength(JSON.stringify(writeTriggerState(next))),
		bytesPerTender: bytesPerTender(next),
		uuidBytesPerTender: bytesPerTender(uuid.state),
	};
}

/** @typedef {ReturnType<typeof measureTrigger>} TriggerMeasurement */

module.exports = { measureTrigger };
