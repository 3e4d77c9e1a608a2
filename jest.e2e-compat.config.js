/**
 * The compatibility suite (`npm run test:e2e:compat`): what users of every supported n8n line rely
 * on, in a real n8n of the version SMP_N8N_VERSION picks. Same setup as the e2e suite, its own
 * tests, and the e2e suite's redirect file: a credential must stay with its origin on every line.
 * @type {import('jest').Config}
 */
module.exports = {
	...require('./jest.e2e.config.js'),
	roots: ['<rootDir>/test/e2e-compat', '<rootDir>/test/e2e'],
	testMatch: ['<rootDir>/test/e2e-compat/**/*.test.ts', '<rootDir>/test/e2e/redirects.test.ts'],
};
