import {
	endTurn,
	holdsTurn,
	POLL_TURN_MS,
	takeTurn,
	type RunningPoll,
} from '../../../../../nodes/SupplierMatchedProjects/trigger/overlap';

describe('one poll at a time per trigger', () => {
	it('refuses a second poll of the same trigger while the first runs, not of another trigger', () => {
		const running = new Map<string, RunningPoll>();
		const first = takeTurn(running, 'a', 0);
		expect(first).toBeDefined();
		expect(takeTurn(running, 'a', 1_000)).toBeUndefined();
		expect(takeTurn(running, 'b', 1_000)).toBeDefined();
		endTurn(running, 'a', first as RunningPoll);
		expect(takeTurn(running, 'a', 2_000)).toBeDefined();
	});

	it('lets a poll start past a stuck one, and the stuck one learns it lost its turn', () => {
		const running = new Map<string, RunningPoll>();
		const stuck = takeTurn(running, 'a', 0) as RunningPoll;
		expect(takeTurn(running, 'a', POLL_TURN_MS - 1)).toBeUndefined();
		const next = takeTurn(running, 'a', POLL_TURN_MS) as RunningPoll;
		expect(holdsTurn(running, 'a', stuck)).toBe(false);
		expect(holdsTurn(running, 'a', next)).toBe(true);
		// The stuck poll ending does not free the turn the next one holds.
		endTurn(running, 'a', stuck);
		expect(holdsTurn(running, 'a', next)).toBe(true);
	});
});
