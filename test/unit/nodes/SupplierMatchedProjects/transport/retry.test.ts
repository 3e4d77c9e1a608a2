import {
	backoffDelay,
	DEFAULT_RETRY_POLICY,
	isRetryableStatus,
	parseRetryAfter,
} from '../../../../../nodes/SupplierMatchedProjects/transport/retry';

describe('retry policy', () => {
	it('backs off exponentially with full jitter, capped', () => {
		const policy = { baseDelayMs: 500, maxDelayMs: 15_000 };
		expect([1, 2, 3, 4, 5, 6, 7].map((attempt) => backoffDelay(attempt, policy, () => 1))).toEqual([
			500, 1000, 2000, 4000, 8000, 15_000, 15_000,
		]);
		expect(backoffDelay(3, policy, () => 0)).toBe(0);
		expect(backoffDelay(3, policy, () => 0.25)).toBe(500);
	});

	it('keeps production defaults that bound every wait', () => {
		expect(DEFAULT_RETRY_POLICY).toEqual({
			maxAttempts: 5,
			baseDelayMs: 500,
			maxDelayMs: 15_000,
			maxTotalWaitMs: 120_000,
			requestTimeoutMs: 30_000,
		});
		expect(Object.isFrozen(DEFAULT_RETRY_POLICY)).toBe(true);
	});

	it.each([
		[400, false],
		[404, false],
		[429, true],
		[500, true],
		[599, true],
	])('status %p retryable: %p', (status, retryable) => {
		expect(isRetryableStatus(status)).toBe(retryable);
	});

	describe('parseRetryAfter', () => {
		const now = Date.parse('2030-01-01T00:00:00Z');

		it.each([
			['0', 0],
			['120', 120_000],
			[' 5 ', 5000],
			[['3'], 3000],
			[7, 7000],
			['Tue, 01 Jan 2030 00:00:30 GMT', 30_000],
			['Mon, 31 Dec 2029 23:59:00 GMT', 0],
			// At most the API's 5-minute window, after which one request probes.
			['300', 300_000],
			['301', 300_000],
			['86400', 300_000],
			['99999999999999999999999', 300_000],
			[86_400, 300_000],
			['Fri, 01 Jan 2100 00:00:00 GMT', 300_000],
		])('reads %p as %p ms', (value, ms) => {
			expect(parseRetryAfter(value, now)).toBe(ms);
		});

		it.each([undefined, '', 'soon', '-1', '1.5', null, {}])('ignores %p', (value) => {
			expect(parseRetryAfter(value, now)).toBeUndefined();
		});
	});
});
