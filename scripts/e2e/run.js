#!/usr/bin/env node
// @ts-check
'use strict';

/**
 * `npm run test:e2e`: installs n8n if needed (cached), builds and packs the package, runs the e2e
 * jest suite (jest.e2e.config.js) on that tarball, and closes with one line CI reads:
 * `e2e: N passed, N failed`. With `--queue` (`npm run test:e2e:queue`) it runs the queue-mode
 * suite (jest.e2e-queue.config.js) and closes with `e2e queue: N passed, N failed`. Other
 * arguments go to jest.
 */

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');

const { exited, onShutdown } = require('../n8n/processes');
const { ensureRuntime } = require('../n8n/runtime');
const { buildAndPack } = require('../n8n/package');

const root = path.resolve(__dirname, '..', '..');
const suite = process.argv.includes('--queue')
	? { label: 'e2e queue', config: 'jest.e2e-queue.config.js' }
	: { label: 'e2e', config: 'jest.e2e.config.js' };

/** @param {string} line */
function log(line) {
	process.stderr.write(`[e2e] ${line}\n`);
}

/**
 * @param {number} passed
 * @param {number} failed
 * @param {number} exitCode
 */
function finish(passed, failed, exitCode) {
	console.log(`${suite.label}: ${passed} passed, ${failed} failed`);
	process.exitCode = exitCode;
}

async function main() {
	const resultsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'smp-e2e-results-'));
	// A tarball given from outside (CI packs once for every suite) is used as it is and kept.
	const given = process.env.SMP_E2E_TARBALL;
	/** @type {string | undefined} */
	let tarball;
	const cleanup = () => {
		fs.rmSync(resultsDir, { recursive: true, force: true });
		if (tarball && !given) fs.rmSync(path.dirname(tarball), { recursive: true, force: true });
	};
	try {
		const runtime = await ensureRuntime({ log });
		log(`n8n ${runtime.n8nVersion} on Node.js ${runtime.nodeVersion}`);
		tarball = given || (await buildAndPack({ log }));
	} catch (error) {
		cleanup();
		log(`could not prepare the suite: ${error instanceof Error ? error.message : String(error)}`);
		finish(0, 1, 1);
		return;
	}
	const resultsFile = path.join(resultsDir, 'jest.json');
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
			...process.argv.slice(2).filter((argument) => argument !== '--queue'),
		],
		{ cwd: root, stdio: 'inherit', env: { ...process.env, SMP_E2E_TARBALL: tarball } },
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
		cleanup();
		// A suite that failed before its tests ran (setup error) reports no failed test: count it.
		const failed =
			(results?.numFailedTests ?? 0) +
			(results?.numRuntimeErrorTestSuites ?? 0) +
			(results ? 0 : 1);
		finish(results?.numPassedTests ?? 0, failed, code === 0 && failed === 0 && !signal ? 0 : 1);
	});
}

void main();
