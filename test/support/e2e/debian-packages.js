// @ts-check
'use strict';

/**
 * Finds the server programs a suite needs, or says which Debian packages to install: `.ci/run`
 * installs them once before the suites, so that no two suites run apt-get at once.
 */

const fs = require('node:fs');
const path = require('node:path');

/**
 * @typedef {object} Program
 * @property {string} name what the suite calls it, e.g. `redis-server`
 * @property {string[]} candidates absolute paths, or bare names looked up on PATH
 * @property {string} debianPackage the package that installs it
 */

/**
 * @param {string} candidate
 * @returns {string | undefined} the executable's path
 */
function locate(candidate) {
	const files = path.isAbsolute(candidate)
		? [candidate]
		: (process.env.PATH ?? '')
				.split(path.delimiter)
				.filter(Boolean)
				.map((dir) => path.join(dir, candidate));
	return files.find((file) => {
		try {
			fs.accessSync(file, fs.constants.X_OK);
			return true;
		} catch {
			return false;
		}
	});
}

/**
 * The path of every program, or an error naming the packages that install the missing ones.
 * @param {Program[]} programs
 * @returns {Promise<Record<string, string>>} program name → executable path
 */
async function ensurePrograms(programs) {
	const found = programs.map((program) => program.candidates.map(locate).find(Boolean));
	const missing = programs.filter((_, index) => found[index] === undefined);
	if (missing.length > 0) {
		const packages = [...new Set(missing.map((program) => program.debianPackage))].join(' ');
		const names = missing.map((program) => program.name).join(', ');
		throw new Error(
			`${names} not found: install Debian's ${packages} (apt-get install ${packages})`,
		);
	}
	return Object.fromEntries(programs.map((program, index) => [program.name, String(found[index])]));
}

module.exports = { ensurePrograms };
