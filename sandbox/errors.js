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

module.exports = { SandboxNotFoundError, wholeNumber };
