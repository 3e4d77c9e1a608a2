// @ts-check
'use strict';

/**
 * The complete walks each company had, read from the sandbox's request log, and the longest a
 * company waited between the starts of two of them. A walk starts with an accepted first page (a
 * results request without a cursor) and is complete once as many pages were accepted after it,
 * cursor by cursor, as the company's matched projects fill at the walk's page size; a new first
 * page before that abandons it. Refused requests (429 and any other error) neither start nor
 * advance a walk, so a walk retried or spread over several polls still counts once.
 */

/** @typedef {import('../../../sandbox/server').RequestLogEntry} RequestLogEntry */
/** @typedef {RequestLogEntry & { ms: number, companyId: string }} TimedRequest */

/** Without `limit`, the API answers 25 projects a page. */
const DEFAULT_PAGE_SIZE = 25;

/**
 * @param {RequestLogEntry['query'][string] | undefined} value
 * @returns {string | undefined}
 */
const single = (value) => (Array.isArray(value) ? value[0] : value);

/**
 * @param {TimedRequest[]} requests one company's, oldest first
 * @param {(ms: number) => number} matchedAt the company's matched projects at that instant
 * @returns {{ startMs: number, endMs: number, pages: number }[]}
 */
function completeWalks(requests, matchedAt) {
	/** @type {{ startMs: number, endMs: number, pages: number }[]} */
	const walks = [];
	/** @type {{ startMs: number, pages: number, needed: number } | undefined} */
	let walk;
	for (const request of requests) {
		if (request.status !== 200) continue;
		if (!single(request.query.cursor)) {
			const pageSize = Number(single(request.query.limit) ?? DEFAULT_PAGE_SIZE);
			const needed = Math.max(1, Math.ceil(matchedAt(request.ms) / pageSize));
			walk = { startMs: request.ms, pages: 0, needed };
		}
		if (walk === undefined) continue;
		walk.pages++;
		if (walk.pages >= walk.needed) {
			walks.push({ startMs: walk.startMs, endMs: request.ms, pages: walk.pages });
			walk = undefined;
		}
	}
	return walks;
}

/**
 * @typedef {object} CompanyWalks
 * @property {string} companyId
 * @property {number} completeWalks
 * @property {number} longestGapMs the longest time between two starts of complete walks, counting
 *   from the activation before the first and to the end of the run after the last
 * @property {number} longestGapCycles longestGapMs in floor cycles
 * @property {number | undefined} baselineMs when the first complete walk ended: what opens before
 *   may be in the baseline the trigger records and never announces
 */

/**
 * @param {{ requests: TimedRequest[], companyIds: string[], projects: number, opened: import('./sandbox').OpenedTender[], activatedMs: Map<string, number>, endMs: number, floorMs: number }} input
 *   activatedMs: when each company's activation was asked for
 * @returns {CompanyWalks[]}
 */
function walksByCompany({ requests, companyIds, projects, opened, activatedMs, endMs, floorMs }) {
	return companyIds.map((companyId) => {
		const own = requests.filter((request) => request.companyId === companyId);
		const openedAt = opened
			.filter((tender) => tender.companyId === companyId)
			.map((tender) => tender.openedAtMs);
		const matchedAt = (/** @type {number} */ ms) =>
			projects + openedAt.filter((at) => at <= ms).length;
		const walks = completeWalks(own, matchedAt);
		const fromMs = activatedMs.get(companyId) ?? walks[0]?.startMs ?? endMs;
		const points = [
			fromMs,
			...walks.map((walk) => walk.startMs).filter((ms) => ms >= fromMs),
			endMs,
		];
		let longestGapMs = 0;
		for (let index = 1; index < points.length; index++) {
			longestGapMs = Math.max(longestGapMs, points[index] - points[index - 1]);
		}
		return {
			companyId,
			completeWalks: walks.length,
			longestGapMs,
			longestGapCycles: longestGapMs / floorMs,
			baselineMs: walks[0]?.endMs,
		};
	});
}

module.exports = { walksByCompany, completeWalks };
