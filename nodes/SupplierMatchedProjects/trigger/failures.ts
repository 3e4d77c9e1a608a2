import type { Failure } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { failureKindOf, type FailureKind } from '../transport/errors';
import { TIMED_CAUSES } from '../transport/n8n-features';

const PASSING_CAUSES: ReadonlySet<string> = new Set(TIMED_CAUSES);

/**
 * How long the API may stay out of reach before a poll says so: long enough that a restart or a
 * short outage stays a log line, short enough that a trigger is not silently blind for a day.
 */
export const UNREACHABLE_STREAK_MS = 30 * 60_000;

/** Each kind of failure the transport names, as n8n's durable poll scheduler weighs it. */
const CAUSE_OF_KIND: Record<FailureKind, Failure['cause']> = {
	waiting: 'rate-limited',
	rateLimited: 'rate-limited',
	unreachable: 'temporarily-unavailable',
	server: 'temporarily-unavailable',
	paging: 'temporarily-unavailable',
	misaddressed: 'configuration-invalid',
	credentials: 'credential-invalid',
	notFound: 'configuration-invalid',
	notAPage: 'configuration-invalid',
	client: 'configuration-invalid',
};

/**
 * Failures the next poll may not see: the service or the token issuer failing or too busy, the
 * network, paging. An address that leads nowhere does not pass, but is said once per streak
 * (isHeard) rather than on every poll. Anything else (the credential, the company) needs the
 * user, so it is reported. A poll that waits for a request slot does not fail at all.
 */
export function passesOnItsOwn(error: unknown): boolean {
	const kind = failureKindOf(error);
	if (kind === undefined) return false;
	return kind === 'misaddressed' || PASSING_CAUSES.has(CAUSE_OF_KIND[kind]);
}

/**
 * Why a poll failed, in n8n's own terms: its durable poll scheduler (n8n 2.36 on) waits longer
 * after a timed cause and reports an actionable one.
 */
export function failureOf(error: unknown): Failure {
	const kind = failureKindOf(error);
	if (kind !== undefined) return { cause: CAUSE_OF_KIND[kind] };
	if (error instanceof NodeOperationError) {
		return error.failure ?? { cause: 'configuration-invalid' };
	}
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
	const kind = failureKindOf(error);
	if (kind === 'misaddressed') return true;
	return kind === 'unreachable' && now - streak.since >= UNREACHABLE_STREAK_MS;
}
