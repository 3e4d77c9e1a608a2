// @ts-check
'use strict';

/**
 * Reads a whole-number environment variable, or its default when unset.
 * @param {string} name
 * @param {number} fallback
 * @param {number} min
 * @param {number} max
 */
function envNumber(name, fallback, min, max) {
	const raw = process.env[name];
	if (raw === undefined || raw === '') return fallback;
	const value = /^\d+$/.test(raw) ? Number(raw) : NaN;
	if (!(value >= min && value <= max)) {
		throw new Error(
			`${name} must be a whole number from ${min} to ${max} (got ${JSON.stringify(raw)})`,
		);
	}
	return value;
}

module.exports = { envNumber };
