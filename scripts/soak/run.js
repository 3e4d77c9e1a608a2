// @ts-check
'use strict';

/**
 * `npm run soak`: the full fault soak (1,000 trigger polls and 200 Get Many walks against the
 * sandbox under faults) and 5,000 runs of the trigger's model-based property test, which the test
 * suite runs only at a small size. It runs test/reliability/soak.test.ts and trigger-model.test.ts
 * through jest (the nodes are TypeScript) with SOAK_SIZE=full and prints the figures the tests
 * collect. The figures of record are docs/reliability.md's; nothing in the repository is written.
 *
 * Options: --polls N, --walks N and --model-runs N change the counts (for a quicker look);
 * --out FILE also writes the figures there as JSON.
 */

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parseArgs } = require('node:util');

const ROOT = path.resolve(__dirname, '..', '..');

/** @typedef {{ polls?: string, walks?: string, 'model-runs'?: string, out?: string }} Options */

/**
 * @param {string[]} args
 * @returns {Options}
 */
function parseArguments(args) {
	const usage =
		'use --polls N, --walks N and --model-runs N (whole numbers), or nothing for the full soak, and --out FILE to write the figures as JSON';
	/** @type {{ values: Options }} */
	let parsed;
	try {
		parsed = parseArgs({
			args,
			options: {
				polls: { type: 'string' },
				walks: { type: 'string' },
				'model-runs': { type: 'string' },
				out: { type: 'string' },
			},
			strict: true,
		});
	} catch (error) {
		throw new Error(`${error instanceof Error ? error.message : String(error)}: ${usage}`);
	}
	const { out, ...counts } = parsed.values;
	for (const [name, value] of Object.entries(counts)) {
		if (!/^\d+$/.test(value ?? '')) throw new Error(`--${name} ${JSON.stringify(value)}: ${usage}`);
	}
	if (out === '') throw new Error(`--out "": ${usage}`);
	return parsed.values;
}

async function main() {
	const options = parseArguments(process.argv.slice(2));
	const figuresFile = path.join(
		fs.mkdtempSync(path.join(os.tmpdir(), 'supplier-soak-')),
		'figures.jsonl',
	);
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
			cwd: ROOT,
			stdio: 'inherit',
			env: {
				...process.env,
				SOAK_SIZE: 'full',
				SOAK_PROGRESS: '1',
				SOAK_FIGURES_FILE: figuresFile,
				...(options.polls ? { SOAK_POLLS: options.polls } : {}),
				...(options.walks ? { SOAK_WALKS: options.walks } : {}),
				...(options['model-runs'] ? { SOAK_MODEL_RUNS: options['model-runs'] } : {}),
			},
		},
	);
	if (child.error) throw child.error;
	const code = child.status ?? 1;
	const runs = fs.existsSync(figuresFile)
		? fs
				.readFileSync(figuresFile, 'utf8')
				.split('\n')
				.filter((line) => line !== '')
				.map((line) => JSON.parse(line))
		: [];
	fs.rmSync(path.dirname(figuresFile), { recursive: true, force: true });
	const summary = {
		finishedAt: new Date().toISOString(),
		minutes: Math.round((Date.now() - started) / 6000) / 10,
		passed: code === 0,
		node: process.version,
		runs,
	};
	const verdict = `Soak ${code === 0 ? 'passed' : 'FAILED'} in ${summary.minutes} min`;
	if (options.out) {
		const output = path.resolve(options.out);
		fs.writeFileSync(output, `${JSON.stringify(summary, null, '\t')}\n`);
		process.stdout.write(`\n${verdict}; figures written to ${output}\n`);
	} else {
		process.stdout.write(`\n${verdict}; the figures are above (--out FILE writes them as JSON)\n`);
	}
	process.exitCode = code;
}

main().catch((error) => {
	process.stderr.write(`soak: ${error instanceof Error ? error.message : String(error)}\n`);
	process.exitCode = 1;
});
