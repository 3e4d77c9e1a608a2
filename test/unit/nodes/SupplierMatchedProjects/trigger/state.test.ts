import { dayOf, dayToIsoDate } from '../../../../../nodes/SupplierMatchedProjects/projects/dates';
import {
	MAX_TRACKED_TENDERS,
	STATE_VERSION,
	readTriggerState,
	writeTriggerState,
	type TenderSnapshot,
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

function tenderId(sequence: number): string {
	return `tdr-${String(sequence).padStart(7, '0')}`;
}

function uuidLike(index: number): string {
	return `6f1c2a4e-9b7d-4c3a-8e21-${String(index).padStart(12, '0')}`;
}

/** The state as stored for a large account: 400 projects, these tenders. */
function storedJson(tenders: TriggerState['tenders']): string {
	return JSON.stringify(
		writeTriggerState({ scope: 'K3Jw1xq0Yb8e', day: TODAY, projectCount: 400, tenders }),
	);
}

describe('trigger state: writing and reading back', () => {
	it('round-trips tenders without snapshots, ages relative to the poll day', () => {
		const state: TriggerState = {
			scope: 'abc123',
			day: TODAY,
			projectCount: 2,
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
				['a', { lastListedDay: TODAY, snapshot: snapshot() }],
				[
					'b',
					{
						lastListedDay: TODAY - 1,
						snapshot: snapshot({ quotesDueAt: null, status: 'Awarded', type: 'Procurement' }),
					},
				],
				[
					'c',
					{
						lastListedDay: TODAY - 2,
						snapshot: snapshot({
							quotesDueAt: '2025-02-30',
							status: 'Withdrawn',
							type: 'Framework',
							builder: 'Tōtara Projects',
						}),
					},
				],
				['d', { lastListedDay: TODAY - 4 }],
				[
					'e',
					{
						lastListedDay: TODAY - 5,
						snapshot: snapshot({ name: 'Roofing', quotesDueAt: dayToIsoDate(TODAY - 7) }),
					},
				],
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
		['per tracked tender', 1000, (index: number) => tenderId(index + 1)],
		['per tender even with UUID-sized tender ids', 500, uuidLike],
	])('keeps newTender state within 64 bytes %s', (_case, count, idOf) => {
		const tenders = new Map(
			Array.from({ length: count }, (_, index) => [
				idOf(index),
				{ lastListedDay: TODAY - (index % 91) },
			]),
		);
		expect(storedJson(tenders).length / tenders.size).toBeLessThanOrEqual(64);
	});

	it('keeps newOrUpdatedTender state within 64 bytes per tender, also with UUID-sized tender ids', () => {
		const names = [
			'Plumbing & Drainage',
			'Electrical & Data Cabling',
			'HVAC / Mechanical Services',
		];
		const builders = ['Kōwhai Construction Ltd', 'Southern Cross Builders', 'Tōtara Projects'];
		for (const idOf of [tenderId, uuidLike]) {
			const tenders = new Map(
				Array.from({ length: 1000 }, (_, index) => [
					idOf(index + 1),
					{
						lastListedDay: TODAY - (index % 91),
						snapshot: snapshot({
							name: names[index % names.length],
							builder: builders[index % builders.length],
							quotesDueAt: dayToIsoDate(TODAY + (index % 400)),
						}),
					},
				]),
			);
			expect(Buffer.byteLength(storedJson(tenders), 'utf8') / tenders.size).toBeLessThanOrEqual(64);
		}
	});

	it('stays bounded at the cap: the whole state of MAX_TRACKED_TENDERS tenders is under 400 kB', () => {
		const tenders = new Map(
			Array.from({ length: MAX_TRACKED_TENDERS }, (_, index) => [
				tenderId(index + 1),
				{ lastListedDay: TODAY - (index % 91) },
			]),
		);
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

	it('says "empty" for the static data of a node that never polled', () => {
		expect(readTriggerState({})).toEqual({ kind: 'empty' });
	});

	it.each([
		[{ v: 99, s: 'abc123', d: TODAY, t: {} }, "it was not saved in this node's layout"],
		[
			{ version: 1, seenTenderIds: ['a'], lastPollAt: '2025-05-30T08:00:00Z' },
			"it was not saved in this node's layout",
		],
		[{ somethingElse: true }, "it was not saved in this node's layout"],
		[{ v: 3, s: 'abc123', t: {} }, 'its day is missing'],
		[{ v: 3, d: TODAY, t: {} }, 'its scope is missing'],
		[{ v: 3, s: 5, d: TODAY, t: {} }, 'its scope is missing'],
		[v3({ t: [] }), 'its tender list is missing'],
		[{ v: 3, s: 'abc123', d: TODAY, h: 'x', t: {} }, 'its load day is not a number'],
		[{ v: 3, s: 'abc123', d: TODAY, n: 1.5, t: {} }, 'its project count is not a number'],
		[{ v: 3, s: 'abc123', d: TODAY, t: {} }, 'its project count is not a number'],
		[v3({ t: {}, b: [1] }), 'its builder list is malformed'],
		[v3({ t: {}, m: 'Roofing' }), 'its tender name list is malformed'],
		[named({ a: [0, null, 0, 0, 0, 3] }), 'its entry for tender a is malformed'],
		[v3({ t: { a: 'old' } }), 'its entry for tender a is malformed'],
		[named({ a: [0, 1e12, 0, 0, 0, 0] }), 'its entry for tender a is malformed'],
		[named({ a: [0, 3, 0, 0, 1, 0] }), 'its entry for tender a is malformed'],
		[
			v3({ t: { a: [0, 3, 0, 0, 'Roofing', 0] }, b: ['One'] }),
			'its entry for tender a is malformed',
		],
		// quotesDueSoon entries: an age, then due days.
		[v3({ r: 1, t: { a: 0 } }), 'its entry for tender a is malformed'],
		[v3({ r: 1, t: { a: [0] } }), 'its entry for tender a is malformed'],
		[v3({ r: 1, t: { a: [0, 1.5] } }), 'its entry for tender a is malformed'],
		[v3({ r: 1, t: { a: [0, 1e12] } }), 'its entry for tender a is malformed'],
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

	it('keeps the page count of the last walk, and refuses one that is not a whole number', () => {
		const state: TriggerState = {
			scope: 's',
			day: TODAY,
			projectCount: 12_000,
			pages: 1,
			tenders: new Map(),
		};
		expect(writeTriggerState(state)).toMatchObject({ n: 12_000, p: 1 });
		expect(reloaded(state)).toEqual(state);
		const older = writeTriggerState(state);
		delete older.p;
		expect(readTriggerState(older)).toMatchObject({ kind: 'state', state: { pages: undefined } });
		expect(readTriggerState({ ...older, p: 0 })).toEqual({
			kind: 'unreadable',
			reason: 'its page count is not a whole number above 0',
		});
	});
});
