import {
	MAX_TRACKED_TENDERS,
	RETENTION_DAYS,
	type TenderSnapshot,
	type TrackedTender,
	type TriggerState,
} from './state';

export type TriggerEvent = 'newTender' | 'newOrUpdatedTender';

/** One tender of the current walk that passes the user's filters, once per tender id. */
export interface ListedTender {
	id: string;
	snapshot: TenderSnapshot;
}

export type TenderChanges = {
	[Field in keyof TenderSnapshot]?: { from: TenderSnapshot[Field]; to: TenderSnapshot[Field] };
};

export interface TenderUpdate {
	id: string;
	changes: TenderChanges;
}

export interface PollDiffInput {
	/** The state as read from static data; undefined on the very first poll. */
	previous: TriggerState | undefined;
	/** Fingerprint of company and filters; a different one starts a new baseline. */
	scope: string;
	today: number;
	/**
	 * True on the first poll of this process over a state read from storage: polls between its
	 * last save and now may have listed any remembered tender without that being saved.
	 */
	loadedFromStorage: boolean;
	listed: readonly ListedTender[];
	/** Projects the walk listed, filters aside. */
	projectCount: number;
	event: TriggerEvent;
	/** Announce what is open on a first run instead of taking it as the baseline. */
	emitOpenOnFirstRun: boolean;
}

export interface PollDiff {
	/** No baseline existed for this scope: what is listed now is the baseline. */
	firstRun: boolean;
	/** In walk order. */
	newTenderIds: string[];
	/** In walk order. */
	updates: TenderUpdate[];
	/** Write this only once the poll's outcome is final. */
	next: TriggerState;
}

const SNAPSHOT_FIELDS: ReadonlyArray<keyof TenderSnapshot> = [
	'quotesDueAt',
	'status',
	'name',
	'type',
	'builder',
];

export function changesBetween(from: TenderSnapshot, to: TenderSnapshot): TenderChanges {
	const changes: TenderChanges = {};
	for (const field of SNAPSHOT_FIELDS) {
		if (from[field] !== to[field]) {
			Object.assign(changes, { [field]: { from: from[field], to: to[field] } });
		}
	}
	return changes;
}

// Most remembered tenders are unchanged on a poll: comparing the fields directly spares building
// a changes object for each of them.
function sameSnapshot(a: TenderSnapshot, b: TenderSnapshot): boolean {
	return (
		a.quotesDueAt === b.quotesDueAt &&
		a.status === b.status &&
		a.name === b.name &&
		a.type === b.type &&
		a.builder === b.builder
	);
}

/**
 * The unlisted tenders to forget so that at most MAX_TRACKED_TENDERS of them stay: the longest
 * unlisted first, ties broken by id so the outcome never depends on the order entries were read in.
 */
function beyondCap(unlisted: ReadonlyArray<[string, TrackedTender]>): Set<string> {
	if (unlisted.length <= MAX_TRACKED_TENDERS) return new Set();
	const oldestFirst = [...unlisted].sort(
		([idA, a], [idB, b]) =>
			a.lastListedDay - b.lastListedDay || (idA < idB ? -1 : idA > idB ? 1 : 0),
	);
	return new Set(oldestFirst.slice(0, unlisted.length - MAX_TRACKED_TENDERS).map(([id]) => id));
}

/** The walk's tenders with each id once, its first listing kept. */
function onceEach(listed: readonly ListedTender[]): ListedTender[] {
	const seen = new Set<string>();
	const once: ListedTender[] = [];
	for (const tender of listed) {
		if (seen.has(tender.id)) continue;
		seen.add(tender.id);
		once.push(tender);
	}
	return once;
}

/**
 * What one complete walk means against the remembered state: which tenders are new, which
 * changed (only for newOrUpdatedTender), and the state to remember next. Pure: the caller decides
 * whether the outcome is final before writing `next`.
 */
export function diffPoll(input: PollDiffInput): PollDiff {
	const { previous, scope, today, listed, event } = input;
	const firstRun =
		previous === undefined || (previous.scope !== undefined && previous.scope !== scope);
	const silentlyTrack = firstRun && !input.emitOpenOnFirstRun;
	const keepSnapshots = event === 'newOrUpdatedTender';
	const loadedDay =
		previous !== undefined && input.loadedFromStorage
			? Math.max(previous.loadedDay ?? today, today)
			: previous?.loadedDay;

	// Listed tenders go in first; the map itself then tells a listed id from an unlisted one. Each
	// lookup in a map of 100,000 tenders costs, so there is no separate set of listed ids.
	const tenders = new Map<string, TrackedTender>();
	const newTenderIds: string[] = [];
	const updates: TenderUpdate[] = [];
	let remembered = 0;

	for (const { id, snapshot } of listed) {
		const size = tenders.size;
		tenders.set(id, keepSnapshots ? { lastListedDay: today, snapshot } : { lastListedDay: today });
		// listedTenders gives each id once; a repeat from another caller overwrote the first
		// listing, so start again with the repeats left out.
		if (tenders.size === size) return diffPoll({ ...input, listed: onceEach(listed) });
		const known = previous?.tenders.get(id);
		if (known === undefined) {
			if (!silentlyTrack) newTenderIds.push(id);
			continue;
		}
		remembered++;
		// A remembered tender without a snapshot was tracked under newTender: its values start now.
		if (!keepSnapshots || known.snapshot === undefined) continue;
		if (!sameSnapshot(known.snapshot, snapshot)) {
			updates.push({ id, changes: changesBetween(known.snapshot, snapshot) });
		}
	}

	const unlisted: Array<[string, TrackedTender]> = [];
	if (previous !== undefined && remembered < previous.tenders.size) {
		for (const [id, known] of previous.tenders) {
			if (tenders.has(id)) continue;
			const unlistedSince = Math.max(known.lastListedDay, loadedDay ?? known.lastListedDay);
			if (today - unlistedSince > RETENTION_DAYS) continue;
			const kept =
				keepSnapshots || known.snapshot === undefined
					? known
					: { lastListedDay: known.lastListedDay };
			unlisted.push([id, kept]);
		}
	}
	const forgotten = beyondCap(unlisted);
	for (const [id, kept] of unlisted) if (!forgotten.has(id)) tenders.set(id, kept);

	return {
		firstRun,
		newTenderIds,
		updates,
		next: { scope, day: today, loadedDay, projectCount: input.projectCount, tenders },
	};
}
