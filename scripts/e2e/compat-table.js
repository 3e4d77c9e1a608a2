#!/usr/bin/env node
// @ts-check
'use strict';

/**
 * The compatibility table of docs/running-n8n.md, from what the real-n8n suites reported: one
 * row per n8n version and suite, read from the jest results `scripts/e2e/run.js` keeps in
 * SMP_E2E_REPORT_DIR (`.ci/run` sets it and prints the table at its end).
 * Usage: node scripts/e2e/compat-table.js DIR
 */

const fs = require('node:fs');
const path = require('node:path');

const { compareVersions, featuresOf } = require('../n8n/lines');

/**
 * @typedef {{ numPassedTests: number, numFailedTests: number, numRuntimeErrorTestSuites: number, startTime: number, testResults: { assertionResults: { title: string, status: string }[] }[] }} JestResults
 */

/**
 * @param {string} dir
 * @returns {string} a Markdown table
 */
function compatTable(dir) {
	const rows = fs
		.readdirSync(dir)
		.map((name) => /^(e2e(?:-queue|-compat|-scheduler|-mcp)?)-(\d+\.\d+\.\d+)\.json$/.exec(name))
		.filter((match) => match !== null)
		.map((match) => {
			/** @type {JestResults} */
			const results = JSON.parse(fs.readFileSync(path.join(dir, match[0]), 'utf8'));
			const failed = results.testResults
				.flatMap((file) => file.assertionResults)
				.filter((test) => test.status === 'failed')
				.map((test) => test.title);
			return {
				version: match[2],
				suite: {
					e2e: 'full',
					'e2e-queue': 'queue mode',
					'e2e-compat': 'compatibility',
					'e2e-scheduler': 'durable scheduler',
					'e2e-mcp': "n8n's MCP builder",
				}[match[1]],
				passed: results.numPassedTests,
				failed: results.numFailedTests + results.numRuntimeErrorTestSuites,
				failedTitles: failed,
				date: new Date(results.startTime).toISOString().slice(0, 10),
			};
		})
		.sort(
			(a, b) =>
				compareVersions(b.version, a.version) || String(a.suite).localeCompare(String(b.suite)),
		);
	const lines = [
		'| n8n | Suite | Passed | Failed | Has the durable poll scheduler | Run on |',
		'| --- | --- | ---: | ---: | --- | --- |',
		...rows.map(
			(row) =>
				`| ${row.version} | ${row.suite} | ${row.passed} | ${row.failed}${row.failedTitles.length > 0 ? ` (${row.failedTitles.join('; ')})` : ''} | ${featuresOf(row.version).durablePollScheduler ? 'yes' : 'no'} | ${row.date} |`,
		),
	];
	return lines.join('\n');
}

module.exports = { compatTable };

if (require.main === module) {
	const dir = process.argv[2];
	if (!dir) {
		console.error('usage: node scripts/e2e/compat-table.js DIR (the jest results run.js kept)');
		process.exitCode = 1;
	} else console.log(compatTable(dir));
}
