// @ts-check
'use strict';

const { wholeNumber } = require('./errors');

/**
 * Reads a whole-number environment variable, or its default when unset. Text that is not all
 * digits stays text, so the error quotes it as given.
 * @param {string} name
 * @param {number} fallback
 * @param {number} min
 * @param {number} max
 */
function envNumber(name, fallback, min, max) {
	const raw = process.env[name];
	if (raw === undefined || raw === '') return fallback;
	return wholeNumber(/^\d+$/.test(raw) ? Number(raw) : raw, name, min, max);
}

module.exports = { envNumber };
