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

/**
 * Keeps the listed tenders plus the most recently listed others, up to the cap. Ties are broken by
 * id so the outcome never depends on the order entries were read in.
 */
function applyCap(tenders: Map<string, TrackedTender>, listedIds: ReadonlySet<string>): void {
	if (tenders.size <= MAX_TRACKED_TENDERS) return;
	const unlisted = [...tenders.entries()]
		.filter(([id]) => !listedIds.has(id))
		.sort(
			([idA, a], [idB, b]) =>
				a.lastListedDay - b.lastListedDay || (idA < idB ? -1 : idA > idB ? 1 : 0),
		);
	let excess = tenders.size - MAX_TRACKED_TENDERS;
	for (const [id] of unlisted) {
		if (excess <= 0) break;
		tenders.delete(id);
		excess--;
	}
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
	const loadedDay =
		previous !== undefined && input.loadedFromStorage
			? Math.max(previous.loadedDay ?? today, today)
			: previous?.loadedDay;

	const tenders = new Map<string, TrackedTender>();
	const listedIds = new Set<string>();
	const newTenderIds: string[] = [];
	const updates: TenderUpdate[] = [];

	for (const { id, snapshot } of listed) {
		if (listedIds.has(id)) continue;
		listedIds.add(id);
		const known = previous?.tenders.get(id);
		const keepSnapshot = event === 'newOrUpdatedTender' ? snapshot : undefined;
		tenders.set(id, { lastListedDay: today, snapshot: keepSnapshot });
		if (known === undefined) {
			if (!silentlyTrack) newTenderIds.push(id);
			continue;
		}
		// A remembered tender without a snapshot was tracked under newTender: its values start now.
		if (keepSnapshot === undefined || known.snapshot === undefined) continue;
		const changes = changesBetween(known.snapshot, snapshot);
		if (Object.keys(changes).length > 0) updates.push({ id, changes });
	}

	for (const [id, known] of previous?.tenders ?? []) {
		if (listedIds.has(id)) continue;
		const unlistedSince = Math.max(known.lastListedDay, loadedDay ?? known.lastListedDay);
		if (today - unlistedSince > RETENTION_DAYS) continue;
		tenders.set(
			id,
			event === 'newOrUpdatedTender' ? known : { lastListedDay: known.lastListedDay },
		);
	}
	applyCap(tenders, listedIds);

	return {
		firstRun,
		newTenderIds,
		updates,
		next: { scope, day: today, loadedDay, projectCount: input.projectCount, tenders },
	};
}
