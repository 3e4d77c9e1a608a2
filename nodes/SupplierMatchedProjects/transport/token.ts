import { createHash } from 'crypto';
import type {
	ICredentialDataDecryptedObject,
	IHttpRequestHelper,
	IHttpRequestOptions,
	Failure,
	IN8nHttpFullResponse,
} from 'n8n-workflow';
import { UserError } from 'n8n-workflow';

import type { OAuthErrorBody, TokenResponse } from '../api/types';
import { isObject } from '../projects/values';
import { networkFailureOf, type NetworkFailure } from './network';
import { MAX_REDIRECTS, redirectStep, type RedirectStep } from './redirects';
import { readSettings, TOKEN_PATH, type SupplierSettings } from './settings';

/** Refresh this long before the token expires, as the reference clients do. */
export const REFRESH_MARGIN_MS = 60_000;
/** Used when the issuer leaves out expires_in; the API documents one hour. */
const DEFAULT_LIFETIME_SECONDS = 3600;
const TOKEN_REQUEST_TIMEOUT_MS = 30_000;

export type TokenFailureKind =
	| 'invalidClient'
	| 'invalidScope'
	| 'wrongAuthUrl'
	| 'refused'
	| 'redirected'
	| 'issuerUnavailable'
	| 'unreachable';

/**
 * The token exchange failed. The message names the cause and the fix. It deliberately carries
 * no HTTP status or error code property: n8n wraps it in a NodeApiError, which would replace a
 * message that has one with a generic status text.
 */
export class TokenRequestError extends UserError {
	readonly kind: TokenFailureKind;

	/** Worth trying again later: the issuer failed or could not be reached. */
	readonly retryable: boolean;

	/**
	 * Why, in n8n's own terms, for whoever handles the failure (the trigger, n8n's poll backoff):
	 * an issuer that failed or could not be reached comes back on its own; a redirect lasts until
	 * the user corrects the Auth URL; every other failure until the user fixes the credential, or
	 * has the operator fix the client.
	 */
	readonly failure: Failure;

	/** Why the issuer gave no answer, when it gave none. */
	readonly network?: NetworkFailure;

	constructor(
		kind: TokenFailureKind,
		message: string,
		description: string,
		network?: NetworkFailure,
	) {
		super(message, { description });
		this.kind = kind;
		this.network = network;
		this.retryable = kind === 'issuerUnavailable' || kind === 'unreachable';
		if (this.retryable) this.failure = { cause: 'temporarily-unavailable' };
		else if (kind === 'redirected') this.failure = { cause: 'configuration-invalid' };
		else this.failure = { cause: 'credential-invalid' };
	}
}

interface CachedToken {
	accessToken: string;
	/** Epoch ms from which a new token is fetched instead of this one. */
	refreshAt: number;
	expiresAt: number;
}

/** Identifies a token: a changed Auth URL, client ID, secret or scope must get a token of its own. */
function cacheKey(settings: SupplierSettings): string {
	return createHash('sha256')
		.update(
			JSON.stringify([settings.authUrl, settings.clientId, settings.clientSecret, settings.scope]),
		)
		.digest('hex');
}

/** The secret as it may come back from a server that echoes what it was sent. */
function secretSpellings(settings: SupplierSettings): string[] {
	const { clientSecret: secret, clientId } = settings;
	return [
		secret,
		encodeURIComponent(secret),
		new URLSearchParams({ s: secret }).toString().slice(2),
		JSON.stringify(secret).slice(1, -1),
		Buffer.from(`${clientId}:${secret}`).toString('base64'),
	];
}

function blankOut(text: string, secrets: Array<string | undefined>): string {
	let result = text;
	for (const secret of secrets) {
		if (secret !== undefined && secret !== '') result = result.split(secret).join('***');
	}
	return result;
}

function oauthErrorOf(body: unknown): OAuthErrorBody | undefined {
	return isObject(body) && typeof body.error === 'string' ? (body as OAuthErrorBody) : undefined;
}

function tokenOf(body: unknown): TokenResponse | undefined {
	return isObject(body) && typeof body.access_token === 'string' && body.access_token !== ''
		? (body as TokenResponse)
		: undefined;
}

/** Only what went wrong is kept from the raw error: it holds the request, and so the secret. */
function failedBeforeAnswer(settings: SupplierSettings, error: unknown): TokenRequestError {
	const failure = networkFailureOf(error);
	if (failure === undefined) {
		const reason = error instanceof Error ? error.message : String(error);
		return new TokenRequestError(
			'refused',
			`The token request to ${settings.authUrl}${TOKEN_PATH} failed: ${blankOut(reason, secretSpellings(settings))}`,
			"Check the credential's Auth URL and the credential's allowed domains.",
		);
	}
	const fix =
		failure.kind === 'timeout'
			? 'The issuer may be overloaded: try again later, and check the Auth URL.'
			: "Check the credential's Auth URL (the token issuer's address, without /oauth2/token) and that n8n can reach it, through a proxy if your network needs one.";
	return new TokenRequestError(
		'unreachable',
		`Could not reach the token issuer at ${settings.authUrl}: ${failure.summary}`,
		fix,
		failure,
	);
}

function describeRefusal(
	settings: SupplierSettings,
	status: number,
	body: unknown,
): TokenRequestError {
	const oauth = oauthErrorOf(body);
	const issuerSays =
		typeof oauth?.error_description === 'string'
			? ` The issuer says: ${blankOut(oauth.error_description, secretSpellings(settings))}`
			: '';
	if (oauth?.error === 'invalid_client' || (status === 401 && oauth === undefined)) {
		return new TokenRequestError(
			'invalidClient',
			'The token issuer rejected the client ID or client secret (invalid_client)',
			`Check the credential's Client ID and Client Secret: enter them exactly as the operator issued them, as a pair.${issuerSays}`,
		);
	}
	if (oauth?.error === 'invalid_scope') {
		const requested = settings.scope === '' ? 'the default scope' : `the scope "${settings.scope}"`;
		return new TokenRequestError(
			'invalidScope',
			`The token issuer refused ${requested} for this client (invalid_scope)`,
			`Ask the operator to grant speci-finder/read to client "${settings.clientId}", and keep the credential's Scope as speci-finder/read.${issuerSays}`,
		);
	}
	if (oauth !== undefined) {
		return new TokenRequestError(
			'refused',
			`The token issuer refused the token request (${blankOut(oauth.error, secretSpellings(settings))})`,
			`Check that the Auth URL is the Supplier Matched-Projects token issuer and that the client is allowed the client-credentials grant; the operator can tell which.${issuerSays}`,
		);
	}
	if (status === 429 || status >= 500) {
		return new TokenRequestError(
			'issuerUnavailable',
			`The token issuer at ${settings.authUrl} is not available right now (HTTP ${status})`,
			"This is on the issuer's side: try again later.",
		);
	}
	return new TokenRequestError(
		'wrongAuthUrl',
		`No token endpoint answered at ${settings.authUrl}${TOKEN_PATH} (HTTP ${status})`,
		"Check the credential's Auth URL: it is the token issuer's address, without /oauth2/token.",
	);
}

const AUTH_URL_FIX =
	"Correct the credential's Auth URL: enter the token issuer's address as the operator issued it, without /oauth2/token.";

/**
 * Posts the token request, following a redirect only where the secret may go: on the Auth URL's
 * own origin, and only with 307 or 308, which keep the POST and its body. 301, 302 and 303 would
 * turn it into a GET without the form, which no token endpoint answers.
 */
async function postForToken(
	helpers: IHttpRequestHelper['helpers'],
	settings: SupplierSettings,
	options: IHttpRequestOptions,
): Promise<IN8nHttpFullResponse> {
	let url = options.url;
	for (let hops = 0; ; hops++) {
		let response: IN8nHttpFullResponse;
		try {
			response = (await helpers.httpRequest({ ...options, url })) as IN8nHttpFullResponse;
		} catch (error) {
			throw failedBeforeAnswer(settings, error);
		}
		const step = redirectStep(response, url, { hops, keepMethod: true });
		if (step === undefined) return response;
		if ('follow' in step) {
			url = step.follow;
			continue;
		}
		throw redirectRefused(settings, step);
	}
}

function redirectRefused(
	settings: SupplierSettings,
	step: Exclude<RedirectStep, { follow: string }>,
): TokenRequestError {
	const at = `The token issuer at ${settings.authUrl}`;
	if (step.refused === 'otherOrigin') {
		return new TokenRequestError(
			'redirected',
			`${at} redirected the token request to another address, ${step.origin} (HTTP ${step.status}); the node did not follow it, so the client secret was not sent there`,
			`The node sends the client secret only to the Auth URL's own scheme, host and port. ${AUTH_URL_FIX} If the operator confirms the issuer moved to ${step.origin}, enter that.`,
		);
	}
	if (step.refused === 'changesMethod') {
		return new TokenRequestError(
			'redirected',
			`${at} answered the token request with a redirect (HTTP ${step.status}) that would turn it into a GET without the client's credentials, so the node did not follow it`,
			AUTH_URL_FIX,
		);
	}
	return new TokenRequestError(
		'redirected',
		`${at} redirected the token request more than ${MAX_REDIRECTS} times (HTTP ${step.status})`,
		AUTH_URL_FIX,
	);
}

async function requestToken(
	helpers: IHttpRequestHelper['helpers'],
	settings: SupplierSettings,
): Promise<CachedToken> {
	const form = new URLSearchParams({
		grant_type: 'client_credentials',
		client_id: settings.clientId,
		client_secret: settings.clientSecret,
	});
	if (settings.scope !== '') form.set('scope', settings.scope);
	const options: IHttpRequestOptions = {
		method: 'POST',
		url: `${settings.authUrl}${TOKEN_PATH}`,
		headers: {
			'Content-Type': 'application/x-www-form-urlencoded',
			Accept: 'application/json',
		},
		body: form.toString(),
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: TOKEN_REQUEST_TIMEOUT_MS,
		// postForToken judges redirects itself; see requestOptions in ./index.ts.
		disableFollowRedirect: true,
		sendCredentialsOnCrossOriginRedirect: false,
	};
	const sentAt = Date.now();
	const response = await postForToken(helpers, settings, options);
	if (response.statusCode < 200 || response.statusCode >= 300) {
		throw describeRefusal(settings, response.statusCode, response.body);
	}
	const token = tokenOf(response.body);
	if (token === undefined) {
		const what = isObject(response.body)
			? 'JSON without an access_token'
			: 'something other than JSON';
		throw new TokenRequestError(
			'wrongAuthUrl',
			`The address ${settings.authUrl}${TOKEN_PATH} answered with ${what}, not an OAuth token`,
			"Check the credential's Auth URL: it is the token issuer's address, without /oauth2/token.",
		);
	}
	const granted = (token as TokenResponse & { scope?: unknown }).scope;
	// RFC 6749 section 5.1: an issuer that grants less than was asked for says so in "scope".
	if (
		settings.scope !== '' &&
		typeof granted === 'string' &&
		!granted.split(' ').includes(settings.scope)
	) {
		throw new TokenRequestError(
			'invalidScope',
			`The token issuer did not grant the scope "${settings.scope}" to this client`,
			`Ask the operator to grant speci-finder/read to client "${settings.clientId}".`,
		);
	}
	const lifetimeSeconds =
		typeof token.expires_in === 'number' && token.expires_in > 0
			? token.expires_in
			: DEFAULT_LIFETIME_SECONDS;
	const lifetimeMs = lifetimeSeconds * 1000;
	// A very short-lived token would otherwise be refreshed on every request.
	const margin = Math.min(REFRESH_MARGIN_MS, lifetimeMs / 2);
	return {
		accessToken: token.access_token,
		expiresAt: sentAt + lifetimeMs,
		refreshAt: sentAt + lifetimeMs - margin,
	};
}

/**
 * The tokens of one n8n process, in memory only: they never reach n8n's credentials table. The
 * credential's preAuthentication and authenticate read them, the transport discards a rejected one.
 */
export class TokenCache {
	private readonly tokens = new Map<string, CachedToken>();

	private readonly inFlight = new Map<string, Promise<CachedToken>>();

	/**
	 * The token each request was authenticated with, keyed by the credentials object n8n passes to
	 * preAuthentication and authenticate. n8n decrypts a fresh object for every request and passes
	 * the same one again only when it retries that request after a 401, which is how a rejected
	 * token is recognised without n8n telling the credential.
	 */
	private readonly usedTokens = new WeakMap<object, string>();

	/**
	 * The token exchange's failure, by the credentials object of the request it failed: n8n 2.0
	 * (2.0.3) rethrows it as an error of its own, without the cause the transport reads it from.
	 */
	private readonly failures = new WeakMap<object, TokenRequestError>();

	/**
	 * A token for these settings: the cached one until its refresh time, otherwise a new one.
	 * Concurrent callers for the same settings share one token request.
	 */
	async obtain(
		helpers: IHttpRequestHelper['helpers'],
		settings: SupplierSettings,
	): Promise<string> {
		const key = cacheKey(settings);
		const cached = this.tokens.get(key);
		if (cached !== undefined && Date.now() < cached.refreshAt) return cached.accessToken;

		let pending = this.inFlight.get(key);
		if (pending === undefined) {
			pending = requestToken(helpers, settings)
				.then((token) => {
					this.dropExpired(Date.now());
					this.tokens.set(key, token);
					return token;
				})
				.finally(() => this.inFlight.delete(key));
			this.inFlight.set(key, pending);
		}
		return (await pending).accessToken;
	}

	private dropExpired(now: number): void {
		for (const [key, token] of this.tokens) if (token.expiresAt <= now) this.tokens.delete(key);
	}

	/** Forgets the token if it is still the cached one; a newer token fetched meanwhile is kept. */
	discard(settings: SupplierSettings, accessToken: string): void {
		const key = cacheKey(settings);
		if (this.tokens.get(key)?.accessToken === accessToken) this.tokens.delete(key);
	}

	/** Forgets the token the request made with this credentials object was sent with. */
	discardUsedBy(credentials: ICredentialDataDecryptedObject): void {
		const used = this.usedTokens.get(credentials);
		if (used === undefined) return;
		this.discard(readSettings(credentials), used);
		this.usedTokens.delete(credentials);
	}

	/**
	 * The credential's preAuthentication: makes sure a token is in memory for this request. Returns
	 * nothing n8n would store.
	 */
	async prepare(
		helpers: IHttpRequestHelper['helpers'],
		credentials: ICredentialDataDecryptedObject,
	): Promise<void> {
		const settings = readSettings(credentials);
		const rejected = this.usedTokens.get(credentials);
		if (rejected !== undefined) this.discard(settings, rejected);
		const obtained = await this.obtain(helpers, settings).then(
			(token) => ({ token }),
			(failure: unknown) => ({ failure }),
		);
		if ('failure' in obtained) {
			if (obtained.failure instanceof TokenRequestError) {
				this.failures.set(credentials, obtained.failure);
			}
			throw obtained.failure;
		}
		this.usedTokens.set(credentials, obtained.token);
	}

	/** Why the token exchange for the request made with this credentials object failed, if it did. */
	failureOf(credentials: ICredentialDataDecryptedObject): TokenRequestError | undefined {
		return this.failures.get(credentials);
	}

	/** The credential's authenticate: the bearer token and the client ID header. */
	addAuthHeaders(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): IHttpRequestOptions {
		const settings = readSettings(credentials);
		const accessToken =
			this.usedTokens.get(credentials) ?? this.tokens.get(cacheKey(settings))?.accessToken;
		if (accessToken === undefined) {
			throw new UserError(
				'No access token is available for this request: the token exchange did not run. Run the node again; if it persists, re-save the credential.',
			);
		}
		requestOptions.headers = {
			...(requestOptions.headers ?? {}),
			Authorization: `Bearer ${accessToken}`,
			'x-service-client-id': settings.clientId,
		};
		return requestOptions;
	}

	/**
	 * Server text (an error description, an error message) with the client secret, in any
	 * spelling, and the tokens of this credential blanked out: a server may echo what it was sent.
	 */
	redact(text: string, credentials: ICredentialDataDecryptedObject): string {
		const settings = readSettings(credentials);
		return blankOut(text, [
			...secretSpellings(settings),
			this.usedTokens.get(credentials),
			this.tokens.get(cacheKey(settings))?.accessToken,
		]);
	}
}
