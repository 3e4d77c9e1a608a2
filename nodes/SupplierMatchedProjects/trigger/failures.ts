import { NodeApiError } from 'n8n-workflow';

import { PagingError } from '../helpers/paging';
import { TIMED_CAUSES } from '../shared/n8n-features';
import { WalkBudgetError } from './budget';

const PASSING_CAUSES: ReadonlySet<string> = new Set(TIMED_CAUSES);

/**
 * Failures the next poll may not see: the service or the token issuer failing or too busy (its
 * 429s included, and the share of the limit they hold this process to), the network, paging.
 * Anything else (the credential, the company, a budget this process spends itself) needs the
 * user, so it is reported.
 */
export function passesOnItsOwn(error: unknown): boolean {
	if (error instanceof PagingError) return true;
	if (error instanceof WalkBudgetError) return error.spentBy === 'api';
	if (!(error instanceof NodeApiError)) return false;
	// The transport declares why where no API status can tell: a failed token exchange has none.
	if (error.failure !== undefined) return PASSING_CAUSES.has(error.failure.cause);
	const status = Number(error.httpCode);
	return error.httpCode === undefined || error.httpCode === null || status === 429 || status >= 500;
}
