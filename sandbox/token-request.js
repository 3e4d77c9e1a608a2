// @ts-check
'use strict';

/**
 * Reads a client-credentials token request (RFC 6749 sections 2.3.1, 4.4, 5), refusing it in
 * the order the README lists the checks.
 */

const FORM_TYPE = 'application/x-www-form-urlencoded';
const NO_STORE = Object.freeze({ 'cache-control': 'no-store', pragma: 'no-cache' });

/** The token endpoint's refusal, as RFC 6749 section 5.2 words it. */
class OAuthRefusal extends Error {
	/**
	 * @param {number} status
	 * @param {import('./types').OAuthErrorBody['error']} error
	 * @param {string} description
	 * @param {string | undefined} clientId who asked, when it could be told (never the secret)
	 */
	constructor(status, error, description, clientId) {
		super(description);
		/** @type {Record<string, string>} */
		const headers = { ...NO_STORE };
		if (status === 401) headers['www-authenticate'] = 'Basic realm="supplier-matched-projects"';
		/** @type {import('./auth').TokenEndpointResult} */
		this.result = { status, headers, body: { error, error_description: description }, clientId };
	}
}

/** @param {string} description @param {string | undefined} clientId */
const invalidRequest = (description, clientId) =>
	new OAuthRefusal(400, 'invalid_request', description, clientId);

/**
 * The form, when the body is one and sends each parameter once.
 * @param {string | undefined} contentType
 * @param {string} body
 */
function readForm(contentType, body) {
	const mediaType = (contentType ?? '').split(';')[0].trim().toLowerCase();
	if (mediaType !== FORM_TYPE) {
		throw invalidRequest(
			`send the token request as ${FORM_TYPE} (got ${contentType ? JSON.stringify(mediaType) : 'no Content-Type'})`,
			undefined,
		);
	}
	const form = new URLSearchParams(body);
	const repeated = [...new Set(form.keys())].filter((key) => form.getAll(key).length > 1);
	if (repeated.length > 0) {
		throw invalidRequest(`send each parameter once (repeated: ${repeated.join(', ')})`, undefined);
	}
	return form;
}

/**
 * Reads HTTP Basic client credentials; RFC 6749 section 2.3.1 form-encodes both parts first.
 * @param {string} authorization
 */
function basicCredentials(authorization) {
	const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization);
	if (!match) return undefined;
	const decoded = Buffer.from(match[1], 'base64').toString('utf8');
	const colon = decoded.indexOf(':');
	if (colon < 0) return undefined;
	try {
		const unform = (/** @type {string} */ part) => decodeURIComponent(part.replace(/\+/g, ' '));
		return {
			clientId: unform(decoded.slice(0, colon)),
			clientSecret: unform(decoded.slice(colon + 1)),
		};
	} catch {
		return undefined;
	}
}

/** @param {URLSearchParams} form @param {string | undefined} claimedClientId */
function checkGrantType(form, claimedClientId) {
	const grantType = form.get('grant_type');
	if (grantType === null || grantType === '') {
		throw invalidRequest(
			'grant_type is required; send grant_type=client_credentials',
			claimedClientId,
		);
	}
	if (grantType !== 'client_credentials') {
		throw new OAuthRefusal(
			400,
			'unsupported_grant_type',
			`only grant_type=client_credentials is supported (got ${JSON.stringify(grantType.slice(0, 40))})`,
			claimedClientId,
		);
	}
}

/**
 * The client's credentials: in the body or as HTTP Basic, not both.
 * @param {URLSearchParams} form
 * @param {string | undefined} authorization
 * @param {{ clientId: string, clientSecret: string } | undefined} basic
 * @param {string | undefined} claimedClientId
 */
function clientCredentials(form, authorization, basic, claimedClientId) {
	if (authorization !== undefined && /^Basic\b/i.test(authorization) && basic === undefined) {
		throw new OAuthRefusal(
			401,
			'invalid_client',
			'the HTTP Basic credentials could not be read; send base64(client_id:client_secret)',
			undefined,
		);
	}
	if (basic && form.has('client_secret')) {
		throw invalidRequest(
			'use one client authentication method: HTTP Basic or client_id and client_secret in the body, not both',
			claimedClientId,
		);
	}
	const bodyClientId = form.get('client_id') ?? undefined;
	if (basic && bodyClientId !== undefined && bodyClientId !== basic.clientId) {
		throw invalidRequest(
			'client_id in the body differs from the HTTP Basic client',
			claimedClientId,
		);
	}
	const { clientId, clientSecret } = basic ?? {
		clientId: bodyClientId,
		clientSecret: form.get('client_secret') ?? undefined,
	};
	if (!clientId || !clientSecret) {
		throw new OAuthRefusal(
			401,
			'invalid_client',
			'client authentication is required: send client_id and client_secret in the form body (or as HTTP Basic)',
			claimedClientId,
		);
	}
	return { clientId, clientSecret };
}

/**
 * The form and the client credentials it presents, checked up to (not including) whether the
 * credentials are right.
 * @param {{ contentType: string | undefined, authorization: string | undefined, body: string }} request
 */
function readTokenRequest({ contentType, authorization, body }) {
	const form = readForm(contentType, body);
	const basic = authorization === undefined ? undefined : basicCredentials(authorization);
	const claimedClientId = basic?.clientId ?? form.get('client_id') ?? undefined;
	checkGrantType(form, claimedClientId);
	return {
		form,
		claimedClientId,
		...clientCredentials(form, authorization, basic, claimedClientId),
	};
}

/**
 * The scopes asked for, all of them granted to the client; without `scope`, all it has.
 * @param {URLSearchParams} form
 * @param {import('./fixtures').SandboxClient} client
 */
function requestedScopes(form, client) {
	const scopeParam = form.get('scope');
	if (scopeParam === null) return client.scopes.slice();
	const scopes = [...new Set(scopeParam.split(' ').filter((scope) => scope !== ''))];
	const refused = scopes.filter((scope) => !client.scopes.includes(scope));
	if (scopes.length === 0 || refused.length > 0) {
		throw new OAuthRefusal(
			400,
			'invalid_scope',
			scopes.length === 0
				? 'scope is empty; omit it or send scope=speci-finder/read'
				: `the application is not granted ${refused.join(' ')}; it may request: ${client.scopes.join(' ') || 'no scopes'}`,
			client.clientId,
		);
	}
	return scopes;
}

module.exports = { NO_STORE, OAuthRefusal, readTokenRequest, requestedScopes };
