// @ts-check
'use strict';

const { SandboxNotFoundError } = require('./errors');
const { errorReply, json, methodNotAllowed } = require('./reply');

/** @typedef {import('./reply').Reply} Reply */

// The one control call a client on another clock needs: the real-n8n suite re-dates a tender
// through it, since only the sandbox knows the sandbox's today.
const REDATE = /^\/__sandbox\/tenders\/([^/]+)\/redate$/;

/**
 * POST /__sandbox/tenders/:tenderId/redate with `{ dueInDays }`: redateTender over HTTP.
 * @param {Pick<import('./index').Sandbox, 'redateTender'>} sandbox
 * @returns {(request: { method: string, pathname: string, body: string | undefined }) => Reply}
 */
function createControlRouter(sandbox) {
	return ({ method, pathname, body }) => {
		const match = REDATE.exec(pathname);
		if (!match) {
			const only = 'the sandbox has one: POST /__sandbox/tenders/:tenderId/redate.';
			return errorReply(404, 'NOT_FOUND', `No such control route; ${only}`);
		}
		if (method !== 'POST') return methodNotAllowed('This control route', 'POST');
		if (body === undefined) {
			return errorReply(413, 'PAYLOAD_TOO_LARGE', 'Control requests take at most 64 KiB.');
		}
		/** @type {unknown} */
		let parsed;
		try {
			parsed = body === '' ? {} : JSON.parse(body);
		} catch {
			return errorReply(400, 'INVALID_JSON', 'The control request body is not valid JSON.');
		}
		if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
			return errorReply(400, 'INVALID_REQUEST', 'The control request body must be a JSON object.');
		}
		try {
			const dueInDays = /** @type {{ dueInDays?: unknown }} */ (parsed).dueInDays;
			const tenderId = decodeURIComponent(match[1]);
			return json(200, sandbox.redateTender(tenderId, /** @type {number} */ (dueInDays)));
		} catch (error) {
			const message = error instanceof Error ? error.message : String(error);
			return error instanceof SandboxNotFoundError
				? errorReply(404, 'NOT_FOUND', message)
				: errorReply(400, 'INVALID_REQUEST', message);
		}
	};
}

module.exports = { createControlRouter };
