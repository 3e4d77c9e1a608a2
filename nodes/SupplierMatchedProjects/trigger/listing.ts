import { createHash } from 'crypto';
import type { IPollFunctions } from 'n8n-workflow';

import type { Project, Tender } from '../api/types';
import type { ListedPage } from '../projects/entries';
import { isoDateToDay } from '../projects/dates';
import {
	categoryKey,
	filterProjects,
	folded,
	withoutBudgetRule,
	type ProjectFilters,
} from '../projects/filters';
import type { TriggerParameters } from '../parameters/trigger';
import { NoAnswerError, openWalk, type ApiConnection, type Walk } from '../transport';
import { failureKindOf, nodeErrorOf } from '../transport/errors';
import { MAX_PAGE_SIZE, walkPages, type FetchPage, type OnSkipped } from '../transport/pages';
import { API_RATE_LIMIT_TEXT, API_RATE_PACE_SECONDS } from '../transport/rate-budget';
import type { ListedTender } from './diff';
import { failureOf, isHeard, type FailureStreak } from './failures';

/**
 * What the trigger lists: the pages of its walk that fit in a poll, the projects that pass its
 * filters, and their tenders, each once.
 */

const PAGING_ADVICE = 'The trigger tries again on its next poll.';

/** A tender of the listing, with where it was first listed, for the items that announce it. */
export interface ListingTender extends ListedTender {
	project: Project;
	tender: Tender;
}

/** What a poll's pages list, filters applied. */
export interface Listing {
	/** In walk order, each tender id once. */
	tenders: ListingTender[];
	/** Projects the pages listed, filters aside. */
	projectCount: number;
	/** Requests the pages took, when counted. */
	pages?: number;
	/** The cursor of the next page; undefined when these pages ended the walk. */
	resumeAt?: string;
}

/**
 * The tenders of the walk's projects (filters applied), in walk order, each id once where it is
 * first listed, for its values too. The one place repeats go: a tender with several builders is
 * listed in each of their projects, and a page may repeat one.
 */
export function listedTenders(projects: readonly Project[]): ListingTender[] {
	const listed: ListingTender[] = [];
	const seen = new Set<string>();
	for (const project of projects) {
		for (const tender of project.tenders ?? []) {
			if (typeof tender?.id !== 'string' || seen.has(tender.id)) continue;
			seen.add(tender.id);
			const openedDay =
				typeof tender.tenderOpenAt === 'string' ? isoDateToDay(tender.tenderOpenAt) : undefined;
			listed.push({
				id: tender.id,
				...(openedDay === undefined ? {} : { openedDay }),
				snapshot: {
					quotesDueAt: tender.quotesDueAt ?? null,
					status: tender.status,
					name: tender.name,
					type: tender.type,
					builder: tender.builder?.name ?? '',
				},
				project,
				tender,
			});
		}
	}
	return listed;
}

function sortedKeys(values: readonly string[] | undefined, key = categoryKey): string[] {
	return [...new Set((values ?? []).map(key))].sort();
}

/**
 * Each filter as the fingerprint sees it: values the filter treats alike (order, case, repeats,
 * and accents where the filter ignores them) give the same key. A filter missing here would not
 * start a new baseline when changed, so the type asks for every one.
 */
const SCOPE_KEYS: {
	[Name in keyof Required<ProjectFilters>]: (filters: ProjectFilters) => unknown;
} = {
	tenderTypes: (filters) => sortedKeys(filters.tenderTypes),
	projectStatuses: (filters) => sortedKeys(filters.projectStatuses),
	quotesDueWithinDays: (filters) => filters.quotesDueWithinDays,
	matchedKeywords: (filters) => sortedKeys(filters.matchedKeywords),
	budgetAtLeast: (filters) => filters.budgetAtLeast,
	budgetAtMost: (filters) => filters.budgetAtMost,
	withoutBudget: withoutBudgetRule,
	categories: (filters) => sortedKeys(filters.categories),
	locations: (filters) => sortedKeys(filters.locations, folded),
	builders: (filters) => sortedKeys(filters.builders, folded),
	// IDs are matched exactly, so only order and repeats are alike.
	projectIds: (filters) => sortedKeys(filters.projectIds, (id) => id),
};

/** A short fingerprint of what the walk selects: equivalent filters give the same one. */
export function scopeOf(companyId: string, filters: ProjectFilters): string {
	const selection = Object.entries(SCOPE_KEYS).map(([name, key]) => [name, key(filters) ?? null]);
	return createHash('sha256')
		.update(JSON.stringify([companyId, selection]))
		.digest('base64url')
		.slice(0, 12);
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
 * The listing so far after each page, for "Fetch Test Event": its caller stops at the first that
 * gives enough, the fewest requests for a test event.
 */
export async function* sampleListings(
	context: IPollFunctions,
	api: ApiConnection,
	parameters: TriggerParameters,
	today: string,
): AsyncGenerator<Listing> {
	const walk = await openWalk(api, context, parameters.companyId, { pagingAdvice: PAGING_ADVICE });
	const kept: Project[] = [];
	let projectCount = 0;
	for await (const data of walkPages(walk, () => MAX_PAGE_SIZE, warnSkipped(context))) {
		projectCount += data.length;
		kept.push(...filterProjects(data, parameters.filters, today));
		yield { tenders: listedTenders(kept), projectCount };
	}
}

/** What a scheduled poll uses of its n8n process: the API, and its record of failed polls by trigger. */
export interface PollingProcess extends ApiConnection {
	readonly failureStreaks: Map<string, FailureStreak>;
	/** Since when each trigger has stopped for want of a request slot, and whether it said so. */
	readonly waitStreaks: Map<string, FailureStreak>;
}

/** Where the poll's walk starts, and how it stands in its credential's queue. */
export interface PollPlan {
	/** The trigger polling, by workflow and node. */
	trigger: string;
	/** It has a state to go on from: a failure that passes on its own can stay quiet. */
	remembers: boolean;
	/** The cursor an earlier poll of the same walk stopped at; undefined: a new walk. */
	from?: string;
	/** When the trigger's last walk was complete (epoch ms); 0: never. */
	completedAt: number;
	/** No request may be sent, nor any answer awaited, past this instant (epoch ms). */
	deadline: number;
}

/** The walk's pages that fit in this poll, before the filters. */
interface PolledPages {
	projects: Project[];
	pages: number;
	resumeAt?: string;
}

/**
 * What this poll's part of the walk lists (see PollPlan), or null when the poll read no page.
 * `today` is the workflow's date, for the filters.
 */
export async function listTenders(
	context: IPollFunctions,
	process: PollingProcess,
	parameters: TriggerParameters,
	today: string,
	plan: PollPlan,
): Promise<Listing | null> {
	const polled = await fetchPages(context, process, parameters, plan);
	if (polled === null) return null;
	const { projects, pages, resumeAt } = polled;
	return {
		tenders: listedTenders(filterProjects(projects, parameters.filters, today)),
		projectCount: projects.length,
		pages,
		resumeAt,
	};
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
async function fetchPages(
	context: IPollFunctions,
	runtime: PollingProcess,
	parameters: TriggerParameters,
	plan: PollPlan,
): Promise<PolledPages | null> {
	const node = context.getNode();
	const key = plan.trigger;
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
		if (!plan.remembers || isHeard(error, streak, now)) {
			streak.heard = true;
			const reported = nodeErrorOf(node, error);
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
		pagingAdvice: PAGING_ADVICE,
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
				if (failureKindOf(error) === 'waiting') return pauseAt(page.cursor, true);
				if (isTimeUp(error, plan.deadline)) return pauseAt(page.cursor, false);
				return await Promise.reject(error);
			},
		);
	};
	const projects: Project[] = [];
	const inTimeWalk = { ...walk, fetchPage: inTime };
	const pages = walkPages(inTimeWalk, () => MAX_PAGE_SIZE, warnSkipped(context), {
		everyPage: true,
		from: plan.from,
	});
	for await (const data of pages) projects.push(...data);
	if (paused === undefined) {
		runtime.waitStreaks.delete(plan.trigger);
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
	const key = plan.trigger;
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
