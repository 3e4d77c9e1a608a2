/**
 * What one n8n process has learned of its share of a credential's rate limit, from the API's
 * answers alone. In queue mode the main instance and every worker spend the same limit without
 * seeing each other; a community node has no shared store, so each process runs a congestion
 * control of its own, in the spirit of TCP's:
 *
 * - It starts with the whole limit: a process alone is never refused, because it counts each
 *   request from the moment its answer arrived, never earlier than the API counted it.
 * - A 429 proves the API's window full: the allowance halves (TCP's multiplicative decrease), but
 *   never below the requests this process holds in the window. That share it keeps using as its
 *   own requests leave, into slots no other process is waiting for. A process alone can tell no
 *   better than one among many: 429s from clients it cannot see shrink its share all the same, and
 *   the trigger skips a poll such a share cannot carry instead of reporting it as the user's to fix.
 * - After a Retry-After (at most one window: no longer is needed for the API's count to empty, and
 *   a gateway's day-long one must not lock the credential) it waits a random extra of up to one
 *   slot's time, then sends one slot apart until a request is accepted: the first is a probe,
 *   processes that learned the same Retry-After do not come back at the same instant, and one
 *   process's waiting requests leave one by one.
 * - Every accepted request grows the allowance by 1/allowance (about one request per window of
 *   accepted requests) while a 429 is recent; once a whole window passed without one, by one per
 *   accepted request, back to the whole limit.
 *
 * Time and randomness come from the caller, so every decision is a plain function of them.
 */

/** What a 429 leaves of the allowance, at least: TCP's multiplicative decrease. */
const DECREASE = 0.5;

export interface RateShareOptions {
	/** Requests the API allows per window and credential. */
	limit: number;
	windowMs: number;
	/** A number in [0, 1); the spread of returns after a Retry-After. */
	random?: () => number;
}

/** What the API did with a request, as far as its rate limit is concerned. */
export type RateAnswer =
	/** It answered with anything but 429, or may have counted the request without an answer. */
	| { kind: 'counted' }
	/** 429: refused unread and not counted; Retry-After, when given, in ms from now. */
	| { kind: 'refused'; retryAfterMs?: number }
	/** The request never reached the API (its token could not be had). */
	| { kind: 'notSent' };

export class RateShare {
	/** Sends this process allows itself per window; fractional while it grows. */
	private allowanceValue: number;

	/** When each counted request of this process was answered, oldest first, within the window. */
	private readonly answeredAt: number[] = [];

	/** Sent and not answered yet: counted until the answer says otherwise. */
	private inFlight = 0;

	/** No send before this instant: a Retry-After, plus its spread. */
	private pausedUntil = Number.NEGATIVE_INFINITY;

	private lastSentAt = Number.NEGATIVE_INFINITY;

	/** From a Retry-After until the next accepted request: sends leave one slot apart. */
	private pacing = false;

	private lastRefusedAt: number | undefined;

	private readonly random: () => number;

	constructor(private readonly options: RateShareOptions) {
		this.allowanceValue = options.limit;
		this.random = options.random ?? Math.random;
	}

	/** One slot's time: the API's average pace when its window is shared. */
	private get slotMs(): number {
		return this.options.windowMs / this.options.limit;
	}

	/** Whole sends per window this process allows itself now. */
	get allowance(): number {
		return Math.max(1, Math.floor(this.allowanceValue));
	}

	/** True while the allowance or a pause comes from a 429, i.e. from every process's count. */
	learnedFromApi(now: number): boolean {
		return this.allowanceValue < this.options.limit || now < this.pausedUntil;
	}

	private forget(now: number): void {
		const windowStart = now - this.options.windowMs;
		let expired = 0;
		while (expired < this.answeredAt.length && this.answeredAt[expired] <= windowStart) expired++;
		this.answeredAt.splice(0, expired);
	}

	/** Requests of this process the API counts in its window now (those in flight included). */
	inWindow(now: number): number {
		this.forget(now);
		return this.answeredAt.length + this.inFlight;
	}

	/** Sends that fit the allowance now; none while paused. */
	free(now: number): number {
		if (now < this.pausedUntil) return 0;
		return Math.max(0, this.allowance - this.inWindow(now));
	}

	/** Sends the whole limit leaves this process by its own count, whatever it learned from the API. */
	freeUnderLimit(now: number): number {
		return Math.max(0, this.options.limit - this.inWindow(now));
	}

	/**
	 * The earliest instant a send fits: `now` when one fits now. A request in flight counts as
	 * answered now (the soonest it can leave the window), so this never comes too early.
	 */
	sendableAt(now: number): number {
		const used = this.inWindow(now);
		let at = now;
		if (used >= this.allowance) {
			const leaving = used - this.allowance;
			const answered = leaving < this.answeredAt.length ? this.answeredAt[leaving] : now;
			at = answered + this.options.windowMs;
		}
		if (this.pacing) at = Math.max(at, this.lastSentAt + this.slotMs);
		return Math.max(at, this.pausedUntil);
	}

	/** A request leaves now: it counts until its answer. */
	sent(now: number): void {
		this.inFlight++;
		this.lastSentAt = now;
	}

	/** The answer to a request `sent` earlier arrived now. */
	answered(now: number, answer: RateAnswer): void {
		this.inFlight = Math.max(0, this.inFlight - 1);
		if (answer.kind === 'notSent') return;
		if (answer.kind === 'counted') {
			this.pacing = false;
			this.answeredAt.push(now);
			this.grow(now);
			return;
		}
		// The window is full across every process: halve the allowance, but never below the share
		// this process holds in the window, which it can keep using as its own requests leave.
		this.lastRefusedAt = now;
		this.allowanceValue = Math.max(1, this.inWindow(now), this.allowanceValue * DECREASE);
		if (answer.retryAfterMs !== undefined && answer.retryAfterMs > 0) {
			// Never longer than a window: the API's count has emptied by then, and the first send
			// after the pause probes it (a refused probe pauses again, as long at most).
			const pause = Math.min(answer.retryAfterMs, this.options.windowMs);
			const until = now + pause + this.random() * this.slotMs;
			this.pausedUntil = Math.max(this.pausedUntil, until);
			this.pacing = true;
		}
	}

	private grow(now: number): void {
		const recentlyRefused =
			this.lastRefusedAt !== undefined && now - this.lastRefusedAt < this.options.windowMs;
		const step = recentlyRefused ? 1 / this.allowanceValue : 1;
		this.allowanceValue = Math.min(this.options.limit, this.allowanceValue + step);
	}
}
