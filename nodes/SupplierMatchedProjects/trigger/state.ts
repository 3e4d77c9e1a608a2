import type { IDataObject } from 'n8n-workflow';

import type { Tender } from '../api/types';
import { dayToIsoDate, isoDateToDay } from '../projects/dates';

export const STATE_VERSION = 3;

/**
 * How long a tender that is no longer listed stays remembered. The near-term window is fixed
 * server-side and not published; tenders leave it when their due date moves out and come back as
 * it approaches, which in practice happens within weeks. Three months keeps such a tender from
 * being announced twice while still letting the state shrink.
 */
export const RETENTION_DAYS = 90;

/**
 * Hard bound on remembered tenders that are no longer listed (static data lives in the workflow
 * row). Listed tenders are never dropped: dropping one would announce it again on the next poll.
 */
export const MAX_TRACKED_TENDERS = 5000;

/** The furthest day from the epoch a Date can hold. */
const MAX_DATE_DAY = 100_000_000;

/** The fields whose change makes an update, in the API's own names. */
export interface TenderSnapshot {
	quotesDueAt: string | null;
	status: string;
	name: string;
	type: string;
	/** The builder's name: a change of name is a change of builder, a new website is not. */
	builder: string;
}

export interface TrackedTender {
	lastListedDay: number;
	/** Kept only for the newOrUpdatedTender event, to say what a change was from. */
	snapshot?: TenderSnapshot;
	/**
	 * Kept only for the quotesDueSoon event: the due dates (days since the epoch) this tender was
	 * inside the reminder window with, in the order they were, so each date is announced once and
	 * the last one is the previous date of the next reminder.
	 */
	dueDays?: number[];
}

/** A walk that spans polls: where the next poll goes on, and what the walk has read so far. */
export interface WalkProgress {
	/** The cursor of the next page, as the API sent it. */
	cursor: string;
	/** Requests and projects of the walk so far. */
	pages: number;
	projects: number;
	/** The day the walk started: a tender listed on it or later was listed by this walk. */
	startDay: number;
}

export interface TriggerState {
	/** Fingerprint of what the walk selects (company and filters). */
	scope: string;
	/** Day of the poll that wrote this state. */
	day: number;
	/**
	 * Latest day this state was read back from storage. Polls after the last save may have listed
	 * any tender without that being saved, so no remembered tender counts as unlisted before it.
	 */
	loadedDay?: number;
	/** Projects the last complete walk listed. */
	projectCount: number;
	/**
	 * Requests the last complete walk took: what the next one is likely to cost. Absent from states
	 * written before it was kept; an API that ignores the page size lists more projects per request.
	 */
	pages?: number;
	/**
	 * Written by the quotesDueSoon event: it remembers only the tenders that were inside the window,
	 * by their due dates. A state of the other kind is a new baseline for either.
	 */
	reminders?: boolean;
	tenders: Map<string, TrackedTender>;
	/** The walk under way, when the last poll stopped before its last page. */
	walk?: WalkProgress;
	/** The first walk of this scope (the baseline) is still under way: its tenders are recorded. */
	baseline?: boolean;
	/** Counts the writes: tells a state n8n kept from one it dropped (see trigger/memory.ts). */
	seq?: number;
	/** When the last complete walk ended (epoch ms): the trigger's turn in its credential's queue. */
	completedAt?: number;
}

export type ReadStateResult =
	| { kind: 'empty' }
	| { kind: 'state'; state: TriggerState }
	| { kind: 'unreadable'; reason: string };

// Known values are stored as their index; values the API adds later are stored verbatim.
const STATUS_CODES: ReadonlyArray<Tender['status']> = ['Open', 'Closed', 'Awarded'];
const TYPE_CODES: ReadonlyArray<Tender['type']> = ['Tender', 'Procurement'];

function encodeCode(value: string, codes: readonly string[]): number | string {
	const index = codes.indexOf(value);
	return index === -1 ? value : index;
}

function decodeCode(value: unknown, codes: readonly string[]): string | undefined {
	if (typeof value === 'string') return value;
	if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < codes.length) {
		return codes[value];
	}
	return undefined;
}

function isWholeNumber(value: unknown): value is number {
	return typeof value === 'number' && Number.isInteger(value);
}

/**
 * A state holds a few dozen distinct due dates, builders and tender names across many thousand
 * tenders: each is converted or looked up once per read or write, and stored once.
 */
class Interned {
	readonly values: string[] = [];
	private readonly indexes = new Map<string, number>();

	indexOf(value: string): number {
		let index = this.indexes.get(value);
		if (index === undefined) {
			index = this.values.length;
			this.values.push(value);
			this.indexes.set(value, index);
		}
		return index;
	}
}

/** Due dates as days relative to the state's day (a few digits), others verbatim. */
class DueDateWriter {
	private readonly days = new Map<string, number | string>();

	constructor(private readonly stateDay: number) {}

	encode(quotesDueAt: string | null): number | string | null {
		if (quotesDueAt === null) return null;
		let encoded = this.days.get(quotesDueAt);
		if (encoded === undefined) {
			const day = isoDateToDay(quotesDueAt);
			encoded = day === undefined ? quotesDueAt : day - this.stateDay;
			this.days.set(quotesDueAt, encoded);
		}
		return encoded;
	}
}

/** The other way round: each distinct stored number converted once. */
class DueDateReader {
	private readonly dates = new Map<number, string>();

	constructor(private readonly stateDay: number) {}

	decode(value: unknown): string | null | undefined {
		if (value === null) return null;
		if (typeof value === 'string') return value;
		if (!isWholeNumber(value)) return undefined;
		let date = this.dates.get(value);
		if (date === undefined) {
			const day = this.stateDay + value;
			// Beyond what a Date can hold: a damaged state, not a date.
			if (Math.abs(day) > MAX_DATE_DAY) return undefined;
			date = dayToIsoDate(day);
			this.dates.set(value, date);
		}
		return date;
	}
}

/**
 * A tender id as a key of the stored tender list. `__proto__` cannot be a key of a plain object
 * (assigning it sets the prototype, and copies drop it), so it and its escaped forms gain a tilde:
 * `__proto__` is stored as `__proto__~`, `__proto__~` as `__proto__~~`. Every other id is itself.
 */
const PROTO_KEY = /^__proto__~*$/;

function storedKey(id: string): string {
	return PROTO_KEY.test(id) ? `${id}~` : id;
}

function idOfKey(key: string): string {
	return PROTO_KEY.test(key) ? key.slice(0, -1) : key;
}

/**
 * Compact form, version 3 (all JSON primitives):
 *   { v: 3, s: scope, d: day, h?: loadedDay, n: projectCount, p?: pages, r?: 1,
 *     t: { [storedKey(tenderId)]: entry },
 *     b?: builderNames, m?: tenderNames,
 *     w?: [cursor, pages, projects, startDay - d], f?: 1 (baseline), q?: seq, c?: completedAt }
 * where entry is the age in days since last listed (d - lastListedDay), or, when a snapshot is
 * kept, [age, due, status, type, nameIndex, builderIndex] with due in days after d (negative
 * before it). A reminders state (r: 1) has [age, ...dueDays], each due day in days after d.
 * 36-character tender ids still fit in 64 bytes per tender this way.
 */
export function writeTriggerState(state: TriggerState): IDataObject {
	const builders = new Interned();
	const names = new Interned();
	const dueDates = new DueDateWriter(state.day);
	const tenders: IDataObject = {};
	for (const [id, tracked] of state.tenders) {
		const age = state.day - tracked.lastListedDay;
		const key = storedKey(id);
		if (state.reminders === true) {
			tenders[key] = [age, ...(tracked.dueDays ?? []).map((day) => day - state.day)];
			continue;
		}
		const snapshot = tracked.snapshot;
		tenders[key] =
			snapshot === undefined
				? age
				: [
						age,
						dueDates.encode(snapshot.quotesDueAt),
						encodeCode(snapshot.status, STATUS_CODES),
						encodeCode(snapshot.type, TYPE_CODES),
						names.indexOf(snapshot.name),
						builders.indexOf(snapshot.builder),
					];
	}
	const written: IDataObject = { v: STATE_VERSION, s: state.scope, d: state.day };
	if (state.loadedDay !== undefined) written.h = state.loadedDay;
	written.n = state.projectCount;
	if (state.pages !== undefined) written.p = state.pages;
	if (state.reminders === true) written.r = 1;
	written.t = tenders;
	if (builders.values.length > 0) written.b = builders.values;
	if (names.values.length > 0) written.m = names.values;
	const { walk } = state;
	if (walk !== undefined) {
		written.w = [walk.cursor, walk.pages, walk.projects, walk.startDay - state.day];
	}
	if (state.baseline === true) written.f = 1;
	if (state.seq !== undefined) written.q = state.seq;
	if (state.completedAt !== undefined) written.c = state.completedAt;
	return written;
}

function isTextList(value: unknown): value is string[] {
	return Array.isArray(value) && value.every((entry) => typeof entry === 'string');
}

/**
 * Reads what writeTriggerState wrote. Anything else, or a damaged state, is unreadable, with the
 * reason: the trigger then takes a new baseline and says so in its log.
 */
export function readTriggerState(stored: IDataObject): ReadStateResult {
	if (Object.keys(stored).length === 0) return { kind: 'empty' };
	if (stored.v !== STATE_VERSION) {
		return { kind: 'unreadable', reason: "it was not saved in this node's layout" };
	}
	const {
		s: scope,
		d: day,
		h: loadedDay,
		n: projectCount,
		p: pages,
		r: reminders,
		t: tenders,
		b: builders = [],
		m: names = [],
		w: walk,
		f: baseline,
		q: seq,
		c: completedAt,
	} = stored;
	if (!isWholeNumber(day)) return { kind: 'unreadable', reason: 'its day is missing' };
	if (typeof scope !== 'string') return { kind: 'unreadable', reason: 'its scope is missing' };
	if (loadedDay !== undefined && !isWholeNumber(loadedDay)) {
		return { kind: 'unreadable', reason: 'its load day is not a number' };
	}
	if (!isWholeNumber(projectCount)) {
		return { kind: 'unreadable', reason: 'its project count is not a number' };
	}
	if (pages !== undefined && !(isWholeNumber(pages) && pages >= 1)) {
		return { kind: 'unreadable', reason: 'its page count is not a whole number above 0' };
	}
	if (reminders !== undefined && reminders !== 1) {
		return { kind: 'unreadable', reason: 'its reminders mark is not 1' };
	}
	if (typeof tenders !== 'object' || tenders === null || Array.isArray(tenders)) {
		return { kind: 'unreadable', reason: 'its tender list is missing' };
	}
	const progress = walkProgressOf(walk, day);
	if (progress === false) return { kind: 'unreadable', reason: 'its walk under way is malformed' };
	if (baseline !== undefined && baseline !== 1) {
		return { kind: 'unreadable', reason: 'its baseline mark is not 1' };
	}
	if (seq !== undefined && !(isWholeNumber(seq) && seq >= 0)) {
		return { kind: 'unreadable', reason: 'its write count is not a whole number' };
	}
	if (completedAt !== undefined && !isWholeNumber(completedAt)) {
		return { kind: 'unreadable', reason: 'its last complete walk is not a time' };
	}
	const header: Omit<TriggerState, 'tenders'> = {
		scope,
		day,
		loadedDay: loadedDay as number | undefined,
		projectCount,
		pages: pages as number | undefined,
		...(progress === undefined ? {} : { walk: progress }),
		...(baseline === 1 ? { baseline: true } : {}),
		...(seq === undefined ? {} : { seq }),
		...(completedAt === undefined ? {} : { completedAt }),
	};
	if (reminders === 1) return readReminders(header, tenders as IDataObject);
	if (!isTextList(builders)) {
		return { kind: 'unreadable', reason: 'its builder list is malformed' };
	}
	if (!isTextList(names)) {
		return { kind: 'unreadable', reason: 'its tender name list is malformed' };
	}
	const tracked = readSnapshots(day, tenders as IDataObject, builders, names);
	return typeof tracked === 'string'
		? { kind: 'unreadable', reason: tracked }
		: { kind: 'state', state: { ...header, tenders: tracked } };
}

/** The walk under way as stored, undefined when there is none, false when it is malformed. */
function walkProgressOf(stored: unknown, day: number): WalkProgress | undefined | false {
	if (stored === undefined) return undefined;
	if (!Array.isArray(stored) || stored.length !== 4) return false;
	const [cursor, pages, projects, start] = stored as unknown[];
	if (typeof cursor !== 'string' || cursor === '') return false;
	if (!isWholeNumber(pages) || pages < 1 || !isWholeNumber(projects) || projects < 0) return false;
	if (!isWholeNumber(start) || start > 0 || Math.abs(day + start) > MAX_DATE_DAY) return false;
	return { cursor, pages, projects, startDay: day + start };
}

/** The tenders of a newTender or newOrUpdatedTender state, or why one cannot be read. */
function readSnapshots(
	day: number,
	entries: IDataObject,
	builders: string[],
	names: string[],
): Map<string, TrackedTender> | string {
	const dueDates = new DueDateReader(day);
	const tracked = new Map<string, TrackedTender>();
	for (const key of Object.keys(entries)) {
		const entry = entries[key];
		const id = idOfKey(key);
		if (isWholeNumber(entry)) {
			tracked.set(id, { lastListedDay: day - entry });
			continue;
		}
		const snapshot = Array.isArray(entry) && entry.length === 6 ? entry : undefined;
		const age: unknown = snapshot?.[0];
		const quotesDueAt = dueDates.decode(snapshot?.[1]);
		const status = decodeCode(snapshot?.[2], STATUS_CODES);
		const type = decodeCode(snapshot?.[3], TYPE_CODES);
		const nameAt: unknown = snapshot?.[4];
		const name = isWholeNumber(nameAt) ? names[nameAt] : undefined;
		const builderAt: unknown = snapshot?.[5];
		const builder = isWholeNumber(builderAt) ? builders[builderAt] : undefined;
		if (
			!isWholeNumber(age) ||
			quotesDueAt === undefined ||
			status === undefined ||
			type === undefined ||
			name === undefined ||
			builder === undefined
		) {
			return `its entry for tender ${id} is malformed`;
		}
		tracked.set(id, {
			lastListedDay: day - age,
			snapshot: { quotesDueAt, status, name, type, builder },
		});
	}
	return tracked;
}

/** The tenders of a reminders state: [age, ...dueDays] each, due days relative to the state's day. */
function readReminders(
	header: Omit<TriggerState, 'tenders'>,
	entries: IDataObject,
): ReadStateResult {
	const { day } = header;
	const tracked = new Map<string, TrackedTender>();
	for (const key of Object.keys(entries)) {
		const entry = entries[key];
		const id = idOfKey(key);
		const valid =
			Array.isArray(entry) &&
			entry.length >= 2 &&
			entry.every((value) => isWholeNumber(value) && Math.abs(day + value) <= MAX_DATE_DAY);
		if (!valid) return { kind: 'unreadable', reason: `its entry for tender ${id} is malformed` };
		const [age, ...dueDays] = entry as number[];
		tracked.set(id, {
			lastListedDay: day - age,
			dueDays: dueDays.map((due) => day + due),
		});
	}
	return { kind: 'state', state: { ...header, reminders: true, tenders: tracked } };
}
