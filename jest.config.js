// @ts-check
const os = require('node:os');

/**
 * `npm test`: every test that runs without a real n8n (test/unit, tooling, contract, sandbox,
 * release, engine, reliability, timeline). Its lanes (package.json): `test:unit`, `test:engine`,
 * `test:tooling`, `test:related`.
 * @type {import('jest').Config}
 */
module.exports = {
	// Test files are found under test/; the other folders are there so that jest's import graph
	// (`npm run test:related -- <file>`) knows the product and tooling files the tests load.
	roots: ['test', 'credentials', 'nodes', 'sandbox', 'scripts'].map((dir) => `<rootDir>/${dir}`),
	// Each n8n runtime's manifest is a package.json named alike; none is a module tests load.
	modulePathIgnorePatterns: ['<rootDir>/scripts/n8n/runtimes/'],
	testMatch: ['**/*.test.ts'],
	// The real-n8n suites (test/e2e*/) have their own configs and commands (`npm run test:e2e`,
	// `test:e2e:queue`, `test:e2e:compat`, `test:e2e:mcp`, `test:e2e:browser`).
	testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/e2e'],
	// A throw-away n8n user folder per file, and console output shown only for failing tests.
	testEnvironment: '<rootDir>/test/support/jest/environment.js',
	// Types are checked once for the whole tree by `npm run typecheck`; here swc only strips them
	// (a file at a time, some 300 times faster than ts-jest's type-checking transform).
	transform: {
		'^.+\\.ts$': [
			'@swc/jest',
			{ jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } },
		],
		// The bench's table library ships as ES modules only, which jest on Node 20 cannot require.
		'/node_modules/markdown-table/.+\\.js$': [
			'@swc/jest',
			{ jsc: { parser: { syntax: 'ecmascript' }, target: 'es2022' }, module: { type: 'commonjs' } },
		],
	},
	transformIgnorePatterns: ['/node_modules/(?!markdown-table/)'],
	testTimeout: 30000,
	// Jest's default, one worker fewer than the cores, is one worker on two cores; the files spend
	// much of their time waiting on sockets, so a second worker nearly halves the run there.
	maxWorkers: Math.max(2, os.availableParallelism() - 1),
	// Jest's transform cache, in the clone rather than the shared temp folder.
	cacheDirectory: '<rootDir>/node_modules/.cache/jest',
};
