// @ts-check
'use strict';

/** Small Node-side helpers for the e2e tests (which cannot use Node APIs themselves). */

const fs = require('node:fs');
const path = require('node:path');

const { waitUntil } = require('../../../scripts/n8n/runtime');

const stderrLogger = {
	/** @param {string} line */
	log(line) {
		process.stderr.write(`[e2e] ${line}\n`);
	},
};

/**
 * Every row of the spreadsheets in `filesDir` whose names start with `prefix`, read with the
 * SheetJS n8n writes them with: its install's @e965/xlsx (2.40 on) or xlsx (2.30 and older).
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
	return fs
		.readdirSync(env.filesDir)
		.filter((name) => name.startsWith(prefix) && name.endsWith('.xlsx'))
		.sort()
		.flatMap((name) => {
			const book = xlsx.readFile(path.join(env.filesDir, name));
			return book.SheetNames.flatMap((sheet) => xlsx.utils.sheet_to_json(book.Sheets[sheet]));
		});
}

/**
 * The sandbox's time as its request log writes it: a `since` for what comes after now.
 * @param {import('../../../sandbox').Sandbox} sandbox
 */
const sandboxNow = (sandbox) => new Date(sandbox.clock.now()).toISOString();

/**
 * The sandbox's results requests (the pages of walks) for one company, oldest first.
 * @param {import('../../../sandbox').Sandbox} sandbox @param {string} companyId
 */
function companyResultsRequests(sandbox, companyId) {
	const resultsPath = `/api/supplier/v1/companies/${companyId}/speci-finder/results`;
	return sandbox.requests().filter((entry) => entry.path === resultsPath);
}

/**
 * How many polls (results requests without a cursor) the sandbox has seen after `since` (sandbox
 * time), of one client when `clientId` is given.
 * @param {import('../../../sandbox').Sandbox} sandbox
 * @param {string} since @param {string} [clientId]
 */
function pollsSince(sandbox, since, clientId) {
	return sandbox
		.requests()
		.filter(
			(entry) =>
				entry.path.endsWith('/speci-finder/results') &&
				entry.at > since &&
				!entry.query.cursor &&
				(clientId === undefined || entry.clientId === clientId),
		).length;
}

/**
 * Waits until the sandbox has seen `count` polls after `since` (pollsSince).
 * @param {import('../../../sandbox').Sandbox} sandbox
 * @param {{ since: string, count: number, timeoutMs: number, clientId?: string }} options
 */
async function waitForPolls(sandbox, { since, count, timeoutMs, clientId }) {
	const polls = () => pollsSince(sandbox, since, clientId);
	await waitUntil(() => (polls() >= count ? true : undefined), {
		timeoutMs,
		failure: () => `expected ${count} poll(s) after ${since}, saw ${polls()}`,
	});
}

/**
 * The lines of an n8n log after `since` (a length of the log text) that contain `text`, of one
 * workflow when `workflowId` is given (n8n puts it in each line's metadata).
 * @param {string} log @param {string} text
 * @param {{ since?: number, workflowId?: string }} [options]
 */
function logLines(log, text, options = {}) {
	const workflow = options.workflowId && `"workflowId":${JSON.stringify(options.workflowId)}`;
	return log
		.slice(options.since ?? 0)
		.split('\n')
		.filter((line) => line.includes(text) && (!workflow || line.includes(workflow)));
}

/**
 * Waits until the log holds `count` (default 1) lines that logLines finds, and returns them.
 * @param {() => string} readLog @param {string} text
 * @param {{ since?: number, workflowId?: string, count?: number, timeoutMs: number }} options
 * @returns {Promise<string[]>}
 */
function waitForLog(readLog, text, options) {
	const count = options.count ?? 1;
	const lines = () => logLines(readLog(), text, options);
	return waitUntil(() => (lines().length >= count ? lines() : undefined), {
		timeoutMs: options.timeoutMs,
		failure: () =>
			`n8n logged ${lines().length} of ${count} line(s) with "${text}"${options.workflowId ? ` for ${options.workflowId}` : ''}`,
	});
}

/**
 * Waits until n8n's log file holds a line containing `text`, and returns those lines.
 * @param {{ n8n: { n8nFolder: string } }} env @param {string} text @param {number} timeoutMs
 */
function waitForLogLines(env, text, timeoutMs) {
	const file = path.join(env.n8n.n8nFolder, 'logs', 'n8n.log');
	const read = () => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '');
	return waitForLog(read, text, { timeoutMs });
}

module.exports = {
	stderrLogger,
	readSpreadsheetRows,
	sandboxNow,
	companyResultsRequests,
	waitUntil,
	pollsSince,
	waitForPolls,
	logLines,
	waitForLog,
	waitForLogLines,
};
