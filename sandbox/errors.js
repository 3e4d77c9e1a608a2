// @ts-check
'use strict';

/** A control call named a tender, project or company the sandbox does not have (HTTP 404). */
class SandboxNotFoundError extends Error {
	/** @param {string} message */
	constructor(message) {
		super(message);
		this.name = 'SandboxNotFoundError';
	}
}

/**
 * @param {unknown} value
 * @param {string} what named in the error
 * @param {number} min
 * @param {number} max
 */
function wholeNumber(value, what, min, max) {
	if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
		throw new Error(
			`${what} must be a whole number from ${min} to ${max} (got ${JSON.stringify(value)})`,
		);
	}
	return value;
}

/**
 * @template {string} T
 * @param {unknown} value
 * @param {readonly T[]} allowed
 * @param {string} what named in the error
 * @returns {T}
 */
function oneOf(value, allowed, what) {
	if (!allowed.includes(/** @type {T} */ (value))) {
		throw new Error(`${what} must be one of ${allowed.join(', ')} (got ${JSON.stringify(value)})`);
	}
	return /** @type {T} */ (value);
}

/**
 * @param {object} fields
 * @param {readonly string[]} allowed
 * @param {string} what
 */
function rejectUnknownFields(fields, allowed, what) {
	const unknown = Object.keys(fields).filter((field) => !allowed.includes(field));
	if (unknown.length > 0) {
		throw new Error(`${what} does not take ${unknown.join(', ')}; it takes ${allowed.join(', ')}`);
	}
}

module.exports = { SandboxNotFoundError, oneOf, rejectUnknownFields, wholeNumber };
