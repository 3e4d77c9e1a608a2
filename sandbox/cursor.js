// @ts-check
'use strict';

const { createHmac, randomBytes, timingSafeEqual } = require('node:crypto');

/**
 * A position in one company's ordering: the sort key of the last project a page returned.
 * @typedef {object} CursorPosition
 * @property {string} companyId the company the walk belongs to; a cursor is refused for another
 * @property {number | null} dueDay the project's earliest open quotesDueAt (days since epoch), null = no date
 * @property {string} projectId
 */

/**
 * Cursors are signed with a key that lives as long as the sandbox, so a cursor cannot be forged,
 * edited or carried to another company or another sandbox run: the server can trust its
 * contents without storing anything per walk.
 * @returns {{ encode: (position: CursorPosition) => string, decode: (cursor: string) => CursorPosition | undefined }}
 */
function createCursorCodec() {
	const key = randomBytes(32);
	/** @param {string} payload */
	const sign = (payload) => createHmac('sha256', key).update(payload).digest();

	return {
		encode(position) {
			const payload = Buffer.from(
				JSON.stringify([1, position.companyId, position.dueDay, position.projectId]),
			).toString('base64url');
			return `${payload}.${sign(payload).toString('base64url')}`;
		},
		decode(cursor) {
			const parts = cursor.split('.');
			if (parts.length !== 2) return undefined;
			const [payload, signature] = parts;
			const given = Buffer.from(signature, 'base64url');
			const expected = sign(payload);
			if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
			// base64url ignores stray characters and spare low bits; only the exact encoding counts.
			if (given.toString('base64url') !== signature) return undefined;
			/** @type {unknown} */
			const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
			if (!Array.isArray(decoded) || decoded.length !== 4 || decoded[0] !== 1) return undefined;
			const [, companyId, dueDay, projectId] = decoded;
			if (typeof companyId !== 'string' || typeof projectId !== 'string') return undefined;
			if (dueDay !== null && !Number.isInteger(dueDay)) return undefined;
			return { companyId, dueDay, projectId };
		},
	};
}

module.exports = { createCursorCodec };
