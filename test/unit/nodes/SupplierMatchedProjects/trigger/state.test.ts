import { dayOf, dayToIsoDate } from '../../../../../nodes/SupplierMatchedProjects/projects/dates';
import {
	MAX_TRACKED_TENDERS,
	STATE_VERSION,
	readTriggerState,
	writeTriggerState,
	type TenderSnapshot,
	type TrackedTender,
	type TriggerState,
} from '../../../../../nodes/SupplierMatchedProjects/trigger/state';
import { reloaded } from '../../../../support/engine/n8n-fixtures';

const TODAY = dayOf(Date.parse('2025-06-02T09:30:00Z'));

function snapshot(overrides: Partial<TenderSnapshot> = {}): TenderSnapshot {
	return {
		quotesDueAt: '2025-06-20',
		status: 'Open',
		name: 'Plumbing & Drainage',
		type: 'Tender',
		builder: 'Kōwhai Construction Ltd',
		...overrides,
	};
}

/** A tender last listed `age` days ago, with a snapshot of these changes when given. */
function listedAgo(age: number, changes?: Partial<TenderSnapshot>): TrackedTender {
	const tracked: TrackedTender = { lastListedDay: TODAY - age };
	if (changes !== undefined) tracked.snapshot = snapshot(changes);
	return tracked;
}

function tenderId(sequence: number): string {
	return `tdr-${String(sequence).padStart(7, '0')}`;
}

function uuidLike(index: number): string {
	return `6f1c2a4e-9b7d-4c3a-8e21-${String(index).padStart(12, '0')}`;
}

const NAMES = ['Plumbing & Drainage', 'Electrical & Data Cabling', 'HVAC / Mechanical Services'];
const BUILDERS = ['Kōwhai Construction Ltd', 'Southern Cross Builders', 'Tōtara Projects'];

/** `count` tenders listed over the last 91 days; with snapshots, of a few names and builders. */
function tendersOf(count: number, idOf: (sequence: number) => string, withSnapshots = false) {
	const tenders: TriggerState['tenders'] = new Map();
	for (let index = 0; index < count; index++) {
		const tracked: TrackedTender = { lastListedDay: TODAY - (index % 91) };
		if (withSnapshots) {
			const name = NAMES[index % NAMES.length];
			const builder = BUILDERS[index % BUILDERS.length];
			const quotesDueAt = dayToIsoDate(TODAY + (index % 400));
			tracked.snapshot = snapshot({ name, builder, quotesDueAt });
		}
		tenders.set(idOf(index + 1), tracked);
	}
	return tenders;
}

/** The state as stored for a large account: 400 projects, these tenders. */
function storedJson(tenders: TriggerState['tenders']): string {
	return JSON.stringify(
		writeTriggerState({ scope: 'K3Jw1xq0Yb8e', day: TODAY, projectCount: 400, tenders }),
	);
}

describe('trigger state: writing and reading back', () => {
	it('round-trips tenders without snapshots, ages relative to the poll day, and the page count', () => {
		const state: TriggerState = {
			scope: 'abc123',
			day: TODAY,
			projectCount: 2,
			pages: 1,
			tenders: new Map([
				['tdr-0000001', { lastListedDay: TODAY }],
				['tdr-0000002', { lastListedDay: TODAY - 12 }],
			]),
		};
		const stored = writeTriggerState(state);
		expect(stored).toEqual({
			v: STATE_VERSION,
			s: 'abc123',
			d: TODAY,
			n: 2,
			p: 1,
			t: { 'tdr-0000001': 0, 'tdr-0000002': 12 },
		});
		expect(reloaded(state)).toEqual(state);
	});

	it('round-trips snapshots: known codes, unknown values verbatim, odd due dates, shared builders and names', () => {
		const state: TriggerState = {
			scope: 'abc123',
			day: TODAY,
			loadedDay: TODAY - 3,
			projectCount: 240,
			tenders: new Map([
				['a', listedAgo(0, {})],
				['b', listedAgo(1, { quotesDueAt: null, status: 'Awarded', type: 'Procurement' })],
				[
					'c',
					listedAgo(2, {
						quotesDueAt: '2025-02-30',
						status: 'Withdrawn',
						type: 'Framework',
						builder: 'Tōtara Projects',
					}),
				],
				['d', listedAgo(4)],
				['e', listedAgo(5, { name: 'Roofing', quotesDueAt: dayToIsoDate(TODAY - 7) })],
			]),
		};
		const stored = writeTriggerState(state);
		expect(stored.b).toEqual(['Kōwhai Construction Ltd', 'Tōtara Projects']);
		expect(stored.m).toEqual(['Plumbing & Drainage', 'Roofing']);
		const entries = stored.t as Record<string, unknown>;
		expect(entries.c).toEqual([2, '2025-02-30', 'Withdrawn', 'Framework', 0, 1]);
		expect(entries.e).toEqual([5, -7, 0, 0, 1, 0]);
		expect(reloaded(state)).toEqual(state);
	});

	it.each([
		['newTender', 1000, tenderId, false],
		['newTender, with UUID-sized ids', 500, uuidLike, false],
		['newOrUpdatedTender', 1000, tenderId, true],
		['newOrUpdatedTender, with UUID-sized ids', 1000, uuidLike, true],
	])('keeps %s state within 64 bytes per tender', (_case, count, idOf, withSnapshots) => {
		const tenders = tendersOf(count, idOf, withSnapshots);
		expect(Buffer.byteLength(storedJson(tenders), 'utf8') / tenders.size).toBeLessThanOrEqual(64);
	});

	it('stays bounded at the cap: the whole state of MAX_TRACKED_TENDERS tenders is under 400 kB', () => {
		const tenders = tendersOf(MAX_TRACKED_TENDERS, tenderId);
		expect(storedJson(tenders).length).toBeLessThan(400_000);
	});
});

describe('trigger state: reading what is stored', () => {
	/** A stored state of this layout, with these fields. */
	const v3 = (fields: Record<string, unknown>) => ({
		v: 3,
		s: 'abc123',
		d: TODAY,
		n: 1,
		...fields,
	});
	/** With these tender entries, and the builder and name lists they point into. */
	const named = (t: Record<string, unknown>) => v3({ t, b: ['One'], m: ['Roofing'] });
	const notOurs = "it was not saved in this node's layout";
	const malformed = 'its entry for tender a is malformed';

	it('says "empty" for the static data of a node that never polled', () => {
		expect(readTriggerState({})).toEqual({ kind: 'empty' });
	});

	it.each([
		[{ v: 99, s: 'abc123', d: TODAY, t: {} }, notOurs],
		[{ version: 1, seenTenderIds: ['a'], lastPollAt: '2025-05-30T08:00:00Z' }, notOurs],
		[{ somethingElse: true }, notOurs],
		[{ v: 3, s: 'abc123', t: {} }, 'its day is missing'],
		[{ v: 3, d: TODAY, t: {} }, 'its scope is missing'],
		[{ v: 3, s: 5, d: TODAY, t: {} }, 'its scope is missing'],
		[v3({ t: [] }), 'its tender list is missing'],
		[{ v: 3, s: 'abc123', d: TODAY, h: 'x', t: {} }, 'its load day is not a number'],
		[{ v: 3, s: 'abc123', d: TODAY, n: 1.5, t: {} }, 'its project count is not a number'],
		[{ v: 3, s: 'abc123', d: TODAY, t: {} }, 'its project count is not a number'],
		[v3({ p: 0, t: {} }), 'its page count is not a whole number above 0'],
		[v3({ t: {}, b: [1] }), 'its builder list is malformed'],
		[v3({ t: {}, m: 'Roofing' }), 'its tender name list is malformed'],
		[named({ a: [0, null, 0, 0, 0, 3] }), malformed],
		[v3({ t: { a: 'old' } }), malformed],
		[named({ a: [0, 1e12, 0, 0, 0, 0] }), malformed],
		[named({ a: [0, 3, 0, 0, 1, 0] }), malformed],
		[v3({ t: { a: [0, 3, 0, 0, 'Roofing', 0] }, b: ['One'] }), malformed],
		// quotesDueSoon entries: an age, then due days.
		[v3({ r: 1, t: { a: 0 } }), malformed],
		[v3({ r: 1, t: { a: [0] } }), malformed],
		[v3({ r: 1, t: { a: [0, 1.5] } }), malformed],
		[v3({ r: 1, t: { a: [0, 1e12] } }), malformed],
		[v3({ r: true, t: {} }), 'its reminders mark is not 1'],
	])('says why %j cannot be read', (stored, reason) => {
		expect(readTriggerState(stored)).toEqual({ kind: 'unreadable', reason });
	});
});

describe('trigger state: any string is a tender id', () => {
	const ODD_IDS = [
		'__proto__',
		'__proto__~',
		'__proto__~~',
		'constructor',
		'hasOwnProperty',
		'toString',
		'valueOf',
		'toJSON',
		'__defineGetter__',
		'',
		'~',
	];

	it.each([
		['newTender', () => ({ lastListedDay: TODAY - 1 })],
		['newOrUpdatedTender', () => ({ lastListedDay: TODAY, snapshot: snapshot() })],
		['quotesDueSoon', () => ({ lastListedDay: TODAY, dueDays: [TODAY + 2] })],
	])('round-trips every odd id through JSON, as n8n saves it (%s)', (event, entry) => {
		const state: TriggerState = {
			scope: 'abc123',
			day: TODAY,
			projectCount: 3,
			pages: 1,
			...(event === 'quotesDueSoon' ? { reminders: true } : {}),
			tenders: new Map(ODD_IDS.map((id) => [id, entry()])),
		};
		const stored = writeTriggerState(state);
		expect(Object.getPrototypeOf(stored.t)).toBe(Object.prototype);
		expect(Object.keys(stored.t as object)).toHaveLength(ODD_IDS.length);
		expect(reloaded(state)).toEqual(state);
		// A copy made key by key, as n8n's own copies are, keeps every entry too.
		const copied = readTriggerState({ ...stored, t: { ...(stored.t as object) } });
		expect(copied.kind === 'state' && [...copied.state.tenders.keys()].sort()).toEqual(
			[...ODD_IDS].sort(),
		);
	});
});
