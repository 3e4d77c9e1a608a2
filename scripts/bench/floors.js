// @ts-check
'use strict';

/** The floors the bench holds every client to. */

/** The API's largest page. */
const MAX_PAGE_SIZE = 100;
/** What the API sends when `limit` is left out. */
const DEFAULT_PAGE_SIZE = 25;

/**
 * Results requests of a complete walk: one per page, and one to learn that there is nothing.
 * @param {number} projects
 * @param {number} pageSize
 */
const pagesFor = (projects, pageSize) => Math.max(1, Math.ceil(projects / pageSize));

/**
 * The physical floor of a full walk: every page at the largest size, and one token.
 * @param {number} projects
 */
const requestFloor = (projects) => ({ results: pagesFor(projects, MAX_PAGE_SIZE), tokens: 1 });

/**
 * Tokens one credential needs at best over a span in one process: one per lifetime started.
 * @param {number} spanMs from the first request to the last
 * @param {number} lifetimeMs
 */
const tokenFloor = (spanMs, lifetimeMs) => Math.floor(spanMs / lifetimeMs) + 1;

module.exports = { MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE, pagesFor, requestFloor, tokenFloor };
