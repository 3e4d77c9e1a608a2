import { sleep } from 'n8n-workflow';

/** A caller stopped waiting for its turn: walks ahead of it held the key past its deadline. */
export class TurnWaitTimeout extends Error {
	constructor(
		readonly waitedMs: number,
		/** Callers still waiting ahead of or after this one when it gave up. */
		readonly queued: number,
	) {
		super(`Gave up waiting for a turn after ${waitedMs} ms`);
	}
}

/**
 * Walks through the result pages on one credential take turns. Concurrent walks would otherwise
 * share the rate budget page by page, and when it runs out every one of them stops halfway; in
 * turns, the budget is spent on walks that finish.
 */
export class Turns {
	private readonly waiting = new Map<string, Array<() => void>>();

	private readonly taken = new Set<string>();

	/**
	 * Resolves when it is this caller's turn, with the function that ends the turn; rejects with a
	 * TurnWaitTimeout when the turn has not come within `maxWaitMs`, leaving the queue as if this
	 * caller had never asked.
	 */
	async take(key: string, maxWaitMs = Number.POSITIVE_INFINITY): Promise<() => void> {
		if (this.taken.has(key)) await this.waitFor(key, maxWaitMs);
		else this.taken.add(key);
		let ended = false;
		return () => {
			if (ended) return;
			ended = true;
			this.pass(key);
		};
	}

	private async waitFor(key: string, maxWaitMs: number): Promise<void> {
		let grant = () => {};
		const granted = new Promise<void>((resolve) => {
			grant = resolve;
		});
		const queue = this.waiting.get(key) ?? [];
		queue.push(grant);
		this.waiting.set(key, queue);
		if (maxWaitMs === Number.POSITIVE_INFINITY) return await granted;
		// n8n's sleep takes an abort signal from n8n 2.x on; where it does not, the timer only runs out.
		const stopTimer = new AbortController();
		const gaveUp = await Promise.race([
			granted.then(() => false),
			sleep(Math.max(0, maxWaitMs), stopTimer.signal).then(
				() => true,
				() => false,
			),
		]);
		stopTimer.abort();
		if (!gaveUp) return;
		const index = queue.indexOf(grant);
		if (index >= 0) {
			queue.splice(index, 1);
			if (queue.length === 0) this.waiting.delete(key);
		} else {
			// The turn came in the same instant: hand it on, since this caller is leaving.
			this.pass(key);
		}
		throw new TurnWaitTimeout(maxWaitMs, this.queued(key));
	}

	private pass(key: string): void {
		const queue = this.waiting.get(key);
		const next = queue?.shift();
		if (queue !== undefined && queue.length === 0) this.waiting.delete(key);
		if (next === undefined) this.taken.delete(key);
		else next();
	}

	/** Callers waiting for a turn on this key. */
	queued(key: string): number {
		return this.waiting.get(key)?.length ?? 0;
	}
}

/** One set of turns per process, shared by every execution. */
export const walkTurns = new Turns();
