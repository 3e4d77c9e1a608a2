import { isoDateToDay, todayIn } from '../../../../../nodes/SupplierMatchedProjects/projects/dates';
import {
	daysLeftInWindow,
	diffPoll,
	dueSoonWindow,
	type ListedTender,
	type PollDiff,
	type PollDiffInput,
	type Reminder,
} from '../../../../../nodes/SupplierMatchedProjects/trigger/diff';
import {
	MAX_TRACKED_TENDERS,
	RETENTION_DAYS,
	writeTriggerState,
	type TenderSnapshot,
	type TrackedTender,
	type TriggerState,
} from '../../../../../nodes/SupplierMatchedProjects/trigger/state';
import { reloaded } from '../../../../support/engine/n8n-fixtures';

const DAY0 = 20_000;
const SCOPE = 'scope-a';

function snapshot(overrides: Partial<TenderSnapshot> = {}): TenderSnapshot {
	return {
		quotesDueAt: '2025-06-20',
		status: 'Open',
		name: 'Electrical Services',
		type: 'Tender',
		builder: 'Southern Cross Builders',
		...overrides,
	};
}

function listed(...ids: string[]): ListedTender[] {
	return ids.map((id) => ({ id, snapshot: snapshot() }));
}

function listedWith(id: string, change: Partial<TenderSnapshot>): ListedTender[] {
	return [{ id, snapshot: snapshot(change) }];
}

function poll(overrides: Partial<PollDiffInput> & Pick<PollDiffInput, 'listed'>): PollDiff {
	return diffPoll({
		previous: undefined,
		scope: SCOPE,
		today: DAY0,
		loadedFromStorage: false,
		projectCount: 1,
		event: 'newTender',
		dueSoon: { today: DAY0, days: 3 },
		emitOpenOnFirstRun: false,
		...overrides,
	});
}

function pollAfter(
	before: PollDiff,
	today: number,
	tenders: ListedTender[],
	overrides: Partial<PollDiffInput> = {},
): PollDiff {
	return poll({ previous: before.next, today, listed: tenders, ...overrides });
}

/** The input of the first poll after a restart over `state` as it was saved. */
function fromStorage(state: TriggerState): Partial<PollDiffInput> {
	return { previous: reloaded(state), loadedFromStorage: true };
}

const day = (date: string) => isoDateToDay(date) as number;

function dueTender(id: string, quotesDueAt: string | null, status = 'Open'): ListedTender {
	return { id, snapshot: snapshot({ quotesDueAt, status }) };
}

/** Every one of these tenders, due on `date`. */
function allDue(ids: string[], date: string): ListedTender[] {
	return ids.map((id) => dueTender(id, date));
}

/** One quotesDueSoon poll on `date` (UTC day and workflow day alike unless `calendarDate` is given). */
function pollDue(
	date: string,
	listed: ListedTender[],
	overrides: Partial<PollDiffInput> & { days?: number; calendarDate?: string } = {},
): PollDiff {
	const { days = 3, calendarDate = date, ...rest } = overrides;
	const dueSoon = { today: day(calendarDate), days };
	return poll({ event: 'quotesDueSoon', today: day(date), dueSoon, listed, ...rest });
}

function pollDueAfter(
	before: PollDiff,
	date: string,
	listed: ListedTender[],
	overrides: Parameters<typeof pollDue>[2] = {},
): PollDiff {
	return pollDue(date, listed, { previous: before.next, ...overrides });
}

function reminder(
	id: string,
	quotesDueAt: string,
	daysLeft: number,
	previousQuotesDueAt: string | null = null,
): Reminder {
	return { id, quotesDueAt, daysLeft, previousQuotesDueAt };
}

describe('diffPoll: first run and new tenders', () => {
	it.each([
		['takes what is open as the baseline and announces nothing', false, []],
		['announces what is open when asked to, and takes it as the baseline', true, ['a', 'b']],
	])('%s on the first run', (_case, emitOpenOnFirstRun, announced) => {
		const result = poll({ listed: listed('a', 'b'), projectCount: 2, emitOpenOnFirstRun });
		expect(result).toMatchObject({ firstRun: true, newTenderIds: announced });
		expect([...result.next.tenders.keys()]).toEqual(['a', 'b']);
		expect(result.next).toMatchObject({ scope: SCOPE, day: DAY0, projectCount: 2 });
	});

	it('announces only the tenders it has not seen, in walk order', () => {
		const first = poll({ listed: listed('a', 'b') });
		const second = pollAfter(first, DAY0 + 1, listed('c', 'a', 'd', 'b'));
		expect(second).toMatchObject({ firstRun: false, newTenderIds: ['c', 'd'] });
		const third = pollAfter(second, DAY0 + 2, listed('a', 'b', 'c', 'd'));
		expect(third.newTenderIds).toEqual([]);
	});

	it('does not change the state it was given', () => {
		const first = poll({ listed: listed('a') });
		const before = JSON.stringify(writeTriggerState(first.next));
		pollAfter(first, DAY0 + 200, listed('b'));
		expect(JSON.stringify(writeTriggerState(first.next))).toBe(before);
	});

	it('takes a new baseline when company or filters change, without forgetting what it announced', () => {
		const first = poll({ listed: listed('a') });
		const changed = pollAfter(first, DAY0 + 1, listed('a', 'x', 'y'), { scope: 'scope-b' });
		expect(changed).toMatchObject({ firstRun: true, newTenderIds: [], next: { scope: 'scope-b' } });
		const emitOpen = { scope: 'scope-b', emitOpenOnFirstRun: true };
		expect(pollAfter(first, DAY0, listed('a', 'x'), emitOpen).newTenderIds).toEqual(['x']);
	});
});

describe('diffPoll: updates (newOrUpdatedTender)', () => {
	const event = 'newOrUpdatedTender' as const;

	it('reports each changed field from what to what, once', () => {
		const first = poll({ event, listed: listed('a', 'b') });
		const changed = [
			{ id: 'a', snapshot: snapshot({ quotesDueAt: '2025-06-27', builder: 'Tōtara Projects' }) },
			{ id: 'b', snapshot: snapshot() },
		];
		const second = pollAfter(first, DAY0 + 1, changed, { event });
		expect(second.newTenderIds).toEqual([]);
		expect(second.updates).toEqual([
			{
				id: 'a',
				changes: {
					quotesDueAt: { from: '2025-06-20', to: '2025-06-27' },
					builder: { from: 'Southern Cross Builders', to: 'Tōtara Projects' },
				},
			},
		]);
		const third = pollAfter(second, DAY0 + 2, changed, { event });
		expect(third.updates).toEqual([]);
	});

	it.each([
		['status', { status: 'Closed' }],
		['name', { name: 'Electrical & Data Cabling' }],
		['type', { type: 'Procurement' }],
	] as const)('treats a change of %s as an update', (field, change) => {
		const first = poll({ event, listed: listed('a') });
		const second = pollAfter(first, DAY0, listedWith('a', change), { event });
		expect(second.updates).toEqual([
			{ id: 'a', changes: { [field]: { from: snapshot()[field], to: Object.values(change)[0] } } },
		]);
	});

	it('reports no updates and keeps no values for the newTender event', () => {
		const first = poll({ listed: listed('a') });
		const second = pollAfter(first, DAY0, listedWith('a', { quotesDueAt: '2025-07-01' }));
		expect(second.updates).toEqual([]);
		expect(second.next.tenders.get('a')).toEqual({ lastListedDay: DAY0 });
	});

	it('starts keeping values when switched to newOrUpdatedTender without inventing updates', () => {
		const first = poll({ listed: listed('a') });
		const switched = pollAfter(first, DAY0, listed('a'), { event });
		expect(switched.updates).toEqual([]);
		const changed = pollAfter(switched, DAY0, listedWith('a', { status: 'Awarded' }), { event });
		expect(changed.updates).toEqual([
			{ id: 'a', changes: { status: { from: 'Open', to: 'Awarded' } } },
		]);
	});

	it('drops kept values of unlisted tenders when switched back to newTender', () => {
		const first = poll({ event, listed: listed('a', 'b') });
		const back = pollAfter(first, DAY0, listed('a'));
		expect(back.next.tenders.get('b')).toEqual({ lastListedDay: DAY0 });
	});

	it('reports the changed due date of a tender that comes back, once', () => {
		const first = poll({ event, listed: listed('a') });
		const gone = pollAfter(first, DAY0 + 5, [], { event });
		const back = pollAfter(gone, DAY0 + 30, [dueTender('a', '2025-08-15')], { event });
		expect(back.newTenderIds).toEqual([]);
		expect(back.updates).toEqual([
			{ id: 'a', changes: { quotesDueAt: { from: '2025-06-20', to: '2025-08-15' } } },
		]);
	});
});

describe('diffPoll: retention and cap', () => {
	it(`forgets a tender unlisted for more than ${RETENTION_DAYS} days, not before, and announces it when it comes back`, () => {
		const first = poll({ listed: listed('a', 'b') });
		const kept = pollAfter(first, DAY0 + RETENTION_DAYS, listed('a'));
		expect(kept.next.tenders.has('b')).toBe(true);
		const expired = pollAfter(kept, DAY0 + RETENTION_DAYS + 1, listed('a'));
		expect(expired.next.tenders.has('b')).toBe(false);
		expect(expired.next.tenders.get('a')).toEqual({ lastListedDay: DAY0 + RETENTION_DAYS + 1 });
		const back = pollAfter(expired, DAY0 + RETENTION_DAYS + 2, listed('a', 'b'));
		expect(back.newTenderIds).toEqual(['b']);
	});

	it(`bounds the unlisted tenders, not all of them: with ${MAX_TRACKED_TENDERS} listed, the gone ones stay remembered`, () => {
		const ids = Array.from({ length: MAX_TRACKED_TENDERS }, (_, index) => `t-${index}`);
		const first = poll({ listed: listed(...ids, 'gone-1', 'gone-2') });
		const gone = pollAfter(first, DAY0 + 1, listed(...ids));
		expect(gone.next.tenders.size).toBe(MAX_TRACKED_TENDERS + 2);
		expect(gone.next.tenders.get('gone-1')).toEqual({ lastListedDay: DAY0 });
		const back = pollAfter(gone, DAY0 + 2, listed(...ids, 'gone-2', 'gone-1'));
		expect(back.newTenderIds).toEqual([]);
	});

	it('keeps at most the cap of unlisted tenders beside every listed one', () => {
		const listedIds = Array.from({ length: 20 }, (_, index) => `listed-${index}`);
		const oldId = (index: number) => `old-${String(index).padStart(5, '0')}`;
		const tenders = new Map<string, TrackedTender>();
		for (let index = 0; index < MAX_TRACKED_TENDERS + 7; index++) {
			tenders.set(oldId(index), { lastListedDay: DAY0 - 1 - (index % 30) });
		}
		for (const id of listedIds) tenders.set(id, { lastListedDay: DAY0 - 1 });
		const previous: TriggerState = { scope: SCOPE, day: DAY0 - 1, projectCount: 20, tenders };
		const result = poll({ previous, listed: listed(...listedIds) });
		expect(result.next.tenders.size).toBe(listedIds.length + MAX_TRACKED_TENDERS);
		expect(listedIds.every((id) => result.next.tenders.get(id)?.lastListedDay === DAY0)).toBe(true);
		// The seven dropped are the longest unlisted (last listed 30 days ago), lowest ids first.
		const dropped = [...tenders.keys()].filter((id) => !result.next.tenders.has(id));
		expect(dropped).toEqual([29, 59, 89, 119, 149, 179, 209].map(oldId));
	});
});

describe('diffPoll: restarts (only saved state survives)', () => {
	it('keeps a tender listed by unsaved polls from expiring early after a restart', () => {
		// Day 0: activation baseline, saved. Tender a stays listed until day 50 through polls that
		// emit nothing, so storage still says "last listed day 0". Restart on day 60.
		const activation = poll({ listed: listed('a', 'b') });
		const onlyB = listed('b');
		let memory = activation.next;
		for (let day = 1; day <= 50; day++) {
			memory = poll({ previous: memory, today: DAY0 + day, listed: listed('a', 'b') }).next;
		}
		expect(memory.tenders.get('a')?.lastListedDay).toBe(DAY0 + 50);

		const afterRestart = poll({ ...fromStorage(activation.next), today: DAY0 + 60, listed: onlyB });
		expect(afterRestart.next.loadedDay).toBe(DAY0 + 60);
		// Day 100: a would have expired by the stale "day 0"; it must still be remembered.
		const later = pollAfter(afterRestart, DAY0 + 100, onlyB);
		expect(later.next.tenders.has('a')).toBe(true);
		const back = pollAfter(later, DAY0 + 101, listed('a', 'b'));
		expect(back.newTenderIds).toEqual([]);
		// Retention still applies, counted from the restart.
		const expired = pollAfter(later, DAY0 + 60 + RETENTION_DAYS + 1, onlyB);
		expect(expired.next.tenders.has('a')).toBe(false);
	});

	it('announces a tender first seen by an unsaved poll after the restart, once', () => {
		const activation = poll({ listed: listed('a') });
		const both = listed('a', 'n');
		const announced = pollAfter(activation, DAY0 + 1, both);
		expect(announced.newTenderIds).toEqual(['n']);
		// The announcing poll emits, so n8n saves its state: a restart reloads that.
		const afterRestart = poll({ ...fromStorage(announced.next), today: DAY0 + 2, listed: both });
		expect(afterRestart.newTenderIds).toEqual([]);
		// Had n8n crashed before saving, the saved baseline still lacks n: announced again, never lost.
		const fromBaseline = poll({ ...fromStorage(activation.next), today: DAY0 + 2, listed: both });
		expect(fromBaseline.newTenderIds).toEqual(['n']);
	});
});

describe('diffPoll: a walk that spans polls', () => {
	/** A poll whose pages stopped before the walk's last one, to go on at `cursor`. */
	const partOf = (cursor: string) => ({ resumeAt: cursor, pages: 2 });

	it('keeps recording the baseline across polls, and announces nothing of it', () => {
		const first = poll({ listed: listed('a', 'b'), projectCount: 200, ...partOf('c-3') });
		expect(first).toMatchObject({ walkComplete: false, next: { baseline: true } });
		expect(first.next.walk).toEqual({ cursor: 'c-3', pages: 2, projects: 200, startDay: DAY0 });
		const last = pollAfter(first, DAY0, listed('c'), { projectCount: 50, pages: 1 });
		expect(last).toMatchObject({ firstRun: false, newTenderIds: [], walkComplete: true });
		expect(last.next).toMatchObject({ projectCount: 250, pages: 3 });
		expect(last.next.walk).toBeUndefined();
		expect(last.next.baseline).toBeUndefined();
		expect([...last.next.tenders.keys()].sort()).toEqual(['a', 'b', 'c']);
		// The baseline is complete: a tender first seen now is new.
		expect(pollAfter(last, DAY0 + 1, listed('a', 'b', 'c', 'd')).newTenderIds).toEqual(['d']);
	});

	it('announces a tender the baseline reads after its first part when it opened after the walk began', () => {
		const first = poll({ listed: listed('a'), ...partOf('c-2') });
		const later = [
			{ id: 'same-day', snapshot: snapshot(), openedDay: DAY0 },
			{ id: 'next-day', snapshot: snapshot(), openedDay: DAY0 + 1 },
			{ id: 'no-date', snapshot: snapshot() },
		];
		const rest = pollAfter(first, DAY0 + 1, later, { pages: 1 });
		expect(rest.newTenderIds).toEqual(['next-day']);
		// In the walk's first part, what is open is the baseline, whatever its date.
		expect(poll({ listed: [{ ...later[1], openedDay: DAY0 + 1 }] }).newTenderIds).toEqual([]);
	});

	it('announces a new tender as soon as its page is read, and once', () => {
		const baseline = poll({ listed: listed('a', 'b', 'c') });
		const part = pollAfter(baseline, DAY0 + 1, listed('a', 'n1'), partOf('c-2'));
		expect(part.newTenderIds).toEqual(['n1']);
		// The same tender listed again later in the walk (its project moved) is not new again.
		const rest = pollAfter(part, DAY0 + 1, listed('n1', 'b', 'c', 'n2'), { pages: 1 });
		expect(rest.newTenderIds).toEqual(['n2']);
	});

	it('judges a tender gone only once the walk is complete, and never one an earlier part listed', () => {
		const old = DAY0 - RETENTION_DAYS - 5;
		const baseline = poll({ listed: listed('a', 'b', 'stale'), today: old });
		const fresh = pollAfter(baseline, DAY0, listed('a', 'b', 'stale'));
		// 'stale' unlisted since `old` would be forgotten by a complete walk that does not list it.
		const aged = { ...fresh.next, tenders: new Map(fresh.next.tenders) };
		aged.tenders.set('stale', { lastListedDay: old });
		const part = poll({ previous: aged, today: DAY0 + 1, listed: listed('a'), ...partOf('c-2') });
		expect(part.next.tenders.has('stale')).toBe(true);
		expect(part.next.tenders.has('b')).toBe(true);
		const last = pollAfter(part, DAY0 + 1, [], { pages: 1, projectCount: 0 });
		expect(last.walkComplete).toBe(true);
		// 'a' was listed by the walk's first part, 'b' by the walk before: both kept; 'stale' gone.
		expect([...last.next.tenders.keys()].sort()).toEqual(['a', 'b']);
	});

	it('announces a change of a known tender as its page is read', () => {
		const base = poll({ listed: listed('a', 'b'), event: 'newOrUpdatedTender' });
		const moved = listedWith('b', { quotesDueAt: '2025-07-01' });
		const part = pollAfter(base, DAY0 + 1, moved, { event: 'newOrUpdatedTender', ...partOf('x') });
		expect(part.updates).toEqual([
			{ id: 'b', changes: { quotesDueAt: { from: '2025-06-20', to: '2025-07-01' } } },
		]);
		const rest = pollAfter(part, DAY0 + 1, moved, { event: 'newOrUpdatedTender' });
		expect(rest.updates).toEqual([]);
	});

	it('starts a new walk, from the first page, when the filters change mid-walk', () => {
		const part = poll({ listed: listed('a'), ...partOf('c-2') });
		const other = pollAfter(part, DAY0, listed('a', 'b'), { scope: 'scope-b' });
		expect(other).toMatchObject({ firstRun: true, next: { projectCount: 1 } });
		expect(other.next.walk).toBeUndefined();
	});

	it('reminds of a tender inside the due-date window as its page is read, once', () => {
		const due = [dueTender('r', '2024-10-04')];
		const part = pollDueAfter(pollDue('2024-10-04', []), '2024-10-04', due, partOf('c-2'));
		expect(part.reminders).toEqual([reminder('r', '2024-10-04', 0)]);
		expect(pollDueAfter(part, '2024-10-04', due).reminders).toEqual([]);
	});

	it('stores the walk under way, the baseline mark, the write count and the last complete walk', () => {
		const part = poll({ listed: listed('a'), ...partOf('cursor/with?odd=chars') });
		const state: TriggerState = { ...part.next, seq: 7, completedAt: 1_700_000_000_000 };
		expect(reloaded(state)).toEqual(state);
	});
});

describe('daysLeftInWindow', () => {
	const window = (today: string, days = 3) => ({ today: day(today), days });
	const open = (quotesDueAt: string | null) => ({ quotesDueAt, status: 'Open' });

	it.each([
		['across a month end', '2025-01-30', '2025-02-02', 3],
		['across a year end', '2025-12-30', '2026-01-01', 2],
		['into a leap day', '2024-02-27', '2024-02-29', 2],
		['across a leap day', '2024-02-28', '2024-03-02', 3],
		['across February in a common year', '2025-02-27', '2025-03-02', 3],
		['on the day quotes close', '2025-04-30', '2025-04-30', 0],
		['in 2100, a common year', '2100-02-28', '2100-03-01', 1],
		['to the last day of the window', '2025-02-28', '2025-03-03', 3],
		['with 0 days, to today', '2025-03-01', '2025-03-01', 0, 0],
	])('counts calendar days %s', (_case, today, due, left, days = 3) => {
		expect(daysLeftInWindow(open(due), window(today, days))).toBe(left);
	});

	it.each([
		['29 February 2100, which does not exist', '2100-02-28', '2100-02-29'],
		['30 February', '2025-02-28', '2025-02-30'],
		['a date not written as YYYY-MM-DD', '2025-03-03', '4 March 2025'],
		['a date beyond the window', '2025-02-28', '2025-03-04'],
		['a past date', '2025-02-28', '2025-02-27'],
		['no date', '2025-02-28', null],
		['with 0 days, tomorrow', '2025-03-01', '2025-03-02', 0],
	])('leaves out %s', (_case, today, due, days = 3) => {
		expect(daysLeftInWindow(open(due), window(today, days))).toBeUndefined();
	});
});

describe('the window in the workflow time zone', () => {
	// 20:00 UTC on 28 February 2025: already 1 March in Auckland (UTC+13), still 28 February in
	// Los Angeles (UTC-8).
	const instant = new Date('2025-02-28T20:00:00Z');

	it.each([
		['Pacific/Auckland', '2025-03-01', 0],
		['UTC', '2025-02-28', undefined],
		['America/Los_Angeles', '2025-02-28', undefined],
	])('in %s today is %s', (zone, today, daysLeftForFirstOfMarch) => {
		expect(todayIn(zone, instant)).toBe(today);
		const window = dueSoonWindow(todayIn(zone, instant), 0);
		expect(daysLeftInWindow({ quotesDueAt: '2025-03-01', status: 'Open' }, window)).toBe(
			daysLeftForFirstOfMarch,
		);
	});

	it('counts days left from the workflow day, not the UTC day, west of UTC', () => {
		// 03:00 UTC on 1 March is still 28 February in Los Angeles: due 3 March is 3 days away there.
		const early = new Date('2025-03-01T03:00:00Z');
		const diff = pollDue('2025-03-01', [dueTender('a', '2025-03-03')], {
			previous: pollDue('2025-02-27', []).next,
			calendarDate: todayIn('America/Los_Angeles', early),
		});
		expect(diff.reminders).toEqual([reminder('a', '2025-03-03', 3)]);
	});
});

describe('diffPoll: quotesDueSoon', () => {
	it('announces nothing on activation and remembers only the tenders already inside the window', () => {
		const first = pollDue('2025-03-10', [
			dueTender('inside', '2025-03-12'),
			dueTender('later', '2025-03-30'),
			dueTender('undated', null),
		]);
		expect(first).toMatchObject({ firstRun: true, reminders: [], next: { reminders: true } });
		expect([...first.next.tenders.keys()]).toEqual(['inside']);
		// Inside the window at activation: never announced for that date.
		const next = pollDueAfter(first, '2025-03-11', [dueTender('inside', '2025-03-12')]);
		expect(next.reminders).toEqual([]);
	});

	it('announces the tenders inside the window on the first run when asked to, once', () => {
		const open = [dueTender('a', '2025-03-10'), dueTender('b', '2025-03-20')];
		const first = pollDue('2025-03-10', open, { emitOpenOnFirstRun: true });
		expect(first.reminders).toEqual([reminder('a', '2025-03-10', 0)]);
		const again = pollDueAfter(first, '2025-03-10', open, { emitOpenOnFirstRun: true });
		expect(again.reminders).toEqual([]);
	});

	it('announces a tender once, on the day it comes within the days set, across a month end', () => {
		let state = pollDue('2025-01-27', [dueTender('a', '2025-02-02')]).next;
		const daysLeft: number[][] = [];
		for (const date of ['2025-01-28', '2025-01-29', '2025-01-30', '2025-01-31', '2025-02-01']) {
			const diff = pollDue(date, [dueTender('a', '2025-02-02')], { previous: state });
			daysLeft.push(diff.reminders.map((reminder) => reminder.daysLeft));
			state = diff.next;
		}
		// Only on 30 January, three days before.
		expect(daysLeft).toEqual([[], [], [3], [], []]);
	});

	it('never announces a tender without a due date, past due, or closed before its reminder', () => {
		const first = pollDue('2025-03-10', []);
		const diff = pollDueAfter(first, '2025-03-10', [
			dueTender('undated', null),
			dueTender('past', '2025-03-09'),
			dueTender('closed', '2025-03-11', 'Closed'),
			dueTender('awarded', '2025-03-11', 'Awarded'),
		]);
		expect(diff.reminders).toEqual([]);
		expect(diff.next.tenders.size).toBe(0);
	});

	it('does not announce a tender that left the listing before its reminder, nor on the day it would have come', () => {
		const first = pollDue('2025-03-10', [dueTender('a', '2025-03-20')]);
		const gone = pollDueAfter(first, '2025-03-17', []);
		expect(gone.reminders).toEqual([]);
	});

	it('announces again when the date moves later and comes inside the window, with the previous date', () => {
		const first = pollDue('2025-03-10', []);
		const reminded = pollDueAfter(first, '2025-03-10', [dueTender('a', '2025-03-12')]);
		expect(reminded.reminders).toEqual([reminder('a', '2025-03-12', 2)]);
		// Moved a month later: nothing until it is within three days of the new date.
		const april = [dueTender('a', '2025-04-12')];
		const moved = pollDueAfter(reminded, '2025-03-11', april);
		expect(moved.reminders).toEqual([]);
		const stillFar = pollDueAfter(moved, '2025-04-08', april);
		expect(stillFar.reminders).toEqual([]);
		const again = pollDueAfter(stillFar, '2025-04-09', april);
		expect(again.reminders).toEqual([reminder('a', '2025-04-12', 3, '2025-03-12')]);
		expect(pollDueAfter(again, '2025-04-10', april).reminders).toEqual([]);
	});

	it('announces each due date once when the date moves back and forth', () => {
		const dates = [
			['2025-03-10', '2025-03-12'], // inside: announced
			['2025-03-10', '2025-03-13'], // moved a day later, still inside: a new date, announced
			['2025-03-10', '2025-03-12'], // back: already announced for this date
			['2025-03-10', '2025-03-20'], // far: nothing
			['2025-03-11', '2025-03-13'], // back again: already announced for this date
			['2025-03-17', '2025-03-20'], // the far date comes inside: announced
			['2025-03-17', '2025-03-20'],
		] as const;
		let state = pollDue('2025-03-09', []).next;
		const seen: Array<[string, string | null] | null> = [];
		for (const [today, due] of dates) {
			const diff = pollDue(today, [dueTender('a', due)], { previous: reloaded(state) });
			const [reminder] = diff.reminders;
			seen.push(reminder ? [reminder.quotesDueAt, reminder.previousQuotesDueAt] : null);
			state = diff.next;
		}
		expect(seen).toEqual([
			['2025-03-12', null],
			['2025-03-13', '2025-03-12'],
			null,
			null,
			null,
			['2025-03-20', '2025-03-13'],
			null,
		]);
	});

	it('forgets due dates that have passed in every time zone, keeping the last for the next reminder', () => {
		const first = pollDue('2025-03-01', []);
		let state = pollDueAfter(first, '2025-03-01', [dueTender('a', '2025-03-02')]).next;
		state = pollDue('2025-03-01', [dueTender('a', '2025-03-03')], { previous: state }).next;
		state = pollDue('2025-03-01', [dueTender('a', '2025-03-04')], { previous: state }).next;
		expect(state.tenders.get('a')?.dueDays).toEqual([
			day('2025-03-02'),
			day('2025-03-03'),
			day('2025-03-04'),
		]);
		// Moved out; on 5 March (UTC) 2 and 3 March are past everywhere, 4 March may still be today
		// east of UTC (and is the last date anyway).
		const movedOut = [dueTender('a', '2025-04-30')];
		state = pollDue('2025-03-05', movedOut, { previous: state }).next;
		expect(state.tenders.get('a')?.dueDays).toEqual([day('2025-03-04')]);
		const again = pollDue('2025-04-28', movedOut, { previous: reloaded(state) });
		expect(again.reminders).toEqual([reminder('a', '2025-04-30', 2, '2025-03-04')]);
	});

	it(`forgets an unlisted tender after ${RETENTION_DAYS} days unless a date it was reminded of is still ahead`, () => {
		const first = pollDue('2025-01-01', []);
		const wide = { days: 200 };
		const both = [dueTender('a', '2025-01-03'), dueTender('far', '2025-06-30')];
		const reminded = pollDueAfter(first, '2025-01-01', both, wide);
		expect(reminded.reminders.map((reminder) => reminder.id)).toEqual(['a', 'far']);
		const kept = pollDueAfter(reminded, '2025-04-01', [], wide);
		expect([...kept.next.tenders.keys()]).toEqual(['a', 'far']);
		const later = pollDueAfter(kept, '2025-04-02', [], wide);
		expect([...later.next.tenders.keys()]).toEqual(['far']);
		const back = pollDueAfter(later, '2025-06-01', [dueTender('far', '2025-06-30')], wide);
		expect(back.reminders).toEqual([]);
	});

	it('keeps at most the cap of unlisted tenders', () => {
		const ids = Array.from({ length: MAX_TRACKED_TENDERS + 3 }, (_, index) => `t-${index}`);
		const first = pollDue('2025-03-10', allDue(ids, '2025-03-11'));
		expect(first.next.tenders.size).toBe(ids.length);
		const gone = pollDueAfter(first, '2025-03-11', []);
		expect(gone.next.tenders.size).toBe(MAX_TRACKED_TENDERS);
	});

	it('starts a new baseline when switched from or to the new-tender events', () => {
		const [a, b] = [dueTender('a', '2025-03-11'), dueTender('b', '2025-03-11')];
		const newTender = pollDue('2025-03-10', [a], { event: 'newTender' });
		const switched = pollDueAfter(newTender, '2025-03-10', [a, b]);
		expect(switched).toMatchObject({ firstRun: true, reminders: [] });
		const back = pollDue('2025-03-10', [a, b, dueTender('c', null)], {
			...fromStorage(switched.next),
			event: 'newTender',
		});
		expect(back).toMatchObject({ firstRun: true, newTenderIds: [] });
		expect(back.next.reminders).toBeUndefined();
		expect([...back.next.tenders.values()].every((tracked) => !tracked.dueDays)).toBe(true);
	});

	it('takes a new baseline when the filters change, without announcing again what it announced', () => {
		const first = pollDue('2025-03-10', []);
		const reminded = pollDueAfter(first, '2025-03-10', [dueTender('a', '2025-03-12')]);
		const both = [dueTender('a', '2025-03-12'), dueTender('b', '2025-03-13')];
		const changed = pollDueAfter(reminded, '2025-03-11', both, { scope: 'scope-b' });
		expect(changed).toMatchObject({ firstRun: true, reminders: [] });
		const later = pollDueAfter(changed, '2025-03-12', both, { scope: 'scope-b' });
		expect(later.reminders).toEqual([]);
	});

	it('announces once across restarts whether or not the polls in between were saved', () => {
		// Activation on 10 March: saved. Polls until 20 March emit nothing: never saved.
		const due = [dueTender('a', '2025-03-25')];
		const activation = pollDue('2025-03-10', due);
		let memory = activation.next;
		for (let date = 11; date <= 20; date++) {
			const diff = pollDue(`2025-03-${date}`, due, { previous: memory });
			expect(diff.reminders).toEqual([]);
			memory = diff.next;
		}
		// The reminder poll on 22 March emits, and n8n saves its state before the execution runs.
		const reminded = pollDue('2025-03-22', due, fromStorage(activation.next));
		expect(reminded.reminders).toEqual([reminder('a', '2025-03-25', 3)]);
		expect(pollDue('2025-03-23', due, fromStorage(reminded.next)).reminders).toEqual([]);
		// Had n8n crashed before saving, the saved activation state announces it again: never lost.
		const fromActivation = pollDue('2025-03-23', due, fromStorage(activation.next));
		expect(fromActivation.reminders).toEqual([reminder('a', '2025-03-25', 2)]);
	});
});

describe('state of quotesDueSoon', () => {
	it('reads back what it wrote, due days relative to the state day', () => {
		const first = pollDue('2025-03-10', []);
		const diff = pollDueAfter(first, '2025-03-10', [dueTender('a', '2025-03-12')]);
		const moved = pollDueAfter(diff, '2025-03-11', [dueTender('a', '2025-03-13')]);
		expect(writeTriggerState(moved.next)).toEqual({
			v: 3,
			s: SCOPE,
			d: day('2025-03-11'),
			n: 1,
			r: 1,
			t: { a: [0, 1, 2] },
		});
		expect(reloaded(moved.next)).toEqual(moved.next);
	});

	it('fits 64 bytes per tender with 36-character ids and a moved date', () => {
		const ids = Array.from(
			{ length: 1000 },
			(_, index) => `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
		);
		const first = pollDue('2025-03-10', allDue(ids, '2025-03-12'));
		const moved = pollDueAfter(first, '2025-03-11', allDue(ids, '2025-03-14'));
		expect(moved.reminders).toHaveLength(ids.length);
		const bytes = Buffer.byteLength(JSON.stringify(writeTriggerState(moved.next)), 'utf8');
		expect(bytes / ids.length).toBeLessThanOrEqual(64);
	});
});
