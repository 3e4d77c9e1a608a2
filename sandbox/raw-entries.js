// @ts-check
'use strict';

const { wholeNumber } = require('./errors');

/**
 * Entries the sandbox adds, as given, to a company's first results page: a `null`, a string, a
 * project whose `tenders` is not a list... so a client can be tried against a listing that holds
 * a broken entry beside clean ones. They stay until cleared, as a broken record in a real
 * service's data would; cursors and the other pages are untouched.
 */

/** @typedef {{ entry: unknown, at: number }} RawEntry at: past the end of the page means last */

function createRawEntries() {
	/** @type {Map<string, RawEntry[]>} */
	const byCompany = new Map();

	return {
		/**
		 * @param {string} companyId
		 * @param {{ entry?: unknown, at?: unknown }} request
		 * @returns {number} how many raw entries the company's first page now holds
		 */
		add(companyId, { entry, at = 0 }) {
			if (entry === undefined) {
				throw new Error('a raw entry needs { entry } (any JSON value, null included)');
			}
			const index = wholeNumber(at, 'at', 0, 100);
			const entries = byCompany.get(companyId) ?? [];
			// A copy through JSON: what is sent is what was given, whatever the caller changes later.
			entries.push({ entry: JSON.parse(JSON.stringify(entry)), at: index });
			byCompany.set(companyId, entries);
			return entries.length;
		},
		/** @param {string} companyId */
		clear(companyId) {
			byCompany.delete(companyId);
		},
		/** @param {string} companyId @param {unknown[]} data @param {boolean} firstPage */
		into(companyId, data, firstPage) {
			const entries = byCompany.get(companyId);
			if (!firstPage || entries === undefined) return data;
			const mixed = data.slice();
			for (const { entry, at } of entries) mixed.splice(at, 0, entry);
			return mixed;
		},
	};
}

/** @typedef {ReturnType<typeof createRawEntries>} RawEntries */

module.exports = { createRawEntries };
