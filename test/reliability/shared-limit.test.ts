/**
 * One API limit, many processes: a main instance and two workers, each with its own rate budget,
 * token and turns (separate module registries), run Get Many on one credential against one
 * sandbox that enforces 100 requests per 5 minutes per client with Retry-After, on virtual time.
 * Every execution must either return the whole list or stop with the budget message; none may
 * fail on a 429 it could have waited out within the transport's two minutes. The loads are the
 * queue suite's (test/e2e-queue): a steady overload spread over the window, a burst, and one
 * process alone asking for more than the limit.
 */
import { startSandbox } from '../../sandbox';
import { n8nProcess, type NodeRun } from '../support/harness';
import { busiestWindow } from '../support/engine/rate-window';
import { reportFigures } from '../support/reliability/report';
import { after, runInVirtualTime, useVirtualTime } from '../support/engine/clock';
import type { Sandbox } from '../support/engine/poll-world';

const companyId = 'company-1';
const WINDOW_MS = 5 * 60_000;
const LIMIT = 100;
const BUDGET_MESSAGE = /^This credential has used its 100 requests per 5 minutes/;
/** A walk whose turn did not come within the wait, behind walks the limit was pacing. */
const QUEUE_MESSAGE = /^Walks through the results on this credential are queued/;

let sandbox: Sandbox | undefined;

afterEach(async () => {
	await sandbox?.stop();
	sandbox = undefined;
	jest.useRealTimers();
});

function resultsRequests(api: Sandbox) {
	return api.requests().filter((entry) => entry.path.endsWith('/speci-finder/results'));
}

interface Load {
	processes: string[];
	executions: number;
	/** The executions start evenly over this long, taking the processes in turn. */
	overMs: number;
}

/** Runs the load and returns what the queue suite prints for it. */
async function runLoad(load: Load) {
	useVirtualTime();
	const started = Date.now();
	// 237 open projects: a complete walk takes 3 pages of 100.
	const api = await startSandbox({ projects: 571 });
	sandbox = api;
	const open = api.listOpen(companyId);
	const expected = JSON.stringify(open);
	const pages = Math.ceil(open.length / 100);
	expect(pages).toBe(3);

	const credential = { authUrl: api.url, baseUrl: api.url, ...api.fixtures.client };
	// Each process its own runtime: its own tokens, rate budget and turns, as main and workers have.
	const processes = load.processes.map(() => n8nProcess({ credential }));
	const spacingMs = load.overMs / load.executions;
	const runs: Array<Promise<NodeRun>> = [];
	for (let run = 0; run < load.executions; run++) {
		const proc = processes[run % processes.length];
		runs.push(after(run * spacingMs, async () => await proc.getMany({ companyId })));
	}
	const results = await runInVirtualTime(async () => await Promise.all(runs));

	const complete = results.filter(
		(run) =>
			run.error === undefined &&
			JSON.stringify((run.items ?? []).map((item) => item.json)) === expected,
	).length;
	const budgetStops = results.filter((run) => BUDGET_MESSAGE.test(run.error?.message ?? ''));
	for (const run of budgetStops) {
		expect(run.error?.description).toMatch(/Run the workflow later, set a Limit/);
	}
	const queueStops = results.filter((run) => QUEUE_MESSAGE.test(run.error?.message ?? ''));
	for (const run of queueStops) {
		expect(run.error?.description).toMatch(/set a Limit/);
	}
	const otherFailures = results
		.filter(
			(run) =>
				run.error !== undefined &&
				!BUDGET_MESSAGE.test(run.error.message) &&
				!QUEUE_MESSAGE.test(run.error.message),
		)
		.map((run) => run.error?.message ?? '');
	const requests = resultsRequests(api);
	const accepted = requests.filter((entry) => entry.status !== 429).length;
	return {
		processes: load.processes.length,
		executions: results.length,
		pagesPerExecution: pages,
		requestsAsked: results.length * pages,
		resultsRequestsSent: requests.length,
		acceptedByTheApi: accepted,
		answersOf429: requests.filter((entry) => entry.status === 429).length,
		busiestFiveMinutes: busiestWindow(resultsRequests(api), WINDOW_MS),
		completedWithTheExactList: complete,
		stoppedWithTheBudgetMessage: budgetStops.length,
		stoppedInTheQueue: queueStops.length,
		otherFailures: otherFailures.length,
		// Accepted pages of walks that did not finish: every complete walk took exactly `pages`.
		pagesWasted: accepted - complete * pages,
		tokenRequests: api.tokensIssued(),
		virtualSeconds: Math.round((Date.now() - started) / 1000),
		failures: otherFailures,
	};
}

const MAIN_AND_TWO_WORKERS = ['main', 'worker-1', 'worker-2'];

/** Runs the load, prints its figures, and checks what every load must keep to. */
async function runAndPrint(title: string, load: Load) {
	const { failures, ...figures } = await runLoad(load);
	reportFigures(title, figures);
	expect(failures).toEqual([]);
	expect(
		figures.completedWithTheExactList +
			figures.stoppedWithTheBudgetMessage +
			figures.stoppedInTheQueue,
	).toBe(load.executions);
	expect(figures.busiestFiveMinutes).toBeLessThanOrEqual(LIMIT);
	expect(figures.pagesWasted).toBeLessThanOrEqual(10);
	return figures;
}

/** Issue 21's targets for a load on main and two workers. */
async function expectTargetsOf(title: string, load: Load, minCompleted: number) {
	const figures = await runAndPrint(title, load);
	expect(figures.answersOf429).toBeLessThanOrEqual(12);
	expect(figures.completedWithTheExactList).toBeGreaterThanOrEqual(minCompleted);
	expect(figures.tokenRequests).toBe(load.processes.length);
}

test('spread: 75 executions of 3 pages over 5 minutes on main and two workers stay within 12 answers of 429', async () => {
	await expectTargetsOf(
		'One limit, three processes, spread: 75 x 3 pages over 5 minutes',
		{ processes: MAIN_AND_TWO_WORKERS, executions: 75, overMs: WINDOW_MS },
		58,
	);
}, 120_000);

test('burst: 100 executions of 3 pages in one minute on main and two workers stay within 12 answers of 429', async () => {
	await expectTargetsOf(
		'One limit, three processes, burst: 100 x 3 pages in 1 minute',
		{ processes: MAIN_AND_TWO_WORKERS, executions: 100, overMs: 60_000 },
		30,
	);
}, 120_000);

test('one process alone asking for more than the limit gets all 100 requests of a window and no 429', async () => {
	const figures = await runAndPrint('One process alone: 60 x 3 pages over 5 minutes', {
		processes: ['main'],
		executions: 60,
		overMs: WINDOW_MS,
	});
	expect(figures.busiestFiveMinutes).toBe(LIMIT);
	expect(figures.answersOf429).toBe(0);
}, 120_000);
