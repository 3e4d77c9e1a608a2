// @ts-check
'use strict';

/**
 * What a route answers, before any fault mangles it on the way out.
 * @typedef {{ status: number, headers: Record<string, string>, body: string }} Reply
 */

const JSON_TYPE = 'application/json; charset=utf-8';

/** @param {number} status @param {unknown} value @param {Record<string, string>} [headers] */
function json(status, value, headers = {}) {
	const body = JSON.stringify(value);
	return { status, headers: { 'content-type': JSON_TYPE, ...headers }, body };
}

/**
 * @param {number} status
 * @param {string} code
 * @param {string} message
 * @param {Record<string, string>} [headers]
 */
function errorReply(status, code, message, headers) {
	/** @type {import('./types').ErrorBody} */
	const body = { code, message };
	return json(status, body, headers);
}

/**
 * @param {string} what
 * @param {string} allow the one method it takes
 */
const methodNotAllowed = (what, allow) =>
	errorReply(405, 'METHOD_NOT_ALLOWED', `${what} takes ${allow}.`, { allow });

/** A check refused the request; the reply says why. */
class Refusal extends Error {
	/**
	 * @param {number} status
	 * @param {string} code
	 * @param {string} message
	 * @param {Record<string, string>} [headers]
	 */
	constructor(status, code, message, headers) {
		super(message);
		this.reply = errorReply(status, code, message, headers);
	}
}

/** @param {string | string[] | undefined} value */
const header = (value) => (Array.isArray(value) ? value.join(', ') : value);

module.exports = { JSON_TYPE, Refusal, errorReply, header, json, methodNotAllowed };
