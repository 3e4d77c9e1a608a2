// @ts-check
'use strict';

/**
 * The account the issue measured the tool on, built by the sandbox's own data generator: 237
 * projects as the API returns them, each with 1 to 3 tenders, two consultants and two tendering
 * subcontractors. The generator gives 0-3 consultants, 0-5 subcontractors and 1-5 tenders, so
 * each project is trimmed or filled from the parties other projects got.
 */

const { isoToDay } = require('../../sandbox/clock');
const { generateProjects, tenderWords, words } = require('../../sandbox/data');
const { DEFAULT_COMPANIES } = require('../../sandbox/fixtures');
const { createRandom, deriveSeed } = require('../../sandbox/random');
const { toApiProject } = require('../../sandbox/store');

/** @typedef {import('../../sandbox/types').Party} Party */
/** @typedef {import('../../sandbox/types').Project} Project */

/**
 * @param {Party[]} own
 * @param {Party[]} pool
 * @param {number} count
 * @param {number} offset where in the pool to start filling, so projects differ
 * @returns {Party[]}
 */
function exactly(own, pool, count, offset) {
	const parties = own.slice(0, count);
	for (let index = offset; parties.length < count; index++) {
		const party = pool[index % pool.length];
		if (!parties.some((chosen) => chosen.name === party.name)) parties.push(party);
	}
	return parties;
}

/**
 * @param {{ count?: number, seed?: number, today?: string }} [options]
 * @returns {Project[]} in the API's order: earliest quotes due first, projects without a date last
 *   (as the sandbox's store turns its entries into API projects)
 */
function realisticAccount({ count = 237, seed = 1, today = '2026-11-25' } = {}) {
	const day = /** @type {number} */ (isoToDay(today));
	const { projects } = generateProjects(createRandom(deriveSeed(seed, 'data')), {
		count,
		today: day,
		windowDays: 60,
	});
	const keywords = DEFAULT_COMPANIES[0].keywords;
	const consultants = projects.flatMap((project) => project.consultants);
	const subcontractors = projects.flatMap((project) => project.tenderingSubcontractors);
	const entries = projects.map((project, index) => {
		const tenders = project.tenders.slice(0, 1 + (index % 3)).map((tender) => {
			const tenderWordList = tenderWords(tender.name, tender.type);
			const matched = keywords.filter((keyword) =>
				words(keyword).every((word) => tenderWordList.includes(word)),
			);
			return {
				// The API lists only open tenders, due from today on.
				tender: {
					...tender,
					dueDay: tender.dueDay === null ? null : Math.max(day, tender.dueDay),
					status: /** @type {const} */ ('Open'),
				},
				matchedKeywords: matched.length > 0 ? matched : [keywords[index % keywords.length]],
			};
		});
		const dueDays = tenders.flatMap(({ tender }) =>
			tender.dueDay === null ? [] : [tender.dueDay],
		);
		return {
			dueKey: dueDays.length > 0 ? Math.min(...dueDays) : Infinity,
			projectId: project.projectId,
			project: {
				...project,
				consultants: exactly(project.consultants, consultants, 2, index),
				tenderingSubcontractors: exactly(project.tenderingSubcontractors, subcontractors, 2, index),
			},
			tenders,
		};
	});
	entries.sort((a, b) => a.dueKey - b.dueKey || a.projectId.localeCompare(b.projectId));
	return entries.map(toApiProject);
}

module.exports = { realisticAccount };
