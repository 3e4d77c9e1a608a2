import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Project } from '../api/types';
import type { ListedPage } from '../projects/entries';
import { isoDateToDay } from '../projects/dates';
import { filterProjects } from '../projects/filters';
import { MAX_PAGE_SIZE, walkPages, type FetchPage, type OnSkipped } from '../transport/pages';
import { nodeErrorOf } from '../transport/errors';
import type { TriggerParameters } from '../parameters/trigger';
import {
	isRateBudgetError,
	NoAnswerError,
	openWalk,
	type ApiConnection,
	type Walk,
} from '../transport';
import { API_RATE_LIMIT_TEXT, API_RATE_PACE_SECONDS } from '../transport/rate-budget';
import { daysLeftInWindow, type DueSoonWindow, type PollDiff } from './diff';
import { failureOf, isHeard, type FailureStreak } from './failures';
import { announcedItems, type Announcement } from './output';
import type { TriggerState } from './state';

/**
 * The trigger's fetching, for the trigger class to call: it reads the parameters, walks the
 * results and turns what is new into items, while the class keeps the state.
 */

/** "Fetch Test Event" shows this many items at most. */
const SAMPLE_SIZE = 5;

const PAGING_ADVICE = 'The trigger tries again on its next poll.';

/** The quotesDueSoon window for today's date (YYYY-MM-DD) in the workflow's time zone. */
export function dueSoonWindow(parameters: TriggerParameters, today: string): DueSoonWindow {
	return { today: isoDateToDay(today) ?? 0, days: parameters.daysBeforeQuotesDue };
}

/** Warns of an entry the walk left out: its new tenders come with the first poll that can read it. */
function warnSkipped(context: IPollFunctions): OnSkipped {
	const { name } = context.getNode();
	return (entry) =>
		context.logger.warn(
			`Supplier Matched Projects Trigger "${name}" left out an unreadable entry: ${entry}. The poll went on with the rest; its new tenders are announced once a poll can read it.`,
		);
}

/**
 * What "Fetch Test Event" shows: the first few matching tenders, announced as new, or for
 * quotesDueSoon the first few inside the window now.
 */
export async function fetchSample(
	context: IPollFunctions,
	api: ApiConnection,
	parameters: TriggerParameters,
	today: string,
): Promise<INodeExecutionData[][]> {
	try {
		const walk = await openWalk(api, context, parameters.companyId);
		return await sample(context, parameters, walk.fetchPage, today);
	} catch (error) {
		throw nodeErrorOf(context.getNode(), error, { pagingAdvice: PAGING_ADVICE });
	}
}

async function sample(
	context: IPollFunctions,
	parameters: TriggerParameters,
	fetchPage: FetchPage,
	today: string,
): Promise<INodeExecutionData[][]> {
	const found: Project[] = [];
	const announcements = new Map<string, Announcement>();
	const window = dueSoonWindow(parameters, today);
	let items: IDataObject[] = [];
	// Stops at the first page that fills the sample: the fewest requests for a test event.
	for await (const data of walkPages(fetchPage, () => MAX_PAGE_SIZE, warnSkipped(context))) {
		for (const project of filterProjects(data, parameters.filters, today)) {
			found.push(project);
			for (const tender of project.tenders ?? []) {
				if (typeof tender?.id !== 'string') continue;
				if (parameters.event !== 'quotesDueSoon') {
					announcements.set(tender.id, { event: 'newTender' });
					continue;
				}
				const daysLeft = daysLeftInWindow(
					{ quotesDueAt: tender.quotesDueAt ?? null, status: tender.status },
					window,
				);
				if (daysLeft !== undefined) {
					announcements.set(tender.id, { event: 'quotesDueSoon', daysLeft });
				}
			}
		}
		items = announcedItems(found, announcements, parameters);
		if (items.length >= SAMPLE_SIZE) break;
	}
	if (items.length === 0 && parameters.event === 'quotesDueSoon') {
		const days = parameters.daysBeforeQuotesDue;
		throw new NodeOperationError(
			context.getNode(),
			`No matching tender of company "${parameters.companyId}" has quotes due within ${days} day${days === 1 ? '' : 's'} right now`,
			{
				level: 'warning',
				description: `Once active, the trigger starts a workflow for each matching tender when its quotes due date comes within ${days} day${days === 1 ? '' : 's'} (in the workflow's time zone). Try again with a larger Days Before Quotes Due to see a sample.`,
			},
		);
	}
	if (items.length === 0) {
		throw new NodeOperationError(
			context.getNode(),
			`No open tender matches for company "${parameters.companyId}" right now`,
			{
				level: 'warning',
				description:
					"The service lists only tenders open now that match the supplier account's keywords, and the trigger's filters apply on top. Try again when a matching tender opens, or loosen the filters. Once active, the trigger starts a workflow for each new matching tender.",
			},
		);
	}
	return [items.slice(0, SAMPLE_SIZE).map((json) => ({ json }))];
}

/**
 * What one poll read of its walk: the projects of its pages, the requests they took, and where
 * the walk goes on when the poll stopped before its last page.
 */
export interface PolledPages {
	projects: Project[];
	pages: number;
	/** The cursor of the next page; undefined when these pages ended the walk. */
	resumeAt?: string;
}

/** What a scheduled poll uses of its n8n process: the API, and its record of failed polls by trigger. */
export interface PollingProcess extends ApiConnection {
	readonly failureStreaks: Map<string, FailureStreak>;
	/** Since when each trigger has stopped for want of a request slot, and whether it said so. */
	readonly waitStreaks: Map<string, FailureStreak>;
}

/** One trigger of one workflow: n8n's own key for its static data is the node's name. */
export function triggerKey(context: IPollFunctions): string {
	return JSON.stringify([context.getWorkflow().id ?? '', context.getNode().name]);
}

/** Where the poll's walk starts, and how it stands in its credential's queue. */
export interface PollPlan {
	/** The cursor an earlier poll of the same walk stopped at; undefined: a new walk. */
	from?: string;
	/** When the trigger's last walk was complete (epoch ms); 0: never. */
	completedAt: number;
	/** No request may be sent, nor any answer awaited, past this instant (epoch ms). */
	deadline: number;
}

/** An answer this much slower than the slowest seen yet is still expected in time. */
const PAGE_TIME_HEADROOM = 1.5;

/** Before any answer was timed: a page's time when the API is well. */
const FIRST_PAGE_MS = 2_000;

/**
 * The pages of the trigger's walk that fit in this poll, or null when the poll read none: it
 * waited its turn in vain, or the walk failed in a way that stays quiet (it passes on its own and
 * a previous state lets the next good poll catch up). Anything else is thrown, with why in n8n's
 * terms; a failure that will not pass on its own once per streak (see isHeard).
 */
export async function fetchPages(
	context: IPollFunctions,
	runtime: PollingProcess,
	parameters: TriggerParameters,
	previous: TriggerState | undefined,
	plan: PollPlan,
): Promise<PolledPages | null> {
	const node = context.getNode();
	const key = triggerKey(context);
	const streaks = runtime.failureStreaks;
	try {
		const read = await readPages(context, runtime, parameters, plan);
		streaks.delete(key);
		if (read.pages === 0) return null;
		return read;
	} catch (error) {
		const now = Date.now();
		const streak = streaks.get(key) ?? { since: now, heard: false };
		streaks.set(key, streak);
		if (previous === undefined || isHeard(error, streak, now)) {
			streak.heard = true;
			const reported = nodeErrorOf(node, error, { pagingAdvice: PAGING_ADVICE });
			reported.failure ??= failureOf(error);
			throw reported;
		}
		context.logger.warn(
			`Supplier Matched Projects Trigger "${node.name}" skipped a poll: ${(error as Error).message}. Nothing was emitted; the next poll catches up.`,
		);
		return null;
	}
}

/**
 * Reads pages, 100 projects per request (a new tender can sit on any page), from where the walk
 * stands until its last page, or until the next page could not be answered before the deadline.
 */
async function readPages(
	context: IPollFunctions,
	runtime: PollingProcess,
	parameters: TriggerParameters,
	plan: PollPlan,
): Promise<PolledPages> {
	let slowestMs = 0;
	const walk = await openWalk(runtime, context, parameters.companyId, {
		until: plan.deadline,
		turn: { background: true, since: plan.completedAt },
		onAnswered: (elapsedMs) => {
			slowestMs = Math.max(slowestMs, elapsedMs);
		},
	});
	let requests = 0;
	let paused: { cursor: string | undefined; waited: boolean } | undefined;
	// A pause ends the walk here as a last page would; `paused` tells the two apart.
	const pauseAt = (cursor: string | undefined, waited: boolean): ListedPage => {
		paused = { cursor, waited };
		return { data: [], _metadata: { hasNextPage: false, nextCursor: null } };
	};
	const inTime: FetchPage = async (page) => {
		const expectedMs = slowestMs === 0 ? FIRST_PAGE_MS : slowestMs * PAGE_TIME_HEADROOM;
		const sendBy = plan.deadline - expectedMs;
		if (Date.now() > sendBy) return pauseAt(page.cursor, false);
		return await walk.fetchPage({ ...page, sendBy }).then(
			(results) => {
				requests++;
				return results;
			},
			async (error: unknown) => {
				if (isRateBudgetError(error)) return pauseAt(page.cursor, true);
				if (isTimeUp(error, plan.deadline)) return pauseAt(page.cursor, false);
				return await Promise.reject(error);
			},
		);
	};
	const projects: Project[] = [];
	const pages = walkPages(inTime, () => MAX_PAGE_SIZE, warnSkipped(context), {
		everyPage: true,
		from: plan.from,
	});
	try {
		for await (const data of pages) projects.push(...data);
	} catch (error) {
		throw nodeErrorOf(context.getNode(), error, { pagingAdvice: PAGING_ADVICE });
	}
	if (paused === undefined) {
		runtime.waitStreaks.delete(triggerKey(context));
		return { projects, pages: requests };
	}
	noteWait(context, runtime, walk, plan, paused.waited && requests === 0);
	const resumeAt = paused.cursor ?? plan.from;
	// Stopped before the walk's first page: nothing was read, nothing moves.
	if (resumeAt === undefined) return { projects: [], pages: 0 };
	return { projects, pages: requests, resumeAt };
}

/** A request that timed out because the poll's time was up, not because the API is down. */
function isTimeUp(error: unknown, deadline: number): boolean {
	return (
		error instanceof NoAnswerError &&
		error.network.kind === 'timeout' &&
		Date.now() >= deadline - TIME_UP_SLACK_MS
	);
}

const TIME_UP_SLACK_MS = 1_000;

/**
 * A poll that read nothing for want of a request slot is no failure: its walk goes on when its
 * turn comes. Once per streak the log says why, with the figures, and what would shorten it.
 */
function noteWait(
	context: IPollFunctions,
	runtime: PollingProcess,
	walk: Walk,
	plan: PollPlan,
	starved: boolean,
): void {
	if (!starved) return;
	const key = triggerKey(context);
	const now = Date.now();
	const streak = runtime.waitStreaks.get(key) ?? { since: now, heard: false };
	runtime.waitStreaks.set(key, streak);
	if (streak.heard) return;
	streak.heard = true;
	const waiting = walk.queued();
	const lastWalk =
		plan.completedAt === 0
			? 'it has not completed a walk yet'
			: `its last complete walk ended ${Math.round((now - plan.completedAt) / 1000)} s ago`;
	context.logger.warn(
		`Supplier Matched Projects Trigger "${context.getNode().name}" is waiting for its turn: this credential's ${API_RATE_LIMIT_TEXT} are spent evenly, one request every ${API_RATE_PACE_SECONDS} s, and ${waiting} more request${waiting === 1 ? ' was' : 's were'} waiting; ${lastWalk}. Nothing is lost: the walk goes on at its next poll, and the trigger whose last complete walk is oldest goes first. To be told sooner, use fewer triggers or companies per credential, narrower keywords (fewer pages), or a longer poll interval.`,
	);
}

/** The poll's output: one item per new or updated tender (or per project), null when none. */
export function emittedItems(
	kept: readonly Project[],
	diff: PollDiff,
	parameters: TriggerParameters,
): INodeExecutionData[][] | null {
	const announcements = new Map<string, Announcement>();
	for (const id of diff.newTenderIds) announcements.set(id, { event: 'newTender' });
	for (const { id, changes } of diff.updates) {
		announcements.set(id, { event: 'updatedTender', changes });
	}
	for (const { id, daysLeft, previousQuotesDueAt } of diff.reminders) {
		announcements.set(id, { event: 'quotesDueSoon', daysLeft, previousQuotesDueAt });
	}
	const items = announcedItems(kept, announcements, parameters);
	return items.length === 0 ? null : [items.map((json) => ({ json }))];
}
