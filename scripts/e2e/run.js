#!/usr/bin/env node
// @ts-check
'use strict';

/**
 * `npm run test:e2e`: runs the e2e jest suite (jest.e2e.config.js, whose global setup installs
 * n8n if needed and packs the package) and closes with one line CI reads:
 * `e2e: N passed, N failed`. With `--queue` (`npm run test:e2e:queue`) it runs the queue-mode
 * suite (jest.e2e-queue.config.js) and closes with `e2e queue: N passed, N failed`; with
 * `--compat` (`npm run test:e2e:compat`) the compatibility suite (jest.e2e-compat.config.js),
 * closing with `e2e compat: N passed, N failed`; with `--mcp` (`npm run test:e2e:mcp`) the suite
 * driven through n8n's own MCP server (jest.e2e-mcp.config.js, `e2e mcp: ...`); with
 * `--scheduler` the durable scheduler's file alone (`e2e scheduler: ...`). Other arguments go to
 * jest.
 */

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');

const { selectedN8nVersion } = require('../n8n/install');
const { exited, onShutdown } = require('../n8n/processes');

const root = path.resolve(__dirname, '..', '..');
/** @type {Record<string, { label: string, config: string, files?: string[] }>} */
const SUITES = {
	'--queue': { label: 'e2e queue', config: 'jest.e2e-queue.config.js' },
	'--compat': { label: 'e2e compat', config: 'jest.e2e-compat.config.js' },
	'--mcp': { label: 'e2e mcp', config: 'jest.e2e-mcp.config.js' },
	// The editor in Debian's headless Chromium, as a user drives it; also takes docs/screenshots.
	'--browser': { label: 'e2e browser', config: 'jest.e2e-browser.config.js' },
	// The e2e suite's durable-scheduler file alone, so that CI can run it beside the rest.
	'--scheduler': {
		label: 'e2e scheduler',
		config: 'jest.e2e.config.js',
		files: ['test/e2e/durable-scheduler.test.ts'],
	},
};
const chosen = Object.keys(SUITES).filter((flag) => process.argv.includes(flag));
if (chosen.length > 1) throw new Error(`choose one of ${chosen.join(', ')}`);
/** @type {{ label: string, config: string, files?: string[] }} */
const suite =
	chosen.length === 1 ? SUITES[chosen[0]] : { label: 'e2e', config: 'jest.e2e.config.js' };

// The run's own files (jest's results, the tarball the global setup packs), gone however it ends.
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'smp-e2e-'));
const cleanup = () => fs.rmSync(work, { recursive: true, force: true });
const resultsFile = path.join(work, 'jest.json');
const jest = spawn(
	process.execPath,
	[
		require.resolve('jest/bin/jest'),
		'--config',
		path.join(root, suite.config),
		'--runInBand',
		'--ci',
		'--json',
		`--outputFile=${resultsFile}`,
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
		fs.copyFileSync(
			resultsFile,
			path.join(reportDir, `${suite.label.replace(/ /g, '-')}-${selectedN8nVersion()}.json`),
		);
	}
	cleanup();
	// A suite that failed before its tests ran (setup error) reports no failed test: count it.
	const failed =
		(results?.numFailedTests ?? 0) + (results?.numRuntimeErrorTestSuites ?? 0) + (results ? 0 : 1);
	console.log(`${suite.label}: ${results?.numPassedTests ?? 0} passed, ${failed} failed`);
	process.exitCode = code === 0 && failed === 0 && !signal ? 0 : 1;
});
