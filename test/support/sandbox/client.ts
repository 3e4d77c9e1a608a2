/**
 * A small typed HTTP client for the sandbox, for tests that drive a sandbox by URL. It reports
 * what the server said; it never retries, so tests see every status as it is.
 */
import { SANDBOX_FIXTURES } from '../../../sandbox';
import type { Project, ResultsPage, TokenResponse } from '../../../sandbox/types';

export interface HttpResult {
	status: number;
	headers: Headers;
	text: string;
	/** The body parsed as JSON, or undefined when it is not JSON. */
	body: unknown;
}

async function toResult(response: Response): Promise<HttpResult> {
	const text = await response.text();
	let body: unknown;
	try {
		body = text === '' ? undefined : JSON.parse(text);
	} catch {
		body = undefined;
	}
	return { status: response.status, headers: response.headers, text, body };
}

type SendInit = { headers?: Record<string, string>; body?: string };

async function send(
	url: string,
	method: string,
	path: string,
	init: SendInit = {},
): Promise<HttpResult> {
	return toResult(await fetch(`${url}${path}`, { method, headers: init.headers, body: init.body }));
}

interface TokenOptions {
	clientId?: string;
	clientSecret?: string;
	scope?: string | null;
}

/**
 * The fixture client's token request form (with SANDBOX_FIXTURES.scope), `fields` changed; an
 * undefined field is left out.
 */
export function tokenForm(fields: Record<string, string | undefined> = {}): string {
	const form = Object.entries({
		grant_type: 'client_credentials',
		client_id: SANDBOX_FIXTURES.client.clientId,
		client_secret: SANDBOX_FIXTURES.client.clientSecret,
		scope: SANDBOX_FIXTURES.scope,
		...fields,
	});
	return new URLSearchParams(
		form.filter((field): field is [string, string] => field[1] !== undefined),
	).toString();
}

/** Posts a form to the token endpoint; `form` changes its fields as tokenForm does. Scope null leaves it out. */
function requestToken(
	url: string,
	options: TokenOptions & {
		form?: Record<string, string | undefined>;
		headers?: Record<string, string>;
	} = {},
): Promise<HttpResult> {
	const {
		clientId = SANDBOX_FIXTURES.client.clientId,
		clientSecret = SANDBOX_FIXTURES.client.clientSecret,
		scope = SANDBOX_FIXTURES.scope,
	} = options;
	const body = tokenForm({
		client_id: clientId,
		client_secret: clientSecret,
		scope: scope ?? undefined,
		...options.form,
	});
	return send(url, 'POST', '/oauth2/token', {
		headers: { 'content-type': 'application/x-www-form-urlencoded', ...options.headers },
		body,
	});
}

/** An access token; throws when the endpoint refuses. */
async function token(url: string, options?: TokenOptions): Promise<string> {
	const result = await requestToken(url, options);
	const body = result.body as TokenResponse | undefined;
	if (result.status !== 200 || !body)
		throw new Error(`token request failed: ${result.status} ${result.text}`);
	return body.access_token;
}

interface ResultsOptions {
	companyId?: string;
	token?: string;
	clientId?: string;
	cursor?: string;
	limit?: number | string;
	query?: string;
	headers?: Record<string, string | undefined>;
}

/**
 * GET one results page. Headers default to a valid call for the fixture client; pass
 * `headers` entries as undefined to leave one out, and `query` to send a raw query string.
 */
function results(url: string, options: ResultsOptions): Promise<HttpResult> {
	const { companyId = SANDBOX_FIXTURES.companyId, clientId = SANDBOX_FIXTURES.client.clientId } =
		options;
	const params = new URLSearchParams();
	if (options.cursor !== undefined) params.set('cursor', options.cursor);
	if (options.limit !== undefined) params.set('limit', String(options.limit));
	const query = options.query ?? params.toString();
	const wanted: Record<string, string | undefined> = {
		authorization: options.token === undefined ? undefined : `Bearer ${options.token}`,
		'x-service-client-id': clientId,
		...options.headers,
	};
	const headers: Record<string, string> = {};
	for (const [name, value] of Object.entries(wanted))
		if (value !== undefined) headers[name] = value;
	return send(
		url,
		'GET',
		`/api/supplier/v1/companies/${encodeURIComponent(companyId)}/speci-finder/results${query ? `?${query}` : ''}`,
		{ headers },
	);
}

/** Walks every page from `cursor` (or the first) as the spec says: same limit, cursor verbatim. */
async function walk(
	url: string,
	options: ResultsOptions & { token: string },
): Promise<{ projects: Project[]; pages: ResultsPage[] }> {
	const pages: ResultsPage[] = [];
	let { cursor } = options;
	do {
		const result = await results(url, { ...options, cursor });
		if (result.status !== 200)
			throw new Error(`walk stopped at page ${pages.length + 1}: ${result.status} ${result.text}`);
		const page = result.body as ResultsPage;
		pages.push(page);
		cursor = page._metadata.nextCursor ?? undefined;
	} while (cursor !== undefined);
	return { projects: pages.flatMap((page) => page.data), pages };
}

/** @param url sandbox base URL */
export function createSandboxClient(url: string) {
	return {
		url,
		send: (method: string, path: string, init?: SendInit) => send(url, method, path, init),
		requestToken: (options?: Parameters<typeof requestToken>[1]) => requestToken(url, options),
		token: (options?: TokenOptions) => token(url, options),
		results: (options: ResultsOptions) => results(url, options),
		walk: (options: Parameters<typeof walk>[1]) => walk(url, options),
	};
}
