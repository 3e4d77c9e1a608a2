import { sleep } from 'n8n-workflow';

/** The API allows each credential 100 requests per 5 minutes. */
export const API_RATE_LIMIT = 100;
export const API_RATE_WINDOW_MS = 5 * 60_000;

/** Who counted a credential's window as full: this process's own sends, or the API with a 429. */
export type SpentBy = 'process' | 'api';

/**
 * Either a slot was taken, or none frees up before the deadline and this is how long one would
 * take. `spentBy` says who counted the window as full: this process's own sends, or the API (a 429
 * with Retry-After), which also counts every other n8n process and client on the credential.
 */
export type BudgetOutcome =
	| { acquired: true }
	| { acquired: false; waitMs: number; spentBy: SpentBy };

export interface RateBudgetOptions {
	limit: number;
	windowMs: number;
	now?: () => number;
	sleep?: (ms: number) => Promise<void>;
}

/**
 * A sliding window of send times per key: never more than `limit` sends in any `windowMs`. The
 * API counts a credential's requests across every n8n process (main and workers in queue mode),
 * which this process cannot see; the API's 429 with Retry-After is the signal they share, so after
 * one the window counts as spent until then, for every execution in this process.
 */
export class RateBudget {
	private readonly sent = new Map<string, number[]>();

	private readonly spentUntil = new Map<string, number>();

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

	/** When the API said the window is spent, if that is still ahead. */
	private apiSpentUntil(key: string, now: number): number | undefined {
		const until = this.spentUntil.get(key);
		if (until === undefined || until > now) return until;
		this.spentUntil.delete(key);
		return undefined;
	}

	/** The API refused a send until `until` (epoch ms): no send on this key before then. */
	spentByApiUntil(key: string, until: number): void {
		this.spentUntil.set(key, Math.max(until, this.spentUntil.get(key) ?? 0));
	}

	/** Forgets the latest send: the API refused it unread and did not count it either. */
	refund(key: string): void {
		this.sent.get(key)?.pop();
	}

	/** Sends counted for this key in the current window; all of them while the API says it is spent. */
	used(key: string): number {
		const now = this.now();
		if (this.apiSpentUntil(key, now) !== undefined) return this.options.limit;
		return this.recent(key, now).length;
	}

	/** How long until a slot frees on this key, and who counted it full; undefined when one is free. */
	spentFor(key: string): { waitMs: number; spentBy: SpentBy } | undefined {
		const now = this.now();
		const apiFreeAt = this.apiSpentUntil(key, now);
		if (apiFreeAt !== undefined) return { waitMs: apiFreeAt - now, spentBy: 'api' };
		const times = this.recent(key, now);
		if (times.length < this.options.limit) return undefined;
		const freeAt = times[times.length - this.options.limit] + this.options.windowMs;
		return { waitMs: freeAt - now, spentBy: 'process' };
	}

	/**
	 * Takes a slot, waiting for one when the window is full. Gives up at once, without waiting,
	 * when no slot frees up before the deadline (epoch ms).
	 */
	async acquire(key: string, deadline: number): Promise<BudgetOutcome> {
		for (;;) {
			const now = this.now();
			const apiFreeAt = this.apiSpentUntil(key, now);
			if (apiFreeAt !== undefined) {
				if (apiFreeAt > deadline)
					return { acquired: false, waitMs: apiFreeAt - now, spentBy: 'api' };
				await this.wait(apiFreeAt - now);
				continue;
			}
			const times = this.recent(key, now);
			if (times.length < this.options.limit) {
				times.push(now);
				this.sent.set(key, times);
				return { acquired: true };
			}
			const freeAt = times[times.length - this.options.limit] + this.options.windowMs;
			if (freeAt > deadline) return { acquired: false, waitMs: freeAt - now, spentBy: 'process' };
			await this.wait(Math.max(1, freeAt - now));
		}
	}

	/** Forgets every send and every refusal. For tests that need a fresh process. */
	reset(): void {
		this.sent.clear();
		this.spentUntil.clear();
	}
}

/** One budget per process, shared by every execution of both nodes. */
export const apiRateBudget = new RateBudget({
	limit: API_RATE_LIMIT,
	windowMs: API_RATE_WINDOW_MS,
});
