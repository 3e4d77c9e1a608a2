import { sleep } from 'n8n-workflow';

/** The API allows each credential 100 requests per 5 minutes. */
export const API_RATE_LIMIT = 100;
export const API_RATE_WINDOW_MS = 5 * 60_000;

/** Either a slot was taken, or none frees up before the deadline and this is how long one would take. */
export type BudgetOutcome = { acquired: true } | { acquired: false; waitMs: number };

export interface RateBudgetOptions {
	limit: number;
	windowMs: number;
	now?: () => number;
	sleep?: (ms: number) => Promise<void>;
}

/** A sliding window of send times per key: never more than `limit` sends in any `windowMs`. */
export class RateBudget {
	private readonly sent = new Map<string, number[]>();

	private readonly now: () => number;

	private readonly wait: (ms: number) => Promise<void>;

	constructor(private readonly options: RateBudgetOptions) {
		this.now = options.now ?? (() => Date.now());
		this.wait = options.sleep ?? sleep;
	}

	private recent(key: string, now: number): number[] {
		const windowStart = now - this.options.windowMs;
		const times = (this.sent.get(key) ?? []).filter((time) => time > windowStart);
		if (times.length === 0) this.sent.delete(key);
		else this.sent.set(key, times);
		return times;
	}

	/** Sends counted for this key in the current window. */
	used(key: string): number {
		return this.recent(key, this.now()).length;
	}

	/**
	 * Takes a slot, waiting for one when the window is full. Gives up at once, without waiting,
	 * when no slot frees up before the deadline (epoch ms).
	 */
	async acquire(key: string, deadline: number): Promise<BudgetOutcome> {
		for (;;) {
			const now = this.now();
			const times = this.recent(key, now);
			if (times.length < this.options.limit) {
				times.push(now);
				this.sent.set(key, times);
				return { acquired: true };
			}
			const freeAt = times[times.length - this.options.limit] + this.options.windowMs;
			if (freeAt > deadline) return { acquired: false, waitMs: freeAt - now };
			await this.wait(Math.max(1, freeAt - now));
		}
	}

	/** Forgets every send. For tests that need a fresh process. */
	reset(): void {
		this.sent.clear();
	}
}

/** One budget per process, shared by every execution of both nodes. */
export const apiRateBudget = new RateBudget({
	limit: API_RATE_LIMIT,
	windowMs: API_RATE_WINDOW_MS,
});
