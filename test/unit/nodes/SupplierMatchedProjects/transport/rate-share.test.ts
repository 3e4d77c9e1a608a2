import { createRateLimiter } from '../../../../../sandbox/rate-limit';
import { busiestWindow } from '../../../../support/engine/rate-window';
import {
	RateShare,
	type RateAnswer,
} from '../../../../../nodes/SupplierMatchedProjects/transport/rate-share';

const LIMIT = 100;
const WINDOW_MS = 300_000;
/** One slot's time at the API's average pace: 300 s / 100. */
const SLOT_MS = 3000;
const T0 = 1_000_000;

const counted: RateAnswer = { kind: 'counted' };

function share(random: () => number = () => 0): RateShare {
	return new RateShare({ limit: LIMIT, windowMs: WINDOW_MS, random });
}

/** Sends now and answers at once. */
function send(rate: RateShare, now: number, answer: RateAnswer = counted): void {
	expect(rate.sendableAt(now)).toBeLessThanOrEqual(now);
	rate.sent(now);
	rate.answered(now, answer);
}

/** `times` 429s in a row, each answered at once with a Retry-After of one second. */
function refuse(rate: RateShare, now: number, times: number): void {
	for (let i = 0; i < times; i++) {
		rate.sent(now);
		rate.answered(now, { kind: 'refused', retryAfterMs: 1000 });
	}
}

describe('RateShare: a process alone', () => {
	it('starts with the whole limit and sends as fast as asked until it is used', () => {
		const rate = share();
		for (let i = 0; i < LIMIT; i++) send(rate, T0 + i);
		expect(rate.allowance).toBe(LIMIT);
		expect(rate.free(T0 + LIMIT)).toBe(0);
		expect(rate.learnedFromApi(T0 + LIMIT)).toBe(false);
		// The oldest answer leaves the window first.
		expect(rate.sendableAt(T0 + LIMIT)).toBe(T0 + WINDOW_MS);
		expect(rate.free(T0 + WINDOW_MS)).toBe(1);
	});

	it('counts a request from its answer, never earlier than the API counted it', () => {
		const rate = share();
		rate.sent(T0);
		rate.answered(T0 + 700, counted);
		for (let i = 1; i < LIMIT; i++) send(rate, T0 + 700 + i);
		expect(rate.sendableAt(T0 + 1000)).toBe(T0 + 700 + WINDOW_MS);
	});

	it('counts a request in flight: it leaves the window no sooner than a window after an answer now', () => {
		const rate = share();
		for (let i = 1; i < LIMIT; i++) send(rate, T0 + i);
		rate.sent(T0 + LIMIT);
		expect(rate.inWindow(T0 + WINDOW_MS + 5000)).toBe(1);
		expect(rate.free(T0 + WINDOW_MS + 5000)).toBe(LIMIT - 1);
		refuse(rate, T0 + WINDOW_MS + 5000, 7);
		rate.sent(T0 + WINDOW_MS + 5000);
		// An allowance of one, held by the request still in flight.
		expect(rate.allowance).toBe(1);
		expect(rate.sendableAt(T0 + WINDOW_MS + 6000)).toBe(T0 + 2 * WINDOW_MS + 6000);
	});

	it('does not count a request that never reached the API', () => {
		const rate = share();
		send(rate, T0, { kind: 'notSent' });
		expect(rate.inWindow(T0)).toBe(0);
		expect(rate.allowance).toBe(LIMIT);
	});
});

describe('RateShare: a 429 proves the window full', () => {
	it('halves the allowance at each 429', () => {
		const rate = share();
		send(rate, T0, { kind: 'refused', retryAfterMs: 1000 });
		expect(rate.allowance).toBe(50);
		expect(rate.learnedFromApi(T0)).toBe(true);
		send(rate, T0 + SLOT_MS, { kind: 'refused', retryAfterMs: 1000 });
		expect(rate.allowance).toBe(25);
	});

	it('never below the requests this process holds in the window, the refused one not counted', () => {
		const rate = share();
		for (let i = 0; i < 30; i++) send(rate, T0 + i * 1000);
		refuse(rate, T0 + 40_000, 5);
		expect(rate.allowance).toBe(30);
		expect(rate.inWindow(T0 + 40_000)).toBe(30);
	});

	it('at its share, sends only as its own requests leave the window', () => {
		const rate = share();
		for (let i = 0; i < 10; i++) send(rate, T0 + i * 10_000);
		refuse(rate, T0 + 100_000, 4);
		expect(rate.allowance).toBe(10);
		// Its oldest (T0) leaves at T0 + 300 s, long after the Retry-After.
		expect(rate.sendableAt(T0 + 110_000)).toBe(T0 + WINDOW_MS);
		send(rate, T0 + WINDOW_MS);
		expect(rate.sendableAt(T0 + WINDOW_MS)).toBe(T0 + 10_000 + WINDOW_MS);
	});

	it('returns after Retry-After plus a random spread of up to one slot', () => {
		const early = share(() => 0);
		const late = share(() => 0.99);
		send(early, T0, { kind: 'refused', retryAfterMs: 20_000 });
		send(late, T0, { kind: 'refused', retryAfterMs: 20_000 });
		expect(early.sendableAt(T0)).toBe(T0 + 20_000);
		expect(late.sendableAt(T0)).toBe(T0 + 20_000 + 0.99 * SLOT_MS);
		expect(late.free(T0 + 20_000)).toBe(0);
		expect(late.free(T0 + 20_000 + SLOT_MS)).toBe(50);
	});

	it('keeps the later of two pauses', () => {
		const rate = share();
		send(rate, T0, { kind: 'refused', retryAfterMs: 50_000 });
		rate.sent(T0 + 1);
		rate.answered(T0 + 1, { kind: 'refused', retryAfterMs: 10_000 });
		expect(rate.sendableAt(T0 + 1)).toBe(T0 + 50_000);
	});

	it.each([86_400_000, 2_000_000_000_000, Number.MAX_SAFE_INTEGER])(
		'a Retry-After of %p ms pauses one window at most, then one probe goes; a refused probe pauses as long again',
		(retryAfterMs) => {
			const rate = share(() => 0.5);
			send(rate, T0, { kind: 'refused', retryAfterMs });
			const probeAt = T0 + WINDOW_MS + 0.5 * SLOT_MS;
			expect(rate.sendableAt(T0)).toBe(probeAt);
			// The probe, then nothing else until its answer says whether the API has room.
			rate.sent(probeAt);
			expect(rate.sendableAt(probeAt)).toBe(probeAt + SLOT_MS);
			rate.answered(probeAt + 100, { kind: 'refused', retryAfterMs });
			expect(rate.sendableAt(probeAt + 100)).toBe(probeAt + 100 + WINDOW_MS + 0.5 * SLOT_MS);
			// An accepted probe ends the pause and the pacing.
			const secondProbeAt = probeAt + 100 + WINDOW_MS + 0.5 * SLOT_MS;
			send(rate, secondProbeAt);
			expect(rate.sendableAt(secondProbeAt + 1)).toBe(secondProbeAt + 1);
		},
	);

	it('without Retry-After shrinks the allowance but neither pauses nor paces (the transport backs off)', () => {
		const rate = share();
		send(rate, T0, { kind: 'refused' });
		expect(rate.allowance).toBe(50);
		expect(rate.learnedFromApi(T0)).toBe(true);
		expect(rate.sendableAt(T0)).toBe(T0);
	});

	it('after a Retry-After, sends one slot apart until one is accepted', () => {
		const rate = share();
		send(rate, T0, { kind: 'refused', retryAfterMs: 1000 });
		// Waiting requests of this process leave one by one, not all when the pause ends.
		expect(rate.sendableAt(T0 + 1000)).toBe(T0 + SLOT_MS);
		send(rate, T0 + SLOT_MS, { kind: 'refused', retryAfterMs: 1000 });
		expect(rate.sendableAt(T0 + SLOT_MS + 1000)).toBe(T0 + 2 * SLOT_MS);
		send(rate, T0 + 2 * SLOT_MS);
		// Accepted: no more pacing.
		send(rate, T0 + 2 * SLOT_MS + 1);
		expect(rate.sendableAt(T0 + 2 * SLOT_MS + 2)).toBe(T0 + 2 * SLOT_MS + 2);
	});
});

describe('RateShare: growing back', () => {
	it('grows by 1/allowance per accepted request while a 429 is less than a window old', () => {
		const rate = share();
		for (let i = 0; i < 20; i++) send(rate, T0 + i);
		refuse(rate, T0 + 200_000, 3);
		expect(rate.allowance).toBe(20);
		// Its 20 requests leave at T0 + 300 s: 20 sends accepted there grow the share by about one
		// (by 20 at one per request), so it is still held to 20 until the first of them leaves.
		for (let i = 0; i < 20; i++) send(rate, T0 + WINDOW_MS + 100 + i * SLOT_MS);
		expect(rate.allowance).toBe(20);
		expect(rate.sendableAt(T0 + WINDOW_MS + 100 + 20 * SLOT_MS)).toBe(T0 + 2 * WINDOW_MS + 100);
		send(rate, T0 + 2 * WINDOW_MS + 100);
		expect(rate.allowance).toBe(21);
	});

	it('grows by one per accepted request once a window passed without a 429, up to the limit', () => {
		const rate = share();
		refuse(rate, T0, 8);
		// Holding no request in the window, it keeps one per window.
		expect(rate.allowance).toBe(1);
		let now = T0 + WINDOW_MS;
		for (let i = 0; i < 120; i++) {
			now = Math.max(now, rate.sendableAt(now));
			send(rate, now);
		}
		expect(rate.allowance).toBe(LIMIT);
		expect(rate.learnedFromApi(now)).toBe(false);
	});
});

interface SimulationOptions {
	processes: number;
	/** When each run starts, and on which process. */
	starts: Array<{ at: number; process: number }>;
	pages?: number;
	latencyMs?: number;
	maxWaitMs?: number;
	seed?: number;
}

interface SimulatedProcess {
	rate: RateShare;
	/** When its waiting runs start. */
	queue: number[];
	run?: { page: number; waitingSince: number };
	busyUntil: number;
}

/** A Lehmer generator, so a seed spreads the retries the same way every time. */
function seededRandom(seed: number): () => number {
	let state = seed;
	return () => {
		state = (state * 48271) % 2147483647;
		return state / 2147483647;
	};
}

/**
 * Processes sharing one API limit, on a virtual clock: the sandbox's own sliding-window limiter
 * judges each request, answered after `latencyMs`. Each process walks `pages` pages per run, one
 * run at a time, and gives up a run when its next page would wait more than `maxWaitMs`.
 */
class SharedLimit {
	now = 0;
	readonly acceptedAt: number[] = [];
	refused = 0;
	completed = 0;
	stopped = 0;
	pagesWasted = 0;
	private readonly limiter = createRateLimiter(
		{ requests: LIMIT, windowSeconds: WINDOW_MS / 1000 },
		{ now: () => this.now, advance: () => undefined, today: () => 0 },
	);
	private readonly processes: SimulatedProcess[];

	constructor(private readonly options: Required<SimulationOptions>) {
		const random = seededRandom(options.seed);
		this.processes = Array.from({ length: options.processes }, () => ({
			rate: new RateShare({ limit: LIMIT, windowMs: WINDOW_MS, random }),
			queue: [],
			busyUntil: 0,
		}));
		for (const start of options.starts) this.processes[start.process].queue.push(start.at);
	}

	/** The most accepted in any 5 minutes starting at `from` or later. */
	busiestFrom(from = 0): number {
		const accepted = this.acceptedAt.filter((at) => at >= from);
		return busiestWindow(
			accepted.map((at) => ({ at: new Date(at).toISOString(), status: 200 })),
			WINDOW_MS,
		);
	}

	/** Ticks every 10 ms until every run has ended, or 20 windows after the last start. */
	play(): this {
		const endOfLoad = Math.max(...this.options.starts.map((start) => start.at)) + 20 * WINDOW_MS;
		const idle = (process: SimulatedProcess) =>
			process.run === undefined && process.queue.length === 0;
		for (this.now = 0; this.now < endOfLoad; this.now += 10) {
			for (const process of this.processes) this.step(process);
			if (this.processes.every(idle)) break;
		}
		return this;
	}

	/** One process's turn now: start a due run, wait, give up, or send the run's next page. */
	private step(process: SimulatedProcess): void {
		if (this.now < process.busyUntil) return;
		if (process.run === undefined) {
			if (process.queue.length === 0 || process.queue[0] > this.now) return;
			process.queue.shift();
			process.run = { page: 0, waitingSince: this.now };
		}
		const sendableAt = process.rate.sendableAt(this.now);
		if (sendableAt <= this.now) {
			this.send(process, process.run);
		} else if (sendableAt - process.run.waitingSince > this.options.maxWaitMs) {
			this.stopped++;
			this.pagesWasted += process.run.page;
			process.run = undefined;
		}
	}

	private send(process: SimulatedProcess, run: { page: number; waitingSince: number }): void {
		const { now } = this;
		const { latencyMs } = this.options;
		process.rate.sent(now);
		const arrival = now + latencyMs / 2;
		const verdict = this.limiter.take('client', arrival);
		process.busyUntil = now + latencyMs;
		if (!verdict.allowed) {
			this.refused++;
			process.rate.answered(now + latencyMs, {
				kind: 'refused',
				retryAfterMs: verdict.retryAfterSeconds * 1000,
			});
			return;
		}
		this.acceptedAt.push(arrival);
		process.rate.answered(now + latencyMs, counted);
		run.page++;
		run.waitingSince = now + latencyMs;
		if (run.page === this.options.pages) {
			this.completed++;
			process.run = undefined;
		}
	}
}

function simulate(options: SimulationOptions): SharedLimit {
	const defaults = { pages: 3, latencyMs: 30, maxWaitMs: 120_000, seed: 1 };
	return new SharedLimit({ ...defaults, ...options }).play();
}

/** `runs` starts evenly over `overMs`, taking the processes in turn from `first`. */
function evenly(runs: number, overMs: number, processes: number, first = 0) {
	return Array.from({ length: runs }, (_, run) => ({
		at: first + (run * overMs) / runs,
		process: run % processes,
	}));
}

describe('RateShare against the sandbox limiter, on a virtual clock', () => {
	it('one process alone asking for twice the limit: 100 accepted in a window and no 429', () => {
		const figures = simulate({ processes: 1, starts: evenly(67, WINDOW_MS, 1) });
		expect(figures.refused).toBe(0);
		expect(figures.busiestFrom()).toBe(LIMIT);
		expect(figures.completed + figures.stopped).toBe(67);
	});

	it.each([1, 2, 3, 4, 5])(
		'main and two workers spread over the window (seed %i): few 429s, every run accounted for',
		(seed) => {
			const figures = simulate({ processes: 3, starts: evenly(75, WINDOW_MS, 3), seed });
			expect(figures.busiestFrom()).toBeLessThanOrEqual(LIMIT);
			expect(figures.completed + figures.stopped).toBe(75);
			expect(figures.refused).toBeLessThanOrEqual(12);
			expect(figures.completed).toBeGreaterThanOrEqual(58);
			expect(figures.pagesWasted).toBeLessThanOrEqual(10);
		},
	);

	it('a steady overload for an hour costs about one 429 per process per window, not one per freed slot', () => {
		const figures = simulate({ processes: 3, starts: evenly(900, 12 * WINDOW_MS, 3) });
		expect(figures.busiestFrom()).toBeLessThanOrEqual(LIMIT);
		// 12 windows of accepted requests at close to the whole limit.
		expect(figures.acceptedAt.length).toBeGreaterThanOrEqual(12 * LIMIT * 0.9);
		expect(figures.refused).toBeLessThanOrEqual(3 * 13);
	});

	it('a worker left alone after an overload grows back to the whole limit within two windows', () => {
		const overload = evenly(150, WINDOW_MS, 3);
		// Then only worker 0 asks, for twice the limit, from the third window on.
		const alone = evenly(200, 3 * WINDOW_MS, 1, 2 * WINDOW_MS);
		const figures = simulate({ processes: 3, starts: [...overload, ...alone] });
		expect(figures.refused).toBeGreaterThan(0);
		expect(figures.busiestFrom()).toBeLessThanOrEqual(LIMIT);
		expect(figures.busiestFrom(4 * WINDOW_MS)).toBe(LIMIT);
	});
});
