import type { IDataObject } from 'n8n-workflow';

/** The answers that send a request to another URL (RFC 9110 section 15.4). */
const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** Same-origin redirects one request follows before it fails: a moved path needs one or two. */
export const MAX_REDIRECTS = 3;

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
 * What to do with an answer that may be a redirect: follow it, or refuse it and say why. Followed
 * only on the origin the request went to (a Location with user-info counts as another origin:
 * following it would send that user-info as Basic authentication), for at most MAX_REDIRECTS
 * hops, and with `keepMethod` only where the status keeps the method and body (307, 308).
 * Undefined when the answer is no redirect with a usable Location.
 */
export type RedirectStep =
	| { follow: string }
	| { refused: 'otherOrigin'; status: number; origin: string }
	| { refused: 'changesMethod' | 'tooMany'; status: number };

export function redirectStep(
	answer: { statusCode: number; headers?: IDataObject },
	from: string,
	rules: { hops: number; keepMethod: boolean },
): RedirectStep | undefined {
	const { statusCode: status } = answer;
	if (!REDIRECT_STATUSES.has(status)) return undefined;
	const location = answer.headers?.location;
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
	if (!sameOrigin) return { refused: 'otherOrigin', status, origin: originOf(target) };
	if (rules.keepMethod && status !== 307 && status !== 308) {
		return { refused: 'changesMethod', status };
	}
	if (rules.hops >= MAX_REDIRECTS) return { refused: 'tooMany', status };
	return { follow: target.href };
}
