// @ts-check
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

import {
	commonTokens,
	declareFactoryPlugin,
	PluginKind,
	tokens,
} from '@stryker-mutator/api/plugin';
import { DryRunStatus, MutantRunStatus } from '@stryker-mutator/api/test-runner';
import { strykerPlugins as jestRunnerPlugins } from '@stryker-mutator/jest-runner';

/**
 * Mutation testing of the product (`npm run test:mutation`): how many small faults put into
 * nodes/ and credentials/ the in-process tests notice. A measurement to read, not a CI gate.
 *
 * Each mutant's run loads every test file it runs, and an engine test file loads n8n-core (some
 * 2,000 modules) afresh: 10 to 40 seconds a mutant, hours for the 5,000 or so mutants.
 * `SMP_MUTATION_SAMPLE=n` mutates one product line in n instead, picked by a hash of the line's
 * text, so a refactor that moves code keeps the same lines in the sample.
 */
const sample = Number(process.env.SMP_MUTATION_SAMPLE ?? '1');

/** @returns {string[]} The product's source files, without the generated API types. */
function productFiles() {
	return ['nodes', 'credentials']
		.flatMap((dir) =>
			readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((name) => join(dir, name)),
		)
		.filter((file) => file.endsWith('.ts') && !file.endsWith('.generated.ts'));
}

/**
 * Stryker's `file:line-line` ranges of a file's sampled lines. A range holds only the mutants
 * within it, so a mutant spanning lines (an emptied block, a multi-line object) is left out.
 * @param {string} file
 */
function sampledLines(file) {
	return readFileSync(file, 'utf8')
		.split('\n')
		.flatMap((text, index) =>
			createHash('sha256').update(text.trim()).digest().readUInt32BE(0) % sample === 0
				? [`${file}:${index + 1}-${index + 1}`]
				: [],
		);
}

/** Between a test's file and its name in the test ids below. */
const FILE_END = '\t';

/**
 * Stryker's jest runner, running for a mutant only the files that hold the tests which reached
 * it. The stock runner loads every test file that imports the mutated file and filters tests by
 * name; a file left with no test to run skips its `afterAll`, so its nock stays in Node's http
 * module and the test environment fails the file, which makes the mutant an error. The test ids
 * carry the file for this.
 * @param {import('@stryker-mutator/api/plugin').Injector} injector
 * @returns {import('@stryker-mutator/api/test-runner').TestRunner}
 */
function jestByFile(injector) {
	const runner = injector.injectFunction(jestRunnerPlugins[0].factory);
	return {
		init: () => runner.init(),
		capabilities: () => runner.capabilities(),
		async dryRun(options) {
			const result = await runner.dryRun(options);
			if (result.status !== DryRunStatus.Complete) return result;
			/** @type {Map<string, string[]>} A name's ids: jest's test names are unique per file only. */
			const idsOf = new Map();
			const tests = result.tests.map((test) => {
				const id = `${relative(process.cwd(), test.fileName ?? '')}${FILE_END}${test.id}`;
				idsOf.set(test.id, [...(idsOf.get(test.id) ?? []), id]);
				return { ...test, id };
			});
			const { mutantCoverage } = result;
			const perTest = Object.entries(mutantCoverage?.perTest ?? {}).flatMap(([name, hits]) =>
				(idsOf.get(name) ?? []).map((id) => [id, hits]),
			);
			return {
				...result,
				tests,
				mutantCoverage: mutantCoverage && {
					...mutantCoverage,
					perTest: Object.fromEntries(perTest),
				},
			};
		},
		async mutantRun(options) {
			if (!options.testFilter) return runner.mutantRun(options);
			const tests = options.testFilter.map(fileAndName);
			const files = [...new Set(tests.map(({ file }) => resolve(file)))];
			// Jest reads test paths as patterns.
			const testFiles = files.map((file) => `^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
			const adapter = runner.jestTestAdapter;
			const run = adapter.run;
			adapter.run = (settings) => run.call(adapter, { ...settings, testFiles });
			try {
				const result = await runner.mutantRun({
					...options,
					testFilter: tests.map(({ name }) => name),
				});
				if (result.status !== MutantRunStatus.Killed) return result;
				const killedBy = options.testFilter.filter((id) =>
					result.killedBy.includes(fileAndName(id).name),
				);
				return { ...result, killedBy };
			} finally {
				adapter.run = run;
			}
		},
	};
}
jestByFile.inject = tokens(commonTokens.injector);

/** @param {string} id */
function fileAndName(id) {
	const end = id.indexOf(FILE_END);
	return { file: id.slice(0, end), name: id.slice(end + FILE_END.length) };
}

export const strykerPlugins = [
	declareFactoryPlugin(PluginKind.TestRunner, 'jest-by-file', jestByFile),
];

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
	mutate:
		sample > 1
			? productFiles().flatMap(sampledLines)
			: [
					'nodes/**/*.ts',
					'credentials/**/*.ts',
					// Written by `npm run generate:api-types` from the OpenAPI document: types only.
					'!**/*.generated.ts',
				],
	// This file is also the plugin above.
	appendPlugins: ['./stryker.config.mjs'],
	testRunner: 'jest-by-file',
	jest: { projectType: 'custom', configFile: 'jest.mutation.config.js' },
	// Each mutant runs only the tests that reached it in the first run.
	coverageAnalysis: 'perTest',
	// A mutant in code run only while a module loads (the node panel's properties, constants)
	// would need every test run afresh; Stryker reports these as ignored instead.
	ignoreStatic: true,
	incremental: false,
	tempDirName: '.stryker-tmp',
	concurrency: 2,
	dryRunTimeoutMinutes: 30,
	reporters: ['clear-text', 'json', 'progress'],
	// The score table per folder and file; the json report lists every mutant and its tests.
	clearTextReporter: { allowColor: false, reportMutants: false, reportTests: false },
	jsonReporter: { fileName: 'reports/mutation/mutation.json' },
};
