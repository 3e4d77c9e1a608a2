import { sleep } from 'n8n-workflow';

import { RateShare, type RateAnswer } from './rate-share';

export type { RateAnswer } from './rate-share';

/** The API allows each credential 100 requests per 5 minutes. */
export const API_RATE_LIMIT = 100;
export const API_RATE_WINDOW_MS = 5 * 60_000;

/**
 * Who counted the window as full: this process's own sends, or the API (a 429), which also counts
 * every other n8n process and client on the credential.
 */
export type SpentBy = 'process' | 'api';

/**
 * What a process may still send on a credential now (`free`), and what its own count alone would
 * leave it under the whole limit (`underLimit`): more than `free` while 429s hold it to a share.
 */
export interface RequestRoom {
	free: number;
	underLimit: number;
}

/** Either a slot was taken, or none frees up before the deadline and this is how long one would take. */
export type BudgetOutcome =
	| { acquired: true }
	| { acquired: false; waitMs: number; spentBy: SpentBy };

export interface RateBudgetOptions {
	limit: number;
	windowMs: number;
	now?: () => number;
	sleep?: (ms: number) => Promise<void>;
	random?: () => number;
}

/**
 * The rate limit as this process may spend it, per key: never more than `limit` requests in any
 * `windowMs`, and after the API's 429s only the share this process has learned it holds (see
 * rate-share.ts). Each request taken must be followed by `answered` with what the API did.
 */
export class RateBudget {
	private readonly shares = new Map<string, RateShare>();

	private readonly now: () => number;

	private readonly wait: (ms: number) => Promise<void>;

	constructor(private readonly options: RateBudgetOptions) {
		this.now = options.now ?? (() => Date.now());
		this.wait = options.sleep ?? sleep;
	}

	private share(key: string): RateShare {
		let share = this.shares.get(key);
		if (share === undefined) {
			share = new RateShare(this.options);
			this.shares.set(key, share);
		}
		return share;
	}

	/** Requests this process may still send on this key now, and under the whole limit. */
	room(key: string): RequestRoom {
		const share = this.share(key);
		const now = this.now();
		return { free: share.free(now), underLimit: share.freeUnderLimit(now) };
	}

	/** How long until a send fits on this key, and who counted it full; undefined when one fits now. */
	spentFor(key: string): { waitMs: number; spentBy: SpentBy } | undefined {
		const share = this.share(key);
		const now = this.now();
		const at = share.sendableAt(now);
		if (at <= now) return undefined;
		return { waitMs: at - now, spentBy: share.learnedFromApi(now) ? 'api' : 'process' };
	}

	/**
	 * Takes a slot, waiting for one when none fits now. Gives up at once, without waiting, when
	 * none fits before the deadline (epoch ms).
	 */
	async acquire(key: string, deadline: number): Promise<BudgetOutcome> {
		const share = this.share(key);
		for (;;) {
			const now = this.now();
			const at = share.sendableAt(now);
			if (at <= now) {
				share.sent(now);
				return { acquired: true };
			}
			if (at > deadline) {
				return {
					acquired: false,
					waitMs: at - now,
					spentBy: share.learnedFromApi(now) ? 'api' : 'process',
				};
			}
			await this.wait(Math.max(1, Math.ceil(at - now)));
		}
	}

	/** What the API did with the request of the latest slot taken on this key. */
	answered(key: string, answer: RateAnswer): void {
		this.share(key).answered(this.now(), answer);
	}
}
