import {
	diffPoll,
	type ListedTender,
	type PollDiff,
	type PollDiffInput,
} from '../../nodes/SupplierMatchedProjects/trigger/diff';
import {
	MAX_TRACKED_TENDERS,
	RETENTION_DAYS,
	writeTriggerState,
	type TenderSnapshot,
	type TriggerState,
} from '../../nodes/SupplierMatchedProjects/trigger/state';
import { reloaded } from '../support/n8n-fixtures';

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

/** The poll after `before`, on `today`, listing these. */
function pollAfter(
	before: PollDiff,
	today: number,
	tenders: ListedTender[],
	overrides: Partial<PollDiffInput> = {},
): PollDiff {
	return poll({ previous: before.next, today, listed: tenders, ...overrides });
}

describe('diffPoll: first run and new tenders', () => {
	it('takes what is open on the first run as the baseline and announces nothing', () => {
		const result = poll({ listed: listed('a', 'b'), projectCount: 2 });
		expect(result.firstRun).toBe(true);
		expect(result.newTenderIds).toEqual([]);
		expect([...result.next.tenders.keys()]).toEqual(['a', 'b']);
		expect(result.next).toMatchObject({ scope: SCOPE, day: DAY0, projectCount: 2 });
	});

	it('announces what is open on the first run when asked to', () => {
		const result = poll({ listed: listed('a', 'b'), emitOpenOnFirstRun: true });
		expect(result.firstRun).toBe(true);
		expect(result.newTenderIds).toEqual(['a', 'b']);
	});

	it('announces only the tenders it has not seen, in walk order', () => {
		const first = poll({ listed: listed('a', 'b') });
		const second = pollAfter(first, DAY0 + 1, listed('c', 'a', 'd', 'b'));
		expect(second.firstRun).toBe(false);
		expect(second.newTenderIds).toEqual(['c', 'd']);
		const third = pollAfter(second, DAY0 + 2, listed('a', 'b', 'c', 'd'));
		expect(third.newTenderIds).toEqual([]);
	});

	it('announces a tender listed twice in one walk (several builders) once', () => {
		const first = poll({ listed: listed('a') });
		const second = pollAfter(first, DAY0, [
			{ id: 'b', snapshot: snapshot({ builder: 'Tōtara Projects' }) },
			{ id: 'b', snapshot: snapshot({ builder: 'Kōwhai Construction Ltd' }) },
		]);
		expect(second.newTenderIds).toEqual(['b']);
		expect(second.next.tenders.size).toBe(2);
	});

	it('keeps the first listing of a repeated tender, also for its values', () => {
		const event = 'newOrUpdatedTender' as const;
		const first = poll({ event, listed: listed('a') });
		const second = pollAfter(
			first,
			DAY0,
			[
				{ id: 'b', snapshot: snapshot({ builder: 'Tōtara Projects' }) },
				{ id: 'a', snapshot: snapshot() },
				{ id: 'b', snapshot: snapshot({ builder: 'Kōwhai Construction Ltd' }) },
				{ id: 'a', snapshot: snapshot({ status: 'Closed' }) },
			],
			{ event },
		);
		expect(second.newTenderIds).toEqual(['b']);
		expect(second.updates).toEqual([]);
		expect([...second.next.tenders.keys()]).toEqual(['b', 'a']);
		expect(second.next.tenders.get('b')?.snapshot?.builder).toBe('Tōtara Projects');
		expect(second.next.tenders.get('a')?.snapshot?.status).toBe('Open');
	});

	it('does not change the state it was given', () => {
		const first = poll({ listed: listed('a') });
		const before = JSON.stringify(writeTriggerState(first.next));
		pollAfter(first, DAY0 + 200, listed('b'));
		expect(JSON.stringify(writeTriggerState(first.next))).toBe(before);
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
		const second = pollAfter(first, DAY0, [{ id: 'a', snapshot: snapshot(change) }], { event });
		expect(second.updates).toEqual([
			{ id: 'a', changes: { [field]: { from: snapshot()[field], to: Object.values(change)[0] } } },
		]);
	});

	it('reports no updates and keeps no values for the newTender event', () => {
		const first = poll({ listed: listed('a') });
		const second = pollAfter(first, DAY0, [
			{ id: 'a', snapshot: snapshot({ quotesDueAt: '2025-07-01' }) },
		]);
		expect(second.updates).toEqual([]);
		expect(second.next.tenders.get('a')).toEqual({ lastListedDay: DAY0 });
	});

	it('starts keeping values when switched to newOrUpdatedTender without inventing updates', () => {
		const first = poll({ listed: listed('a') });
		const switched = pollAfter(first, DAY0, listed('a'), { event });
		expect(switched.updates).toEqual([]);
		const changed = pollAfter(
			switched,
			DAY0,
			[{ id: 'a', snapshot: snapshot({ status: 'Awarded' }) }],
			{ event },
		);
		expect(changed.updates).toEqual([
			{ id: 'a', changes: { status: { from: 'Open', to: 'Awarded' } } },
		]);
	});

	it('drops kept values of unlisted tenders when switched back to newTender', () => {
		const first = poll({ event, listed: listed('a', 'b') });
		const back = pollAfter(first, DAY0, listed('a'));
		expect(back.next.tenders.get('b')).toEqual({ lastListedDay: DAY0 });
	});
});

describe('diffPoll: leaving and coming back', () => {
	it('does not announce a tender again when it leaves the window and comes back', () => {
		const first = poll({ listed: listed('a', 'b') });
		const gone = pollAfter(first, DAY0 + 5, listed('a'));
		const back = pollAfter(gone, DAY0 + 40, listed('a', 'b'));
		expect(gone.newTenderIds).toEqual([]);
		expect(back.newTenderIds).toEqual([]);
	});

	it('reports the changed due date of a tender that comes back, once', () => {
		const event = 'newOrUpdatedTender' as const;
		const first = poll({ event, listed: listed('a') });
		const gone = pollAfter(first, DAY0 + 5, [], { event });
		const back = pollAfter(
			gone,
			DAY0 + 30,
			[{ id: 'a', snapshot: snapshot({ quotesDueAt: '2025-08-15' }) }],
			{ event },
		);
		expect(back.newTenderIds).toEqual([]);
		expect(back.updates).toEqual([
			{ id: 'a', changes: { quotesDueAt: { from: '2025-06-20', to: '2025-08-15' } } },
		]);
	});
});

describe('diffPoll: retention and cap', () => {
	it(`forgets a tender unlisted for more than ${RETENTION_DAYS} days, not before`, () => {
		const first = poll({ listed: listed('a', 'b') });
		const kept = pollAfter(first, DAY0 + RETENTION_DAYS, listed('a'));
		expect(kept.next.tenders.has('b')).toBe(true);
		const expired = pollAfter(kept, DAY0 + RETENTION_DAYS + 1, listed('a'));
		expect(expired.next.tenders.has('b')).toBe(false);
		expect(expired.next.tenders.get('a')).toEqual({ lastListedDay: DAY0 + RETENTION_DAYS + 1 });
	});

	it('announces a tender that comes back after it was forgotten', () => {
		const first = poll({ listed: listed('a') });
		const later = pollAfter(first, DAY0 + RETENTION_DAYS + 1, []);
		const back = pollAfter(later, DAY0 + RETENTION_DAYS + 2, listed('a'));
		expect(back.newTenderIds).toEqual(['a']);
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
		const unlisted = Array.from({ length: MAX_TRACKED_TENDERS + 7 }, (_, index) => [
			`old-${String(index).padStart(5, '0')}`,
			{ lastListedDay: DAY0 - 1 - (index % 30) },
		]) as Array<[string, { lastListedDay: number }]>;
		const previous: TriggerState = {
			scope: SCOPE,
			day: DAY0 - 1,
			projectCount: 20,
			tenders: new Map([
				...unlisted,
				...listedIds.map(
					(id) => [id, { lastListedDay: DAY0 - 1 }] as [string, { lastListedDay: number }],
				),
			]),
		};
		const result = poll({ previous, listed: listed(...listedIds) });
		expect(result.next.tenders.size).toBe(listedIds.length + MAX_TRACKED_TENDERS);
		expect(listedIds.every((id) => result.next.tenders.get(id)?.lastListedDay === DAY0)).toBe(true);
		// The seven dropped are the longest unlisted (last listed 30 days ago), lowest ids first.
		const dropped = unlisted.filter(([id]) => !result.next.tenders.has(id)).map(([id]) => id);
		expect(dropped).toEqual([
			'old-00029',
			'old-00059',
			'old-00089',
			'old-00119',
			'old-00149',
			'old-00179',
			'old-00209',
		]);
	});

	it('never drops a listed tender, even when more are listed than the cap', () => {
		const ids = Array.from({ length: MAX_TRACKED_TENDERS + 5 }, (_, index) => `t-${index}`);
		const first = poll({ listed: listed(...ids) });
		const second = pollAfter(first, DAY0 + 1, listed(...ids));
		expect(second.next.tenders.size).toBe(ids.length);
		expect(second.newTenderIds).toEqual([]);
	});
});

describe('diffPoll: scope', () => {
	it('takes a new baseline when company or filters change, without forgetting what it announced', () => {
		const first = poll({ listed: listed('a') });
		const changed = pollAfter(first, DAY0 + 1, listed('a', 'x', 'y'), { scope: 'scope-b' });
		expect(changed.firstRun).toBe(true);
		expect(changed.newTenderIds).toEqual([]);
		expect(changed.next.scope).toBe('scope-b');
		const withOption = pollAfter(first, DAY0, listed('a', 'x'), {
			scope: 'scope-b',
			emitOpenOnFirstRun: true,
		});
		expect(withOption.newTenderIds).toEqual(['x']);
	});
});

describe('diffPoll: restarts (only saved state survives)', () => {
	it('keeps a tender listed by unsaved polls from expiring early after a restart', () => {
		// Day 0: activation baseline, saved. Tender a stays listed until day 50 through polls that
		// emit nothing, so storage still says "last listed day 0". Restart on day 60.
		const activation = poll({ listed: listed('a', 'b') });
		const saved = reloaded(activation.next);
		let memory = activation.next;
		for (let day = 1; day <= 50; day++) {
			memory = poll({ previous: memory, today: DAY0 + day, listed: listed('a', 'b') }).next;
		}
		expect(memory.tenders.get('a')?.lastListedDay).toBe(DAY0 + 50);

		const afterRestart = poll({
			previous: saved,
			today: DAY0 + 60,
			loadedFromStorage: true,
			listed: listed('b'),
		});
		expect(afterRestart.next.loadedDay).toBe(DAY0 + 60);
		// Day 100: a would have expired by the stale "day 0"; it must still be remembered.
		const later = pollAfter(afterRestart, DAY0 + 100, listed('b'));
		expect(later.next.tenders.has('a')).toBe(true);
		const back = pollAfter(later, DAY0 + 101, listed('a', 'b'));
		expect(back.newTenderIds).toEqual([]);
		// Retention still applies, counted from the restart.
		const expired = pollAfter(later, DAY0 + 60 + RETENTION_DAYS + 1, listed('b'));
		expect(expired.next.tenders.has('a')).toBe(false);
	});

	it('announces a tender first seen by an unsaved poll after the restart, once', () => {
		const activation = poll({ listed: listed('a') });
		const saved = reloaded(activation.next);
		const announced = pollAfter(activation, DAY0 + 1, listed('a', 'n'));
		expect(announced.newTenderIds).toEqual(['n']);
		// The announcing poll emits, so n8n saves its state: a restart reloads that.
		const afterRestart = poll({
			previous: reloaded(announced.next),
			today: DAY0 + 2,
			loadedFromStorage: true,
			listed: listed('a', 'n'),
		});
		expect(afterRestart.newTenderIds).toEqual([]);
		// Had n8n crashed before saving, the saved baseline still lacks n: announced again, never lost.
		const fromBaseline = poll({
			previous: saved,
			today: DAY0 + 2,
			loadedFromStorage: true,
			listed: listed('a', 'n'),
		});
		expect(fromBaseline.newTenderIds).toEqual(['n']);
	});
});

describe('diffPoll: a walk that spans polls', () => {
	/** A poll whose pages stopped before the walk's last one, to go on at `cursor`. */
	const partOf = (cursor: string) => ({ resumeAt: cursor, pages: 2 });

	it('keeps recording the baseline across polls, and announces nothing of it', () => {
		const first = poll({ listed: listed('a', 'b'), projectCount: 200, ...partOf('c-3') });
		expect(first.walkComplete).toBe(false);
		expect(first.next.walk).toEqual({ cursor: 'c-3', pages: 2, projects: 200, startDay: DAY0 });
		expect(first.next.baseline).toBe(true);
		const last = pollAfter(first, DAY0, listed('c'), { projectCount: 50, pages: 1 });
		expect(last.firstRun).toBe(false);
		expect(last.newTenderIds).toEqual([]);
		expect(last.walkComplete).toBe(true);
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
		const moved = [{ id: 'b', snapshot: snapshot({ quotesDueAt: '2025-07-01' }) }];
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
		expect(other.firstRun).toBe(true);
		expect(other.next.walk).toBeUndefined();
		expect(other.next.projectCount).toBe(1);
	});

	it('reminds of a tender inside the due-date window as its page is read, once', () => {
		const dueSoon = { event: 'quotesDueSoon' as const, dueSoon: { today: DAY0, days: 3 } };
		const base = poll({ listed: [], ...dueSoon });
		const due = [{ id: 'r', snapshot: snapshot({ quotesDueAt: '2024-10-04' }) }];
		// DAY0 is 2024-10-04 (20,000 days after the epoch): due today.
		const part = pollAfter(base, DAY0, due, { ...dueSoon, ...partOf('c-2') });
		expect(part.reminders.map((reminder) => reminder.id)).toEqual(['r']);
		expect(pollAfter(part, DAY0, due, dueSoon).reminders).toEqual([]);
	});

	it('stores the walk under way, the baseline mark, the write count and the last complete walk', () => {
		const part = poll({ listed: listed('a'), ...partOf('cursor/with?odd=chars') });
		const state: TriggerState = { ...part.next, seq: 7, completedAt: 1_700_000_000_000 };
		expect(reloaded(state)).toEqual(state);
	});
});
