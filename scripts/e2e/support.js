// @ts-check
'use strict';

/** Small Node-side helpers for the e2e tests (which cannot use Node APIs themselves). */

const fs = require('node:fs');
const path = require('node:path');

const stderrLogger = {
	/** @param {string} line */
	log(line) {
		process.stderr.write(`[e2e] ${line}\n`);
	},
};

/**
 * Every row of every spreadsheet a workflow wrote under `<filesDir>/<folder>`, read with the same
 * library n8n writes them with (SheetJS, from the n8n install).
 * @param {{ filesDir: string, n8n: { runtime: { n8nHome: string } } }} env
 * @param {string} folder
 * @returns {Record<string, unknown>[]}
 */
function readSpreadsheetRows(env, folder) {
	/** @type {{ readFile: (file: string) => { SheetNames: string[], Sheets: Record<string, unknown> }, utils: { sheet_to_json: (sheet: unknown) => Record<string, unknown>[] } }} */
	const xlsx = require(path.join(env.n8n.runtime.n8nHome, 'node_modules', 'xlsx'));
	const dir = path.join(env.filesDir, folder);
	if (!fs.existsSync(dir)) return [];
	return fs
		.readdirSync(dir)
		.filter((name) => name.endsWith('.xlsx'))
		.sort()
		.flatMap((name) => {
			const book = xlsx.readFile(path.join(dir, name));
			return book.SheetNames.flatMap((sheet) => xlsx.utils.sheet_to_json(book.Sheets[sheet]));
		});
}

module.exports = { stderrLogger, readSpreadsheetRows };
