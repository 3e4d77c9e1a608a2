// @ts-check
'use strict';

/** @typedef {import('./clock').SandboxClock} SandboxClock */

/**
 * `requests`: how many a credential may make per window.
 * @typedef {{ requests: number, windowSeconds: number }} RateLimit
 */

/**
 * Sliding-window limiter on the sandbox clock: a request is allowed when fewer than `requests`
 * allowed requests fall in the last `windowSeconds`. Refused requests do not use up the budget.
 * @param {RateLimit | false} limit
 * @param {SandboxClock} clock
 */
function createRateLimiter(limit, clock) {
	/** @type {Map<string, number[]>} */
	const allowedAt = new Map();

	return {
		/**
		 * @param {string} key the credential (client id)
		 * @param {number} [now] the request's instant, when the caller logs it
		 * @returns {{ allowed: true } | { allowed: false, retryAfterSeconds: number }}
		 */
		take(key, now = clock.now()) {
			if (limit === false) return { allowed: true };
			const windowMs = limit.windowSeconds * 1000;
			const times = (allowedAt.get(key) ?? []).filter((at) => at > now - windowMs);
			allowedAt.set(key, times);
			if (times.length >= limit.requests) {
				// The oldest allowed request leaves the window first; that is when a slot frees.
				const freesAt = Math.min(...times) + windowMs;
				return {
					allowed: false,
					retryAfterSeconds: Math.max(1, Math.ceil((freesAt - now) / 1000)),
				};
			}
			times.push(now);
			return { allowed: true };
		},
	};
}

module.exports = { createRateLimiter };
