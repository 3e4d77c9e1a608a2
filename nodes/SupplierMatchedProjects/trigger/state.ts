import type { IDataObject } from 'n8n-workflow';

import type { Tender } from '../api/types';

export const STATE_VERSION = 2;

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

const DAY_MS = 86_400_000;

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
}

export interface TriggerState {
	/**
	 * Fingerprint of what the walk selects (company and filters). Undefined for a state migrated
	 * from a version that did not record it.
	 */
	scope?: string;
	/** Day of the poll that wrote this state. */
	day: number;
	/**
	 * Latest day this state was read back from storage. Polls after the last save may have listed
	 * any tender without that being saved, so no remembered tender counts as unlisted before it.
	 */
	loadedDay?: number;
	/** Projects the last complete walk listed: how many requests the next walk is likely to need. */
	projectCount?: number;
	tenders: Map<string, TrackedTender>;
}

export type ReadStateResult =
	| { kind: 'empty' }
	| { kind: 'state'; state: TriggerState }
	| { kind: 'unreadable'; reason: string };

export function dayOf(epochMs: number): number {
	return Math.floor(epochMs / DAY_MS);
}

export function dayToIsoDate(day: number): string {
	return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

function isoDateToDay(value: string): number | undefined {
	if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
	const day = Date.parse(`${value}T00:00:00Z`) / DAY_MS;
	// Date.parse rolls 2025-02-30 over to March: only a date that survives the round trip is stored as a day.
	return Number.isInteger(day) && dayToIsoDate(day) === value ? day : undefined;
}

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

function encodeDueDate(quotesDueAt: string | null): number | string | null {
	if (quotesDueAt === null) return null;
	return isoDateToDay(quotesDueAt) ?? quotesDueAt;
}

function decodeDueDate(value: unknown): string | null | undefined {
	if (value === null) return null;
	if (typeof value === 'string') return value;
	if (typeof value === 'number' && Number.isInteger(value)) return dayToIsoDate(value);
	return undefined;
}

function isWholeNumber(value: unknown): value is number {
	return typeof value === 'number' && Number.isInteger(value);
}

/**
 * Compact form, version 2 (all JSON primitives):
 *   { v: 2, s: scope, d: day, h?: loadedDay, n?: projectCount, t: { [tenderId]: entry },
 *     b?: builderNames }
 * where entry is the age in days since last listed (d - lastListedDay), or, when a snapshot is
 * kept, [age, due, status, type, name, builderIndex] with due as days since the epoch.
 */
export function writeTriggerState(state: TriggerState): IDataObject {
	const builders: string[] = [];
	const builderIndex = new Map<string, number>();
	const tenders: IDataObject = {};
	for (const [id, tracked] of state.tenders) {
		const age = state.day - tracked.lastListedDay;
		const snapshot = tracked.snapshot;
		if (snapshot === undefined) {
			tenders[id] = age;
			continue;
		}
		let index = builderIndex.get(snapshot.builder);
		if (index === undefined) {
			index = builders.length;
			builders.push(snapshot.builder);
			builderIndex.set(snapshot.builder, index);
		}
		tenders[id] = [
			age,
			encodeDueDate(snapshot.quotesDueAt),
			encodeCode(snapshot.status, STATUS_CODES),
			encodeCode(snapshot.type, TYPE_CODES),
			snapshot.name,
			index,
		];
	}
	const written: IDataObject = { v: STATE_VERSION };
	if (state.scope !== undefined) written.s = state.scope;
	written.d = state.day;
	if (state.loadedDay !== undefined) written.h = state.loadedDay;
	if (state.projectCount !== undefined) written.n = state.projectCount;
	written.t = tenders;
	if (builders.length > 0) written.b = builders;
	return written;
}

function readVersion2(stored: IDataObject): ReadStateResult {
	const { s: scope, d: day, h: loadedDay, n: projectCount, t: tenders, b: builders = [] } = stored;
	if (!isWholeNumber(day)) return { kind: 'unreadable', reason: 'its day is missing' };
	if (scope !== undefined && typeof scope !== 'string') {
		return { kind: 'unreadable', reason: 'its scope is not text' };
	}
	if (loadedDay !== undefined && !isWholeNumber(loadedDay)) {
		return { kind: 'unreadable', reason: 'its load day is not a number' };
	}
	if (projectCount !== undefined && !isWholeNumber(projectCount)) {
		return { kind: 'unreadable', reason: 'its project count is not a number' };
	}
	if (typeof tenders !== 'object' || tenders === null || Array.isArray(tenders)) {
		return { kind: 'unreadable', reason: 'its tender list is missing' };
	}
	if (!Array.isArray(builders) || !builders.every((name) => typeof name === 'string')) {
		return { kind: 'unreadable', reason: 'its builder list is malformed' };
	}
	const tracked = new Map<string, TrackedTender>();
	for (const [id, entry] of Object.entries(tenders as IDataObject)) {
		if (isWholeNumber(entry)) {
			tracked.set(id, { lastListedDay: day - entry });
			continue;
		}
		const snapshot = Array.isArray(entry) && entry.length === 6 ? entry : undefined;
		const age: unknown = snapshot?.[0];
		const quotesDueAt = decodeDueDate(snapshot?.[1]);
		const status = decodeCode(snapshot?.[2], STATUS_CODES);
		const type = decodeCode(snapshot?.[3], TYPE_CODES);
		const name: unknown = snapshot?.[4];
		const builderAt: unknown = snapshot?.[5];
		const builder = isWholeNumber(builderAt) ? (builders as string[])[builderAt] : undefined;
		if (
			!isWholeNumber(age) ||
			quotesDueAt === undefined ||
			status === undefined ||
			type === undefined ||
			typeof name !== 'string' ||
			builder === undefined
		) {
			return { kind: 'unreadable', reason: `its entry for tender ${id} is malformed` };
		}
		tracked.set(id, {
			lastListedDay: day - age,
			snapshot: { quotesDueAt, status, name, type, builder },
		});
	}
	return {
		kind: 'state',
		state: {
			scope,
			day,
			loadedDay: loadedDay as number | undefined,
			projectCount: projectCount as number | undefined,
			tenders: tracked,
		},
	};
}

/**
 * Version 1, the first development layout: a plain list of the tender ids already announced and
 * the time of the last poll. It knew nothing about filters, so the scope is left undefined and
 * taken to be unchanged.
 */
function readVersion1(stored: IDataObject): ReadStateResult {
	const { seenTenderIds, lastPollAt } = stored;
	const lastPollMs = typeof lastPollAt === 'string' ? Date.parse(lastPollAt) : Number.NaN;
	if (!Number.isFinite(lastPollMs)) {
		return { kind: 'unreadable', reason: 'its lastPollAt is not a date-time' };
	}
	if (!Array.isArray(seenTenderIds) || !seenTenderIds.every((id) => typeof id === 'string')) {
		return { kind: 'unreadable', reason: 'its seenTenderIds is not a list of ids' };
	}
	const day = dayOf(lastPollMs);
	const tenders = new Map<string, TrackedTender>();
	for (const id of seenTenderIds as string[]) tenders.set(id, { lastListedDay: day });
	return { kind: 'state', state: { day, tenders } };
}

export function readTriggerState(stored: IDataObject): ReadStateResult {
	if (stored.v === STATE_VERSION) return readVersion2(stored);
	if (stored.version === 1) return readVersion1(stored);
	if (stored.v === undefined && stored.version === undefined) {
		return Object.keys(stored).length === 0
			? { kind: 'empty' }
			: { kind: 'unreadable', reason: 'it has no version' };
	}
	return {
		kind: 'unreadable',
		reason: `its version ${JSON.stringify(stored.v ?? stored.version)} is not one this node knows`,
	};
}
