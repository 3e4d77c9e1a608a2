// @ts-check
'use strict';

const { SCOPE } = require('./fixtures');
const { JSON_TYPE, Refusal, header } = require('./reply');

/** @typedef {import('http').IncomingMessage} IncomingMessage */
/** @typedef {import('./server').ServerContext} ServerContext */
/** @typedef {import('./types').ResultsPage} ResultsPage */

/** The results endpoint, its checks in the order the README lists them. */

const DEFAULT_LIMIT = 25;
const MAX_LIMIT = 100;

/**
 * Shows a bad value in an error message without letting a huge one flood it.
 * @param {string} value
 */
const shown = (value) => JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);

/** @param {string} reason */
const unauthorised = (reason) => new Refusal(401, 'Unauthorised', `Unauthorised: ${reason}`);

/** @param {ServerContext} context @param {IncomingMessage} request */
function verifiedToken(context, request) {
	const authorization = header(request.headers.authorization);
	const bearer =
		authorization === undefined ? undefined : /^Bearer +(\S+) *$/i.exec(authorization)?.[1];
	if (bearer === undefined) {
		throw unauthorised('send Authorization: Bearer <access_token> from the token endpoint.');
	}
	const token = context.auth.verify(bearer);
	if (!token) {
		throw unauthorised(
			'the access token is not valid (unknown, expired or revoked); request a new token.',
		);
	}
	return token;
}

/**
 * Checks 1 to 6: who asks, with what token, how often, and for which company.
 * @param {ServerContext} context @param {IncomingMessage} request
 * @param {string | null} headerClientId @param {string} companySegment @param {number} at
 * @returns {string} the company id
 */
function authorizedCompany(context, request, headerClientId, companySegment, at) {
	if (headerClientId === null) {
		throw new Refusal(
			400,
			'CLIENT_ID_HEADER_MISSING',
			'The x-service-client-id header is required; send the client_id the token was issued to.',
		);
	}
	const token = verifiedToken(context, request);
	if (token.clientId !== headerClientId) {
		throw new Refusal(
			401,
			'CLIENT_ID_HEADER_MISMATCH',
			'The x-service-client-id header does not match the client the token was issued to.',
		);
	}
	const rate = context.limiter.take(token.clientId, at);
	if (!rate.allowed) {
		throw new Refusal(
			429,
			'RATE_LIMITED',
			`Rate limit exceeded for this credential; retry in ${rate.retryAfterSeconds} s.`,
			{ 'retry-after': String(rate.retryAfterSeconds) },
		);
	}
	if (!token.scopes.includes(SCOPE)) {
		throw unauthorised(`the token does not carry the ${SCOPE} scope.`);
	}
	let companyId = companySegment;
	try {
		companyId = decodeURIComponent(companySegment);
	} catch {
		// A malformed escape is looked up as sent, and so refused below.
	}
	const client = context.auth.client(token.clientId);
	if (
		!client ||
		!client.companyIds.includes(companyId) ||
		!context.orderings.companyById.has(companyId)
	) {
		throw unauthorised(`company ${shown(companyId)} is not registered to this application.`);
	}
	return companyId;
}

/** @param {URLSearchParams} query */
function pageLimit(query) {
	const limits = query.getAll('limit');
	if (limits.length === 0) return DEFAULT_LIMIT;
	const raw = limits[0];
	const limit = /^\d{1,3}$/.test(raw) ? Number(raw) : NaN;
	if (limits.length > 1 || !(limit >= 1 && limit <= MAX_LIMIT)) {
		throw new Refusal(
			400,
			'INVALID_LIMIT',
			limits.length > 1
				? 'limit was sent more than once; send it once, as a whole number from 1 to 100.'
				: `limit must be a whole number from 1 to 100 (got ${shown(raw)}); omit it for the default of ${DEFAULT_LIMIT}.`,
		);
	}
	return limit;
}

/** @param {ServerContext} context @param {URLSearchParams} query @param {string} companyId */
function pageCursor(context, query, companyId) {
	const cursors = query.getAll('cursor');
	const cursor = cursors[0];
	const after = cursor === undefined || cursor === '' ? undefined : context.cursors.decode(cursor);
	if (
		cursors.length > 1 ||
		cursor === '' ||
		(cursor !== undefined && (!after || after.companyId !== companyId))
	) {
		throw new Refusal(
			400,
			'INVALID_CURSOR',
			cursors.length > 1
				? 'cursor was sent more than once; send the last nextCursor once.'
				: cursor === ''
					? 'cursor is empty; omit it on the first request.'
					: 'cursor is not one this service issued for this company (it may have been changed); pass _metadata.nextCursor back verbatim, or start again without a cursor.',
		);
	}
	return { cursor, after };
}

/**
 * The page's body, from the short cache when the same company, cursor and limit asked lately.
 * @param {ServerContext} context @param {string} companyId
 * @param {ReturnType<typeof pageCursor>} position @param {number} limit
 */
function pageBody(context, companyId, { cursor, after }, limit) {
	const cacheKey = `${companyId}\n${cursor ?? ''}\n${limit}`;
	const now = context.clock.now();
	const cached = context.cache.get(cacheKey);
	if (cached && cached.expiresAt > now) return { body: cached.body, servedFromCache: true };
	const page = context.orderings.page(companyId, after, limit);
	/** @type {ResultsPage} */
	const envelope = {
		// Raw entries may be anything (that is what they are for): the envelope is still a page's.
		data: /** @type {ResultsPage['data']} */ (
			context.rawEntries.into(companyId, page.projects, after === undefined)
		),
		_metadata: {
			nextCursor: page.hasNextPage && page.last ? context.cursors.encode(page.last) : null,
			hasNextPage: page.hasNextPage,
		},
	};
	const body = JSON.stringify(envelope);
	if (context.cacheSeconds > 0) {
		for (const [key, entry] of context.cache) if (entry.expiresAt <= now) context.cache.delete(key);
		context.cache.set(cacheKey, { expiresAt: now + context.cacheSeconds * 1000, body });
	}
	return { body, servedFromCache: false };
}

/**
 * @param {ServerContext} context @param {IncomingMessage} request
 * @param {string} companySegment @param {URLSearchParams} query
 * @param {number} at when the request is handled, on the sandbox clock
 */
function resultsReply(context, request, companySegment, query, at) {
	const clientId = header(request.headers['x-service-client-id'])?.trim() || null;
	try {
		const companyId = authorizedCompany(context, request, clientId, companySegment, at);
		const limit = pageLimit(query);
		const position = pageCursor(context, query, companyId);
		const { body, servedFromCache } = pageBody(context, companyId, position, limit);
		return {
			reply: { status: 200, headers: { 'content-type': JSON_TYPE }, body },
			clientId,
			servedFromCache,
		};
	} catch (error) {
		if (!(error instanceof Refusal)) throw error;
		return { reply: error.reply, clientId, servedFromCache: false };
	}
}

module.exports = { resultsReply };
