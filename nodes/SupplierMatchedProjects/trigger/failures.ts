import type { Failure } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { PagingError } from '../transport/pages';
import { NoAnswerError } from '../transport';
import { TIMED_CAUSES } from '../transport/n8n-features';

const PASSING_CAUSES: ReadonlySet<string> = new Set(TIMED_CAUSES);

/**
 * How long the API may stay out of reach before a poll says so: long enough that a restart or a
 * short outage stays a log line, short enough that a trigger is not silently blind for a day.
 */
export const UNREACHABLE_STREAK_MS = 30 * 60_000;

/**
 * Failures the next poll may not see: the service or the token issuer failing or too busy (its
 * 429s included), the network, paging. Anything else (the credential, the company) needs the
 * user, so it is reported. A poll that waits for a request slot does not fail at all.
 */
export function passesOnItsOwn(error: unknown): boolean {
	if (error instanceof PagingError) return true;
	if (!(error instanceof NodeApiError)) return false;
	// The transport declares why where no API status can tell: a failed token exchange has none.
	if (error.failure !== undefined) return PASSING_CAUSES.has(error.failure.cause);
	const status = Number(error.httpCode);
	return error.httpCode === undefined || error.httpCode === null || status === 429 || status >= 500;
}

/**
 * A failure without an HTTP answer that no wait mends: a host name that does not exist, a
 * certificate that expired or names another host. Someone must fix the address or the server.
 */
function isLastingNetworkFailure(error: unknown): boolean {
	return (
		error instanceof NoAnswerError && (error.network.kind === 'dns' || error.network.kind === 'tls')
	);
}

/**
 * No usable answer at all: the service cannot be reached, for whatever reason, including one the
 * transport cannot name. The token issuer's failures declare their cause; those are judged by
 * their words.
 */
function isUnreachable(error: unknown): boolean {
	if (error instanceof NoAnswerError) return true;
	return (
		error instanceof NodeApiError &&
		(error.httpCode === undefined || error.httpCode === null) &&
		error.failure === undefined
	);
}

/**
 * Why a poll failed, in n8n's own terms: its durable poll scheduler (n8n 2.36 on) waits longer
 * after a timed cause and reports an actionable one. Causes the transport declared are kept.
 */
export function failureOf(error: unknown): Failure {
	if (error instanceof PagingError) return { cause: 'temporarily-unavailable' };
	if (error instanceof NodeApiError) {
		if (error.failure !== undefined) return error.failure;
		if (isLastingNetworkFailure(error)) return { cause: 'configuration-invalid' };
		const status = Number(error.httpCode);
		if (status === 429) return { cause: 'rate-limited' };
		if (status === 401) return { cause: 'credential-invalid' };
		if (status >= 400 && status < 500) return { cause: 'configuration-invalid' };
		return { cause: 'temporarily-unavailable' };
	}
	if (error instanceof NodeOperationError)
		return error.failure ?? { cause: 'configuration-invalid' };
	return { cause: 'node-defect' };
}

/** Failed polls in a row of one trigger, in this process. */
export interface FailureStreak {
	/** When the first of them failed (epoch ms). */
	since: number;
	/** One of them has failed an execution already. */
	heard: boolean;
}

/**
 * Whether this failed poll fails an execution. One the user must fix always does. A failure
 * that passes on its own stays a log line, unless it is one that will not: a missing host name
 * or a bad certificate is heard at once, an API without a usable answer once it has been so for
 * UNREACHABLE_STREAK_MS; either once per streak. An API answering 429 or 5xx stays quiet.
 */
export function isHeard(error: unknown, streak: FailureStreak, now: number): boolean {
	if (!passesOnItsOwn(error)) return true;
	if (streak.heard) return false;
	if (isLastingNetworkFailure(error)) return true;
	return isUnreachable(error) && now - streak.since >= UNREACHABLE_STREAK_MS;
}
