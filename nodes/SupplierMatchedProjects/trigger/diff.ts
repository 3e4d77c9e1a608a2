import type { TriggerEvent } from '../parameters/trigger';
import { dayToIsoDate, isoDateToDay } from '../projects/dates';
import {
	MAX_TRACKED_TENDERS,
	RETENTION_DAYS,
	type TenderSnapshot,
	type TrackedTender,
	type TriggerState,
	type WalkProgress,
} from './state';

export type { TriggerEvent };

/** The window of the quotesDueSoon event. */
export interface DueSoonWindow {
	/** Today's calendar date in the workflow's time zone, as days since the epoch. */
	today: number;
	/** A due date this many days after today or fewer (0: due today) is inside the window. */
	days: number;
}

/** A tender whose quotes due date came inside the window. */
export interface Reminder {
	id: string;
	quotesDueAt: string;
	/** Days from today (in the workflow's time zone) to the due date: 0 means due today. */
	daysLeft: number;
	/** The due date it was inside the window with before, when the date has moved since. */
	previousQuotesDueAt: string | null;
}

/** One tender of the current walk that passes the user's filters (see listedTenders: each id once). */
export interface ListedTender {
	id: string;
	snapshot: TenderSnapshot;
	/** The day it opened (tenderOpenAt), when the API says. */
	openedDay?: number;
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
	/** What this poll's pages listed: the whole walk, or its next part. */
	listed: readonly ListedTender[];
	/** Projects this poll's pages listed, filters aside. */
	projectCount: number;
	/** Requests this poll's pages took, when known. */
	pages?: number;
	/**
	 * The cursor of the page after this poll's last one, when the poll stopped before the walk's
	 * last page (see WalkProgress); undefined when its pages ended the walk.
	 */
	resumeAt?: string;
	event: TriggerEvent;
	/** Only the quotesDueSoon event reads it. */
	dueSoon: DueSoonWindow;
	/** Announce what is open on a first run instead of taking it as the baseline. */
	emitOpenOnFirstRun: boolean;
}

export interface PollDiff {
	/** No baseline existed for this scope: what is listed now is the baseline. */
	firstRun: boolean;
	/** This poll's pages ended a walk: what was not listed in it is judged gone. */
	walkComplete: boolean;
	/** In walk order. */
	newTenderIds: string[];
	/** In walk order. */
	updates: TenderUpdate[];
	/** In walk order; only for quotesDueSoon. */
	reminders: Reminder[];
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

/** The window for the workflow's date today (YYYY-MM-DD) and the days set. */
export function dueSoonWindow(today: string, days: number): DueSoonWindow {
	return { today: isoDateToDay(today) ?? 0, days };
}

/**
 * Days from today to the tender's due date when it is inside the window: open, with a due date
 * from today to `days` after it. Undefined otherwise (no date, past due, later, not open).
 */
export function daysLeftInWindow(
	tender: Pick<TenderSnapshot, 'quotesDueAt' | 'status'>,
	window: DueSoonWindow,
	dayOfDate: (date: string) => number | undefined = isoDateToDay,
): number | undefined {
	if (tender.status !== 'Open' || tender.quotesDueAt === null) return undefined;
	const due = dayOfDate(tender.quotesDueAt);
	if (due === undefined) return undefined;
	const daysLeft = due - window.today;
	return daysLeft >= 0 && daysLeft <= window.days ? daysLeft : undefined;
}

/**
 * A due day before yesterday (UTC) is past in every time zone, so it can never be inside the
 * window again: it is forgotten, except the last one, which the next reminder names as previous.
 */
function liveDueDays(dueDays: number[], today: number): number[] {
	const last = dueDays.length - 1;
	// Nearly always one date, or none past: the same array, without a copy per tender.
	if (dueDays.every((day, index) => index === last || day >= today - 1)) return dueDays;
	return dueDays.filter((day, index) => index === last || day >= today - 1);
}

/** isoDateToDay once per distinct date: a walk has a few dozen dates over many thousand tenders. */
function memoisedDayOfDate(): (date: string) => number | undefined {
	const days = new Map<string, number | undefined>();
	return (date) => {
		if (days.has(date)) return days.get(date);
		const day = isoDateToDay(date);
		days.set(date, day);
		return day;
	};
}

/**
 * Whether a state says nothing of this walk: it was written for other filters or another company,
 * or for the other kind of event (quotesDueSoon remembers only what came inside its window).
 */
export function isFreshFor(previous: TriggerState, scope: string, event: TriggerEvent): boolean {
	return previous.scope !== scope || (previous.reminders === true) !== (event === 'quotesDueSoon');
}

/**
 * Where this poll's pages stand in their walk. A walk may span polls: new tenders, changes and
 * reminders are judged as their pages are read, while a tender counts as gone, and the counts of
 * a walk are kept, only once a walk is complete.
 */
interface WalkPart {
	/** No state of this scope and kind: everything starts from nothing. */
	fresh: boolean;
	/** The pages continue a walk that an earlier poll began. */
	continuing: boolean;
	/** The pages belong to the first walk: what they list is recorded, not announced. */
	baseline: boolean;
	complete: boolean;
	/** The day the walk started. */
	startDay: number;
	progress: WalkProgress | undefined;
	projects: number;
	pages: number | undefined;
}

function walkPartOf(input: PollDiffInput, fresh: boolean): WalkPart {
	const { previous, today } = input;
	const before = fresh ? undefined : previous?.walk;
	const continuing = before !== undefined;
	const projects = (before?.projects ?? 0) + input.projectCount;
	const pages = input.pages === undefined ? undefined : (before?.pages ?? 0) + input.pages;
	const complete = input.resumeAt === undefined;
	const startDay = before?.startDay ?? today;
	return {
		fresh,
		continuing,
		baseline: fresh || previous?.baseline === true,
		complete,
		startDay,
		progress: complete
			? undefined
			: { cursor: input.resumeAt as string, pages: pages ?? 1, projects, startDay },
		projects,
		pages,
	};
}

/** The header of the next state: the walk's counts once complete, its progress until then. */
function nextHeader(
	input: PollDiffInput,
	part: WalkPart,
	loadedDay: number | undefined,
): Omit<TriggerState, 'tenders'> {
	const { previous } = input;
	const kept = part.fresh ? undefined : previous;
	return {
		scope: input.scope,
		day: input.today,
		loadedDay,
		projectCount: part.complete ? part.projects : (kept?.projectCount ?? part.projects),
		pages: part.complete ? part.pages : kept?.pages,
		...(part.progress === undefined ? {} : { walk: part.progress }),
		...(part.complete || !part.baseline ? {} : { baseline: true }),
	};
}

/**
 * A tender a baseline walk that spans polls reads after its first part, yet opened after the day
 * the walk started: it was not open when the baseline began, so it is new. (One that opened on
 * that same day cannot be told from the baseline: the API gives the day, not the time.)
 */
function openedSince(part: WalkPart, tender: ListedTender): boolean {
	return part.continuing && tender.openedDay !== undefined && tender.openedDay > part.startDay;
}

/**
 * Whether a remembered tender that this poll's pages did not list may be judged gone now: only
 * when they ended a walk, and not when an earlier poll of the same walk listed it.
 */
function judgedUnlisted(part: WalkPart, known: TrackedTender): boolean {
	if (!part.complete) return false;
	return !(part.continuing && known.lastListedDay >= part.startDay);
}

/**
 * What this poll's pages mean against the remembered state: which tenders are new, which
 * changed (only for newOrUpdatedTender), which came inside the due-date window (only for
 * quotesDueSoon), and the state to remember next. Pure: the caller decides whether the outcome
 * is final before writing `next`.
 */
export function diffPoll(input: PollDiffInput): PollDiff {
	const { previous, scope, today, listed, event } = input;
	const reminders = event === 'quotesDueSoon';
	const firstRun = previous === undefined || isFreshFor(previous, scope, event);
	const loadedDay =
		previous !== undefined && input.loadedFromStorage
			? Math.max(previous.loadedDay ?? today, today)
			: previous?.loadedDay;
	const part = walkPartOf(input, firstRun);
	if (reminders) return dueSoonDiff(input, part, loadedDay);
	// A state of another scope still says which tenders were seen: none is new again.
	const known = previous;
	const silentlyTrack = part.baseline && !input.emitOpenOnFirstRun;
	const keepSnapshots = event === 'newOrUpdatedTender';

	// Listed tenders go in first; the map itself then tells a listed id from an unlisted one. Each
	// lookup in a map of 100,000 tenders costs, so there is no separate set of listed ids.
	const tenders = new Map<string, TrackedTender>();
	const newTenderIds: string[] = [];
	const updates: TenderUpdate[] = [];
	let remembered = 0;

	for (const tender of listed) {
		const { id, snapshot } = tender;
		tenders.set(id, keepSnapshots ? { lastListedDay: today, snapshot } : { lastListedDay: today });
		const before = known?.tenders.get(id);
		if (before === undefined) {
			if (!silentlyTrack || openedSince(part, tender)) newTenderIds.push(id);
			continue;
		}
		remembered++;
		// A remembered tender without a snapshot was tracked under newTender: its values start now.
		if (!keepSnapshots || before.snapshot === undefined) continue;
		if (!sameSnapshot(before.snapshot, snapshot)) {
			updates.push({ id, changes: changesBetween(before.snapshot, snapshot) });
		}
	}

	const unlisted: Array<[string, TrackedTender]> = [];
	if (known !== undefined && remembered < known.tenders.size) {
		for (const [id, tracked] of known.tenders) {
			if (tenders.has(id)) continue;
			// Reused as it is when nothing is to be dropped: most of 100,000 entries are.
			const kept =
				tracked.dueDays === undefined && (keepSnapshots || tracked.snapshot === undefined)
					? tracked
					: keepSnapshots && tracked.snapshot !== undefined
						? { lastListedDay: tracked.lastListedDay, snapshot: tracked.snapshot }
						: { lastListedDay: tracked.lastListedDay };
			if (!judgedUnlisted(part, tracked)) {
				tenders.set(id, kept);
				continue;
			}
			const unlistedSince = Math.max(tracked.lastListedDay, loadedDay ?? tracked.lastListedDay);
			if (today - unlistedSince > RETENTION_DAYS) continue;
			unlisted.push([id, kept]);
		}
	}
	keepWithinCap(tenders, unlisted);

	return {
		firstRun,
		walkComplete: part.complete,
		newTenderIds,
		updates,
		reminders: [],
		next: { ...nextHeader(input, part, loadedDay), tenders },
	};
}

function keepWithinCap(
	tenders: Map<string, TrackedTender>,
	unlisted: ReadonlyArray<[string, TrackedTender]>,
): void {
	const forgotten = beyondCap(unlisted);
	for (const [id, kept] of unlisted) if (!forgotten.has(id)) tenders.set(id, kept);
}

/**
 * quotesDueSoon: a listed tender is announced when its due date is inside the window and it was
 * not inside it with that date before; once per tender and due date. Only tenders that have been
 * inside the window are remembered (by those dates), so a tender the window never reached costs
 * nothing.
 */
function dueSoonDiff(
	input: PollDiffInput,
	part: WalkPart,
	loadedDay: number | undefined,
): PollDiff {
	const { previous, today, dueSoon } = input;
	const silently = part.baseline && !input.emitOpenOnFirstRun;
	const tenders = new Map<string, TrackedTender>();
	const reminders: Reminder[] = [];
	const dayOfDate = memoisedDayOfDate();

	for (const { id, snapshot } of input.listed) {
		const before = previous?.tenders.get(id)?.dueDays ?? [];
		const daysLeft = daysLeftInWindow(snapshot, dueSoon, dayOfDate);
		let dueDays = before.length > 0 ? liveDueDays(before, today) : before;
		if (daysLeft !== undefined && !before.includes(dueSoon.today + daysLeft)) {
			if (!silently) {
				reminders.push({
					id,
					quotesDueAt: snapshot.quotesDueAt as string,
					daysLeft,
					previousQuotesDueAt: before.length > 0 ? dayToIsoDate(before[before.length - 1]) : null,
				});
			}
			dueDays = [...dueDays, dueSoon.today + daysLeft];
		}
		if (dueDays.length > 0) tenders.set(id, { lastListedDay: today, dueDays });
	}

	const unlisted: Array<[string, TrackedTender]> = [];
	// A listed tender with due days is in `tenders`: it keeps at least the last of them.
	for (const [id, known] of previous?.tenders ?? []) {
		if (known.dueDays === undefined || known.dueDays.length === 0 || tenders.has(id)) continue;
		if (!judgedUnlisted(part, known)) {
			tenders.set(id, known);
			continue;
		}
		const dueDays = liveDueDays(known.dueDays, today);
		const unlistedSince = Math.max(known.lastListedDay, loadedDay ?? known.lastListedDay);
		// A date still ahead must stay remembered however long the tender is away, or it would be
		// announced again when it comes back inside the window.
		const dateAhead = dueDays[dueDays.length - 1] >= today - 1;
		if (today - unlistedSince > RETENTION_DAYS && !dateAhead) continue;
		unlisted.push([id, { lastListedDay: known.lastListedDay, dueDays }]);
	}
	keepWithinCap(tenders, unlisted);

	return {
		firstRun: part.fresh,
		walkComplete: part.complete,
		newTenderIds: [],
		updates: [],
		reminders,
		next: { ...nextHeader(input, part, loadedDay), reminders: true, tenders },
	};
}
