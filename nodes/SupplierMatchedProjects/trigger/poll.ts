import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { dayOf, todayIn } from '../projects/dates';
import type { TriggerParameters } from '../parameters/trigger';
import type { ApiConnection } from '../transport';
import { nodeErrorOf } from '../transport/errors';
import { diffPoll, dueSoonWindow, isFreshFor, type PollDiff } from './diff';
import { listTenders, sampleListings, scopeOf, type Listing, type PollingProcess } from './listing';
import { keepState, noteQuiet, recallState, type RecalledState, type StateNotes } from './memory';
import { emittedItems } from './output';
import { endTurn, holdsTurn, takeTurn, type RunningPoll } from './overlap';

/**
 * A trigger's poll, one way through: list the walk's tenders, diff them against the state, write
 * the next state, then give out the items of what the diff announced.
 */

/** "Fetch Test Event" shows this many items at most. */
const SAMPLE_SIZE = 5;

/** Time kept back from n8n's poll budget for comparing and writing the state. */
const POLL_RESERVE_MS = 3_000;

/** What a trigger's poll uses of its n8n process (runtime.ts): the API and its notes by trigger. */
export interface TriggerProcess extends PollingProcess, StateNotes {
	readonly runningPolls: Map<string, RunningPoll>;
}

/** One trigger of one workflow: n8n's own key for its static data is the node's name. */
function triggerKey(context: IPollFunctions): string {
	return JSON.stringify([context.getWorkflow().id ?? '', context.getNode().name]);
}

function nodeName(context: IPollFunctions): string {
	return `Supplier Matched Projects Trigger "${context.getNode().name}"`;
}

/** A scheduled poll in its turn, or in manual mode the sample that "Fetch Test Event" shows. */
export async function pollTrigger(
	context: IPollFunctions,
	runtime: TriggerProcess,
	parameters: TriggerParameters,
): Promise<INodeExecutionData[][] | null> {
	const today = todayIn(context.getTimezone());
	if (context.getMode() === 'manual') {
		return await fetchSample(context, runtime, parameters, today);
	}
	const { runningPolls } = runtime;
	const key = triggerKey(context);
	const turn = takeTurn(runningPolls, key, Date.now());
	if (turn === undefined) {
		const since = new Date(runningPolls.get(key)?.since ?? Date.now()).toISOString();
		context.logger.info(
			`${nodeName(context)} skipped a poll: its poll started at ${since} is still running and announces what is new`,
		);
		return null;
	}
	try {
		return await pollInTurn(context, runtime, parameters, today, () =>
			holdsTurn(runningPolls, key, turn),
		);
	} finally {
		endTurn(runningPolls, key, turn);
	}
}

/** A scheduled poll: the read, the walk, then the compare and write with nothing in between. */
async function pollInTurn(
	context: IPollFunctions,
	runtime: TriggerProcess,
	parameters: TriggerParameters,
	today: string,
	stillInTurn: () => boolean,
): Promise<INodeExecutionData[][] | null> {
	const startedAt = Date.now();
	const deadline = pollDeadline(context, startedAt);
	const key = triggerKey(context);
	const staticData = context.getWorkflowStaticData('node');
	const recalled = recallState(staticData, runtime, key, startedAt);
	warnUnreadable(context, recalled);
	const { previous } = recalled;
	const scope = scopeOf(parameters.companyId, parameters.filters);
	const goesOn = previous !== undefined && !isFreshFor(previous, scope, parameters.event);
	// A failed walk leaves the state untouched: the tenders it missed come with the next good poll.
	const listing = await listTenders(context, runtime, parameters, today, {
		trigger: key,
		remembers: previous !== undefined,
		from: goesOn ? previous.walk?.cursor : undefined,
		completedAt: previous?.completedAt ?? 0,
		deadline,
	});
	if (listing === null) return null;
	if (!stillInTurn()) {
		context.logger.warn(
			`${nodeName(context)} dropped a poll that ran so long that a later poll took over`,
		);
		return null;
	}

	const diff = diffOf(listing, recalled, scope, parameters, today);
	const written = keepState(staticData, runtime, key, recalled, diff);
	const items = emittedItems(listing.tenders, diff, parameters);
	noteQuiet(runtime, key, recalled, written, items === null);
	return items;
}

/** The one way to decide what is announced: the listing against the state before. */
function diffOf(
	listing: Listing,
	recalled: Pick<RecalledState, 'previous' | 'loadedFromStorage'>,
	scope: string,
	parameters: TriggerParameters,
	today: string,
): PollDiff {
	return diffPoll({
		previous: recalled.previous,
		scope,
		today: dayOf(Date.now()),
		loadedFromStorage: recalled.loadedFromStorage,
		listed: listing.tenders,
		projectCount: listing.projectCount,
		pages: listing.pages,
		resumeAt: listing.resumeAt,
		event: parameters.event,
		dueSoon: dueSoonWindow(today, parameters.daysBeforeQuotesDue),
		emitOpenOnFirstRun: parameters.emitOpenOnFirstRun,
	});
}

/** An unreadable saved state is logged; the trigger then starts a new baseline. */
function warnUnreadable(context: IPollFunctions, { read }: RecalledState): void {
	if (read.kind !== 'unreadable') return;
	context.logger.warn(
		`${nodeName(context)} cannot read its saved state (${read.reason}); it records the open tenders as a new baseline`,
	);
}

/**
 * The instant the poll's walk must end: n8n's poll budget (2.40 on; 36 s under its durable
 * scheduler, 5 minutes otherwise) less what the comparing and writing take. Lines without a
 * budget have no bound but the transport's own waits.
 */
function pollDeadline(context: IPollFunctions, startedAt: number): number {
	const budget: unknown =
		typeof context.getPollBudgetMs === 'function' ? context.getPollBudgetMs() : undefined;
	if (typeof budget !== 'number' || !(budget > 0)) return Number.POSITIVE_INFINITY;
	return startedAt + budget - Math.min(POLL_RESERVE_MS, budget / 10);
}

/**
 * What "Fetch Test Event" shows: the first few tenders a first run would announce when asked to
 * emit what is open (for quotesDueSoon those inside the window now). The state is left alone.
 */
async function fetchSample(
	context: IPollFunctions,
	api: ApiConnection,
	parameters: TriggerParameters,
	today: string,
): Promise<INodeExecutionData[][]> {
	try {
		return await sample(context, api, parameters, today);
	} catch (error) {
		throw nodeErrorOf(context.getNode(), error);
	}
}

async function sample(
	context: IPollFunctions,
	api: ApiConnection,
	parameters: TriggerParameters,
	today: string,
): Promise<INodeExecutionData[][]> {
	const firstRun = { previous: undefined, loadedFromStorage: false };
	const openNow = { ...parameters, emitOpenOnFirstRun: true };
	const scope = scopeOf(parameters.companyId, parameters.filters);
	let items: INodeExecutionData[] = [];
	for await (const listing of sampleListings(context, api, parameters, today)) {
		const diff = diffOf(listing, firstRun, scope, openNow, today);
		items = emittedItems(listing.tenders, diff, parameters)?.[0] ?? [];
		if (items.length >= SAMPLE_SIZE) break;
	}
	if (items.length === 0) throw nothingToShow(context, parameters);
	return [items.slice(0, SAMPLE_SIZE)];
}

function nothingToShow(context: IPollFunctions, parameters: TriggerParameters): NodeOperationError {
	if (parameters.event === 'quotesDueSoon') {
		const days = parameters.daysBeforeQuotesDue;
		return new NodeOperationError(
			context.getNode(),
			`No matching tender of company "${parameters.companyId}" has quotes due within ${days} day${days === 1 ? '' : 's'} right now`,
			{
				level: 'warning',
				description: `Once active, the trigger starts a workflow for each matching tender when its quotes due date comes within ${days} day${days === 1 ? '' : 's'} (in the workflow's time zone). Try again with a larger Days Before Quotes Due to see a sample.`,
			},
		);
	}
	return new NodeOperationError(
		context.getNode(),
		`No open tender matches for company "${parameters.companyId}" right now`,
		{
			level: 'warning',
			description:
				"The service lists only tenders open now that match the supplier account's keywords, and the trigger's filters apply on top. Try again when a matching tender opens, or loosen the filters. Once active, the trigger starts a workflow for each new matching tender.",
		},
	);
}
