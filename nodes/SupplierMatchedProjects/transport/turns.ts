/**
 * Walks through the result pages on one credential take turns. Concurrent walks would otherwise
 * share the rate budget page by page, and when it runs out every one of them stops halfway; in
 * turns, the budget is spent on walks that finish.
 */
export class Turns {
	private readonly waiting = new Map<string, Array<() => void>>();

	private readonly taken = new Set<string>();

	/** Resolves when it is this caller's turn, with the function that ends the turn. */
	async take(key: string): Promise<() => void> {
		if (this.taken.has(key)) {
			await new Promise<void>((resolve) => {
				const queue = this.waiting.get(key) ?? [];
				queue.push(resolve);
				this.waiting.set(key, queue);
			});
		} else {
			this.taken.add(key);
		}
		let ended = false;
		return () => {
			if (ended) return;
			ended = true;
			this.pass(key);
		};
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
