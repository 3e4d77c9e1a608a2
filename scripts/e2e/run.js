#!/usr/bin/env node
// @ts-check
'use strict';

/**
 * `npm run test:e2e[:queue|:compat|:mcp|:scheduler|:browser]`: one real-n8n suite through jest
 * (jest.e2e.config.js, whose global setup installs n8n if needed and packs the package; the flag
 * picks the suite's files), closing with the one line CI reads: `e2e queue: N passed, N failed`.
 * Other arguments go to jest.
 */

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');

const { selectedN8nVersion } = require('../n8n/install');
const { exited, onShutdown } = require('../n8n/processes');

const root = path.resolve(__dirname, '..', '..');
/** @type {Record<string, { label: string, testMatch?: string[], files?: string[] }>} */
const SUITES = {
	'--queue': { label: 'e2e queue', testMatch: ['test/e2e-queue/*.test.ts'] },
	// The e2e suite's redirect file too: a credential must stay with its origin on every line.
	'--compat': {
		label: 'e2e compat',
		testMatch: ['test/e2e-compat/*.test.ts', 'test/e2e/redirects.test.ts'],
	},
	'--mcp': { label: 'e2e mcp', testMatch: ['test/e2e-mcp/*.test.ts'] },
	// The editor in Debian's headless Chromium, as a user drives it; also takes docs/screenshots.
	'--browser': { label: 'e2e browser', testMatch: ['test/e2e-browser/*.test.ts'] },
	// The durable scheduler's file alone, so that CI can run it beside the rest.
	'--scheduler': { label: 'e2e scheduler', files: ['test/e2e/durable-scheduler.test.ts'] },
};
const chosen = Object.keys(SUITES).filter((flag) => process.argv.includes(flag));
if (chosen.length > 1) throw new Error(`choose one of ${chosen.join(', ')}`);
const suite = SUITES[chosen[0]] ?? { label: 'e2e' };

// The run's own files (jest's results, the tarball the global setup packs), gone however it ends.
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'smp-e2e-'));
const resultsFile = path.join(work, 'jest.json');
const jest = spawn(
	process.execPath,
	[
		require.resolve('jest/bin/jest'),
		...['--config', path.join(root, 'jest.e2e.config.js')],
		...(suite.testMatch ?? []).flatMap((glob) => ['--testMatch', `<rootDir>/${glob}`]),
		...['--runInBand', '--ci', '--json', `--outputFile=${resultsFile}`],
		...process.argv.slice(2).filter((argument) => !(argument in SUITES)),
		...(suite.files ?? []),
	],
	{ cwd: root, stdio: 'inherit', env: { ...process.env, SMP_E2E_WORK_DIR: work } },
);
// Asked to stop: jest stops its tests; n8n's reaper covers a jest that dies without stopping it.
onShutdown(async () => {
	jest.kill('SIGTERM');
	await exited(jest);
});
jest.on('exit', (code, signal) => {
	/** @type {{ numPassedTests: number, numFailedTests: number, numRuntimeErrorTestSuites: number } | undefined} */
	let results;
	try {
		results = JSON.parse(fs.readFileSync(resultsFile, 'utf8'));
	} catch {
		results = undefined;
	}
	// Kept for the compatibility table (scripts/e2e/compat-table.js) when CI asks for it.
	const reportDir = process.env.SMP_E2E_REPORT_DIR;
	if (reportDir && results) {
		fs.mkdirSync(reportDir, { recursive: true });
		const name = `${suite.label.replace(/ /g, '-')}-${selectedN8nVersion()}.json`;
		fs.copyFileSync(resultsFile, path.join(reportDir, name));
	}
	fs.rmSync(work, { recursive: true, force: true });
	// A suite that failed before its tests ran (setup error) reports no failed test: count it.
	const failed =
		(results?.numFailedTests ?? 0) + (results?.numRuntimeErrorTestSuites ?? 0) + (results ? 0 : 1);
	console.log(`${suite.label}: ${results?.numPassedTests ?? 0} passed, ${failed} failed`);
	process.exitCode = code === 0 && failed === 0 && !signal ? 0 : 1;
});
