// @ts-check
'use strict';

const { ensureRuntime } = require('../../../scripts/n8n/runtime');
const { buildAndPack } = require('../../../scripts/n8n/package');

/** @param {string} line */
function log(line) {
	process.stderr.write(`[e2e] ${line}\n`);
}

/**
 * Installs n8n (once; cached outside the clone) and builds the tarball before the tests start,
 * so neither counts against a test's timeout. The tests read the tarball's path from the
 * environment, which jest's test processes inherit.
 */
module.exports = async function globalSetup() {
	const runtime = await ensureRuntime({ log });
	log(`n8n ${runtime.n8nVersion} on Node.js ${runtime.nodeVersion}`);
	if (!process.env.SMP_E2E_TARBALL) {
		// Into scripts/e2e/run.js's folder when it runs the suite: removed with it, even when the
		// run is stopped.
		process.env.SMP_E2E_TARBALL = await buildAndPack({ log }, process.env.SMP_E2E_WORK_DIR);
		// Ours to remove in the global teardown; a tarball given from outside is left alone.
		process.env.SMP_E2E_PACKED_HERE = '1';
	}
	log(`package: ${process.env.SMP_E2E_TARBALL}`);
};
