import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { UserError } from 'n8n-workflow';

export const CREDENTIAL_TYPE = 'supplierMatchedProjectsApi';
export const DEFAULT_SCOPE = 'speci-finder/read';
export const TOKEN_PATH = '/oauth2/token';

/** The credential's fields, normalised: trimmed, without trailing slashes, URLs checked. */
export interface SupplierSettings {
	authUrl: string;
	baseUrl: string;
	clientId: string;
	clientSecret: string;
	/** Empty means the scope parameter is left out of the token request. */
	scope: string;
}

/** A credential field that cannot be used as it is; the message says which field and how to fix it. */
export class CredentialSettingsError extends UserError {}

/** A field as typed, without surrounding blanks; anything but text counts as empty. */
function trimmedText(value: unknown): string {
	return typeof value === 'string' ? value.trim() : '';
}

/**
 * An address as a message may echo it: what stands before an "@" in its authority, where a user
 * name and password would be, blanked out, parsed or not (`user:pass@host` is no URL at all).
 */
export function withoutUserInfo(typed: string): string {
	return typed.replace(/^([^:/?#]+:\/\/)?[^/?#]*@/, '$1***@');
}

function address(value: unknown, field: string, example: string): string {
	const url = trimmedText(value).replace(/\/+$/, '');
	if (url === '') {
		throw new CredentialSettingsError(
			`The credential's ${field} is empty: enter the address issued with your client ID, for example ${example}`,
		);
	}
	const shown = withoutUserInfo(url);
	let parsed: URL | undefined;
	try {
		parsed = new URL(url);
	} catch {
		parsed = undefined;
	}
	if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
		throw new CredentialSettingsError(
			`The credential's ${field} "${shown}" is not an http:// or https:// address: enter the full address, for example ${example}`,
		);
	}
	if (shown !== url || parsed.username !== '' || parsed.password !== '') {
		throw new CredentialSettingsError(
			`The credential's ${field} "${shown}" has a user name or password in it (before an "@"): enter only the address, for example ${example}, and the client ID and secret in their own fields`,
		);
	}
	// A bare "?" or "#" leaves search and hash empty, yet would still cut off the paths appended to it.
	if (/[?#]/.test(url)) {
		throw new CredentialSettingsError(
			`The credential's ${field} "${url}" has a query or fragment (a "?" or "#" and what follows): enter only the address, for example ${example}`,
		);
	}
	return url;
}

/**
 * Reads and checks the credential's fields. A token URL pasted into Auth URL is accepted, since
 * the token path is fixed by the API.
 */
export function readSettings(credentials: ICredentialDataDecryptedObject): SupplierSettings {
	const authUrl = address(credentials.authUrl, 'Auth URL', 'https://auth.example.com');
	const clientId = trimmedText(credentials.clientId);
	if (clientId === '') {
		throw new CredentialSettingsError(
			"The credential's Client ID is empty: enter the client ID the operator issued for this integration",
		);
	}
	const clientSecret = trimmedText(credentials.clientSecret);
	if (clientSecret === '') {
		throw new CredentialSettingsError(
			"The credential's Client Secret is empty: enter the client secret the operator issued with the client ID",
		);
	}
	return {
		authUrl: authUrl.endsWith(TOKEN_PATH) ? authUrl.slice(0, -TOKEN_PATH.length) : authUrl,
		baseUrl: address(credentials.baseUrl, 'Base URL', 'https://api.example.com'),
		clientId,
		clientSecret,
		scope: credentials.scope === undefined ? DEFAULT_SCOPE : trimmedText(credentials.scope),
	};
}
