/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	// The real-n8n suite has its own config and command (`npm run test:e2e`).
	testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/e2e/'],
	setupFiles: ['<rootDir>/test/support/jest-isolate-n8n.js'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.dev.json', diagnostics: { warnOnly: false } }],
	},
	testTimeout: 30000,
};
