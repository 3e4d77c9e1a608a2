#!/usr/bin/env node
// @ts-check
'use strict';

/**
 * `npm run test:e2e`: runs the e2e jest suite (jest.e2e.config.js) and closes with one line,
 * `e2e: N passed, N failed`, that CI reads. Extra arguments go to jest.
 */

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');

const root = path.resolve(__dirname, '..', '..');
const resultsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'smp-e2e-results-'));
const resultsFile = path.join(resultsDir, 'jest.json');

const jest = spawn(
	process.execPath,
	[
		require.resolve('jest/bin/jest'),
		'--config',
		path.join(root, 'jest.e2e.config.js'),
		'--runInBand',
		'--ci',
		'--json',
		`--outputFile=${resultsFile}`,
		...process.argv.slice(2),
	],
	{ cwd: root, stdio: 'inherit' },
);

// Jest stops n8n and everything else it started when it is asked to stop; pass the request on.
for (const signal of /** @type {NodeJS.Signals[]} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
	process.on(signal, () => jest.kill(signal));
}

jest.on('exit', (code, signal) => {
	/** @type {{ numPassedTests: number, numFailedTests: number, numRuntimeErrorTestSuites: number } | undefined} */
	let results;
	try {
		results = JSON.parse(fs.readFileSync(resultsFile, 'utf8'));
	} catch {
		results = undefined;
	}
	fs.rmSync(resultsDir, { recursive: true, force: true });
	const passed = results?.numPassedTests ?? 0;
	// A suite that failed before its tests ran (setup error) reports no failed test: count it.
	const failed =
		(results?.numFailedTests ?? 0) + (results?.numRuntimeErrorTestSuites ?? 0) + (results ? 0 : 1);
	console.log(`e2e: ${passed} passed, ${failed} failed`);
	process.exitCode = code === 0 && failed === 0 ? 0 : code || 1;
	if (signal) process.exitCode = 1;
});
