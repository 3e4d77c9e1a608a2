// @ts-check
'use strict';

/** Small Node-side helpers for the e2e tests (which cannot use Node APIs themselves). */

const fs = require('node:fs');
const path = require('node:path');

const { delay } = require('../../../scripts/n8n/runtime');

const stderrLogger = {
	/** @param {string} line */
	log(line) {
		process.stderr.write(`[e2e] ${line}\n`);
	},
};

/**
 * Every row of every spreadsheet a workflow wrote into `filesDir` whose name starts with
 * `prefix`, read with the same library n8n writes them with: SheetJS from the n8n install, as
 * @e965/xlsx (2.40 on) or xlsx (2.30 and older).
 * @param {{ filesDir: string, n8n: { runtime: { n8nHome: string } } }} env
 * @param {string} prefix
 * @returns {Record<string, unknown>[]}
 */
function readSpreadsheetRows(env, prefix) {
	const modules = path.join(env.n8n.runtime.n8nHome, 'node_modules');
	const sheetJs = ['@e965/xlsx', 'xlsx']
		.map((name) => path.join(modules, name))
		.find((folder) => fs.existsSync(folder));
	if (sheetJs === undefined) throw new Error(`no SheetJS (@e965/xlsx or xlsx) in ${modules}`);
	/** @type {{ readFile: (file: string) => { SheetNames: string[], Sheets: Record<string, unknown> }, utils: { sheet_to_json: (sheet: unknown) => Record<string, unknown>[] } }} */
	const xlsx = require(sheetJs);
	const dir = env.filesDir;
	return fs
		.readdirSync(dir)
		.filter((name) => name.startsWith(prefix) && name.endsWith('.xlsx'))
		.sort()
		.flatMap((name) => {
			const book = xlsx.readFile(path.join(dir, name));
			return book.SheetNames.flatMap((sheet) => xlsx.utils.sheet_to_json(book.Sheets[sheet]));
		});
}

/**
 * The sandbox's time as its request log writes it (ISO 8601): a `since` for what comes after now.
 * @param {import('../../../sandbox').Sandbox} sandbox
 */
const sandboxNow = (sandbox) => new Date(sandbox.clock.now()).toISOString();

/**
 * Waits until the sandbox has seen `count` polls (first pages: results requests without a cursor)
 * after `since` (sandbox time, ISO 8601), of one client when `clientId` is given.
 * @param {import('../../../sandbox').Sandbox} sandbox
 * @param {{ since: string, count: number, timeoutMs: number, clientId?: string }} options
 * @returns {Promise<void>}
 */
async function waitForPolls(sandbox, options) {
	const deadline = Date.now() + options.timeoutMs;
	for (;;) {
		const polls = sandbox
			.requests()
			.filter(
				(entry) =>
					entry.path.endsWith('/speci-finder/results') &&
					entry.at > options.since &&
					!entry.query.cursor &&
					(options.clientId === undefined || entry.clientId === options.clientId),
			);
		if (polls.length >= options.count) return;
		if (Date.now() > deadline) {
			throw new Error(
				`expected ${options.count} poll(s) after ${options.since}, saw ${polls.length} within ${options.timeoutMs} ms`,
			);
		}
		await delay(500);
	}
}

/**
 * Waits until n8n's log file holds a line containing `text`, and returns those lines.
 * @param {{ n8n: { userFolder: string } }} env
 * @param {string} text
 * @param {number} timeoutMs
 * @returns {Promise<string[]>}
 */
async function waitForLogLines(env, text, timeoutMs) {
	const file = path.join(env.n8n.userFolder, '.n8n', 'logs', 'n8n.log');
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const lines = fs.existsSync(file)
			? fs
					.readFileSync(file, 'utf8')
					.split('\n')
					.filter((line) => line.includes(text))
			: [];
		if (lines.length > 0) return lines;
		if (Date.now() > deadline)
			throw new Error(`n8n's log held no line with ${text} within ${timeoutMs} ms`);
		await delay(500);
	}
}

module.exports = { stderrLogger, readSpreadsheetRows, sandboxNow, waitForPolls, waitForLogLines };
