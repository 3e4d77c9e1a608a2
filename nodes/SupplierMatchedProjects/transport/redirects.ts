import type { IDataObject } from 'n8n-workflow';

/** The answers that send a request to another URL (RFC 9110 section 15.4). */
const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** Same-origin redirects one request follows before it fails: a moved path needs one or two. */
export const MAX_REDIRECTS = 3;

/**
 * Where a redirect points: a URL on the origin the request went to, which may be followed, or
 * anywhere else, named by its origin only (its path, query or user-info may hold anything).
 */
export type Redirect =
	| { kind: 'sameOrigin'; status: number; url: string }
	| { kind: 'otherOrigin'; status: number; origin: string };

/** An address as a message may name it: scheme, host and port, never user-info or path. */
export function originOf(url: URL): string {
	return url.host === '' ? url.protocol : `${url.protocol}//${url.host}`;
}

/** The URL a request goes to, its query included, as a relative Location is resolved against. */
export function requestedUrl(url: string, qs?: IDataObject): string {
	const resolved = new URL(url);
	for (const [name, value] of Object.entries(qs ?? {})) {
		if (value !== undefined) resolved.searchParams.set(name, String(value));
	}
	return resolved.href;
}

/**
 * The redirect an answer makes, if it is one with a usable Location. A Location with user-info
 * counts as another origin: following it would send that user-info as Basic authentication.
 */
export function redirectOf(
	statusCode: number,
	headers: IDataObject | undefined,
	from: string,
): Redirect | undefined {
	if (!REDIRECT_STATUSES.has(statusCode)) return undefined;
	const location = headers?.location;
	if (typeof location !== 'string' || location.trim() === '') return undefined;
	let target: URL;
	try {
		target = new URL(location, from);
	} catch {
		return undefined;
	}
	target.hash = '';
	const sameOrigin =
		target.origin === new URL(from).origin && target.username === '' && target.password === '';
	return sameOrigin
		? { kind: 'sameOrigin', status: statusCode, url: target.href }
		: { kind: 'otherOrigin', status: statusCode, origin: originOf(target) };
}
