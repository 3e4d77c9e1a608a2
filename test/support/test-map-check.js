// @ts-check
'use strict';

/**
 * Reads the test map out of README.md and says, row by row, where it differs from the rows the
 * imports call for (test-map.js), and how to fix each difference.
 */

const fs = require('node:fs');
const path = require('node:path');

const { ImportGraph, ROOT, WHOLE_PACKAGE, sourceFiles, testFiles } = require('./import-graph');
const map = require('./test-map');

/**
 * @typedef {{ first: string, files: string[], hubs: string, names: { name: string, column: string }[] }} ReadmeRow
 * `first`: the first cell as written; `names`: each test name (or pattern) and its column's title
 */

/**
 * @param {string} readme the whole text
 * @returns {{ header: string[], rows: ReadmeRow[] } | undefined} the table between the markers
 */
function readTable(readme) {
	const start = readme.indexOf(map.START);
	const end = readme.indexOf(map.END);
	if (start < 0 || end < start) {
		return undefined;
	}
	const lines = readme
		.slice(start + map.START.length, end)
		.split('\n')
		.map((line) => line.trim())
		.filter((line) => line.startsWith('|'));
	const cells = lines.map((line) =>
		line
			.replace(/^\||\|$/g, '')
			.split('|')
			.map((cell) => cell.trim()),
	);
	const header = cells[0] ?? [];
	const isHeader = (/** @type {string[]} */ row) =>
		row.join('|') === header.join('|') || row.every((cell) => /^:?-+:?$/.test(cell));
	const rows = cells
		.filter((row) => !isHeader(row))
		.map((row) => ({
			first: row[0],
			files: row[0] === map.NO_PRODUCT_FILE ? [] : codeIn(row[0]).map(map.longName),
			hubs: row[1] ?? '',
			names: header
				.slice(2)
				.flatMap((column, index) => codeIn(row[index + 2] ?? '').map((name) => ({ name, column }))),
		}));
	return { header, rows };
}

/** @param {string} cell @returns {string[]} what it names in backticks */
function codeIn(cell) {
	return [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]);
}

/**
 * @param {string} name a test's path from test/ without `.test.ts`, `*` for any characters
 * @returns {string[]} the test files it names
 */
function testsNamedBy(name) {
	const escaped = name.replace(/[.+?^${}()[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*');
	const pattern = new RegExp(`^test/${escaped}\\.test\\.ts$`);
	return testFiles().filter((test) => pattern.test(test));
}

/**
 * @param {string} readme the whole text of README.md
 * @returns {string[]} every way the map differs from the code, each saying what to change
 */
function mapProblems(readme) {
	const table = readTable(readme);
	if (!table) {
		return [
			`README.md has no test map between ${map.START} and ${map.END}: run \`${map.REFRESH}\`.`,
		];
	}
	if (table.header.join('|') !== map.HEADER.join('|')) {
		return [
			`The test map's header should read | ${map.HEADER.join(' | ')} |: run \`${map.REFRESH}\`.`,
		];
	}
	const gone = [...WHOLE_PACKAGE, ...map.HUBS.map((hub) => hub.file)].filter(
		(file) => !fs.existsSync(path.join(ROOT, file)),
	);
	if (gone.length > 0) {
		const where = 'WHOLE_PACKAGE or HUBS in test/support/test-map.js and import-graph.js';
		return [`${gone.join(', ')} no longer exist: name what replaced them in ${where}.`];
	}
	const graph = new ImportGraph();
	const expected = map.expectedRows(graph);
	return [
		...rowFileProblems(table.rows),
		...table.rows.flatMap((row) => rowTestProblems(graph, row, expected)),
		...unnamedTests(table.rows),
	];
}

/** @param {ReadmeRow[]} rows @returns {string[]} product files without a row, rows without a file */
function rowFileProblems(rows) {
	const sources = sourceFiles();
	const problems = [];
	for (const row of rows) {
		for (const file of row.files.filter((one) => !sources.includes(one))) {
			problems.push(
				`Row ${row.first}: \`${map.shortName(file)}\` is no product file; remove it or fix its path.`,
			);
		}
	}
	for (const file of sources) {
		const count = rows.filter((row) => row.files.includes(file)).length;
		if (count !== 1) {
			const what = count === 0 ? 'has no row: add one' : `has ${count} rows: keep one`;
			problems.push(
				`\`${map.shortName(file)}\` ${what}, with the tests \`${map.REFRESH}\` lists for it.`,
			);
		}
	}
	if (!rows.some((row) => row.first === map.NO_PRODUCT_FILE)) {
		problems.push(
			`The row ${map.NO_PRODUCT_FILE} is missing: add it last, naming the tests that run none.`,
		);
	}
	return problems;
}

/**
 * @param {ImportGraph} graph
 * @param {ReadmeRow} row as the README has it
 * @param {import('./test-map').Row[]} expected every row the code calls for
 * @returns {string[]} tests named in the wrong row or column, or missing from it
 */
function rowTestProblems(graph, row, expected) {
	const wanted = expected.find((one) =>
		row.files.length === 0
			? one.files.length === 0
			: row.files.some((file) => one.files.includes(file)),
	);
	if (!wanted) {
		return [];
	}
	const where = `Row ${row.first}`;
	const problems = [];
	if (row.hubs !== wanted.hubs.join(', ')) {
		const reading = wanted.hubs.join(', ') || 'nothing';
		problems.push(
			`${where}: "${map.HEADER[1]}" should read ${reading} (the node files that import it).`,
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
	for (const [test, column] of named) {
		const why = wanted.tests.get(test);
		if (!why) {
			problems.push(`${where}: remove \`${map.testName(test)}\`: ${whyNot(graph, test, wanted)}.`);
		} else if (column !== map.layerOf(test)) {
			problems.push(`${where}: move \`${map.testName(test)}\` to "${map.layerOf(test)}".`);
		}
	}
	for (const [test, why] of wanted.tests) {
		if (!named.has(test)) {
			const column =
				map.layerOf(test) ?? '(none: add its folder to LAYERS in test/support/test-map.js)';
			problems.push(`${where}: add \`${map.testName(test)}\` to "${column}": ${why}.`);
		}
	}
	return problems;
}

/**
 * @param {ImportGraph} graph
 * @param {string} test named in a row it does not belong to
 * @param {import('./test-map').Row} row
 * @returns {string} why not
 */
function whyNot(graph, test, row) {
	if (row.files.length === 0) {
		return 'it runs product files, so it belongs in their rows';
	}
	const reached = graph.reach(test);
	if (!row.files.some((file) => reached.has(file))) {
		return 'it never loads this file, not even through what it imports';
	}
	const hubs = map.HUBS.filter((hub) => row.hubs.includes(hub.name) && reached.has(hub.file));
	return `it runs this file only through the ${hubs.map((hub) => hub.name).join(' and ')} row, which names it`;
}

/** @param {ReadmeRow[]} rows @returns {string[]} tests no row names */
function unnamedTests(rows) {
	const named = new Set(rows.flatMap((row) => row.names.flatMap(({ name }) => testsNamedBy(name))));
	return testFiles()
		.filter((test) => !named.has(test))
		.map(
			(test) => `\`${map.testName(test)}\` is in no row: add it where \`${map.REFRESH}\` puts it.`,
		);
}

module.exports = { mapProblems, readTable };
