import { isoDateToDay, todayIn } from '../../nodes/SupplierMatchedProjects/projects/dates';
import {
	daysLeftInWindow,
	diffPoll,
	type ListedTender,
	type PollDiff,
	type PollDiffInput,
} from '../../nodes/SupplierMatchedProjects/trigger/diff';
import type { TriggerParameters } from '../../nodes/SupplierMatchedProjects/parameters/trigger';
import { dueSoonWindow } from '../../nodes/SupplierMatchedProjects/trigger/poll';
import {
	MAX_TRACKED_TENDERS,
	RETENTION_DAYS,
	readTriggerState,
	writeTriggerState,
} from '../../nodes/SupplierMatchedProjects/trigger/state';
import { reloaded } from '../support/n8n-fixtures';

const SCOPE = 'scope-a';

function day(date: string): number {
	const parsed = isoDateToDay(date);
	if (parsed === undefined) throw new Error(`not a date: ${date}`);
	return parsed;
}

function tender(id: string, quotesDueAt: string | null, status = 'Open'): ListedTender {
	return {
		id,
		snapshot: { quotesDueAt, status, name: 'Roofing', type: 'Tender', builder: 'Bluegum Builders' },
	};
}

/** One quotesDueSoon poll on `date` (UTC day and workflow day alike unless `calendarDate` is given). */
function poll(
	date: string,
	listed: ListedTender[],
	overrides: Partial<PollDiffInput> & { days?: number; calendarDate?: string } = {},
): PollDiff {
	const { days = 3, calendarDate = date, ...rest } = overrides;
	return diffPoll({
		previous: undefined,
		scope: SCOPE,
		today: day(date),
		loadedFromStorage: false,
		listed,
		projectCount: 1,
		event: 'quotesDueSoon',
		dueSoon: { today: day(calendarDate), days },
		emitOpenOnFirstRun: false,
		...rest,
	});
}

function announced(diff: PollDiff) {
	return diff.reminders.map(({ id, quotesDueAt, daysLeft, previousQuotesDueAt }) => ({
		id,
		quotesDueAt,
		daysLeft,
		previousQuotesDueAt,
	}));
}

/** A reminder as `announced` lists it. */
function reminder(
	id: string,
	quotesDueAt: string,
	daysLeft: number,
	previousQuotesDueAt = null as string | null,
) {
	return { id, quotesDueAt, daysLeft, previousQuotesDueAt };
}

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
	])('counts calendar days %s', (_case, today, due, left) => {
		expect(daysLeftInWindow(open(due), window(today))).toBe(left);
	});

	it('takes 2100 as a common year (no 29 February) and rejects dates that do not exist', () => {
		expect(daysLeftInWindow(open('2100-03-01'), window('2100-02-28'))).toBe(1);
		expect(daysLeftInWindow(open('2100-02-29'), window('2100-02-28'))).toBeUndefined();
		expect(daysLeftInWindow(open('2025-02-30'), window('2025-02-28'))).toBeUndefined();
		expect(daysLeftInWindow(open('4 March 2025'), window('2025-03-03'))).toBeUndefined();
	});

	it('leaves out a date beyond the window, a past date, no date and a tender not open', () => {
		expect(daysLeftInWindow(open('2025-03-04'), window('2025-02-28', 3))).toBeUndefined();
		expect(daysLeftInWindow(open('2025-03-03'), window('2025-02-28', 3))).toBe(3);
		expect(daysLeftInWindow(open('2025-02-27'), window('2025-02-28'))).toBeUndefined();
		expect(daysLeftInWindow(open(null), window('2025-02-28'))).toBeUndefined();
		for (const status of ['Closed', 'Awarded']) {
			expect(
				daysLeftInWindow({ quotesDueAt: '2025-03-01', status }, window('2025-02-28')),
			).toBeUndefined();
		}
	});

	it('with 0 days takes only the tenders due today', () => {
		expect(daysLeftInWindow(open('2025-03-01'), window('2025-03-01', 0))).toBe(0);
		expect(daysLeftInWindow(open('2025-03-02'), window('2025-03-01', 0))).toBeUndefined();
	});
});

describe('the window in the workflow time zone', () => {
	const parameters = { daysBeforeQuotesDue: 0 } as TriggerParameters;
	// 20:00 UTC on 28 February 2025: already 1 March in Auckland (UTC+13), still 28 February in
	// Los Angeles (UTC-8).
	const instant = new Date('2025-02-28T20:00:00Z');

	it.each([
		['Pacific/Auckland', '2025-03-01', 0],
		['UTC', '2025-02-28', undefined],
		['America/Los_Angeles', '2025-02-28', undefined],
	])('in %s today is %s', (zone, today, daysLeftForFirstOfMarch) => {
		expect(todayIn(zone, instant)).toBe(today);
		const window = dueSoonWindow(parameters, todayIn(zone, instant));
		expect(daysLeftInWindow({ quotesDueAt: '2025-03-01', status: 'Open' }, window)).toBe(
			daysLeftForFirstOfMarch,
		);
	});

	it('counts days left from the workflow day, not the UTC day, west of UTC', () => {
		// 03:00 UTC on 1 March is still 28 February in Los Angeles: due 3 March is 3 days away there.
		const early = new Date('2025-03-01T03:00:00Z');
		const window = dueSoonWindow(
			{ daysBeforeQuotesDue: 3 } as TriggerParameters,
			todayIn('America/Los_Angeles', early),
		);
		expect(daysLeftInWindow({ quotesDueAt: '2025-03-03', status: 'Open' }, window)).toBe(3);
		const diff = poll('2025-03-01', [tender('a', '2025-03-03')], {
			previous: poll('2025-02-27', []).next,
			calendarDate: todayIn('America/Los_Angeles', early),
		});
		expect(announced(diff)).toEqual([reminder('a', '2025-03-03', 3)]);
	});
});

describe('diffPoll: quotesDueSoon', () => {
	it('announces nothing on activation and remembers only the tenders already inside the window', () => {
		const first = poll('2025-03-10', [
			tender('inside', '2025-03-12'),
			tender('later', '2025-03-30'),
			tender('undated', null),
		]);
		expect(first.firstRun).toBe(true);
		expect(first.reminders).toEqual([]);
		expect([...first.next.tenders.keys()]).toEqual(['inside']);
		expect(first.next.reminders).toBe(true);
		// Inside the window at activation: never announced for that date.
		const next = poll('2025-03-11', [tender('inside', '2025-03-12')], { previous: first.next });
		expect(next.reminders).toEqual([]);
	});

	it('announces the tenders inside the window on the first run when asked to, once', () => {
		const first = poll('2025-03-10', [tender('a', '2025-03-10'), tender('b', '2025-03-20')], {
			emitOpenOnFirstRun: true,
		});
		expect(announced(first)).toEqual([reminder('a', '2025-03-10', 0)]);
		const again = poll('2025-03-10', [tender('a', '2025-03-10'), tender('b', '2025-03-20')], {
			previous: first.next,
			emitOpenOnFirstRun: true,
		});
		expect(again.reminders).toEqual([]);
	});

	it('announces a tender once, on the day it comes within the days set, across a month end', () => {
		let state = poll('2025-01-27', [tender('a', '2025-02-02')]).next;
		const days: Array<[string, number[]]> = [];
		for (const date of ['2025-01-28', '2025-01-29', '2025-01-30', '2025-01-31', '2025-02-01']) {
			const diff = poll(date, [tender('a', '2025-02-02')], { previous: state });
			days.push([date, diff.reminders.map((reminder) => reminder.daysLeft)]);
			state = diff.next;
		}
		expect(days).toEqual([
			['2025-01-28', []],
			['2025-01-29', []],
			['2025-01-30', [3]],
			['2025-01-31', []],
			['2025-02-01', []],
		]);
	});

	it('announces on a leap day with 0 days set, and not the day before', () => {
		const start = poll('2024-02-27', [tender('a', '2024-02-29')], { days: 0 });
		const before = poll('2024-02-28', [tender('a', '2024-02-29')], {
			previous: start.next,
			days: 0,
		});
		expect(before.reminders).toEqual([]);
		const onTheDay = poll('2024-02-29', [tender('a', '2024-02-29')], {
			previous: before.next,
			days: 0,
		});
		expect(announced(onTheDay)).toEqual([reminder('a', '2024-02-29', 0)]);
	});

	it('announces a tender first listed after activation already inside the window, once', () => {
		const first = poll('2025-03-10', []);
		const listed = poll('2025-03-10', [tender('n', '2025-03-11')], { previous: first.next });
		expect(announced(listed)).toEqual([reminder('n', '2025-03-11', 1)]);
		expect(
			poll('2025-03-11', [tender('n', '2025-03-11')], { previous: listed.next }).reminders,
		).toEqual([]);
	});

	it('never announces a tender without a due date, past due, or closed before its reminder', () => {
		const first = poll('2025-03-10', []);
		const diff = poll(
			'2025-03-10',
			[
				tender('undated', null),
				tender('past', '2025-03-09'),
				tender('closed', '2025-03-11', 'Closed'),
				tender('awarded', '2025-03-11', 'Awarded'),
			],
			{ previous: first.next },
		);
		expect(diff.reminders).toEqual([]);
		expect(diff.next.tenders.size).toBe(0);
	});

	it('does not announce a tender that left the listing before its reminder, nor on the day it would have come', () => {
		const first = poll('2025-03-10', [tender('a', '2025-03-20')]);
		const gone = poll('2025-03-17', [], { previous: first.next });
		expect(gone.reminders).toEqual([]);
	});

	it('announces again when the date moves later and comes inside the window, with the previous date', () => {
		const first = poll('2025-03-10', []);
		const reminded = poll('2025-03-10', [tender('a', '2025-03-12')], { previous: first.next });
		expect(reminded.reminders).toHaveLength(1);
		// Moved a month later: nothing until it is within three days of the new date.
		const moved = poll('2025-03-11', [tender('a', '2025-04-12')], { previous: reminded.next });
		expect(moved.reminders).toEqual([]);
		const stillFar = poll('2025-04-08', [tender('a', '2025-04-12')], { previous: moved.next });
		expect(stillFar.reminders).toEqual([]);
		const again = poll('2025-04-09', [tender('a', '2025-04-12')], { previous: stillFar.next });
		expect(announced(again)).toEqual([reminder('a', '2025-04-12', 3, '2025-03-12')]);
		expect(
			poll('2025-04-10', [tender('a', '2025-04-12')], { previous: again.next }).reminders,
		).toEqual([]);
	});

	it('announces a date moved earlier into the window once', () => {
		const first = poll('2025-03-10', [tender('a', '2025-03-25')]);
		const earlier = poll('2025-03-11', [tender('a', '2025-03-13')], { previous: first.next });
		expect(announced(earlier)).toEqual([reminder('a', '2025-03-13', 2)]);
		const next = poll('2025-03-12', [tender('a', '2025-03-13')], { previous: earlier.next });
		expect(next.reminders).toEqual([]);
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
		let state = poll('2025-03-09', []).next;
		const seen: Array<[string, string | null] | null> = [];
		for (const [today, due] of dates) {
			const diff = poll(today, [tender('a', due)], { previous: reloaded(state) });
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

	it('does not announce again a tender that left the listing and came back with the same date', () => {
		const first = poll('2025-03-10', []);
		const reminded = poll('2025-03-10', [tender('a', '2025-03-13')], { previous: first.next });
		const gone = poll('2025-03-11', [], { previous: reminded.next });
		expect(gone.next.tenders.has('a')).toBe(true);
		const back = poll('2025-03-12', [tender('a', '2025-03-13')], { previous: reloaded(gone.next) });
		expect(back.reminders).toEqual([]);
	});

	it('forgets due dates that have passed in every time zone, keeping the last for the next reminder', () => {
		const first = poll('2025-03-01', []);
		let state = poll('2025-03-01', [tender('a', '2025-03-02')], { previous: first.next }).next;
		state = poll('2025-03-01', [tender('a', '2025-03-03')], { previous: state }).next;
		state = poll('2025-03-01', [tender('a', '2025-03-04')], { previous: state }).next;
		expect(state.tenders.get('a')?.dueDays).toEqual([
			day('2025-03-02'),
			day('2025-03-03'),
			day('2025-03-04'),
		]);
		// Moved out; on 5 March (UTC) 2 and 3 March are past everywhere, 4 March may still be today
		// east of UTC (and is the last date anyway).
		state = poll('2025-03-05', [tender('a', '2025-04-30')], { previous: state }).next;
		expect(state.tenders.get('a')?.dueDays).toEqual([day('2025-03-04')]);
		const again = poll('2025-04-28', [tender('a', '2025-04-30')], { previous: reloaded(state) });
		expect(announced(again)).toEqual([reminder('a', '2025-04-30', 2, '2025-03-04')]);
	});

	it(`forgets an unlisted tender after ${RETENTION_DAYS} days unless a date it was reminded of is still ahead`, () => {
		const first = poll('2025-01-01', []);
		const reminded = poll('2025-01-01', [tender('a', '2025-01-03'), tender('far', '2025-06-30')], {
			previous: first.next,
			days: 200,
		});
		expect(reminded.reminders.map((reminder) => reminder.id)).toEqual(['a', 'far']);
		const kept = poll('2025-04-01', [], { previous: reminded.next, days: 200 });
		expect([...kept.next.tenders.keys()]).toEqual(['a', 'far']);
		const later = poll('2025-04-02', [], { previous: kept.next, days: 200 });
		expect([...later.next.tenders.keys()]).toEqual(['far']);
		const back = poll('2025-06-01', [tender('far', '2025-06-30')], {
			previous: later.next,
			days: 200,
		});
		expect(back.reminders).toEqual([]);
	});

	it('keeps at most the cap of unlisted tenders', () => {
		const ids = Array.from({ length: MAX_TRACKED_TENDERS + 3 }, (_, index) => `t-${index}`);
		const first = poll(
			'2025-03-10',
			ids.map((id) => tender(id, '2025-03-11')),
		);
		expect(first.next.tenders.size).toBe(ids.length);
		const gone = poll('2025-03-11', [], { previous: first.next });
		expect(gone.next.tenders.size).toBe(MAX_TRACKED_TENDERS);
	});

	it('starts a new baseline when switched from or to the new-tender events', () => {
		const newTender = poll('2025-03-10', [tender('a', '2025-03-11')], { event: 'newTender' });
		const switched = poll('2025-03-10', [tender('a', '2025-03-11'), tender('b', '2025-03-11')], {
			previous: newTender.next,
		});
		expect(switched.firstRun).toBe(true);
		expect(switched.reminders).toEqual([]);
		const listed = [tender('a', '2025-03-11'), tender('b', '2025-03-11'), tender('c', null)];
		const back = poll('2025-03-10', listed, {
			previous: reloaded(switched.next),
			loadedFromStorage: true,
			event: 'newTender',
		});
		expect(back.firstRun).toBe(true);
		expect(back.newTenderIds).toEqual([]);
		expect(back.next.reminders).toBeUndefined();
		expect([...back.next.tenders.values()].every((tracked) => !tracked.dueDays)).toBe(true);
	});

	it('takes a new baseline when the filters change, without announcing again what it announced', () => {
		const first = poll('2025-03-10', []);
		const reminded = poll('2025-03-10', [tender('a', '2025-03-12')], { previous: first.next });
		const changed = poll('2025-03-11', [tender('a', '2025-03-12'), tender('b', '2025-03-13')], {
			previous: reminded.next,
			scope: 'scope-b',
		});
		expect(changed.firstRun).toBe(true);
		expect(changed.reminders).toEqual([]);
		const later = poll('2025-03-12', [tender('a', '2025-03-12'), tender('b', '2025-03-13')], {
			previous: changed.next,
			scope: 'scope-b',
		});
		expect(later.reminders).toEqual([]);
	});

	it('announces a tender listed twice in one walk once', () => {
		const first = poll('2025-03-10', []);
		const diff = poll('2025-03-10', [tender('a', '2025-03-11'), tender('a', '2025-03-11')], {
			previous: first.next,
		});
		expect(diff.reminders).toHaveLength(1);
	});
});

describe('diffPoll: quotesDueSoon across restarts (only saved state survives)', () => {
	it('announces once whether or not the polls in between were saved', () => {
		// Activation on 10 March: saved. Polls until 20 March emit nothing: never saved.
		const activation = poll('2025-03-10', [tender('a', '2025-03-25')]);
		const saved = reloaded(activation.next);
		let memory = activation.next;
		for (let date = 11; date <= 20; date++) {
			const diff = poll(`2025-03-${date}`, [tender('a', '2025-03-25')], { previous: memory });
			expect(diff.reminders).toEqual([]);
			memory = diff.next;
		}
		// The reminder poll on 22 March emits, and n8n saves its state before the execution runs.
		const reminded = poll('2025-03-22', [tender('a', '2025-03-25')], {
			previous: reloaded(saved),
			loadedFromStorage: true,
		});
		expect(reminded.reminders).toHaveLength(1);
		const afterRestart = poll('2025-03-23', [tender('a', '2025-03-25')], {
			previous: reloaded(reminded.next),
			loadedFromStorage: true,
		});
		expect(afterRestart.reminders).toEqual([]);
		// Had n8n crashed before saving, the saved activation state announces it again: never lost.
		const fromActivation = poll('2025-03-23', [tender('a', '2025-03-25')], {
			previous: saved,
			loadedFromStorage: true,
		});
		expect(fromActivation.reminders).toHaveLength(1);
	});
});

describe('state of quotesDueSoon', () => {
	it('reads back what it wrote, due days relative to the state day', () => {
		const first = poll('2025-03-10', []);
		const diff = poll('2025-03-10', [tender('a', '2025-03-12')], { previous: first.next });
		const moved = poll('2025-03-11', [tender('a', '2025-03-13')], { previous: diff.next });
		const written = writeTriggerState(moved.next);
		expect(written).toEqual({
			v: 3,
			s: SCOPE,
			d: day('2025-03-11'),
			n: 1,
			r: 1,
			t: { a: [0, 1, 2] },
		});
		expect(reloaded(moved.next)).toEqual(moved.next);
	});

	it.each([
		['a bare age', { a: 0 }],
		['an age without a date', { a: [0] }],
		['a date that is not a whole number', { a: [0, 1.5] }],
		['a date beyond what a Date can hold', { a: [0, 1e12] }],
	])('reports %s as unreadable instead of throwing', (_case, t) => {
		expect(readTriggerState({ v: 3, s: SCOPE, d: 20_000, n: 1, r: 1, t })).toEqual({
			kind: 'unreadable',
			reason: 'its entry for tender a is malformed',
		});
	});

	it('reports a reminders mark other than 1 as unreadable', () => {
		expect(readTriggerState({ v: 3, s: SCOPE, d: 20_000, n: 1, r: true, t: {} })).toEqual({
			kind: 'unreadable',
			reason: 'its reminders mark is not 1',
		});
	});

	it('fits 64 bytes per tender with 36-character ids and a moved date', () => {
		const ids = Array.from(
			{ length: 1000 },
			(_, index) => `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
		);
		const first = poll(
			'2025-03-10',
			ids.map((id) => tender(id, '2025-03-12')),
		);
		const moved = poll(
			'2025-03-11',
			ids.map((id) => tender(id, '2025-03-14')),
			{ previous: first.next },
		);
		expect(moved.reminders).toHaveLength(ids.length);
		const bytes = Buffer.byteLength(JSON.stringify(writeTriggerState(moved.next)), 'utf8');
		expect(bytes / ids.length).toBeLessThanOrEqual(64);
	});
});
