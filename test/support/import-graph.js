// @ts-check
'use strict';

/**
 * The tooling's code read with TypeScript's own parser and resolver: which product files each test
 * file runs, by following imports (the test map in docs/development.md is checked against it), and
 * the house rules (house-rules.test.ts).
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

/** @param {string} file from the root */
const readText = (file) => fs.readFileSync(path.join(ROOT, file), 'utf8');

/** @param {string} file from the root */
const parse = (file) => ts.createSourceFile(file, readText(file), ts.ScriptTarget.Latest, true);

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
 * `require()` and `jest.mock()`; every string literal, for paths named as text; and the names it
 * imports from n8n-workflow, types included.
 * @param {ts.SourceFile} sourceFile
 * @returns {{ specifiers: string[], strings: string[], n8nNames: string[] }}
 */
function namesIn(sourceFile) {
	/** @type {string[]} */
	const specifiers = [];
	/** @type {string[]} */
	const strings = [];
	/** @type {string[]} */
	const n8nNames = [];
	/** @param {ts.Node} node */
	const visit = (node) => {
		if (ts.isImportDeclaration(node)) n8nNames.push(...n8nWorkflowNames(node));
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
	return { specifiers, strings, n8nNames };
}

/** @param {ts.ImportDeclaration} declaration @returns {string[]} what it binds of n8n-workflow */
function n8nWorkflowNames(declaration) {
	const from = declaration.moduleSpecifier;
	const bindings = declaration.importClause?.namedBindings;
	if (!ts.isStringLiteral(from) || from.text !== 'n8n-workflow') return [];
	if (!bindings || !ts.isNamedImports(bindings)) return [];
	return bindings.elements.map((element) => element.name.text);
}

/** @param {ts.CallExpression} call @returns {boolean} whether it loads the module it names */
function isModuleCall(call) {
	const callee = call.expression;
	if (callee.kind === ts.SyntaxKind.ImportKeyword) return true;
	const text = callee.getText();
	return ['require', 'jest.mock', 'jest.requireActual'].includes(text);
}

/**
 * What the graph knows of a file: the repository files it imports, the product files it names as
 * text, and the names it imports from n8n-workflow.
 * @typedef {{ imports: string[], mentions: string[], n8nNames: string[] }} FileEntry
 */

/**
 * A repository made up for the test map's own tests: its product files, its test files, and
 * what each file imports (a file it leaves out imports nothing).
 * @typedef {{ sources: string[], tests: string[], files: Record<string, Partial<FileEntry>> }} GraphFixture
 */

/** Imports of every file read so far, and the product files each names as text. */
class ImportGraph {
	/** @param {GraphFixture} [fixture] a made-up repository; this one when left out */
	constructor(fixture) {
		/** @type {Map<string, FileEntry>} */
		this.files = new Map();
		this.sources = fixture?.sources ?? sourceFiles();
		this.tests = fixture?.tests ?? testFiles();
		if (fixture) {
			for (const file of [...this.sources, ...this.tests, ...Object.keys(fixture.files)]) {
				const { imports = [], mentions = [], n8nNames = [] } = fixture.files[file] ?? {};
				this.files.set(file, { imports, mentions, n8nNames });
			}
		}
	}

	/** @param {string} file from the root @returns {FileEntry} */
	read(file) {
		let entry = this.files.get(file);
		if (!entry) {
			const { specifiers, strings, n8nNames } = namesIn(parse(file));
			const imports = specifiers.map((specifier) => resolveImport(specifier, file));
			const mentions = MAP_MODULES.includes(file)
				? []
				: this.sources.filter((source) =>
						strings.some(
							(string) =>
								string.endsWith(source) || string.endsWith(source.replace(/\.ts$/, '.js')),
						),
					);
			const found = [...new Set(imports.filter((one) => one !== undefined))];
			entry = { imports: found, mentions, n8nNames };
			this.files.set(file, entry);
		}
		return entry;
	}

	/** @param {string} file @returns {string[]} the files it imports itself */
	imports(file) {
		return this.read(file).imports;
	}

	/** @param {string} file @returns {string[]} the names it imports from n8n-workflow */
	n8nNames(file) {
		return this.read(file).n8nNames;
	}

	/** @param {string} file @returns {Set<string>} it and every file it imports, at any depth */
	closure(file) {
		const closure = new Set([file]);
		for (const one of closure) {
			for (const next of this.imports(one)) {
				if (/\.(ts|js)$/.test(next)) closure.add(next);
			}
		}
		return closure;
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

/** @param {string} dir from the root @returns {string[]} its .js and .ts files, from the root */
const codeUnder = (dir) =>
	filesUnder(
		dir,
		(file) => /(?<!\.d)\.(js|ts)$/.test(file) && !/\/(node_modules|runtimes)\//.test(file),
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

module.exports = {
	ImportGraph,
	NODE_DIR,
	ROOT,
	longFunctions,
	sourceFiles,
	testFiles,
	testModulesNamedInScripts,
};
