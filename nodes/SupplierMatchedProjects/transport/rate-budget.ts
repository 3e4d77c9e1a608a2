import { sleep } from 'n8n-workflow';

import { RateShare, type RateAnswer } from './rate-share';

export type { RateAnswer } from './rate-share';

/** The API allows each credential 100 requests per 5 minutes. */
export const API_RATE_LIMIT = 100;
export const API_RATE_WINDOW_MS = 5 * 60_000;

/** The limit in words, for every message that names it. */
export const API_RATE_LIMIT_TEXT = `${API_RATE_LIMIT} requests per ${API_RATE_WINDOW_MS / 60_000} minutes`;

/** Seconds between two requests when the limit is spent evenly: 3. */
export const API_RATE_PACE_SECONDS = API_RATE_WINDOW_MS / API_RATE_LIMIT / 1000;

/**
 * Requests an idle credential may send at once before pacing starts: a short run of the node
 * answers at once, and the window still never holds more than the limit.
 */
export const RATE_BURST = 10;

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

/**
 * Where a request stands in its credential's queue. A workflow run (`background: false`) goes
 * before any trigger's poll; within each kind, the oldest `since` goes first: a run's start, or a
 * trigger's last complete walk, so the trigger that has waited longest for news is served next.
 */
export interface RequestTurn {
	background: boolean;
	since: number;
}

/**
 * Either a slot was taken, or none frees up before the deadline and this is how long one would
 * take; `queued` when the window has room and the wait is the pace and the requests ahead.
 */
export type BudgetOutcome =
	| { acquired: true }
	| { acquired: false; waitMs: number; spentBy: SpentBy; queued: boolean };

export interface RateBudgetOptions {
	limit: number;
	windowMs: number;
	/** Requests an idle credential may send at once; 1 paces every request. */
	burst?: number;
	now?: () => number;
	sleep?: (ms: number) => Promise<void>;
	random?: () => number;
}

interface Waiter {
	turn: RequestTurn;
	arrival: number;
	deadline: number;
	settle: (outcome: BudgetOutcome) => void;
}

function goesBefore(a: Waiter, b: Waiter): boolean {
	if (a.turn.background !== b.turn.background) return !a.turn.background;
	if (a.turn.since !== b.turn.since) return a.turn.since < b.turn.since;
	return a.arrival < b.arrival;
}

/** One credential: what the API allows this process (the share), the pace, and who waits. */
class CredentialQueue {
	tokens: number;

	refilledAt: number;

	readonly waiting: Waiter[] = [];

	running = false;

	constructor(
		readonly share: RateShare,
		burst: number,
		now: number,
	) {
		this.tokens = burst;
		this.refilledAt = now;
	}
}

/**
 * The rate limit as this process spends it, per key (credential): evenly, one request every
 * window/limit (3 s) after a short burst, never more than `limit` in any `windowMs`, and after the
 * API's 429s only the share this process has learned it holds (see rate-share.ts). Waiting
 * requests are served in turn order (RequestTurn), not in the order they asked. Each request
 * taken must be followed by `answered` with what the API did.
 */
export class RateBudget {
	private readonly queues = new Map<string, CredentialQueue>();

	private readonly now: () => number;

	private readonly wait: (ms: number) => Promise<void>;

	private readonly burst: number;

	private arrivals = 0;

	constructor(private readonly options: RateBudgetOptions) {
		this.now = options.now ?? (() => Date.now());
		this.wait = options.sleep ?? sleep;
		this.burst = Math.max(1, options.burst ?? RATE_BURST);
	}

	/** One request's share of the window: the pace at which the limit is spent evenly. */
	get paceMs(): number {
		return this.options.windowMs / this.options.limit;
	}

	private queue(key: string): CredentialQueue {
		let queue = this.queues.get(key);
		if (queue === undefined) {
			queue = new CredentialQueue(new RateShare(this.options), this.burst, this.now());
			this.queues.set(key, queue);
		}
		return queue;
	}

	/** Earns the pace's tokens, but never more than the window has room for: no burst when it frees. */
	private refill(queue: CredentialQueue, now: number): void {
		const earned = Math.max(0, (now - queue.refilledAt) / this.paceMs);
		const room = queue.share.free(now);
		queue.tokens = Math.min(this.burst, queue.tokens + earned, Math.max(room, queue.tokens));
		queue.refilledAt = now;
	}

	/** When the request `ahead` places behind the next one may leave (ahead 0: the next). */
	private sendableAt(queue: CredentialQueue, now: number, ahead = 0): number {
		this.refill(queue, now);
		const paced = now + Math.max(0, ahead + 1 - queue.tokens) * this.paceMs;
		return Math.max(paced, queue.share.sendableAt(now));
	}

	private spentBy(queue: CredentialQueue, now: number): SpentBy {
		return queue.share.learnedFromApi(now) ? 'api' : 'process';
	}

	/** Requests this process may still send on this key now, and under the whole limit. */
	room(key: string): RequestRoom {
		const { share } = this.queue(key);
		const now = this.now();
		return { free: share.free(now), underLimit: share.freeUnderLimit(now) };
	}

	/** Requests waiting for a slot on this key now. */
	waiting(key: string): number {
		return this.queues.get(key)?.waiting.length ?? 0;
	}

	/**
	 * How long until the window (or a Retry-After) lets a send through on this key, and who counted
	 * it full; undefined when it has room now, whatever the pace and the queue.
	 */
	spentFor(key: string): { waitMs: number; spentBy: SpentBy } | undefined {
		const queue = this.queue(key);
		const now = this.now();
		const at = queue.share.sendableAt(now);
		if (at <= now) return undefined;
		return { waitMs: at - now, spentBy: this.spentBy(queue, now) };
	}

	/**
	 * Takes a slot, waiting in turn for one when none fits now. Gives up, without waiting longer,
	 * as soon as its place in the queue cannot come before the deadline (epoch ms).
	 */
	async acquire(
		key: string,
		deadline: number,
		turn: RequestTurn = { background: false, since: this.now() },
	): Promise<BudgetOutcome> {
		const queue = this.queue(key);
		const now = this.now();
		if (queue.waiting.length === 0 && this.sendableAt(queue, now) <= now) {
			this.take(queue, now);
			return { acquired: true };
		}
		return await new Promise<BudgetOutcome>((settle) => {
			const waiter: Waiter = { turn, arrival: this.arrivals++, deadline, settle };
			const index = queue.waiting.findIndex((other) => goesBefore(waiter, other));
			queue.waiting.splice(index === -1 ? queue.waiting.length : index, 0, waiter);
			this.releaseHopeless(queue, now);
			if (!queue.running) void this.serve(queue);
		});
	}

	private take(queue: CredentialQueue, now: number): void {
		queue.tokens -= 1;
		queue.share.sent(now);
	}

	/** Lets go at once every waiter whose place cannot come before its deadline. */
	private releaseHopeless(queue: CredentialQueue, now: number): void {
		let ahead = 0;
		for (const waiter of [...queue.waiting]) {
			const at = this.sendableAt(queue, now, ahead);
			if (at <= waiter.deadline) {
				ahead++;
				continue;
			}
			queue.waiting.splice(queue.waiting.indexOf(waiter), 1);
			waiter.settle({
				acquired: false,
				waitMs: at - now,
				spentBy: this.spentBy(queue, now),
				queued: queue.share.sendableAt(now) <= waiter.deadline,
			});
		}
	}

	/** Hands each slot, as it frees up, to the first waiter in turn order. */
	private async serve(queue: CredentialQueue): Promise<void> {
		queue.running = true;
		try {
			for (;;) {
				const now = this.now();
				this.releaseHopeless(queue, now);
				const next = queue.waiting[0];
				if (next === undefined) return;
				const at = this.sendableAt(queue, now);
				if (at <= now) {
					queue.waiting.shift();
					this.take(queue, now);
					next.settle({ acquired: true });
					continue;
				}
				await this.wait(Math.max(1, Math.ceil(at - now)));
			}
		} finally {
			queue.running = false;
		}
	}

	/** What the API did with the request of the latest slot taken on this key. */
	answered(key: string, answer: RateAnswer): void {
		this.queue(key).share.answered(this.now(), answer);
	}
}
