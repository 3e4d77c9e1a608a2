// @ts-check
'use strict';

/**
 * Plain-text tables for the terminal and the Markdown copy in docs/benchmarks.md.
 */

/**
 * @param {number} value
 * @param {number} [digits]
 * @returns {string}
 */
function fixed(value, digits = 0) {
	return value.toLocaleString('en-US', {
		minimumFractionDigits: digits,
		maximumFractionDigits: digits,
	});
}

/**
 * @param {number} bytes
 * @returns {string}
 */
function mebibytes(bytes) {
	return `${fixed(bytes / 1024 / 1024, 1)} MiB`;
}

/**
 * @param {string[]} headers
 * @param {string[][]} rows
 * @returns {string} columns padded to line up; numbers are right-aligned
 */
function textTable(headers, rows) {
	const widths = headers.map((header, column) =>
		Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)),
	);
	const numeric = headers.map((_, column) =>
		rows.every((row) => /^[-+]?[\d,.]+( ?[%×a-zA-Z/]+)?$|^—$/.test(row[column] ?? '')),
	);
	/** @param {string[]} row */
	const line = (row) =>
		row
			.map((cell, column) =>
				numeric[column] ? cell.padStart(widths[column]) : cell.padEnd(widths[column]),
			)
			.join('  ')
			.trimEnd();
	return [
		line(headers),
		widths.map((width) => '-'.repeat(width)).join('  '),
		...rows.map(line),
	].join('\n');
}

/**
 * @param {string[]} headers
 * @param {string[][]} rows
 * @returns {string}
 */
function markdownTable(headers, rows) {
	/** @param {string[]} row */
	const line = (row) => `| ${row.map((cell) => cell.replace(/\|/g, '\\|')).join(' | ')} |`;
	return [line(headers), line(headers.map(() => '---')), ...rows.map(line)].join('\n');
}

module.exports = { fixed, mebibytes, textTable, markdownTable };
