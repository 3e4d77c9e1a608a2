// @ts-check
'use strict';

/**
 * The tooling's house rules, measured from the code: how long its functions are, and what of test/
 * the scripts use.
 */

const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const { ROOT, filesUnder } = require('./import-graph');

/** @param {string} dir from the root @returns {string[]} its .js and .ts files, from the root */
const codeUnder = (dir) =>
	filesUnder(
		dir,
		(file) =>
			/\.(js|ts)$/.test(file) &&
			!file.endsWith('.d.ts') &&
			!/\/(node_modules|runtimes)\//.test(file),
	);

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
		const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
		const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
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
		const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
		for (const [, module] of text.matchAll(/['"(](?:\.\.\/)*(test\/[\w./-]+?)(?:\.[jt]s)?['")]/g)) {
			if (!module.endsWith('.test')) named.add(module);
		}
	}
	return [...named].sort();
}

module.exports = { longFunctions, testModulesNamedInScripts };
