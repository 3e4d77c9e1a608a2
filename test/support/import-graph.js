// @ts-check
'use strict';

/**
 * Which product files each test file runs, by following imports with TypeScript's own parser and
 * resolver; the README's test map is checked against it (test-map.js).
 */

const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const ROOT = path.resolve(__dirname, '..', '..');
const NODE_DIR = 'nodes/SupplierMatchedProjects';

/**
 * Modules that compile or pack the whole package from its source (`tsc -p tsconfig.json`,
 * `npm run build`): a test that loads one runs every product file, though it imports none.
 */
const WHOLE_PACKAGE = Object.freeze(['scripts/n8n/package.js', 'test/support/n8n-lines.js']);

/** The test map's own modules, which name product files to read their imports, not to run them. */
const MAP_MODULES = Object.freeze(['test/support/import-graph.js', 'test/support/test-map.js']);

/** @param {string} file @returns {string} the path from the repository's root, with `/` */
const relative = (file) => path.relative(ROOT, file).split(path.sep).join('/');

/**
 * @param {string} dir from the root
 * @param {(name: string) => boolean} keep
 * @returns {string[]} files under it, sorted, from the root
 */
function filesUnder(dir, keep) {
	const full = path.join(ROOT, dir);
	if (!fs.existsSync(full)) return [];
	return fs
		.readdirSync(full, { recursive: true, encoding: 'utf8' })
		.map((name) => `${dir}/${name.split(path.sep).join('/')}`)
		.filter((file) => keep(file) && fs.statSync(path.join(ROOT, file)).isFile())
		.sort();
}

/** @returns {string[]} the product's TypeScript files */
const sourceFiles = () =>
	['credentials', NODE_DIR].flatMap((dir) => filesUnder(dir, (file) => file.endsWith('.ts')));

/** @returns {string[]} every jest test file under test/ */
const testFiles = () => filesUnder('test', (file) => file.endsWith('.test.ts'));

const compilerOptions = {
	allowJs: true,
	resolveJsonModule: true,
	moduleResolution: ts.ModuleResolutionKind.Node10,
};

/**
 * @param {string} specifier as written
 * @param {string} from the importing file, from the root
 * @returns {string | undefined} the repository file it names, from the root
 */
function resolveImport(specifier, from) {
	if (!specifier.startsWith('.')) return undefined;
	const found = ts.resolveModuleName(specifier, path.join(ROOT, from), compilerOptions, ts.sys)
		.resolvedModule?.resolvedFileName;
	return found && !found.includes('/node_modules/') ? relative(found) : undefined;
}

/**
 * The module specifiers a file names: imports and exports, `import type`, `typeof import()`,
 * `require()` and `jest.mock()`; and every string literal, for paths named as text.
 * @param {ts.SourceFile} sourceFile
 * @returns {{ specifiers: string[], strings: string[] }}
 */
function namesIn(sourceFile) {
	/** @type {string[]} */
	const specifiers = [];
	/** @type {string[]} */
	const strings = [];
	/** @param {ts.Node} node */
	const visit = (node) => {
		if (ts.isStringLiteralLike(node)) {
			strings.push(node.text);
			const parent = node.parent;
			const named =
				ts.isImportDeclaration(parent) ||
				ts.isExportDeclaration(parent) ||
				ts.isExternalModuleReference(parent) ||
				(ts.isLiteralTypeNode(parent) && ts.isImportTypeNode(parent.parent)) ||
				(ts.isCallExpression(parent) && parent.arguments[0] === node && isModuleCall(parent));
			if (named) {
				specifiers.push(node.text);
			}
		}
		ts.forEachChild(node, visit);
	};
	visit(sourceFile);
	return { specifiers, strings };
}

/** @param {ts.CallExpression} call @returns {boolean} whether it loads the module it names */
function isModuleCall(call) {
	const callee = call.expression;
	if (callee.kind === ts.SyntaxKind.ImportKeyword) return true;
	const text = callee.getText();
	return ['require', 'jest.mock', 'jest.requireActual'].includes(text);
}

/** Imports of every file read so far, and the product files each names as text. */
class ImportGraph {
	constructor() {
		/** @type {Map<string, { imports: string[], mentions: string[] }>} */
		this.files = new Map();
		this.sources = sourceFiles();
	}

	/** @param {string} file from the root */
	read(file) {
		let entry = this.files.get(file);
		if (!entry) {
			const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
			const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
			const { specifiers, strings } = namesIn(sourceFile);
			const imports = specifiers.map((specifier) => resolveImport(specifier, file));
			const mentions = MAP_MODULES.includes(file)
				? []
				: this.sources.filter((source) =>
						strings.some(
							(string) =>
								string.endsWith(source) || string.endsWith(source.replace(/\.ts$/, '.js')),
						),
					);
			entry = { imports: [...new Set(imports.filter((found) => found !== undefined))], mentions };
			this.files.set(file, entry);
		}
		return entry;
	}

	/** @param {string} file @returns {string[]} the files it imports itself */
	imports(file) {
		return this.read(file).imports;
	}

	/**
	 * @param {string} from
	 * @returns {Map<string, string>} it and every file it imports at any depth, each to the file
	 * that first imports it, breadth first (so the chains are shortest)
	 */
	parents(from) {
		const parents = new Map([[from, '']]);
		for (const file of parents.keys()) {
			for (const next of this.imports(file)) {
				if (!parents.has(next) && /\.(ts|js)$/.test(next)) parents.set(next, file);
			}
		}
		return parents;
	}

	/** @param {string} file @returns {Set<string>} it and every file it imports, at any depth */
	closure(file) {
		return new Set(this.parents(file).keys());
	}

	/** @param {string} from @param {string} to @returns {string[] | undefined} the shortest import chain */
	route(from, to) {
		const parents = this.parents(from);
		if (!parents.has(to)) return undefined;
		const chain = [to];
		while (chain[0] !== from) chain.unshift(/** @type {string} */ (parents.get(chain[0])));
		return chain;
	}

	/**
	 * @param {string} test
	 * @returns {Set<string>} the product files it runs: imported at any depth, named as a path by
	 * a module it loads, or all of them when it loads a module that builds the package
	 */
	reach(test) {
		const closure = this.closure(test);
		if (WHOLE_PACKAGE.some((file) => closure.has(file))) return new Set(this.sources);
		const reached = new Set([...closure].filter((file) => this.sources.includes(file)));
		for (const file of closure) {
			for (const source of this.read(file).mentions) {
				for (const more of this.closure(source)) {
					reached.add(more);
				}
			}
		}
		return reached;
	}
}

module.exports = { ImportGraph, NODE_DIR, ROOT, WHOLE_PACKAGE, filesUnder, sourceFiles, testFiles };
