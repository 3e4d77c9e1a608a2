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

module.exports = { SandboxNotFoundError };
