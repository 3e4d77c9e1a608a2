// @ts-check
'use strict';

/**
 * `npm run soak`: the full fault soak (1,000 trigger polls and 200 Get Many walks against the
 * sandbox under faults) and 5,000 runs of the trigger's model-based property test, which the test
 * suite runs only at a small size. It runs test/reliability/soak.test.ts and trigger-model.test.ts
 * through jest (the nodes are TypeScript) with SOAK_SIZE=full; the tests print their figures.
 * The figures of record are docs/reliability.md's.
 *
 * Options: --polls N, --walks N and --model-runs N change the counts (for a quicker look);
 * --out FILE also writes the figures there, one JSON line per table.
 */

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');

const text = /** @type {const} */ ({ type: 'string' });
const { values } = parseArgs({
	options: { polls: text, walks: text, 'model-runs': text, out: text },
});
const out = values.out && path.resolve(values.out);
if (out) fs.writeFileSync(out, '');
const started = Date.now();
const child = spawnSync(
	process.execPath,
	[
		require.resolve('jest/bin/jest'),
		'--runInBand',
		'test/reliability/soak.test.ts',
		'test/reliability/trigger-model.test.ts',
	],
	{
		cwd: path.resolve(__dirname, '..', '..'),
		stdio: 'inherit',
		env: {
			...process.env,
			SOAK_SIZE: 'full',
			SOAK_PROGRESS: '1',
			// The tests check these counts.
			SOAK_POLLS: values.polls,
			SOAK_WALKS: values.walks,
			SOAK_MODEL_RUNS: values['model-runs'],
			SOAK_FIGURES_FILE: out,
		},
	},
);
if (child.error) throw child.error;
const minutes = Math.round((Date.now() - started) / 6000) / 10;
const verdict = `Soak ${child.status === 0 ? 'passed' : 'FAILED'} in ${minutes} min`;
const figures = out ? `figures written to ${out}` : 'the figures are above';
process.stdout.write(`\n${verdict}; ${figures}\n`);
process.exitCode = child.status ?? 1;
