// @ts-check
'use strict';

/**
 * The test map in docs/development.md (which tests run each product file), its rows computed
 * from the imports. `node test/support/test-map.js` prints the tables, `--write` puts them between
 * the markers; staleRows lists the rows where the map and the imports differ. The map's own
 * tests run it on a made-up repository (test/unit/fixtures/), so that only a stale map fails
 * on the real one.
 */

const fs = require('node:fs');
const path = require('node:path');

const { ImportGraph, NODE_DIR, ROOT } = require('./import-graph');

const MAP_PAGE = path.join(ROOT, 'docs', 'development.md');
const START = '<!-- test-map:start -->';
const END = '<!-- test-map:end -->';
const REFRESH = 'node test/support/test-map.js --write';
const NO_PRODUCT_FILE = '(no product file)';
const MISSING_MARKERS = `docs/development.md needs the markers ${START} and ${END} around the test map`;

/**
 * Files whose row names every test that runs them; the rows of the files they import name only
 * the tests that reach those files some other way, or import them themselves: a change to a
 * helper is not sent through every test of the nodes that use it.
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
	{ title: 'On a real n8n', folders: ['e2e', 'e2e-queue', 'e2e-compat', 'e2e-mcp', 'e2e-browser'] },
]);

/**
 * The n8n-workflow names by which n8n and a file meet: the contexts n8n hands a node or a
 * credential, the requests the file hands n8n's helpers, the descriptions n8n reads. What n8n
 * does with them only n8n's engine shows, so a change to a file that names one runs the engine
 * lane too; the map names them as the reason.
 */
const MEETS_N8N =
	/^(I\w*Functions|IHttpRequestHelper|IHttpRequestOptions|INodeProperties|INodeTypeDescription|ICredentialType)$/;
const HEADER = [
	'File',
	...LAYERS.map((layer) => layer.title),
	'Also `npm run test:engine`, as n8n meets it through',
];

/** @typedef {{ files: string[], hubs: string[], tests: Set<string>, meets: Set<string> }} Row */

/** @returns {string} the text of the page that holds the map */
const readMapPage = () => fs.readFileSync(MAP_PAGE, 'utf8');

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
	const gone = HUBS.filter((hub) => !graph.sources.includes(hub.file));
	if (gone.length > 0) {
		const files = gone.map((hub) => hub.file).join(', ');
		throw new Error(`${files} no longer exist: name what replaced them in HUBS (test-map.js)`);
	}
	const reach = new Map(graph.tests.map((test) => [test, graph.reach(test)]));
	const hubFiles = HUBS.map((hub) => hub.file);
	const order = [...hubFiles, ...graph.sources.filter((file) => !hubFiles.includes(file))];
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
			meets: new Set(),
		};
		row.files.push(file);
		for (const name of graph.n8nNames(file)) if (MEETS_N8N.test(name)) row.meets.add(name);
		for (const [test, reached] of reach) {
			if (belongs(graph, test, file, row.hubs, reached)) row.tests.add(test);
		}
		rows.set(owner, row);
	}
	const idle = graph.tests.filter((test) => reach.get(test)?.size === 0);
	return [...rows.values(), { files: [], hubs: [], tests: new Set(idle), meets: new Set() }];
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
 * @param {string[]} all the test files
 * @returns {string} their names, a whole folder as `folder/*`
 */
function testsCell(tests, all) {
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

/**
 * @param {Row[]} rows
 * @param {string[]} all the test files
 * @returns {string} one table per group, as markdown (not yet aligned)
 */
function renderTable(rows, all) {
	/** @type {Map<string, string[][]>} */
	const tables = new Map();
	for (const row of rows) {
		const tests = [...row.tests.keys()];
		const layers = LAYERS.map((layer) =>
			testsCell(
				tests.filter((test) => layerOf(test) === layer.title),
				all,
			),
		);
		const meets = [...row.meets].sort().map((name) => `\`${name}\``);
		const lines = tables.get(groupOf(row)) ?? [HEADER, HEADER.map(() => '---')];
		lines.push([fileCell(row), ...layers, meets.join(', ')]);
		tables.set(groupOf(row), lines);
	}
	return [...tables.values()]
		.map((lines) => lines.map((cells) => `| ${cells.join(' | ')} |`).join('\n'))
		.join('\n\n');
}

/**
 * @param {string} page the whole text
 * @returns {string} it with the tables between the markers made anew from the code
 */
function withFreshTable(page) {
	const [start, end] = mapBounds(page) ?? [];
	if (start === undefined) throw new Error(MISSING_MARKERS);
	return `${page.slice(0, start)}${freshMap(new ImportGraph())}${page.slice(end)}`;
}

/**
 * @param {ImportGraph} graph
 * @returns {string} what belongs between the markers
 */
function freshMap(graph) {
	const table = renderTable(expectedRows(graph), graph.tests);
	// Prettier would pad every row to the widest; unpadded, each row reads on its own.
	return `\n<!-- prettier-ignore-start -->\n\n${table}\n\n<!-- prettier-ignore-end -->\n`;
}

/** @param {string} page @returns {[number, number] | undefined} the map's start and end */
function mapBounds(page) {
	const start = page.indexOf(START);
	const end = page.indexOf(END);
	return start < 0 || end < start ? undefined : [start + START.length, end];
}

/**
 * @param {string} page the whole text
 * @param {ImportGraph} [graph] the repository's imports; a made-up one in the map's own tests
 * @returns {string[]} nothing when the map is as the imports give it; else each row to remove or
 *   add (a changed row is both), and the command that writes the map anew
 */
function staleRows(page, graph = new ImportGraph()) {
	const bounds = mapBounds(page);
	if (!bounds) return [`${MISSING_MARKERS}, then run \`${REFRESH}\`.`];
	const rowsOf = (/** @type {string} */ text) =>
		text.split('\n').filter((line) => line.startsWith('|'));
	const written = rowsOf(page.slice(...bounds));
	const computed = rowsOf(freshMap(graph));
	const problems = [
		...written.filter((row) => !computed.includes(row)).map((row) => `remove: ${row}`),
		...computed.filter((row) => !written.includes(row)).map((row) => `add:    ${row}`),
	];
	return problems.length === 0
		? []
		: [`docs/development.md's test map differs from the imports; run \`${REFRESH}\`.`, ...problems];
}

/** The made-up repository of the map's own tests, and its map as it should read. */
const FIXTURE_DIR = path.join(ROOT, 'test', 'unit', 'fixtures');

/** @returns {{ text: string, graph: ImportGraph }} the fixture's map and its imports */
function readFixture() {
	const text = fs.readFileSync(path.join(FIXTURE_DIR, 'test-map.md'), 'utf8');
	const graph = JSON.parse(fs.readFileSync(path.join(FIXTURE_DIR, 'test-map-graph.json'), 'utf8'));
	return { text, graph: new ImportGraph(graph) };
}

module.exports = { REFRESH, readFixture, readMapPage, staleRows };

if (require.main === module) {
	const fresh = withFreshTable(readMapPage());
	if (process.argv.includes('--write')) {
		fs.writeFileSync(MAP_PAGE, fresh);
	} else {
		process.stdout.write(`${fresh.slice(fresh.indexOf(START), fresh.indexOf(END) + END.length)}\n`);
	}
}
