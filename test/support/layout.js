// @ts-check
'use strict';

/**
 * Reads the repository for the layout test: Node's own modules stay out of the linted TypeScript.
 */
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..', '..');

/**
 * Every module of test/ that a script names (required, imported or built), without extension; the
 * suites a script runs (*.test.ts) are not modules. scripts/ may use test/support/harness/engine.ts
 * and nothing else of test/.
 * @returns {string[]} sorted, each once
 */
function testModulesNamedInScripts() {
	const named = new Set();
	const scripts = path.join(ROOT, 'scripts');
	for (const file of fs.readdirSync(scripts, { recursive: true, encoding: 'utf8' })) {
		if (!file.endsWith('.js')) continue;
		const text = fs.readFileSync(path.join(scripts, file), 'utf8');
		for (const [, module] of text.matchAll(/['"(](?:\.\.\/)*(test\/[\w./-]+?)(?:\.[jt]s)?['")]/g)) {
			if (!module.endsWith('.test')) named.add(module);
		}
	}
	return [...named].sort();
}

module.exports = { testModulesNamedInScripts };
