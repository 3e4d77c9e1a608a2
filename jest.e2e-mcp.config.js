/**
 * The MCP builder suite (`npm run test:e2e:mcp`): the packed package in a real n8n (the version
 * SMP_N8N_VERSION picks) driven through n8n's own MCP server, as a model building workflows
 * drives it. Same setup as the e2e suite, its own tests.
 * @type {import('jest').Config}
 */
module.exports = {
	...require('./jest.e2e.config.js'),
	roots: ['<rootDir>/test/e2e-mcp'],
};
