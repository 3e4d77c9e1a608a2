// @ts-check
'use strict';

/**
 * The run's timeline, from the flags alone: the floor cycle the rate limit allows, when tenders
 * open, and the quiet tail at the end in which none opens, so that a tender still unannounced
 * when the run ends had time to be announced.
 */

/** The triggers poll every minute. */
const POLL_INTERVAL_MS = 60_000;
/** A page holds at most 100 projects. */
const PAGE_SIZE = 100;
/** The sandbox's (and the API's) limit, 100 requests per 5 minutes per client: one per 3 s. */
const SLOT_MS = 3_000;
/** Tenders the default --tender-every opens in a run. */
const TARGET_TENDERS = 25;

/**
 * @param {number} value
 * @param {number} low
 * @param {number} high
 */
const clamp = (value, low, high) => Math.min(Math.max(value, low), high);

/**
 * @typedef {object} Plan
 * @property {number} pagesPerWalk at the start, with the projects each company has then
 * @property {number} floorMs companies × pages per walk × 3 s, or the poll interval if larger:
 *   the shortest cycle in which every company can have one complete walk within the rate limit
 * @property {number} runMs how long the run measures after the last activation
 * @property {number} warmupMs from the start to the first tender: one floor cycle and one poll
 *   interval (at most a quarter of the run), so the first complete walks record their baseline
 * @property {number} tailMs from the last tender to the end: three floor cycles, at least a third
 *   and at most half of the run
 * @property {number} everyMs between two tenders
 * @property {number[]} tenderAtMs when each tender opens, from the start
 */

/**
 * @param {{ companies: number, projects: number, minutes: number, tenderEverySeconds?: number }} flags
 * @returns {Plan}
 */
function planRun({ companies, projects, minutes, tenderEverySeconds }) {
	const pagesPerWalk = Math.max(1, Math.ceil(projects / PAGE_SIZE));
	const floorMs = Math.max(companies * pagesPerWalk * SLOT_MS, POLL_INTERVAL_MS);
	const runMs = minutes * 60_000;
	const warmupMs = Math.min(floorMs + POLL_INTERVAL_MS, runMs / 4);
	const tailMs = clamp(3 * floorMs, runMs / 3, runMs / 2);
	const windowMs = runMs - warmupMs - tailMs;
	const everyMs =
		tenderEverySeconds === undefined ? windowMs / (TARGET_TENDERS - 1) : tenderEverySeconds * 1000;
	/** @type {number[]} */
	const tenderAtMs = [];
	for (let index = 0; warmupMs + index * everyMs <= warmupMs + windowMs + 1; index++) {
		tenderAtMs.push(Math.round(warmupMs + index * everyMs));
	}
	return { pagesPerWalk, floorMs, runMs, warmupMs, tailMs, everyMs, tenderAtMs };
}

module.exports = { planRun, POLL_INTERVAL_MS, PAGE_SIZE, SLOT_MS };
