/**
 * The browser suite (`npm run test:e2e:browser`): the packed package in a real n8n, driven through
 * its editor in headless Chromium. The e2e suite's global setup; each file starts one n8n and one
 * browser for its tests, which run in file order.
 * @type {import('jest').Config}
 */
module.exports = {
	...require('./jest.e2e.config.js'),
	roots: ['<rootDir>/test/e2e-browser'],
	testMatch: ['<rootDir>/test/e2e-browser/**/*.test.ts'],
};
