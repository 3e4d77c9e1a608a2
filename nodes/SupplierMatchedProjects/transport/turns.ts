import { sleep } from 'n8n-workflow';

/**
 * Walks through the result pages on one credential take turns. Concurrent walks would otherwise
 * share the rate budget page by page, and when it runs out every one of them stops halfway; in
 * turns, the budget is spent on walks that finish.
 */
export class Turns {
	private readonly waiting = new Map<string, Array<() => void>>();

	private readonly taken = new Set<string>();

	/**
	 * Resolves when it is this caller's turn, with the function that ends the turn; or with
	 * undefined when the turn has not come within `maxWaitMs`, leaving the queue as if this caller
	 * had never asked.
	 */
	async take(key: string): Promise<() => void>;
	async take(key: string, maxWaitMs: number): Promise<(() => void) | undefined>;
	async take(key: string, maxWaitMs = Number.POSITIVE_INFINITY): Promise<(() => void) | undefined> {
		if (!this.taken.has(key)) this.taken.add(key);
		else if (!(await this.waitFor(key, maxWaitMs))) return undefined;
		let ended = false;
		return () => {
			if (ended) return;
			ended = true;
			this.pass(key);
		};
	}

	/** Whether the turn came. */
	private async waitFor(key: string, maxWaitMs: number): Promise<boolean> {
		let grant = () => {};
		const granted = new Promise<void>((resolve) => {
			grant = resolve;
		});
		const queue = this.waiting.get(key) ?? [];
		queue.push(grant);
		this.waiting.set(key, queue);
		if (maxWaitMs === Number.POSITIVE_INFINITY) {
			await granted;
			return true;
		}
		// The timer is stopped once the race is decided; an n8n whose sleep takes no abort signal lets
		// it run out, harmlessly.
		const stopTimer = new AbortController();
		const gaveUp = await Promise.race([
			granted.then(() => false),
			sleep(Math.max(0, maxWaitMs), stopTimer.signal).then(
				() => true,
				() => false,
			),
		]);
		stopTimer.abort();
		if (!gaveUp) return true;
		const index = queue.indexOf(grant);
		if (index >= 0) {
			queue.splice(index, 1);
			if (queue.length === 0) this.waiting.delete(key);
		} else {
			// The turn came in the same instant: hand it on, since this caller is leaving.
			this.pass(key);
		}
		return false;
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
