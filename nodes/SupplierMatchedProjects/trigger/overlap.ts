/**
 * One poll at a time per trigger. n8n starts a poll whenever one of the trigger's Poll Times falls
 * due, without asking whether the previous poll is still running: two Poll Times at the same
 * second, or a walk slower than the interval, would otherwise read the same state and announce the
 * same tenders twice. A poll that finds another one running is skipped; the running one announces
 * what is new.
 */

/** A poll holding its trigger's turn. Compared by identity: each poll has its own. */
export interface RunningPoll {
	/** When it started (epoch ms). */
	since: number;
}

/**
 * After this long a running poll no longer keeps the next from starting: the transport bounds
 * every wait, so a poll this old is stuck, not slow. If it ever finishes, it finds it lost its turn
 * and drops its outcome, so the two never both write.
 */
export const POLL_TURN_MS = 30 * 60_000;

/** Takes the trigger's turn, or undefined while another poll of it holds the turn. */
export function takeTurn(
	running: Map<string, RunningPoll>,
	key: string,
	now: number,
): RunningPoll | undefined {
	const current = running.get(key);
	if (current !== undefined && now - current.since < POLL_TURN_MS) return undefined;
	const poll = { since: now };
	running.set(key, poll);
	return poll;
}

/** Whether this poll still holds the turn it took: false once a later poll took it over. */
export function holdsTurn(
	running: Map<string, RunningPoll>,
	key: string,
	poll: RunningPoll,
): boolean {
	return running.get(key) === poll;
}

export function endTurn(running: Map<string, RunningPoll>, key: string, poll: RunningPoll): void {
	if (running.get(key) === poll) running.delete(key);
}
