#!/usr/bin/env node
// @ts-check
'use strict';

/**
 * Prints what a model receives from the node as a tool on the 237-project account: the
 * default answer and five projects, compact against the raw projects of before, and characters
 * per project. Measures the built package: run `npm run build` first.
 *
 *   node scripts/tool-answer-size.js
 */

const fs = require('node:fs');
const path = require('node:path');

const { realisticAccount } = require('./tool-answer-size/account');
const { measureAnswers } = require('./tool-answer-size/measure');

const built = path.join(__dirname, '..', 'dist', 'nodes', 'SupplierMatchedProjects');
if (!fs.existsSync(path.join(built, 'helpers', 'tool-answer.js'))) {
	process.stderr.write('No built package in dist/: run `npm run build` first.\n');
	process.exit(1);
}
const helpers = require(path.join(built, 'helpers', 'tool-answer.js'));
const { DEFAULT_TOOL_LIMIT } = require(path.join(built, 'descriptions', 'tool.js'));

const today = '2026-11-25';
const figures = measureAnswers(helpers, realisticAccount({ today }), {
	defaultLimit: DEFAULT_TOOL_LIMIT,
	today,
});
const number = (/** @type {number} */ value) => Math.round(value).toLocaleString('en-US');
const rows = [
	['Answer', 'Projects', 'Characters', '~Tokens (chars / 4)'],
	[
		'before: raw, node default',
		'50',
		number(figures.before.fifty),
		number(figures.before.fifty / 4),
	],
	['before: raw', '5', number(figures.before.five), number(figures.before.five / 4)],
	[
		'compact (tool default)',
		String(DEFAULT_TOOL_LIMIT),
		number(figures.compact.default),
		number(figures.compact.default / 4),
	],
	['compact', '5', number(figures.compact.five), number(figures.compact.five / 4)],
	[
		'raw (Full API Projects)',
		String(DEFAULT_TOOL_LIMIT),
		number(figures.raw.default),
		number(figures.raw.default / 4),
	],
];
const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
const lines = rows.map((row) =>
	row
		.map((cell, column) =>
			column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]),
		)
		.join('  '),
);
process.stdout.write(
	[
		`Tool answer on ${figures.projects} projects (1-3 tenders, 2 consultants, 2 subcontractors each), as the model receives it:`,
		...lines,
		`Characters per project: compact ${figures.perProject.compact}, raw ${figures.perProject.raw} (${(figures.perProject.raw / figures.perProject.compact).toFixed(1)}x).`,
		'',
	].join('\n'),
);
