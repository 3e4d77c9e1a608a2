/**
 * The real-n8n suites, the browser's too: the packed package inside a real n8n (`npm run
 * test:e2e`, the e2e suite; scripts/e2e/run.js picks another suite's files by `--testMatch`). Each
 * test file starts one n8n for its tests, which run in band and in file order; the global setup
 * installs n8n (cached) and builds the tarball before any test timer starts.
 * @type {import('jest').Config}
 */
module.exports = {
	testEnvironment: 'node',
	roots: ['e2e', 'e2e-browser', 'e2e-compat', 'e2e-mcp', 'e2e-queue'].map(
		(folder) => `<rootDir>/test/${folder}`,
	),
	testMatch: ['<rootDir>/test/e2e/*.test.ts'],
	// Types are checked by `npm run typecheck`; swc only strips them, as in `npm test`.
	transform: require('./jest.config.js').transform,
	globalSetup: '<rootDir>/test/support/e2e/global-setup.js',
	globalTeardown: '<rootDir>/test/support/e2e/global-teardown.js',
	maxWorkers: 1,
	testTimeout: 5 * 60 * 1000,
	// Jest's transform cache, in the clone rather than the shared temp folder.
	cacheDirectory: '<rootDir>/node_modules/.cache/jest',
};
