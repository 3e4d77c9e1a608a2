// @ts-check
'use strict';

/**
 * The benches' numbers as text, and their tables as Markdown (markdown-table): plain columns in a
 * terminal, pasted into the docs as they are.
 */

const { markdownTable } = require('markdown-table');

/**
 * @param {number} value
 * @param {number} [digits]
 */
const fixed = (value, digits = 0) =>
	value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** @param {number} bytes */
const mebibytes = (bytes) => `${fixed(bytes / 1024 / 1024, 1)} MiB`;

/** @typedef {{ title: string, headers: string[], rows: string[][] }} Section */

/**
 * A section from its items and, per column, its header and how an item shows in it.
 * @template T
 * @param {string} title
 * @param {T[]} items
 * @param {Array<[string, (item: T) => string]>} columns
 * @returns {Section}
 */
function columnsSection(title, items, columns) {
	const headers = columns.map(([header]) => header);
	return { title, headers, rows: items.map((item) => columns.map(([, cell]) => cell(item))) };
}

/**
 * Each section's title in bold, then its table: columns of numbers right-aligned, pipes escaped.
 * @param {Section[]} sections
 */
function renderSections(sections) {
	const isNumber = (/** @type {string} */ cell) => /^[-+]?[\d,.]+( ?[%×a-zA-Z/]+)?$|^—$/.test(cell);
	return sections
		.map(({ title, headers, rows }) => {
			const align = headers.map((_, column) =>
				rows.every((row) => isNumber(row[column] ?? '')) ? 'r' : 'l',
			);
			const escaped = [headers, ...rows].map((row) =>
				row.map((cell) => cell.replace(/\|/g, '\\|')),
			);
			return `\n**${title}**\n\n${markdownTable(escaped, { align })}`;
		})
		.join('\n');
}

module.exports = { fixed, mebibytes, columnsSection, renderSections };
