// @ts-check
'use strict';

const { createHash, randomBytes, timingSafeEqual } = require('node:crypto');
const { NO_STORE, OAuthRefusal, readTokenRequest, requestedScopes } = require('./token-request');

/** @typedef {import('./fixtures').SandboxClient} SandboxClient */

/** @typedef {{ clientId: string, scopes: string[], expiresAt: number }} IssuedToken */

/**
 * @typedef {object} TokenEndpointResult
 * @property {number} status
 * @property {Record<string, string>} headers
 * @property {import('./types').TokenResponse | import('./types').OAuthErrorBody} body
 * @property {string | undefined} clientId who asked, when it could be told (never the secret)
 */

// Do not let a burst of short-lived tokens (soak tests) grow the table without bound.
const PRUNE_AT = 10_000;

/** @param {string} value */
const digest = (value) => createHash('sha256').update(value).digest();

/** OAuth 2.0 client-credentials issuer and bearer-token table. */
class Auth {
	/**
	 * @param {object} options
	 * @param {readonly SandboxClient[]} options.clients
	 * @param {import('./clock').SandboxClock} options.clock
	 * @param {number} options.tokenTtlSeconds
	 */
	constructor({ clients, clock, tokenTtlSeconds }) {
		this.clock = clock;
		this.tokenTtlSeconds = tokenTtlSeconds;
		/** @type {Map<string, SandboxClient>} */
		this.clientById = new Map(clients.map((client) => [client.clientId, client]));
		/** @type {Map<string, IssuedToken>} */
		this.tokens = new Map();
		/** @type {Map<string, number>} */
		this.issuedByClient = new Map();
	}

	/**
	 * @param {{ contentType: string | undefined, authorization: string | undefined, body: string }} request
	 */
	tokenEndpoint(request) {
		try {
			const { form, claimedClientId, clientId, clientSecret } = readTokenRequest(request);
			const client = this.authenticateClient(clientId, clientSecret);
			if (!client) {
				throw new OAuthRefusal(
					401,
					'invalid_client',
					'client authentication failed: unknown client_id or wrong client_secret',
					claimedClientId,
				);
			}
			const issued = this.issue(client, requestedScopes(form, client));
			return { status: 200, headers: { ...NO_STORE }, body: issued, clientId: client.clientId };
		} catch (error) {
			if (!(error instanceof OAuthRefusal)) throw error;
			return error.result;
		}
	}

	/** @param {string} clientId @param {string} clientSecret */
	authenticateClient(clientId, clientSecret) {
		const client = this.clientById.get(clientId);
		// Compare digests in constant time, and still do the work for an unknown client id.
		const expected = digest(client ? client.clientSecret : randomBytes(16).toString('hex'));
		const matches = timingSafeEqual(expected, digest(clientSecret));
		return client && matches ? client : undefined;
	}

	/** @param {SandboxClient} client @param {string[]} scopes */
	issue(client, scopes) {
		if (this.tokens.size >= PRUNE_AT) {
			const now = this.clock.now();
			for (const [token, issued] of this.tokens) {
				if (issued.expiresAt <= now) this.tokens.delete(token);
			}
		}
		const accessToken = randomBytes(32).toString('base64url');
		const expiresAt = this.clock.now() + this.tokenTtlSeconds * 1000;
		this.tokens.set(accessToken, { clientId: client.clientId, scopes, expiresAt });
		const issuedBefore = this.issuedByClient.get(client.clientId) ?? 0;
		this.issuedByClient.set(client.clientId, issuedBefore + 1);
		return { access_token: accessToken, token_type: 'Bearer', expires_in: this.tokenTtlSeconds };
	}

	/** @param {string} accessToken @returns {IssuedToken | undefined} */
	verify(accessToken) {
		const issued = this.tokens.get(accessToken);
		if (!issued) return undefined;
		if (issued.expiresAt <= this.clock.now()) {
			this.tokens.delete(accessToken);
			return undefined;
		}
		return issued;
	}

	/** @param {string} clientId */
	client(clientId) {
		return this.clientById.get(clientId);
	}

	/**
	 * @param {{ clientId?: string }} [filter]
	 * @returns {number} how many live tokens were revoked
	 */
	revokeTokens({ clientId } = {}) {
		let revoked = 0;
		for (const [token, issued] of this.tokens) {
			if (clientId === undefined || issued.clientId === clientId) {
				this.tokens.delete(token);
				if (issued.expiresAt > this.clock.now()) revoked++;
			}
		}
		return revoked;
	}

	/**
	 * @param {{ clientId?: string }} [filter]
	 * @returns {number} tokens issued since start, revoked and expired ones included
	 */
	tokensIssued({ clientId } = {}) {
		if (clientId !== undefined) return this.issuedByClient.get(clientId) ?? 0;
		return [...this.issuedByClient.values()].reduce((total, count) => total + count, 0);
	}
}

module.exports = { Auth };
