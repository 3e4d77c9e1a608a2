import {
	keepState,
	noteQuiet,
	QUIET_STATE_MS,
	recallState,
	seqOf,
	stateToGoOn,
	type QuietState,
	type StateNotes,
} from '../../../../../nodes/SupplierMatchedProjects/trigger/memory';
import {
	readTriggerState,
	writeTriggerState,
	type TriggerState,
} from '../../../../../nodes/SupplierMatchedProjects/trigger/state';

const NOW = 1_900_000_000_000;

function state(seq: number | undefined, ids: string[]): TriggerState {
	return {
		scope: 'scope-a',
		day: 20_000,
		projectCount: ids.length,
		tenders: new Map(ids.map((id) => [id, { lastListedDay: 20_000 }])),
		...(seq === undefined ? {} : { seq }),
	};
}

const stored = (seq: number | undefined, ids: string[]) =>
	readTriggerState(writeTriggerState(state(seq, ids)));

/** What a quiet poll that read write `basedOn` wrote: write `basedOn + 1`, with these tenders. */
function quiet(basedOn: number, ids: string[], at = NOW): QuietState {
	return { basedOn, written: writeTriggerState(state(basedOn + 1, ids)), at };
}

describe("a quiet poll's state, when n8n dropped it", () => {
	it('goes on from it when n8n hands back the very state that poll read', () => {
		const { read, handedOn } = stateToGoOn(stored(4, ['a']), quiet(4, ['a', 'b']), NOW);
		expect(handedOn).toBe(true);
		expect(seqOf(read)).toBe(5);
		expect(read.kind === 'state' && [...read.state.tenders.keys()]).toEqual(['a', 'b']);
	});

	it("keeps the activation poll's baseline when the durable cursor was made empty before it", () => {
		const empty = readTriggerState({});
		const { read, handedOn } = stateToGoOn(empty, quiet(0, ['open-at-activation']), NOW);
		expect(handedOn).toBe(true);
		expect(read.kind).toBe('state');
	});

	it.each([
		['n8n kept the quiet state (it is newer)', stored(5, ['a', 'b']), quiet(4, ['a', 'b'])],
		['a later poll emitted and n8n kept that', stored(6, ['a', 'b', 'c']), quiet(4, ['a', 'b'])],
		['the saved state cannot be read', readTriggerState({ v: 1 }), quiet(0, ['a'])],
		['it is older than the bound', stored(4, ['a']), quiet(4, ['a'], NOW - QUIET_STATE_MS - 1)],
	])('is not used when %s', (_case, read, memory) => {
		expect(stateToGoOn(read, memory, NOW)).toEqual({ read, handedOn: false });
	});

	it('counts a state written before write counts as write 0', () => {
		expect(seqOf(stored(undefined, ['a']))).toBe(0);
		expect(seqOf(readTriggerState({}))).toBe(0);
	});
});

describe("a trigger's state from poll to poll", () => {
	const TRIGGER = '["wf-1","Trigger"]';
	const notes = (): StateNotes => ({ lastWrites: new Map(), quietStates: new Map() });
	const diffTo = (next: TriggerState, walkComplete = true) => ({
		firstRun: false,
		walkComplete,
		newTenderIds: [],
		updates: [],
		reminders: [],
		next,
	});

	it('takes a state this process did not write as loaded from storage, one it wrote not', () => {
		const process = notes();
		const staticData = writeTriggerState(state(3, ['a']));
		const recalled = recallState(staticData, process, TRIGGER, NOW);
		expect(recalled).toMatchObject({ seq: 3, loadedFromStorage: true });
		keepState(staticData, process, TRIGGER, recalled, diffTo(state(undefined, ['a', 'b'])));
		expect(recallState(staticData, process, TRIGGER, NOW)).toMatchObject({
			seq: 4,
			loadedFromStorage: false,
			previous: { tenders: state(undefined, ['a', 'b']).tenders },
		});
	});

	it("writes into n8n's own static data object, key by key, dropping keys the state no longer has", () => {
		const staticData = { ...writeTriggerState({ ...state(1, ['a']), baseline: true }) };
		const recalled = recallState(staticData, notes(), TRIGGER, NOW);
		const written = keepState(staticData, notes(), TRIGGER, recalled, diffTo(state(undefined, [])));
		expect(staticData).toEqual(written);
		expect(staticData).not.toHaveProperty('f');
		expect(staticData).toMatchObject({ q: 2, c: expect.any(Number) });
	});

	it('keeps the last complete walk until a walk completes', () => {
		const staticData = writeTriggerState({ ...state(1, ['a']), completedAt: 1234 });
		const recalled = recallState(staticData, notes(), TRIGGER, NOW);
		keepState(staticData, notes(), TRIGGER, recalled, diffTo(state(undefined, ['a']), false));
		expect(staticData.c).toBe(1234);
	});

	it("hands a quiet poll's state on to the next poll, and forgets it after a poll that emitted", () => {
		const process = notes();
		const recalled = recallState(writeTriggerState(state(4, ['a'])), process, TRIGGER, NOW);
		const written = writeTriggerState(state(5, ['a', 'b']));
		noteQuiet(process, TRIGGER, recalled, written, true);
		// n8n dropped that state: it hands this poll the one the quiet poll read.
		const next = recallState(writeTriggerState(state(4, ['a'])), process, TRIGGER, Date.now());
		expect(next.seq).toBe(5);
		noteQuiet(process, TRIGGER, next, written, false);
		expect(process.quietStates.size).toBe(0);
	});
});
