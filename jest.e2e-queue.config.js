/**
 * The queue-mode suite (`npm run test:e2e:queue`): the packed package in a main instance and two
 * workers on PostgreSQL and Redis. Same setup as the e2e suite, its own tests.
 * @type {import('jest').Config}
 */
module.exports = {
	...require('./jest.e2e.config.js'),
	roots: ['<rootDir>/test/e2e-queue'],
};
