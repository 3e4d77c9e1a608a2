// @ts-check
'use strict';

/**
 * The account the issue measured the tool on, built by the sandbox's own data generator: 237
 * projects as the API returns them, each with 1 to 3 tenders, two consultants and two tendering
 * subcontractors. The generator gives 0-3 consultants, 0-5 subcontractors and 1-5 tenders, so
 * each project is trimmed or filled from the parties other projects got.
 */

const { dayToIso, isoToDay } = require('../../sandbox/clock');
const { generateProjects, tenderWords, words } = require('../../sandbox/data');
const { DEFAULT_COMPANIES } = require('../../sandbox/fixtures');
const { createRandom, deriveSeed } = require('../../sandbox/random');

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
	/** @type {Project[]} */
	const account = projects.map((project, index) => ({
		projectId: project.projectId,
		projectName: project.projectName,
		address: project.address,
		category: project.category,
		budget: project.budget,
		status: project.status,
		consultants: exactly(project.consultants, consultants, 2, index),
		tenders: project.tenders.slice(0, 1 + (index % 3)).map((tender) => {
			const tenderWordList = tenderWords(tender.name, tender.type);
			const matched = keywords.filter((keyword) =>
				words(keyword).every((word) => tenderWordList.includes(word)),
			);
			return {
				id: tender.id,
				name: tender.name,
				type: tender.type,
				builder: tender.builder,
				tenderOpenAt: tender.openDay === null ? null : dayToIso(tender.openDay),
				// The API lists only open tenders, due from today on.
				quotesDueAt: tender.dueDay === null ? null : dayToIso(Math.max(day, tender.dueDay)),
				status: 'Open',
				matchedKeywords: matched.length > 0 ? matched : [keywords[index % keywords.length]],
			};
		}),
		tenderingSubcontractors: exactly(project.tenderingSubcontractors, subcontractors, 2, index),
		url: project.url,
	}));
	const earliest = (/** @type {Project} */ project) =>
		project.tenders.reduce(
			(min, tender) =>
				tender.quotesDueAt !== null && tender.quotesDueAt < min ? tender.quotesDueAt : min,
			'9999-12-31',
		);
	return account.sort((a, b) => earliest(a).localeCompare(earliest(b)));
}

module.exports = { realisticAccount };
