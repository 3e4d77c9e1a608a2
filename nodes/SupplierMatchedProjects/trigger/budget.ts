import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { MAX_PAGE_SIZE } from '../helpers/paging';
import {
	API_RATE_LIMIT,
	API_RATE_WINDOW_MS,
	type RequestRoom,
	type SpentBy,
} from '../transport/budget';

const WINDOW_MINUTES = API_RATE_WINDOW_MS / 60_000;
const LIMIT = `${API_RATE_LIMIT} requests per ${WINDOW_MINUTES} minutes`;

/** A walk over this many projects takes this many requests: a page holds 100 projects. */
export function requestsFor(projectCount: number): number {
	return Math.max(1, Math.ceil(projectCount / MAX_PAGE_SIZE));
}

/** The shortest poll interval at which walks of this many requests stay within the budget. */
export function advisedInterval(requests: number): string {
	const minutes = Math.max(1, Math.ceil((requests * WINDOW_MINUTES) / API_RATE_LIMIT));
	return minutes === 1 ? 'every minute' : `every ${minutes} minutes`;
}

/**
 * A walk the credential's rate budget cannot carry. Spent by this process, the poll interval or the
 * keywords must change; spent by the API's count (its 429s), the limit is busy with other processes
 * or clients, which passes on its own like a 429.
 */
export class WalkBudgetError extends NodeApiError {
	constructor(
		node: INode,
		message: string,
		requests: number,
		readonly spentBy: SpentBy,
	) {
		const description =
			requests > API_RATE_LIMIT
				? `A poll must walk every page (${MAX_PAGE_SIZE} projects per request) to find new tenders, and more than ${API_RATE_LIMIT} requests cannot fit in the credential's limit of ${LIMIT}. Ask the operator to narrow the supplier account's keywords so fewer projects match.`
				: `A poll must walk every page (${MAX_PAGE_SIZE} projects per request) to find new tenders. Set the poll interval to ${advisedInterval(requests)} or more, and keep other workflows that use this credential from using up its ${LIMIT}: the limit is shared by every n8n process using the credential (in queue mode: the main instance and all workers). Nothing was emitted and no tender was marked as seen; the next poll that fits catches up.`;
		super(node, { message, description } as JsonObject, {
			message,
			description,
			httpCode: '429',
		});
		// Set here, not as an option: n8n lines before failure causes ignore the option.
		this.failure =
			spentBy === 'api'
				? { cause: 'rate-limited' }
				: requests > API_RATE_LIMIT
					? { cause: 'configuration-invalid' }
					: { cause: 'quota-exhausted' };
	}
}

/**
 * What the next walk is likely to cost: the requests the previous complete walk took. A state
 * saved before that was kept has only its project count: a page per 100 projects, at most what
 * the limit allows, since one oversized page from an API that ignores the page size can count
 * far more projects than requests.
 */
export function expectedRequests(previous: { projectCount: number; pages?: number }): number {
	return previous.pages ?? Math.min(requestsFor(previous.projectCount), API_RATE_LIMIT);
}

/**
 * Judged by the cost of the previous complete walk, before anything is sent: the refusal when
 * the next walk cannot fit in the requests left, since failing up front beats failing halfway on
 * every poll. Never one that a quiet window cannot clear: a walk over more requests than the
 * limit is judged at the limit, and its own waits for room decide.
 */
export function budgetRefusal(
	node: INode,
	previous: { projectCount: number; pages?: number },
	room: RequestRoom,
): WalkBudgetError | undefined {
	const requests = Math.min(expectedRequests(previous), API_RATE_LIMIT);
	if (requests <= room.free) return undefined;
	const needs = `A poll over ${previous.projectCount} matched projects needs ${requests} request${requests === 1 ? '' : 's'}`;
	if (requests <= room.underLimit) {
		return new WalkBudgetError(
			node,
			`${needs}, but the API's answers of 429 hold this n8n process to ${room.free} more for now: other processes or clients are using the credential's ${LIMIT}`,
			requests,
			'api',
		);
	}
	return new WalkBudgetError(
		node,
		`${needs}, but this credential has ${room.underLimit} of its ${LIMIT} left`,
		requests,
		'process',
	);
}

/** The transport found no free request in time partway through a walk. */
export function budgetExhausted(
	node: INode,
	requests: number,
	projectsSoFar: number,
	spentBy: SpentBy = 'process',
): WalkBudgetError {
	const counted =
		spentBy === 'api' ? ', counted by the API across every n8n process that uses it' : '';
	return new WalkBudgetError(
		node,
		`The poll stopped at request ${requests}, after ${projectsSoFar} matched projects: this credential's ${LIMIT} are used up${counted}`,
		requests,
		spentBy,
	);
}
