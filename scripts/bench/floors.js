// @ts-check
'use strict';

/** The floors the bench holds every client to, kept pure so a unit test can pin them down. */

/** The API's largest page. */
const MAX_PAGE_SIZE = 100;
/** What the API sends when `limit` is left out. */
const DEFAULT_PAGE_SIZE = 25;

/**
 * Results requests a complete walk needs at a page size: one per page, and one for an empty
 * company (the first request is needed to learn there is nothing).
 * @param {number} projects
 * @param {number} pageSize
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
 */
function tokenFloor(spanMs, lifetimeMs) {
	if (!(spanMs >= 0) || !(lifetimeMs > 0)) {
		throw new Error(
			`tokenFloor: needs a span of 0 or more and a positive lifetime (got ${spanMs}, ${lifetimeMs})`,
		);
	}
	return Math.floor(spanMs / lifetimeMs) + 1;
}

module.exports = { MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE, pagesFor, requestFloor, tokenFloor };
