// @ts-check
'use strict';

/**
 * Finds the server programs a suite needs and installs the Debian packages that carry them when
 * they are missing: as root with apt-get (as CI runs), otherwise it says what to install.
 */

const fs = require('node:fs');
const path = require('node:path');
const { runGroup } = require('../../../scripts/n8n/processes');

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
	const dirs = path.isAbsolute(candidate)
		? ['']
		: (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
	for (const dir of dirs) {
		const file = dir ? path.join(dir, candidate) : candidate;
		try {
			fs.accessSync(file, fs.constants.X_OK);
			return file;
		} catch {
			// Not here.
		}
	}
	return undefined;
}

/**
 * @param {Program[]} programs
 * @returns {{ found: Record<string, string>, missing: Program[] }}
 */
function lookUp(programs) {
	/** @type {Record<string, string>} */
	const found = {};
	/** @type {Program[]} */
	const missing = [];
	for (const program of programs) {
		const file = program.candidates.map(locate).find(Boolean);
		if (file) found[program.name] = file;
		else missing.push(program);
	}
	return { found, missing };
}

/**
 * @param {string[]} args
 * @param {number} timeoutMs
 */
async function aptGet(args, timeoutMs) {
	const result = await runGroup('apt-get', args, {
		env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
		timeoutMs,
	});
	if (result.code !== 0) {
		const output = `${result.stdout}\n${result.stderr}`.trim().split('\n').slice(-15).join('\n');
		throw new Error(
			`apt-get ${args.join(' ')} failed (${result.signal ?? `exit ${result.code}`}):\n${output}`,
		);
	}
}

/**
 * Returns the path of every program, installing the missing ones' packages first when it can.
 * @param {Program[]} programs
 * @param {{ log: (line: string) => void }} logger
 * @returns {Promise<Record<string, string>>} program name → executable path
 */
async function ensurePrograms(programs, logger) {
	const first = lookUp(programs);
	if (first.missing.length === 0) return first.found;
	const packages = [...new Set(first.missing.map((program) => program.debianPackage))];
	const names = first.missing.map((program) => program.name).join(', ');
	const canInstall = process.getuid?.() === 0 && locate('apt-get') !== undefined;
	if (!canInstall) {
		throw new Error(
			`${names} not found. Install Debian's ${packages.join(' and ')} (sudo apt-get install ${packages.join(' ')}) and run again.`,
		);
	}
	logger.log(`${names} not found: installing ${packages.join(', ')} with apt-get`);
	await aptGet(['update'], 5 * 60_000);
	await aptGet(['install', '-y', '--no-install-recommends', ...packages], 10 * 60_000);
	const second = lookUp(programs);
	if (second.missing.length > 0) {
		throw new Error(
			`apt-get installed ${packages.join(' ')} but ${second.missing.map((program) => program.name).join(', ')} is still not found`,
		);
	}
	return second.found;
}

module.exports = { ensurePrograms };
