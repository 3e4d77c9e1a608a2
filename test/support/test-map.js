// @ts-check
'use strict';

/**
 * The README's test map (which tests run each product file), its rows computed from the imports.
 * `node test/support/test-map.js` prints the tables, `--write` puts them into docs/development.md between
 * the markers; staleRows lists the rows where the README and the imports differ.
 */

const fs = require('node:fs');
const path = require('node:path');

const { ImportGraph, NODE_DIR, ROOT, sourceFiles, testFiles } = require('./import-graph');

const README = path.join(ROOT, 'docs', 'development.md');
const START = '<!-- test-map:start -->';
const END = '<!-- test-map:end -->';
const REFRESH = 'node test/support/test-map.js --write';
const NO_PRODUCT_FILE = '(no product file)';
const MISSING_MARKERS = `docs/development.md needs the markers ${START} and ${END} around the test map`;

/**
 * Files whose row names every test that runs them; the rows of the files they import name only
 * the tests that reach those files some other way, or import them themselves.
 */
const HUBS = Object.freeze([
	{ name: 'Credential', file: 'credentials/SupplierMatchedProjectsApi.credentials.ts' },
	{ name: 'Node', file: `${NODE_DIR}/SupplierMatchedProjects.node.ts` },
	{ name: 'Trigger', file: `${NODE_DIR}/SupplierMatchedProjectsTrigger.node.ts` },
]);

/** The generated types share the row of the file that names them. */
const SHARED_ROWS = new Map([[`${NODE_DIR}/api/types.generated.ts`, `${NODE_DIR}/api/types.ts`]]);

/** The table's columns after the first two: a test's layer is its folder under test/. */
const LAYERS = Object.freeze([
	{ title: 'Without n8n', folders: ['unit', 'contract', 'sandbox', 'release'] },
	{ title: "In n8n's engine", folders: ['engine', 'reliability', 'timeline'] },
	{ title: 'On a real n8n', folders: ['e2e', 'e2e-queue', 'e2e-compat'] },
]);
const HEADER = ['File', 'Also every test in the row of', ...LAYERS.map((layer) => layer.title)];

/** @typedef {{ files: string[], hubs: string[], tests: Set<string> }} Row */

/** @returns {string} README.md's text */
const readReadme = () => fs.readFileSync(README, 'utf8');

/** @param {string} file from the root @returns {string} as the table names it */
const shortName = (file) =>
	file.startsWith(`${NODE_DIR}/`) ? file.slice(NODE_DIR.length + 1) : file;

/** @param {string} test from the root @returns {string} from test/ */
const testName = (test) => test.replace(/^test\//, '').replace(/\.test\.ts$/, '');

/** @param {string} test from the root @returns {string | undefined} its column's title */
function layerOf(test) {
	const folder = testName(test).split('/')[0];
	return LAYERS.find((layer) => layer.folders.includes(folder))?.title;
}

/**
 * The rows the code calls for, one per product file (the generated types sharing one), hubs
 * first, and a last one for the tests that run no product file.
 * @param {ImportGraph} graph
 */
function expectedRows(graph) {
	const gone = HUBS.filter((hub) => !fs.existsSync(path.join(ROOT, hub.file)));
	if (gone.length > 0) {
		const files = gone.map((hub) => hub.file).join(', ');
		throw new Error(`${files} no longer exist: name what replaced them in HUBS (test-map.js)`);
	}
	const tests = testFiles();
	const reach = new Map(tests.map((test) => [test, graph.reach(test)]));
	const hubFiles = HUBS.map((hub) => hub.file);
	const order = [...hubFiles, ...sourceFiles().filter((file) => !hubFiles.includes(file))];
	/** @type {Map<string, Row>} */
	const rows = new Map();
	for (const file of order) {
		const owner = SHARED_ROWS.get(file) ?? file;
		const hubs = HUBS.filter((hub) => hub.file !== owner && graph.closure(hub.file).has(owner));
		/** @type {Row} */
		const row = rows.get(owner) ?? {
			files: [],
			hubs: hubs.map((hub) => hub.name),
			tests: new Set(),
		};
		row.files.push(file);
		for (const [test, reached] of reach) {
			if (belongs(graph, test, file, row.hubs, reached)) row.tests.add(test);
		}
		rows.set(owner, row);
	}
	const idle = tests.filter((test) => reach.get(test)?.size === 0);
	return [...rows.values(), { files: [], hubs: [], tests: new Set(idle) }];
}

/**
 * A test belongs in a file's row when it imports the file, or runs it other than through a hub
 * whose row the file's row points to.
 * @param {ImportGraph} graph
 * @param {string} test
 * @param {string} file
 * @param {string[]} hubs the row's
 * @param {Set<string>} reached by the test
 */
function belongs(graph, test, file, hubs, reached) {
	if (graph.imports(test).includes(file)) return true;
	return reached.has(file) && !HUBS.some((hub) => hubs.includes(hub.name) && reached.has(hub.file));
}

/** @param {Row} row @returns {string} the first cell; a hub's with the name other rows call it */
function fileCell(row) {
	if (row.files.length === 0) return NO_PRODUCT_FILE;
	const hub = HUBS.find((one) => row.files.includes(one.file));
	const files = row.files.map((file) => `\`${shortName(file)}\``).join(', ');
	return hub ? `${files} (${hub.name})` : files;
}

/**
 * @param {string[]} tests of one column
 * @returns {string} their names, a whole folder as `folder/*`
 */
function testsCell(tests) {
	const all = testFiles();
	const names = tests.map((test) => {
		const folder = path.posix.dirname(test);
		const inFolder = all.filter((other) => path.posix.dirname(other) === folder);
		const whole = inFolder.length > 1 && inFolder.every((other) => tests.includes(other));
		return whole ? `${testName(folder)}/*` : testName(test);
	});
	return [...new Set(names)].map((name) => `\`${name}\``).join(', ');
}

/** @param {Row} row @returns {string} the table it stands in: the node classes, a folder, or none */
function groupOf(row) {
	if (row.files.length === 0) return 'none';
	const hub = HUBS.some((one) => row.files.includes(one.file));
	return hub ? 'classes' : shortName(row.files[0]).split('/')[0];
}

/** @param {Row[]} rows @returns {string} one table per group, as markdown (not yet aligned) */
function renderTable(rows) {
	/** @type {Map<string, string[][]>} */
	const tables = new Map();
	for (const row of rows) {
		const tests = [...row.tests.keys()];
		const layers = LAYERS.map((layer) =>
			testsCell(tests.filter((test) => layerOf(test) === layer.title)),
		);
		const lines = tables.get(groupOf(row)) ?? [HEADER, HEADER.map(() => '---')];
		lines.push([fileCell(row), row.hubs.join(', '), ...layers]);
		tables.set(groupOf(row), lines);
	}
	return [...tables.values()]
		.map((lines) => lines.map((cells) => `| ${cells.join(' | ')} |`).join('\n'))
		.join('\n\n');
}

/**
 * @param {string} readme the whole text
 * @returns {string} it with the tables between the markers made anew from the code
 */
function withFreshTable(readme) {
	const [start, end] = mapBounds(readme) ?? [];
	if (start === undefined) throw new Error(MISSING_MARKERS);
	return `${readme.slice(0, start)}${freshMap()}${readme.slice(end)}`;
}

/** @returns {string} what belongs between the markers */
function freshMap() {
	const table = renderTable(expectedRows(new ImportGraph()));
	// Prettier would pad every row to the widest; unpadded, each row reads on its own.
	return `\n<!-- prettier-ignore-start -->\n\n${table}\n\n<!-- prettier-ignore-end -->\n`;
}

/** @param {string} readme @returns {[number, number] | undefined} the map's start and end */
function mapBounds(readme) {
	const start = readme.indexOf(START);
	const end = readme.indexOf(END);
	return start < 0 || end < start ? undefined : [start + START.length, end];
}

/**
 * @param {string} readme the whole text
 * @returns {string[]} nothing when the map is as the imports give it; else each row to remove or
 *   add (a changed row is both), and the command that writes the map anew
 */
function staleRows(readme) {
	const bounds = mapBounds(readme);
	if (!bounds) return [`${MISSING_MARKERS}, then run \`${REFRESH}\`.`];
	const rowsOf = (/** @type {string} */ text) =>
		text.split('\n').filter((line) => line.startsWith('|'));
	const written = rowsOf(readme.slice(...bounds));
	const computed = rowsOf(freshMap());
	const problems = [
		...written.filter((row) => !computed.includes(row)).map((row) => `remove: ${row}`),
		...computed.filter((row) => !written.includes(row)).map((row) => `add:    ${row}`),
	];
	return problems.length === 0
		? []
		: [`docs/development.md's test map differs from the imports; run \`${REFRESH}\`.`, ...problems];
}

module.exports = { REFRESH, readReadme, staleRows };

if (require.main === module) {
	const fresh = withFreshTable(readReadme());
	if (process.argv.includes('--write')) {
		fs.writeFileSync(README, fresh);
	} else {
		process.stdout.write(`${fresh.slice(fresh.indexOf(START), fresh.indexOf(END) + END.length)}\n`);
	}
}
