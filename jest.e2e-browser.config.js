/**
 * The browser suite (`npm run test:e2e:browser`): the packed package in a real n8n (the version
 * SMP_N8N_VERSION picks), driven through its editor in Debian's headless Chromium as a user
 * drives it. Same global setup as the e2e suite (n8n installed once, the tarball packed once);
 * each file starts one n8n and one browser for its tests, which run in file order.
 * @type {import('jest').Config}
 */
module.exports = {
	...require('./jest.e2e.config.js'),
	roots: ['<rootDir>/test/e2e-browser'],
	testMatch: ['<rootDir>/test/e2e-browser/**/*.test.ts'],
};
