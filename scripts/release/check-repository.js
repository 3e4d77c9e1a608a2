// @ts-check
'use strict';

/**
 * Run by publish.yml before publishing: npm refuses a provenance statement whose source
 * repository differs from package.json's `repository.url` (E422 after the whole build), so the
 * mismatch is named here, first, with the value to write.
 *
 * `node scripts/release/check-repository.js <owner/name>` (GitHub's GITHUB_REPOSITORY).
 */

const fs = require('node:fs');
const path = require('node:path');

/**
 * @param {unknown} repository package.json's `repository` field
 * @param {string} githubRepository owner/name
 * @returns {string | undefined} what is wrong, or undefined when it matches
 */
function repositoryProblem(repository, githubRepository) {
	const expected = `git+https://github.com/${githubRepository}.git`;
	const url =
		typeof repository === 'string'
			? repository
			: typeof repository === 'object' && repository !== null && 'url' in repository
				? String(repository.url)
				: '';
	const normalized = url
		.replace(/^git\+/, '')
		.replace(/\.git$/, '')
		.toLowerCase();
	if (normalized === `https://github.com/${githubRepository}`.toLowerCase()) return undefined;
	return (
		`package.json's repository.url is "${url}", but this workflow runs in ${githubRepository}: ` +
		`npm refuses a provenance statement from another repository. Set it with ` +
		`\`npm pkg set repository.type=git repository.url=${expected}\`, commit, and tag again.`
	);
}

module.exports = { repositoryProblem };

if (require.main === module) {
	const githubRepository = process.argv[2] ?? '';
	const manifest = JSON.parse(
		fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'),
	);
	const problem = /^[\w.-]+\/[\w.-]+$/.test(githubRepository)
		? repositoryProblem(manifest.repository, githubRepository)
		: `expected the repository as owner/name (GITHUB_REPOSITORY), got "${githubRepository}"`;
	if (problem) {
		process.stderr.write(`${problem}\n`);
		process.exitCode = 1;
	}
}
