// @ts-check
'use strict';

/**
 * The house rules of the tooling's code (test/tooling/house-rules.test.ts), read with TypeScript's
 * own parser so that a function is measured as the compiler sees it.
 */

const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const ROOT = path.resolve(__dirname, '..', '..', '..');

/** @param {string} file from the root */
const readText = (file) => fs.readFileSync(path.join(ROOT, file), 'utf8');

/** @param {string} file from the root */
const parse = (file) => ts.createSourceFile(file, readText(file), ts.ScriptTarget.Latest, true);

/**
 * @param {string} dir from the root
 * @returns {string[]} its .js and .ts files (declarations and installed n8n runtimes left out),
 * sorted, from the root
 */
function codeUnder(dir) {
	return fs
		.readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
		.map((name) => `${dir}/${name.split(path.sep).join('/')}`)
		.filter((file) => /(?<!\.d)\.(js|ts)$/.test(file) && !/\/(node_modules|runtimes)\//.test(file))
		.filter((file) => fs.statSync(path.join(ROOT, file)).isFile())
		.sort();
}

/** @param {ts.Node} node @returns {string} how a reader finds the function */
function nameOf(node) {
	const named = /** @type {{ name?: ts.Node }} */ (node).name ?? node.parent;
	const name = /** @type {{ name?: ts.Node }} */ (named).name ?? named;
	return ts.isIdentifier(name) || ts.isPrivateIdentifier(name) ? name.text : '(anonymous)';
}

/**
 * Functions longer than `limit` lines, a factory's inner functions counted in its length, so a
 * long closure counts as one long function.
 * @param {string[]} dirs from the root
 * @param {number} limit
 * @returns {string[]} `file:line name (N lines)`, longest first
 */
function longFunctions(dirs, limit) {
	/** @type {Array<[number, string]>} */
	const found = [];
	for (const file of dirs.flatMap(codeUnder)) {
		const source = parse(file);
		const visit = (/** @type {ts.Node} */ node) => {
			if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
				const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
				const lines = source.getLineAndCharacterOfPosition(node.end).line - first + 1;
				if (lines > limit)
					found.push([lines, `${file}:${first + 1} ${nameOf(node)} (${lines} lines)`]);
			}
			ts.forEachChild(node, visit);
		};
		visit(source);
	}
	return found.sort((a, b) => b[0] - a[0]).map(([, where]) => where);
}

/**
 * Every module of test/ that a script names (required, imported or built), without extension; the
 * suites a script runs (*.test.ts) are not modules.
 * @returns {string[]} sorted, each once
 */
function testModulesNamedInScripts() {
	const named = new Set();
	for (const file of codeUnder('scripts')) {
		for (const [, module] of readText(file).matchAll(
			/['"(](?:\.\.\/)*(test\/[\w./-]+?)(?:\.[jt]s)?['")]/g,
		)) {
			if (!module.endsWith('.test')) named.add(module);
		}
	}
	return [...named].sort();
}

module.exports = { longFunctions, testModulesNamedInScripts };
