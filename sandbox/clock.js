// @ts-check
'use strict';

const DAY_MS = 86_400_000;

/**
 * The sandbox's own time. It runs with the real clock plus an offset, so a long-running demo
 * sees time pass, while a test can jump ahead (token expiry, the rate window, the cache, due
 * dates) without waiting.
 * @typedef {object} SandboxClock
 * @property {() => number} now Milliseconds since the epoch, sandbox time.
 * @property {(ms: number) => void} advance Move forward (or back, with a negative number) by ms.
 * @property {() => number} today Whole days since the epoch (UTC) of now().
 */

/** @param {Date | string | number} value */
function toEpochMs(value) {
	const ms =
		value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
	if (typeof ms !== 'number' || !Number.isFinite(ms)) {
		throw new Error(
			`now must be a Date, an ISO 8601 date-time string or epoch milliseconds (got ${JSON.stringify(value)})`,
		);
	}
	return ms;
}

/**
 * @param {Date | string | number} [start] when omitted, the sandbox clock starts at real time
 * @returns {SandboxClock}
 */
function createClock(start) {
	let offset = start === undefined ? 0 : toEpochMs(start) - Date.now();
	const now = () => Date.now() + offset;
	return {
		now,
		advance(ms) {
			if (typeof ms !== 'number' || !Number.isFinite(ms)) {
				throw new Error(
					`clock.advance(ms) needs a finite number of milliseconds (got ${JSON.stringify(ms)})`,
				);
			}
			offset += ms;
		},
		today: () => Math.floor(now() / DAY_MS),
	};
}

/** @param {number} day whole days since the epoch @returns {string} YYYY-MM-DD */
const dayToIso = (day) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/**
 * @param {string} iso YYYY-MM-DD
 * @returns {number | undefined} whole days since the epoch, or undefined when not a real calendar date
 */
function isoToDay(iso) {
	if (!/^\d{4}-\d{2}-\d{2}$/.test(iso)) return undefined;
	const ms = Date.parse(`${iso}T00:00:00Z`);
	if (!Number.isFinite(ms)) return undefined;
	const day = ms / DAY_MS;
	// Date.parse rolls 2025-02-30 over to March; a calendar date must survive the round trip.
	return dayToIso(day) === iso ? day : undefined;
}

module.exports = { createClock, dayToIso, isoToDay };
