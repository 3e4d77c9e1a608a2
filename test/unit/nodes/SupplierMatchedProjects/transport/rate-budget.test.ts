import {
	RateBudget,
	type RateAnswer,
} from '../../../../../nodes/SupplierMatchedProjects/transport/rate-budget';

describe('RateBudget', () => {
	/** Takes a slot on the key and answers it at once as the API did. */
	async function sendOn(budget: RateBudget, key: string, answer: RateAnswer, deadline: number) {
		const outcome = await budget.acquire(key, deadline);
		if (outcome.acquired) budget.answered(key, answer);
		return outcome;
	}

	const counted: RateAnswer = { kind: 'counted' };

	/** A budget on a fake clock whose sleeps pass at once, each recorded. */
	function budgetOn(options: {
		limit: number;
		windowMs: number;
		random?: () => number;
		burst?: number;
	}) {
		let time = 1_000_000;
		const clock = {
			now: () => time,
			advance: (ms: number) => {
				time += ms;
			},
			sleeps: [] as number[],
			sleep: async (ms: number) => {
				clock.sleeps.push(ms);
				time += ms;
			},
		};
		return { clock, budget: new RateBudget({ ...options, ...clock }) };
	}

	const refusal = (waitMs: number, spentBy: 'process' | 'api', queued = false) => ({
		acquired: false,
		waitMs,
		spentBy,
		queued,
	});

	it('lets `limit` sends through, then waits for the oldest answer to leave the window', async () => {
		const { clock, budget } = budgetOn({ limit: 3, windowMs: 1000 });
		const far = clock.now() + 60_000;
		for (let i = 0; i < 3; i++) {
			expect(await sendOn(budget, 'a', counted, far)).toEqual({ acquired: true });
			clock.advance(100);
		}
		expect(budget.room('a').free).toBe(0);
		expect(await budget.acquire('a', far)).toEqual({ acquired: true });
		expect(clock.sleeps).toEqual([700]);
		expect(budget.room('a').free).toBe(0);
	});

	it('gives up at once, without waiting, when no slot frees up before the deadline', async () => {
		const { clock, budget } = budgetOn({ limit: 2, windowMs: 1000 });
		await sendOn(budget, 'a', counted, clock.now());
		await sendOn(budget, 'a', counted, clock.now());
		expect(await budget.acquire('a', clock.now() + 999)).toEqual(refusal(1000, 'process'));
		expect(clock.sleeps).toEqual([]);
		expect(budget.room('a').free).toBe(0);
	});

	it('keeps a separate window per credential, and counts a request in flight until its answer', async () => {
		const { clock, budget } = budgetOn({ limit: 1, windowMs: 1000 });
		expect(await budget.acquire('a', clock.now())).toEqual({ acquired: true });
		expect(await budget.acquire('b', clock.now())).toEqual({ acquired: true });
		clock.advance(400);
		// Still in flight: it leaves the window no sooner than a window after an answer now.
		expect(await budget.acquire('a', clock.now())).toEqual(refusal(1000, 'process'));
		budget.answered('a', counted);
		clock.advance(999);
		expect(budget.room('a').free).toBe(0);
		clock.advance(1);
		expect(budget.room('a').free).toBe(1);
	});

	it('after a 429 with Retry-After, holds back every caller on the key until then, counted by the API', async () => {
		const { clock, budget } = budgetOn({ limit: 100, windowMs: 300_000, random: () => 0 });
		await sendOn(budget, 'a', { kind: 'refused', retryAfterMs: 5000 }, clock.now());
		expect(budget.room('a').free).toBe(0);
		expect(await budget.acquire('a', clock.now() + 4999)).toEqual(refusal(5000, 'api'));
		expect(clock.sleeps).toEqual([]);
		expect(await budget.acquire('b', clock.now())).toEqual({ acquired: true });
		expect(await budget.acquire('a', clock.now() + 5000)).toEqual({ acquired: true });
		expect(clock.sleeps).toEqual([5000]);
	});

	it('after a 429, keeps to the share of the window it holds: a new send only as one of its own leaves', async () => {
		// Halving a limit of 2 leaves 1: the request it holds in the window.
		const { clock, budget } = budgetOn({ limit: 2, windowMs: 60_000, random: () => 0 });
		await sendOn(budget, 'a', counted, clock.now());
		clock.advance(10_000);
		await sendOn(budget, 'a', { kind: 'refused', retryAfterMs: 2000 }, clock.now());
		expect(await budget.acquire('a', clock.now() + 60_000)).toEqual({ acquired: true });
		expect(clock.sleeps).toEqual([50_000]);
	});

	it('says how long until a send fits, and who counted the window full', async () => {
		const { clock, budget } = budgetOn({ limit: 1, windowMs: 60_000, random: () => 0 });
		expect(budget.spentFor('a')).toBeUndefined();
		await sendOn(budget, 'a', counted, clock.now());
		clock.advance(1000);
		expect(budget.spentFor('a')).toEqual({ waitMs: 59_000, spentBy: 'process' });
		await sendOn(budget, 'b', { kind: 'refused', retryAfterMs: 70_000 }, clock.now());
		expect(budget.spentFor('b')).toEqual({ waitMs: 60_000, spentBy: 'api' });
		// A Retry-After pauses as long as it says, but never longer than the window.
		const ten = new RateBudget({ limit: 10, windowMs: 60_000, random: () => 0, ...clock });
		await sendOn(ten, 'a', { kind: 'refused', retryAfterMs: 50_000 }, clock.now());
		expect(ten.spentFor('a')).toEqual({ waitMs: 50_000, spentBy: 'api' });
		await sendOn(ten, 'b', { kind: 'refused', retryAfterMs: 86_400_000 }, clock.now());
		expect(ten.spentFor('b')).toEqual({ waitMs: 60_000, spentBy: 'api' });
	});

	it('counts neither a 429 nor a request that never reached the API', async () => {
		const { clock, budget } = budgetOn({ limit: 5, windowMs: 60_000 });
		await sendOn(budget, 'a', counted, clock.now());
		await sendOn(budget, 'a', { kind: 'notSent' }, clock.now());
		expect(budget.room('a').free).toBe(4);
		await sendOn(budget, 'a', { kind: 'refused' }, clock.now());
		// A 429 without Retry-After: no pause, but the allowance halves (to 2, one of them used).
		expect(budget.room('a').free).toBe(1);
	});

	it('spends an idle credential in a short burst, then one request per window/limit', async () => {
		const { clock, budget } = budgetOn({ limit: 100, windowMs: 300_000, burst: 3 });
		const sentAt: number[] = [];
		for (let i = 0; i < 6; i++) {
			await sendOn(budget, 'a', counted, clock.now() + 60_000);
			sentAt.push(clock.now());
		}
		const start = sentAt[0];
		expect(sentAt.map((at) => at - start)).toEqual([0, 0, 0, 3000, 6000, 9000]);
	});

	it('never lets more than the limit into any window, however long the demand lasts', async () => {
		const { clock, budget } = budgetOn({ limit: 100, windowMs: 300_000, burst: 10 });
		const sentAt: number[] = [];
		for (let i = 0; i < 400; i++) {
			await sendOn(budget, 'a', counted, clock.now() + 300_000);
			sentAt.push(clock.now());
		}
		for (let i = 100; i < sentAt.length; i++) {
			expect(sentAt[i] - sentAt[i - 100]).toBeGreaterThanOrEqual(300_000);
		}
		// Even: after the burst no gap is longer than the burst's own pace (10 requests, 30 s).
		const gaps = sentAt.slice(1).map((at, i) => at - sentAt[i]);
		expect(Math.max(...gaps)).toBeLessThanOrEqual(30_000);
		// And the average reaches the limit: 400 requests in at most 4 windows and a burst.
		expect(sentAt[399] - sentAt[0]).toBeLessThanOrEqual(4 * 300_000);
	});

	it('serves waiting requests in turn: runs first, then the trigger whose last complete walk is oldest', async () => {
		const { clock, budget } = budgetOn({ limit: 100, windowMs: 300_000, burst: 1 });
		await sendOn(budget, 'a', counted, clock.now());
		const served: string[] = [];
		const far = clock.now() + 600_000;
		const ask = async (name: string, turn: { background: boolean; since: number }) => {
			const outcome = await budget.acquire('a', far, turn);
			if (outcome.acquired) budget.answered('a', counted);
			served.push(name);
		};
		await Promise.all([
			ask('trigger walked at 300', { background: true, since: 300 }),
			ask('trigger walked at 100', { background: true, since: 100 }),
			ask('run started at 500', { background: false, since: 500 }),
			ask('trigger that never walked', { background: true, since: 0 }),
		]);
		expect(served).toEqual([
			'run started at 500',
			'trigger that never walked',
			'trigger walked at 100',
			'trigger walked at 300',
		]);
		expect(clock.sleeps).toEqual([3000, 3000, 3000, 3000]);
	});

	it('lets a waiter go at once when its place in the queue cannot come before its deadline', async () => {
		let time = 1_000_000;
		const wakes: Array<() => void> = [];
		const budget = new RateBudget({
			limit: 100,
			windowMs: 300_000,
			burst: 1,
			now: () => time,
			sleep: async (ms) => {
				await new Promise<void>((wake) => wakes.push(wake));
				time += ms;
			},
		});
		await sendOn(budget, 'a', counted, time);
		const first = budget.acquire('a', time + 60_000, { background: true, since: 1 });
		// Behind the first, its turn comes in 6 s: a deadline of 5 s cannot be met.
		const second = await budget.acquire('a', time + 5_000, { background: true, since: 2 });
		expect(second).toEqual(refusal(6000, 'process', true));
		expect(budget.waiting('a')).toBe(1);
		wakes.shift()?.();
		expect(await first).toEqual({ acquired: true });
		expect(budget.waiting('a')).toBe(0);
	});

	it('never lets concurrent callers through beyond the limit', async () => {
		const { clock, budget } = budgetOn({ limit: 5, windowMs: 1000 });
		const outcomes = await Promise.all(
			Array.from({ length: 8 }, async () => await budget.acquire('a', clock.now() + 10)),
		);
		expect(outcomes.filter((outcome) => outcome.acquired)).toHaveLength(5);
		expect(budget.room('a').free).toBe(0);
	});
});
