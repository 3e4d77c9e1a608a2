/** @type {import('jest').Config} */
module.exports = {
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	// The real-n8n suite has its own config and command (`npm run test:e2e`).
	testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/e2e/'],
	// A throw-away n8n user folder per file, and console output shown only for failing tests.
	testEnvironment: '<rootDir>/test/support/jest-environment.js',
	transform: {
		'^.+\\.ts$': [
			'ts-jest',
			{ tsconfig: '<rootDir>/tsconfig.dev.json', diagnostics: { warnOnly: false } },
		],
	},
	testTimeout: 30000,
};
