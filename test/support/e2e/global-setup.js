// @ts-check
'use strict';

const { ensureRuntime } = require('../../../scripts/n8n/runtime');
const { buildAndPack } = require('../../../scripts/n8n/package');
const { stderrLogger } = require('./support');

/**
 * Installs n8n (once; cached outside the clone) and builds the tarball before the tests start,
 * so neither counts against a test's timeout. The tests read the tarball's path from the
 * environment, which jest's test processes inherit.
 */
module.exports = async function globalSetup() {
	const runtime = await ensureRuntime(stderrLogger);
	stderrLogger.log(`n8n ${runtime.n8nVersion} on Node.js ${runtime.nodeVersion}`);
	if (!process.env.SMP_E2E_TARBALL) {
		// Into scripts/e2e/run.js's folder when it runs the suite: removed with it, even when the
		// run is stopped. Ours to remove in the global teardown; one given from outside is not.
		process.env.SMP_E2E_TARBALL = await buildAndPack(stderrLogger, process.env.SMP_E2E_WORK_DIR);
		process.env.SMP_E2E_PACKED_HERE = '1';
	}
	stderrLogger.log(`package: ${process.env.SMP_E2E_TARBALL}`);
};
