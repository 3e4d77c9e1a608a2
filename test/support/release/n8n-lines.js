// @ts-check
'use strict';

/**
 * For the loadability test: the package compiled as `npm run build` compiles it (tsc with the
 * package's tsconfig), into a folder of its own so that no other test's build races with it, and
 * the n8n-workflow values that compiled code reads. The .ts test cannot use Node APIs.
 */

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..', '..');

/**
 * n8n-workflow as each supported n8n line ships it, installed as exact-pinned npm aliases
 * (package.json). n8n 2.30's n8n-workflow pins a zod peer the rest of the dev tree cannot share,
 * so that line is proven by the compatibility suite on n8n 2.30.8 instead.
 */
const N8N_WORKFLOW_LINES = Object.freeze([
	{ n8n: '1.123', module: 'n8n-workflow-1.120' },
	{ n8n: '2.0', module: 'n8n-workflow-2.0' },
	{ n8n: '2.20', module: 'n8n-workflow-2.20' },
	{ n8n: '2.40', module: 'n8n-workflow' },
	{ n8n: '2.41', module: 'n8n-workflow-2.41' },
]);

/**
 * Compiles the package into a new folder under node_modules/.cache (where `n8n-workflow`
 * resolves from the repository's node_modules, as it does from n8n's). Without type checking
 * (`npm run typecheck` does that): tsc's output is the same, byte for byte, without its time.
 * @returns {string} the folder, holding credentials/ and nodes/ as dist/ does
 */
function compilePackage() {
	const parent = path.join(root, 'node_modules', '.cache', 'smp-n8n-lines');
	fs.mkdirSync(parent, { recursive: true });
	const outDir = fs.mkdtempSync(path.join(parent, 'dist-'));
	execFileSync(
		process.execPath,
		[
			require.resolve('typescript/bin/tsc'),
			'-p',
			path.join(root, 'tsconfig.json'),
			'--outDir',
			outDir,
			'--incremental',
			'false',
			'--declaration',
			'false',
			'--sourceMap',
			'false',
			'--noCheck',
		],
		{ cwd: root, stdio: 'pipe' },
	);
	return outDir;
}

/** @param {string} dir */
function removeDir(dir) {
	fs.rmSync(dir, { recursive: true, force: true });
}

/**
 * What the compiled files take from n8n-workflow. TypeScript binds each `import { X } from
 * 'n8n-workflow'` to one variable (`n8n_workflow_1`) and reads `n8n_workflow_1.X` where X is used,
 * so a read is found whether it runs at load or only when a node executes.
 * @param {string} dir the compiled package
 * @returns {{ reads: Record<string, string[]>, otherBindings: Record<string, string[]> }}
 *   reads: value name -> files reading it through such a binding; otherBindings: file -> each
 *   statement that requires n8n-workflow in another way (a namespace import, a destructuring)
 */
function n8nWorkflowReads(dir) {
	/** @type {Record<string, string[]>} */
	const reads = {};
	/** @type {Record<string, string[]>} */
	const otherBindings = {};
	const files = fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
	for (const file of files.filter((name) => name.endsWith('.js'))) {
		const source = fs.readFileSync(path.join(dir, file), 'utf8');
		const statements = source.match(/^.*require\("n8n-workflow"\).*$/gm) ?? [];
		for (const statement of statements) {
			const binding = /^const (n8n_workflow_\d+) = require\("n8n-workflow"\);$/.exec(
				statement.trim(),
			);
			if (!binding) {
				(otherBindings[file] ??= []).push(statement.trim());
				continue;
			}
			const read = new RegExp(`\\b${binding[1]}\\.([A-Za-z_$][\\w$]*)`, 'g');
			for (const match of source.matchAll(read)) {
				const files = (reads[match[1]] ??= []);
				if (!files.includes(file)) files.push(file);
			}
		}
	}
	return { reads, otherBindings };
}

module.exports = { N8N_WORKFLOW_LINES, compilePackage, removeDir, n8nWorkflowReads };
