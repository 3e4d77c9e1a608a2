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

const SUITES = /** @type {Record<string, string>} */ ({
	e2e: 'full',
	'e2e-queue': 'queue mode',
	'e2e-compat': 'compatibility',
	'e2e-scheduler': 'durable scheduler',
	'e2e-mcp': "n8n's MCP builder",
});

/**
 * @param {string} dir
 * @returns {string} a Markdown table
 */
function compatTable(dir) {
	const rows = [];
	for (const file of fs.readdirSync(dir)) {
		const match = /^(e2e(?:-queue|-compat|-scheduler|-mcp)?)-(\d+\.\d+\.\d+)\.json$/.exec(file);
		if (!match) continue;
		const [, label, version] = match;
		/** @type {{ numPassedTests: number, numFailedTests: number, numRuntimeErrorTestSuites: number, startTime: number, testResults: { assertionResults: { title: string, status: string }[] }[] }} */
		const results = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
		const titles = results.testResults
			.flatMap((result) => result.assertionResults)
			.filter((test) => test.status === 'failed')
			.map((test) => test.title);
		const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
		const cells = [
			version,
			SUITES[label],
			results.numPassedTests,
			titles.length > 0 ? `${failed} (${titles.join('; ')})` : failed,
			featuresOf(version).durablePollScheduler ? 'yes' : 'no',
			new Date(results.startTime).toISOString().slice(0, 10),
		];
		rows.push({ version, suite: SUITES[label], line: `| ${cells.join(' | ')} |` });
	}
	rows.sort((a, b) => compareVersions(b.version, a.version) || a.suite.localeCompare(b.suite));
	return [
		'| n8n | Suite | Passed | Failed | Has the durable poll scheduler | Run on |',
		'| --- | --- | ---: | ---: | --- | --- |',
		...rows.map((row) => row.line),
	].join('\n');
}

const dir = process.argv[2];
if (!dir) {
	console.error('usage: node scripts/e2e/compat-table.js DIR (the jest results run.js kept)');
	process.exitCode = 1;
} else console.log(compatTable(dir));
