// @ts-check
// Runs @action-validator/cli (GitHub's workflow schema plus glob checks) on a workflow file.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const root = join(__dirname, '..', '..', '..');
const validator = join(root, 'node_modules', '@action-validator', 'cli', 'cli.mjs');

/** @param {string} name a file under .github/, e.g. "dependabot.yml" */
function readGithubFile(name) {
	return fs.readFileSync(join(root, '.github', name), 'utf8');
}

/** @param {string} name */
function readWorkflow(name) {
	return readGithubFile(join('workflows', name));
}

/** Validates text written to a temporary file that is removed afterwards. @param {string} text */
function validateText(text) {
	const dir = fs.mkdtempSync(join(tmpdir(), 'smp-workflow-'));
	try {
		const file = join(dir, 'workflow.yml');
		fs.writeFileSync(file, text);
		const run = spawnSync(process.execPath, [validator, file], { cwd: root, encoding: 'utf8' });
		return { status: run.status, output: `${run.stdout}${run.stderr}` };
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

module.exports = { readGithubFile, readWorkflow, validateText };
