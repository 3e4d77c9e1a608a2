// @ts-check
'use strict';

/**
 * The trigger's per-poll state work at scale, with the package's own functions in the order its
 * poll() calls them: read the stored state back, list the walk's tenders, compare (diffPoll),
 * write the next state. 100,000 tracked tenders; the walk lists 100,000, of which 1% are new and
 * 1% changed, and 1% of the tracked ones are gone. quotesDueSoon remembers only tenders that were
 * inside its window: with a window as wide as the tenders' due dates (60 days) it tracks them all.
 * Load after installRuntime().
 */

const { createRandom } = require('../../sandbox/random');
const { BUILDERS, TRADE_PACKAGES } = require('../../sandbox/data');
const { median } = require('simple-statistics');

const { fromBuild } = require('./runtime');

/** @type {typeof import('../../nodes/SupplierMatchedProjects/trigger/diff')} */
const { diffPoll } = fromBuild('nodes/SupplierMatchedProjects/trigger/diff');
/** @type {typeof import('../../nodes/SupplierMatchedProjects/trigger/listing')} */
const { listedTenders } = fromBuild('nodes/SupplierMatchedProjects/trigger/listing');
/** @type {typeof import('../../nodes/SupplierMatchedProjects/trigger/state')} */
const { readTriggerState, writeTriggerState } = fromBuild(
	'nodes/SupplierMatchedProjects/trigger/state',
);

/** @typedef {import('../../nodes/SupplierMatchedProjects/api/types').Project} Project */
/** @typedef {import('../../nodes/SupplierMatchedProjects/api/types').Tender} Tender */
/** @typedef {import('../../nodes/SupplierMatchedProjects/trigger/diff').TriggerEvent} TriggerEvent */
/** @typedef {import('../../nodes/SupplierMatchedProjects/trigger/state').TriggerState} TriggerState */

const DAY_MS = 86_400_000;
const SCOPE = 'bench-scope';
/** Every due date the bench makes is inside this window on the baseline day. */
const DUE_SOON_DAYS = 60;
const TENDERS_PER_PROJECT = [3, 1, 5, 2, 4];

/**
 * Medians over the repetitions. CPU time is what the work costs; on a busy machine wall time also
 * holds the time spent waiting for a core.
 * @typedef {object} Phase
 * @property {number} cpuMs
 * @property {number} wallMs
 */

/**
 * @typedef {object} Sample
 * @property {number} wall performance.now()
 * @property {number} cpu user + system CPU of the process, in ms
 */

/** @returns {Sample} */
function sample() {
	const { user, system } = process.cpuUsage();
	return { wall: performance.now(), cpu: (user + system) / 1000 };
}

/**
 * @param {Array<[Sample, Sample]>} spans
 * @returns {Phase}
 */
function phase(spans) {
	return {
		cpuMs: median(spans.map(([from, to]) => to.cpu - from.cpu)),
		wallMs: median(spans.map(([from, to]) => to.wall - from.wall)),
	};
}

/**
 * @typedef {object} TriggerMeasurement
 * @property {TriggerEvent} event
 * @property {number} tracked tenders in the state the poll starts from
 * @property {number} listed tenders the walk listed
 * @property {Phase} read readTriggerState of the stored state
 * @property {Phase} list listedTenders of the walk's projects
 * @property {Phase} diff the comparison (diffPoll)
 * @property {Phase} write writeTriggerState of the next state
 * @property {Phase} total all four, per repetition
 * @property {number} stateBytes the next state as JSON (how n8n stores static data), in UTF-8 bytes
 * @property {number} bytesPerTender stateBytes / tenders it tracks
 * @property {number} uuidBytesPerTender the same with 36-character ids instead of the sandbox's 11
 */

/**
 * Tenders like the sandbox's: trade package names, its builders, due dates over 60 days.
 * @param {number} count
 * @param {number} firstSequence
 * @param {number} today
 * @param {(sequence: number) => string} idOf
 * @returns {Tender[]}
 */
function tenders(count, firstSequence, today, idOf) {
	const random = createRandom(firstSequence);
	/** @type {Tender[]} */
	const list = [];
	for (let sequence = firstSequence; sequence < firstSequence + count; sequence++) {
		list.push({
			id: idOf(sequence),
			name: random.pick(TRADE_PACKAGES),
			type: random.chance(0.25) ? 'Procurement' : 'Tender',
			builder: { ...random.pick(BUILDERS) },
			tenderOpenAt: new Date((today - random.int(0, 30)) * DAY_MS).toISOString().slice(0, 10),
			quotesDueAt: new Date((today + random.int(0, 60)) * DAY_MS).toISOString().slice(0, 10),
			status: 'Open',
			matchedKeywords: ['tender'],
		});
	}
	return list;
}

/**
 * Groups tenders into projects of 1 to 5, in order.
 * @param {Tender[]} list
 * @returns {Project[]}
 */
function projectsOf(list) {
	/** @type {Project[]} */
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

/** @param {number} sequence */
const sandboxId = (sequence) => `tdr-${String(sequence).padStart(7, '0')}`;
/** @param {number} sequence */
const uuidId = (sequence) => `00000000-0000-4000-8000-${String(sequence).padStart(12, '0')}`;

/**
 * The stored state after a first poll of `tracked` tenders, and the projects of the next walk.
 * @param {TriggerEvent} event
 * @param {number} tracked
 * @param {(sequence: number) => string} idOf
 * @param {number} today
 */
function scenario(event, tracked, idOf, today) {
	const churn = Math.round(tracked / 100);
	const before = tenders(tracked, 1, today, idOf);
	const baseline = diffPoll({
		previous: undefined,
		scope: SCOPE,
		today,
		loadedFromStorage: false,
		listed: listedTenders(projectsOf(before)),
		projectCount: projectsOf(before).length,
		event,
		dueSoon: { today, days: DUE_SOON_DAYS },
		emitOpenOnFirstRun: false,
	});
	/** @type {import('n8n-workflow').IDataObject} */
	const stored = JSON.parse(JSON.stringify(writeTriggerState(baseline.next)));
	const kept = before
		.slice(churn)
		.map((tender, index) => (index < churn ? { ...tender, quotesDueAt: null } : tender));
	const added = tenders(churn, tracked + 1, today, idOf);
	const walk = projectsOf([...kept, ...added]);
	// Reminders the next day: new tenders still inside the window (kept ones were inside it already).
	const nextDay = today + 1;
	const reminders = added.filter((tender) => {
		const due = Date.parse(`${tender.quotesDueAt}T00:00:00Z`) / DAY_MS;
		return due >= nextDay && due <= nextDay + DUE_SOON_DAYS;
	}).length;
	return { stored, walk, churn, reminders };
}

/**
 * @param {{ event: TriggerEvent, tracked: number, repetitions: number }} options
 * @returns {TriggerMeasurement}
 */
function measureTrigger({ event, tracked, repetitions }) {
	const today = Math.floor(Date.parse('2025-03-03T00:00:00Z') / DAY_MS);
	const { stored, walk, churn, reminders } = scenario(event, tracked, sandboxId, today);
	/** @type {Record<'read' | 'list' | 'diff' | 'write' | 'total', Array<[Sample, Sample]>>} */
	const spans = { read: [], list: [], diff: [], write: [], total: [] };
	/** @type {TriggerState | undefined} */
	let next;
	let listedCount = 0;
	// Two unmeasured rounds first, so the timings are of compiled code, as in a long-running n8n.
	for (let round = -2; round < repetitions; round++) {
		const t0 = sample();
		const read = readTriggerState(stored);
		const t1 = sample();
		const listed = listedTenders(walk);
		const t2 = sample();
		if (read.kind !== 'state')
			throw new Error(`the stored trigger state did not read back (${read.kind})`);
		const diff = diffPoll({
			previous: read.state,
			scope: SCOPE,
			today: today + 1,
			loadedFromStorage: false,
			listed,
			projectCount: walk.length,
			event,
			dueSoon: { today: today + 1, days: DUE_SOON_DAYS },
			emitOpenOnFirstRun: false,
		});
		const t3 = sample();
		writeTriggerState(diff.next);
		const t4 = sample();
		const expected =
			event === 'quotesDueSoon'
				? { news: 0, updates: 0, reminders }
				: { news: churn, updates: event === 'newOrUpdatedTender' ? churn : 0, reminders: 0 };
		if (
			diff.newTenderIds.length !== expected.news ||
			diff.updates.length !== expected.updates ||
			diff.reminders.length !== expected.reminders
		) {
			throw new Error(
				`the comparison found ${diff.newTenderIds.length} new, ${diff.updates.length} updated and ${diff.reminders.length} due soon; ${expected.news}, ${expected.updates} and ${expected.reminders} were made`,
			);
		}
		next = diff.next;
		listedCount = listed.length;
		if (round < 0) continue;
		spans.read.push([t0, t1]);
		spans.list.push([t1, t2]);
		spans.diff.push([t2, t3]);
		spans.write.push([t3, t4]);
		spans.total.push([t0, t4]);
	}
	if (next === undefined) throw new Error('measureTrigger: no repetitions ran');
	const stateBytes = Buffer.byteLength(JSON.stringify(writeTriggerState(next)), 'utf8');
	const uuid = readTriggerState(scenario(event, tracked, uuidId, today).stored);
	if (uuid.kind !== 'state')
		throw new Error('the trigger state with 36-character ids did not read back');
	const uuidBytes = Buffer.byteLength(JSON.stringify(writeTriggerState(uuid.state)), 'utf8');
	return {
		event,
		tracked,
		listed: listedCount,
		read: phase(spans.read),
		list: phase(spans.list),
		diff: phase(spans.diff),
		write: phase(spans.write),
		total: phase(spans.total),
		stateBytes,
		bytesPerTender: stateBytes / next.tenders.size,
		uuidBytesPerTender: uuidBytes / uuid.state.tenders.size,
	};
}

module.exports = { measureTrigger };
