// @ts-check
'use strict';

const fs = require('node:fs');
const path = require('node:path');

/** Removes the tarball folder the global setup packed into. */
module.exports = async function globalTeardown() {
	const tarball = process.env.SMP_E2E_TARBALL;
	if (process.env.SMP_E2E_PACKED_HERE === '1' && tarball) {
		fs.rmSync(path.dirname(tarball), { recursive: true, force: true });
	}
};
