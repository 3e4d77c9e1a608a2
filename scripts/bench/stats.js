// @ts-check
'use strict';

/**
 * The bench's arithmetic, kept pure so a unit test can pin it down: floors, medians, ratios and
 * the verdict on each target.
 */

/** The API's largest page. */
const MAX_PAGE_SIZE = 100;
/** What the API sends when `limit` is left out. */
const DEFAULT_PAGE_SIZE = 25;

/**
 * Results requests a complete walk needs at a page size: one per page, and one for an empty
 * company (the first request is needed to learn there is nothing).
 * @param {number} projects
 * @param {number} pageSize
 * @returns {number}
 */
function pagesFor(projects, pageSize) {
	if (!Number.isInteger(projects) || projects < 0) {
		throw new Error(`pagesFor: projects must be a whole number, 0 or more (got ${projects})`);
	}
	if (!Number.isInteger(pageSize) || pageSize < 1) {
		throw new Error(`pagesFor: pageSize must be a whole number, 1 or more (got ${pageSize})`);
	}
	return Math.max(1, Math.ceil(projects / pageSize));
}

/**
 * The physical floor of a full walk: every page at the largest size, and one token.
 * @param {number} projects
 * @returns {{ results: number, tokens: number }}
 */
function requestFloor(projects) {
	return { results: pagesFor(projects, MAX_PAGE_SIZE), tokens: 1 };
}

/**
 * Tokens one credential needs at best over a span of time in one process: one per token lifetime
 * started (a token is fetched at the start and again each time the previous one is used up).
 * @param {number} spanMs time from the first request to the last
 * @param {number} lifetimeMs
 * @returns {number}
 */
function tokenFloor(spanMs, lifetimeMs) {
	if (!(spanMs >= 0) || !(lifetimeMs > 0)) {
		throw new Error(
			`tokenFloor: needs a span of 0 or more and a positive lifetime (got ${spanMs}, ${lifetimeMs})`,
		);
	}
	return Math.floor(spanMs / lifetimeMs) + 1;
}

/**
 * The median; for an even count, the mean of the two middle values.
 * @param {readonly number[]} values
 * @returns {number}
 */
function median(values) {
	if (values.length === 0) throw new Error('median: no values');
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * @param {number} measured
 * @param {number} floor
 * @returns {number}
 */
function ratio(measured, floor) {
	if (!(floor > 0)) throw new Error(`ratio: the floor must be positive (got ${floor})`);
	return measured / floor;
}

/**
 * Items per second of CPU (or wall) time.
 * @param {number} items
 * @param {number} ms
 * @returns {number}
 */
function perSecond(items, ms) {
	if (!(ms > 0)) throw new Error(`perSecond: the time must be positive (got ${ms})`);
	return (items * 1000) / ms;
}

/**
 * @typedef {object} Verdict
 * @property {string} target what was promised, in words
 * @property {string} measured what this run measured, in words
 * @property {boolean} met
 */

/**
 * @param {string} target
 * @param {number} measured
 * @param {'<=' | '>=' | '<'} comparison
 * @param {number} limit
 * @param {(value: number) => string} format
 * @returns {Verdict}
 */
function verdict(target, measured, comparison, limit, format) {
	const met =
		comparison === '<='
			? measured <= limit
			: comparison === '<'
				? measured < limit
				: measured >= limit;
	return { target, measured: format(measured), met };
}

module.exports = {
	MAX_PAGE_SIZE,
	DEFAULT_PAGE_SIZE,
	pagesFor,
	requestFloor,
	tokenFloor,
	median,
	ratio,
	perSecond,
	verdict,
};
