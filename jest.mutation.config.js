// @ts-check
const base = require('./jest.config.js');

/**
 * The tests `npm run test:mutation` (Stryker, stryker.config.mjs) runs against the product's
 * mutants: `npm test`'s in-process lanes without two kinds of tests, picked by folder and file
 * name so that they stay out wherever a file is moved.
 *
 * - The tests of the tooling (scripts/, sandbox/, the docs, the release checks): they judge the
 *   tooling, so a product mutant they killed would say nothing of the product's tests.
 * - The long runs (the trigger's eighty-day timeline, its model-based test, the fault soak, and
 *   the loads of many polls, processes or executions on one limit): 15 seconds to two minutes a
 *   test. Stryker runs every test that reaches a mutant, to the end, and these reach nearly every
 *   mutant of the transport and the trigger.
 * @type {import('jest').Config}
 */
module.exports = {
	...base,
	testPathIgnorePatterns: [
		...(base.testPathIgnorePatterns ?? []),
		'<rootDir>/test/(tooling|sandbox|contract|release|timeline)/',
		'/(trigger-budget|trigger-timeline|trigger-model|soak|shared-limit|concurrency)\\.test\\.ts$',
	],
	// Stryker's runner wraps the environment and requires it by this path itself, without jest's
	// `<rootDir>` substitution.
	testEnvironment: base.testEnvironment?.replace('<rootDir>', __dirname),
	// Stryker runs this from its sandbox under .stryker-tmp/ and removes that folder when done.
	testEnvironmentOptions: { userFolderParent: `${__dirname}/.n8n-user-folders` },
};
