// @ts-check
'use strict';

/**
 * What a model receives from the tool, in characters: n8n hands it JSON.stringify of the array of
 * the output items' json (n8n-core get-input-connection-data.js, mapResult), and the tool answers
 * one item. Takes the package's answer helpers as an argument, so the unit test measures the
 * TypeScript source and the script the built package with the same code.
 */

/**
 * @typedef {object} AnswerHelpers
 * @property {(project: any, fields: any, today: string) => object} answerProject
 * @property {(facts: any, projects: object[]) => object} toolAnswerOf
 * @property {readonly any[]} COMPACT_FIELDS
 */

/**
 * @param {AnswerHelpers} helpers
 * @param {any[]} account every project of the account, in the API's order
 * @param {{ limit: number, mode: 'compact' | 'raw', today: string }} options
 * @returns {number}
 */
function answerCharacters(helpers, account, { limit, mode, today }) {
	const projects = account.slice(0, limit);
	const answer = helpers.toolAnswerOf(
		{ returned: projects.length, moreMatch: account.length > limit, limit, filtersApplied: [] },
		mode === 'raw'
			? projects
			: projects.map((project) => helpers.answerProject(project, helpers.COMPACT_FIELDS, today)),
	);
	return JSON.stringify([answer]).length;
}

/**
 * The figures the issue asks for: the default answer and five projects, compact against the raw
 * projects n8n returned before (50 by default), and characters per project of each.
 * @param {AnswerHelpers} helpers
 * @param {any[]} account
 * @param {{ defaultLimit: number, today: string }} options
 */
function measureAnswers(helpers, account, { defaultLimit, today }) {
	const before = JSON.stringify(account.slice(0, 50)).length;
	const beforeFive = JSON.stringify(account.slice(0, 5)).length;
	const measure = (/** @type {number} */ limit, /** @type {'compact' | 'raw'} */ mode) =>
		answerCharacters(helpers, account, { limit, mode, today });
	const compactAll = measure(account.length, 'compact');
	const rawAll = measure(account.length, 'raw');
	return {
		projects: account.length,
		before: { fifty: before, five: beforeFive },
		compact: { default: measure(defaultLimit, 'compact'), five: measure(5, 'compact') },
		raw: { default: measure(defaultLimit, 'raw'), five: measure(5, 'raw') },
		perProject: {
			compact: Math.round(compactAll / account.length),
			raw: Math.round(rawAll / account.length),
		},
	};
}

module.exports = { answerCharacters, measureAnswers };
