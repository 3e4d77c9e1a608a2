import { API_RATE_WINDOW_MS } from './rate-budget';

export interface RetryPolicy {
	/** Sends per call, the first included. */
	maxAttempts: number;
	/** Backoff before the second attempt; it doubles for each further one. */
	baseDelayMs: number;
	/** Cap on a single backoff. */
	maxDelayMs: number;
	/** Cap on all waiting in one call: backoff, Retry-After and the rate budget together. */
	maxTotalWaitMs: number;
	/** Each request is abandoned after this long without a full answer. */
	requestTimeoutMs: number;
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
	maxAttempts: 5,
	baseDelayMs: 500,
	maxDelayMs: 15_000,
	maxTotalWaitMs: 120_000,
	requestTimeoutMs: 30_000,
});

/** 429 is a rate limit and 5xx a downstream failure: both may pass. Never a 400. */
export function isRetryableStatus(status: number): boolean {
	return status === 429 || (status >= 500 && status <= 599);
}

/**
 * Exponential backoff with full jitter: a random wait up to the exponential step, so callers that
 * failed together do not come back together.
 */
export function backoffDelay(
	attempt: number,
	policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>,
	random: () => number = Math.random,
): number {
	const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
	return Math.round(random() * step);
}

/**
 * The longest Retry-After honoured: the API's rate window, after which its count of this
 * credential has emptied, so one request may probe. Longer (a gateway's 86400, a date in 2100)
 * would lock the credential in this process until a restart.
 */
export const MAX_RETRY_AFTER_MS = API_RATE_WINDOW_MS;

/**
 * Retry-After as milliseconds from now: delay-seconds or an HTTP date (RFC 9110 section 10.2.3),
 * at most MAX_RETRY_AFTER_MS. Undefined when absent or unreadable; a date in the past means no wait.
 */
export function parseRetryAfter(value: unknown, now: number): number | undefined {
	const ms = retryAfterMs(Array.isArray(value) ? value[0] : value, now);
	return ms === undefined ? undefined : Math.min(ms, MAX_RETRY_AFTER_MS);
}

function retryAfterMs(header: unknown, now: number): number | undefined {
	if (typeof header === 'number') return header >= 0 ? header * 1000 : undefined;
	if (typeof header !== 'string') return undefined;
	const trimmed = header.trim();
	if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
	if (!/[a-z]/i.test(trimmed)) return undefined;
	const at = Date.parse(trimmed);
	return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
