// @ts-check
'use strict';

const { createHash, randomBytes, timingSafeEqual } = require('node:crypto');

/** @typedef {import('./clock').SandboxClock} SandboxClock */
/** @typedef {import('./fixtures').SandboxClient} SandboxClient */
/** @typedef {import('./types').TokenResponse} TokenResponse */
/** @typedef {import('./types').OAuthErrorBody} OAuthErrorBody */

/**
 * @typedef {object} IssuedToken
 * @property {string} clientId
 * @property {string[]} scopes
 * @property {number} expiresAt sandbox epoch ms
 */

/**
 * @typedef {object} TokenEndpointResult
 * @property {number} status
 * @property {Record<string, string>} headers
 * @property {TokenResponse | OAuthErrorBody} body
 * @property {string | undefined} clientId who asked, when it could be told (never the secret)
 */

const FORM_TYPE = 'application/x-www-form-urlencoded';
// Do not let a burst of short-lived tokens (soak tests) grow the table without bound.
const PRUNE_AT = 10_000;

/**
 * @param {string} value
 * @returns {Buffer}
 */
function digest(value) {
	return createHash('sha256').update(value).digest();
}

/**
 * OAuth 2.0 client-credentials issuer and bearer-token table (RFC 6749 sections 2.3.1, 4.4, 5).
 * @param {object} options
 * @param {readonly SandboxClient[]} options.clients
 * @param {SandboxClock} options.clock
 * @param {number} options.tokenTtlSeconds
 */
function createAuth({ clients, clock, tokenTtlSeconds }) {
	/** @type {Map<string, SandboxClient>} */
	const clientById = new Map(clients.map((client) => [client.clientId, client]));
	/** @type {Map<string, IssuedToken>} */
	const tokens = new Map();
	/** @type {Map<string, number>} */
	const issuedByClient = new Map();

	/**
	 * @param {string} clientId
	 * @param {string} clientSecret
	 * @returns {SandboxClient | undefined}
	 */
	function authenticateClient(clientId, clientSecret) {
		const client = clientById.get(clientId);
		// Compare digests in constant time, and still do the work for an unknown client id.
		const expected = digest(client ? client.clientSecret : randomBytes(16).toString('hex'));
		const matches = timingSafeEqual(expected, digest(clientSecret));
		return client && matches ? client : undefined;
	}

	/**
	 * @param {number} status
	 * @param {OAuthErrorBody['error']} error
	 * @param {string} description
	 * @param {string | undefined} clientId
	 * @returns {TokenEndpointResult}
	 */
	function oauthError(status, error, description, clientId) {
		/** @type {Record<string, string>} */
		const headers = { 'cache-control': 'no-store', pragma: 'no-cache' };
		if (status === 401) headers['www-authenticate'] = 'Basic realm="supplier-matched-projects"';
		return { status, headers, body: { error, error_description: description }, clientId };
	}

	/**
	 * Reads HTTP Basic client credentials; RFC 6749 section 2.3.1 form-encodes both parts first.
	 * @param {string} authorization
	 * @returns {{ clientId: string, clientSecret: string } | undefined}
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

	/**
	 * @param {SandboxClient} client
	 * @param {string[]} scopes
	 * @returns {TokenResponse}
	 */
	function issue(client, scopes) {
		if (tokens.size >= PRUNE_AT) {
			const now = clock.now();
			for (const [token, issued] of tokens) if (issued.expiresAt <= now) tokens.delete(token);
		}
		const accessToken = randomBytes(32).toString('base64url');
		tokens.set(accessToken, {
			clientId: client.clientId,
			scopes,
			expiresAt: clock.now() + tokenTtlSeconds * 1000,
		});
		issuedByClient.set(client.clientId, (issuedByClient.get(client.clientId) ?? 0) + 1);
		return { access_token: accessToken, token_type: 'Bearer', expires_in: tokenTtlSeconds };
	}

	return {
		/**
		 * The whole token endpoint: checks in order the content type, repeated parameters, the
		 * grant type, client authentication, then the scope.
		 * @param {{ contentType: string | undefined, authorization: string | undefined, body: string }} request
		 * @returns {TokenEndpointResult}
		 */
		tokenEndpoint({ contentType, authorization, body }) {
			const mediaType = (contentType ?? '').split(';')[0].trim().toLowerCase();
			if (mediaType !== FORM_TYPE) {
				return oauthError(
					400,
					'invalid_request',
					`send the token request as ${FORM_TYPE} (got ${contentType ? JSON.stringify(mediaType) : 'no Content-Type'})`,
					undefined,
				);
			}
			const form = new URLSearchParams(body);
			const repeated = [...new Set(form.keys())].filter((key) => form.getAll(key).length > 1);
			if (repeated.length > 0) {
				return oauthError(
					400,
					'invalid_request',
					`send each parameter once (repeated: ${repeated.join(', ')})`,
					undefined,
				);
			}
			const basic = authorization === undefined ? undefined : basicCredentials(authorization);
			const bodyClientId = form.get('client_id') ?? undefined;
			const claimedClientId = basic?.clientId ?? bodyClientId;
			const grantType = form.get('grant_type');
			if (grantType === null || grantType === '') {
				return oauthError(
					400,
					'invalid_request',
					'grant_type is required; send grant_type=client_credentials',
					claimedClientId,
				);
			}
			if (grantType !== 'client_credentials') {
				return oauthError(
					400,
					'unsupported_grant_type',
					`only grant_type=client_credentials is supported (got ${JSON.stringify(grantType.slice(0, 40))})`,
					claimedClientId,
				);
			}
			if (authorization !== undefined && /^Basic\b/i.test(authorization) && basic === undefined) {
				return oauthError(
					401,
					'invalid_client',
					'the HTTP Basic credentials could not be read; send base64(client_id:client_secret)',
					undefined,
				);
			}
			if (basic && form.has('client_secret')) {
				return oauthError(
					400,
					'invalid_request',
					'use one client authentication method: HTTP Basic or client_id and client_secret in the body, not both',
					claimedClientId,
				);
			}
			if (basic && bodyClientId !== undefined && bodyClientId !== basic.clientId) {
				return oauthError(
					400,
					'invalid_request',
					'client_id in the body differs from the HTTP Basic client',
					claimedClientId,
				);
			}
			const credentials = basic ?? {
				clientId: bodyClientId,
				clientSecret: form.get('client_secret') ?? undefined,
			};
			if (!credentials.clientId || !credentials.clientSecret) {
				return oauthError(
					401,
					'invalid_client',
					'client authentication is required: send client_id and client_secret in the form body (or as HTTP Basic)',
					claimedClientId,
				);
			}
			const client = authenticateClient(credentials.clientId, credentials.clientSecret);
			if (!client) {
				return oauthError(
					401,
					'invalid_client',
					'client authentication failed: unknown client_id or wrong client_secret',
					claimedClientId,
				);
			}
			const scopeParam = form.get('scope');
			/** @type {string[]} */
			let scopes = client.scopes.slice();
			if (scopeParam !== null) {
				scopes = [...new Set(scopeParam.split(' ').filter((scope) => scope !== ''))];
				const refused = scopes.filter((scope) => !client.scopes.includes(scope));
				if (scopes.length === 0 || refused.length > 0) {
					return oauthError(
						400,
						'invalid_scope',
						scopes.length === 0
							? 'scope is empty; omit it or send scope=speci-finder/read'
							: `the application is not granted ${refused.join(' ')}; it may request: ${client.scopes.join(' ') || 'no scopes'}`,
						client.clientId,
					);
				}
			}
			return {
				status: 200,
				headers: { 'cache-control': 'no-store', pragma: 'no-cache' },
				body: issue(client, scopes),
				clientId: client.clientId,
			};
		},
		/**
		 * @param {string} accessToken
		 * @returns {IssuedToken | undefined} undefined when unknown, expired or revoked
		 */
		verify(accessToken) {
			const issued = tokens.get(accessToken);
			if (!issued) return undefined;
			if (issued.expiresAt <= clock.now()) {
				tokens.delete(accessToken);
				return undefined;
			}
			return issued;
		},
		/** @param {string} clientId */
		client: (clientId) => clientById.get(clientId),
		/**
		 * @param {{ clientId?: string }} [filter]
		 * @returns {number} how many live tokens were revoked
		 */
		revokeTokens({ clientId } = {}) {
			let revoked = 0;
			for (const [token, issued] of tokens) {
				if (clientId === undefined || issued.clientId === clientId) {
					tokens.delete(token);
					if (issued.expiresAt > clock.now()) revoked++;
				}
			}
			return revoked;
		},
		/**
		 * @param {{ clientId?: string }} [filter]
		 * @returns {number} tokens issued since start, revoked and expired ones included
		 */
		tokensIssued({ clientId } = {}) {
			if (clientId !== undefined) return issuedByClient.get(clientId) ?? 0;
			let total = 0;
			for (const count of issuedByClient.values()) total += count;
			return total;
		},
	};
}

/** @typedef {ReturnType<typeof createAuth>} Auth */

module.exports = { createAuth };
