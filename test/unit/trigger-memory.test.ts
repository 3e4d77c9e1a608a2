import {
	QUIET_STATE_MS,
	seqOf,
	stateToGoOn,
	type QuietState,
} from '../../nodes/SupplierMatchedProjects/trigger/memory';
import {
	readTriggerState,
	writeTriggerState,
	type TriggerState,
} from '../../nodes/SupplierMatchedProjects/trigger/state';

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
