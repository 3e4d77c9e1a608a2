// @ts-check
'use strict';

/**
 * The README's test map (which tests run each product file), its rows computed from the imports.
 * `node test/support/test-map.js` prints the tables, `--write` puts them into README.md between
 * the markers; mapProblems compares the README's rows with the computed ones, saying how to fix each
 * difference.
 */

const fs = require('node:fs');
const path = require('node:path');

const {
	ImportGraph,
	NODE_DIR,
	ROOT,
	WHOLE_PACKAGE,
	sourceFiles,
	testFiles,
} = require('./import-graph');

const README = path.join(ROOT, 'README.md');
const START = '<!-- test-map:start -->';
const END = '<!-- test-map:end -->';
const REFRESH = 'node test/support/test-map.js --write';
const NO_PRODUCT_FILE = '(no product file)';

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

/**
 * @typedef {{ files: string[], hubs: string[], tests: Map<string, string>, apart: Map<string, string> }} Row
 * `tests`: test file → why it belongs in the row; `apart`: test that runs the file → why it does not
 */

/** @returns {string} README.md's text */
const readReadme = () => fs.readFileSync(README, 'utf8');

/** @param {string} file from the root @returns {string} as the table names it */
const shortName = (file) =>
	file.startsWith(`${NODE_DIR}/`) ? file.slice(NODE_DIR.length + 1) : file;

/** @param {string} name as the table names a file @returns {string} from the root */
const longName = (name) => (fs.existsSync(path.join(ROOT, name)) ? name : `${NODE_DIR}/${name}`);

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
			tests: new Map(),
			apart: new Map(),
		};
		row.files.push(file);
		for (const [test, reached] of reach) {
			const { why, whyNot } = placeTest(graph, test, file, row.hubs, reached);
			if (why && !row.tests.has(test)) row.tests.set(test, why);
			if (whyNot) row.apart.set(test, whyNot);
		}
		rows.set(owner, row);
	}
	const idle = tests.filter((test) => reach.get(test)?.size === 0);
	const none = new Map(idle.map((test) => [test, 'it runs no product file']));
	return [...rows.values(), { files: [], hubs: [], tests: none, apart: new Map() }];
}

/**
 * @param {ImportGraph} graph
 * @param {string} test
 * @param {string} file
 * @param {string[]} hubs the row's
 * @param {Set<string>} reached by the test
 * @returns {{ why?: string, whyNot?: string }} why the test belongs in the file's row, or why not
 */
function placeTest(graph, test, file, hubs, reached) {
	if (graph.imports(test).includes(file)) return { why: 'it imports the file itself' };
	if (!reached.has(file)) return {};
	const through = HUBS.filter((hub) => hubs.includes(hub.name) && reached.has(hub.file));
	if (through.length > 0) {
		const names = through.map((hub) => hub.name).join(' and ');
		return { whyNot: `it runs this file only through the ${names} row, which names it` };
	}
	const route = graph.route(test, file);
	return {
		why: route
			? `it loads the file through ${route.join(' → ')}`
			: 'it builds the package or reads the file',
	};
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
	if (start === undefined) {
		throw new Error(`README.md needs the markers ${START} and ${END} around the test map`);
	}
	const table = renderTable(expectedRows(new ImportGraph()));
	// Prettier would pad every row to the widest; unpadded, each row reads on its own.
	const ignored = `<!-- prettier-ignore-start -->\n\n${table}\n\n<!-- prettier-ignore-end -->`;
	return `${readme.slice(0, start)}\n${ignored}\n${readme.slice(end)}`;
}

/** @param {string} readme @returns {[number, number] | undefined} the map's start and end */
function mapBounds(readme) {
	const start = readme.indexOf(START);
	const end = readme.indexOf(END);
	return start < 0 || end < start ? undefined : [start + START.length, end];
}

/**
 * @typedef {{ first: string, files: string[], hubs: string, names: { name: string, column: string }[] }} ReadmeRow
 * `first`: the first cell as written; `names`: each test name (or pattern) and its column's title
 */

/**
 * @param {string} readme the whole text
 * @returns {{ header: string[], rows: ReadmeRow[] } | undefined} the table between the markers
 */
function readTable(readme) {
	const bounds = mapBounds(readme);
	if (!bounds) return undefined;
	const cells = readme
		.slice(...bounds)
		.split('\n')
		.filter((line) => line.trim().startsWith('|'))
		.map((line) =>
			line
				.trim()
				.replace(/^\||\|$/g, '')
				.split('|')
				.map((cell) => cell.trim()),
		);
	const header = cells[0] ?? [];
	const rows = cells
		.filter(
			(row) => row.join('|') !== header.join('|') && !row.every((cell) => /^:?-+:?$/.test(cell)),
		)
		.map((row) => ({
			first: row[0],
			files: row[0] === NO_PRODUCT_FILE ? [] : codeIn(row[0]).map(longName),
			hubs: row[1] ?? '',
			names: header
				.slice(2)
				.flatMap((column, index) => codeIn(row[index + 2] ?? '').map((name) => ({ name, column }))),
		}));
	return { header, rows };
}

/** @param {string} cell @returns {string[]} what it names in backticks */
const codeIn = (cell) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]);

/**
 * @param {string} name a test's path from test/ without `.test.ts`, `*` for any characters
 * @returns {string[]} the test files it names
 */
function testsNamedBy(name) {
	const escaped = name.replace(/[.+?^${}()[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*');
	const pattern = new RegExp(`^test/${escaped}\\.test\\.ts$`);
	return testFiles().filter((test) => pattern.test(test));
}

/** @param {string} readme @returns {string[]} each difference from the code, and its fix */
function mapProblems(readme) {
	const table = readTable(readme);
	if (!table) {
		return [`README.md has no test map between ${START} and ${END}: run \`${REFRESH}\`.`];
	}
	if (table.header.join('|') !== HEADER.join('|')) {
		return [`The test map's header should read | ${HEADER.join(' | ')} |: run \`${REFRESH}\`.`];
	}
	const gone = [...WHOLE_PACKAGE, ...HUBS.map((hub) => hub.file)].filter(
		(file) => !fs.existsSync(path.join(ROOT, file)),
	);
	if (gone.length > 0) {
		const where = 'WHOLE_PACKAGE or HUBS in test/support/test-map.js and import-graph.js';
		return [`${gone.join(', ')} no longer exist: name what replaced them in ${where}.`];
	}
	const expected = expectedRows(new ImportGraph());
	const named = new Set(
		table.rows.flatMap((row) => row.names.flatMap(({ name }) => testsNamedBy(name))),
	);
	return [
		...rowFileProblems(table.rows),
		...table.rows.flatMap((row) => rowTestProblems(row, expected)),
		...testFiles()
			.filter((test) => !named.has(test))
			.map((test) => `\`${testName(test)}\` is in no row: add it where \`${REFRESH}\` puts it.`),
	];
}

/** @param {ReadmeRow[]} rows @returns {string[]} product files without a row, rows without a file */
function rowFileProblems(rows) {
	const sources = sourceFiles();
	const problems = rows.flatMap((row) =>
		row.files
			.filter((file) => !sources.includes(file))
			.map(
				(file) =>
					`Row ${row.first}: \`${shortName(file)}\` is no product file; remove it or fix its path.`,
			),
	);
	for (const file of sources) {
		const count = rows.filter((row) => row.files.includes(file)).length;
		if (count !== 1) {
			const what = count === 0 ? 'has no row: add one' : `has ${count} rows: keep one`;
			problems.push(`\`${shortName(file)}\` ${what}, with the tests \`${REFRESH}\` lists for it.`);
		}
	}
	if (!rows.some((row) => row.first === NO_PRODUCT_FILE)) {
		problems.push(
			`The row ${NO_PRODUCT_FILE} is missing: add it last, naming the tests that run none.`,
		);
	}
	return problems;
}

/** @param {ReadmeRow} row @param {Row[]} expected @returns {string[]} its tests' problems */
function rowTestProblems(row, expected) {
	const wanted = expected.find((one) =>
		row.files.length === 0
			? one.files.length === 0
			: row.files.some((file) => one.files.includes(file)),
	);
	if (!wanted) return [];
	const where = `Row ${row.first}`;
	const problems = [];
	if (row.hubs !== wanted.hubs.join(', ')) {
		const reading = wanted.hubs.join(', ') || 'nothing';
		problems.push(
			`${where}: "${HEADER[1]}" should read ${reading} (the node files that import it).`,
		);
	}
	/** @type {Map<string, string>} test → the column it is named in */
	const named = new Map();
	for (const { name, column } of row.names) {
		const tests = testsNamedBy(name);
		if (tests.length === 0) {
			problems.push(
				`${where}: \`${name}\` names no test file under test/; fix the name or remove it.`,
			);
		}
		tests.forEach((test) => named.set(test, column));
	}
	const never =
		wanted.files.length === 0
			? 'it runs product files, so it belongs in their rows'
			: 'it never loads this file, not even through what it imports';
	for (const [test, column] of named) {
		if (!wanted.tests.has(test)) {
			problems.push(`${where}: remove \`${testName(test)}\`: ${wanted.apart.get(test) ?? never}.`);
		} else if (column !== layerOf(test)) {
			problems.push(`${where}: move \`${testName(test)}\` to "${layerOf(test)}".`);
		}
	}
	for (const [test, why] of wanted.tests) {
		if (!named.has(test)) {
			const column =
				layerOf(test) ?? '(none: add its folder to LAYERS in test/support/test-map.js)';
			problems.push(`${where}: add \`${testName(test)}\` to "${column}": ${why}.`);
		}
	}
	return problems;
}

module.exports = { REFRESH, mapProblems, readReadme };

if (require.main === module) {
	const fresh = withFreshTable(readReadme());
	if (process.argv.includes('--write')) {
		fs.writeFileSync(README, fresh);
	} else {
		process.stdout.write(`${fresh.slice(fresh.indexOf(START), fresh.indexOf(END) + END.length)}\n`);
	}
}
