// @ts-check
'use strict';

/**
 * The soak's size and its figures. Tests cannot read the environment or write to stdout under
 * the community-node lint, so this JS file does both: `npm run soak` (scripts/soak/run.js) asks
 * for the full size through SOAK_SIZE and collects the figures through SOAK_FIGURES_FILE.
 */

const fs = require('node:fs');

/**
 * @typedef {object} SoakSize
 * @property {'ci' | 'full'} name
 * @property {number} polls trigger polls
 * @property {number} walks return-all walks of the Get Many node
 * @property {number} modelRuns generated runs of the trigger's model-based property test
 * @property {number} modelCommands most commands in one of those runs
 * @property {number} timeoutMs for each of the soak tests
 */

/** @type {Record<SoakSize['name'], SoakSize>} */
const SIZES = {
	ci: { name: 'ci', polls: 80, walks: 20, modelRuns: 200, modelCommands: 30, timeoutMs: 120_000 },
	full: {
		name: 'full',
		polls: 1000,
		walks: 200,
		modelRuns: 5000,
		modelCommands: 50,
		timeoutMs: 3_600_000,
	},
};

/**
 * @param {string | undefined} value
 * @param {string} name
 * @returns {number | undefined}
 */
function positiveWhole(value, name) {
	if (value === undefined || value === '') return undefined;
	const number = Number(value);
	if (!Number.isInteger(number) || number < 1) {
		throw new Error(`${name} must be a whole number of at least 1 (got ${JSON.stringify(value)})`);
	}
	return number;
}

/**
 * SOAK_SIZE=ci (default) or full; SOAK_POLLS, SOAK_WALKS and SOAK_MODEL_RUNS override the counts.
 * @returns {SoakSize}
 */
function soakSize() {
	const name = process.env.SOAK_SIZE ?? 'ci';
	if (name !== 'ci' && name !== 'full') {
		throw new Error(`SOAK_SIZE must be "ci" or "full" (got ${JSON.stringify(name)})`);
	}
	const size = SIZES[name];
	return {
		...size,
		polls: positiveWhole(process.env.SOAK_POLLS, 'SOAK_POLLS') ?? size.polls,
		walks: positiveWhole(process.env.SOAK_WALKS, 'SOAK_WALKS') ?? size.walks,
		modelRuns: positiveWhole(process.env.SOAK_MODEL_RUNS, 'SOAK_MODEL_RUNS') ?? size.modelRuns,
	};
}

/**
 * @typedef {Record<string, string | number | boolean | Record<string, number>>} Figures
 */

/**
 * @param {string | number | boolean | Record<string, number>} value
 * @returns {string}
 */
function shown(value) {
	if (typeof value === 'object') {
		return Object.entries(value)
			.map(([key, count]) => `${key} ${count}`)
			.join(', ');
	}
	return String(value);
}

/**
 * Prints the figures as a two-column table and, when SOAK_FIGURES_FILE is set, appends them to
 * that file as one JSON line.
 * @param {string} title
 * @param {Figures} figures
 */
function reportFigures(title, figures) {
	const width = Math.max(...Object.keys(figures).map((key) => key.length));
	const lines = Object.entries(figures).map(
		([key, value]) => `  ${key.padEnd(width)}  ${shown(value)}`,
	);
	process.stdout.write(`\n${title}\n${lines.join('\n')}\n\n`);
	const file = process.env.SOAK_FIGURES_FILE;
	if (file) fs.appendFileSync(file, `${JSON.stringify({ title, figures })}\n`);
}

/**
 * One line of progress on stderr, only when SOAK_PROGRESS=1 (npm run soak sets it): a long soak
 * should show it is moving.
 * @param {string} line
 */
function reportProgress(line) {
	if (process.env.SOAK_PROGRESS === '1') process.stderr.write(`${line}\n`);
}

module.exports = { soakSize, reportFigures, reportProgress };
