// @ts-check
'use strict';

const { ensureRuntime } = require('../n8n/runtime');
const { buildAndPack } = require('../n8n/package');

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
	await ensureRuntime({ log });
	if (!process.env.SMP_E2E_TARBALL) {
		process.env.SMP_E2E_TARBALL = await buildAndPack({ log });
		// Ours to remove in the global teardown; a tarball given from outside is left alone.
		process.env.SMP_E2E_PACKED_HERE = '1';
	}
	log(`package: ${process.env.SMP_E2E_TARBALL}`);
};
