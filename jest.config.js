/** @type {import('jest').Config} */
module.exports = {
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	// The real-n8n suites have their own configs and commands (`npm run test:e2e`, `test:e2e:queue`,
	// `test:e2e:compat`, `test:e2e:mcp`).
	testPathIgnorePatterns: [
		'/node_modules/',
		'<rootDir>/test/e2e/',
		'<rootDir>/test/e2e-queue/',
		'<rootDir>/test/e2e-compat/',
		'<rootDir>/test/e2e-mcp/',
	],
	// A throw-away n8n user folder per file, and console output shown only for failing tests.
	testEnvironment: '<rootDir>/test/support/jest-environment.js',
	transform: {
		'^.+\\.ts$': [
			'ts-jest',
			{ tsconfig: '<rootDir>/tsconfig.dev.json', diagnostics: { warnOnly: false } },
		],
		// The bench's table library ships as ES modules only, which jest on Node 20 cannot require.
		'/node_modules/markdown-table/.+\\.js$': [
			'ts-jest',
			{ tsconfig: '<rootDir>/tsconfig.dev.json', diagnostics: false },
		],
	},
	transformIgnorePatterns: ['/node_modules/(?!markdown-table/)'],
	testTimeout: 30000,
	// Jest's transform cache, in the clone rather than the shared temp folder.
	cacheDirectory: '<rootDir>/node_modules/.cache/jest',
};
