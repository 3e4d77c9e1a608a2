/**
 * One API limit, many processes: a main instance and two workers, each with its own rate budget,
 * token and turns (separate module registries), run Get Many on one credential against one
 * sandbox that enforces 100 requests per 5 minutes per client with Retry-After. The load asks
 * for about three times the limit over five minutes of virtual time. Every execution must either
 * return the whole list or stop with the budget message; none may fail on a 429 it could have
 * waited out within the transport's two minutes.
 */
import { startSandbox } from '../../sandbox';
import type { NodeRun } from '../support/engine';
import { loadN8nProcess } from '../support/n8n-process';
import { reportFigures } from '../support/reliability-report';
import { after, runInVirtualTime, useVirtualTime } from '../support/virtual-time';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

const companyId = 'company-1';
const PROCESSES = ['main', 'worker-1', 'worker-2'];
const WINDOW_MS = 5 * 60_000;
const LIMIT = 100;
const BUDGET_MESSAGE = /^This credential has used its 100 requests per 5 minutes/;

let sandbox: Sandbox | undefined;

afterEach(async () => {
	await sandbox?.stop();
	sandbox = undefined;
	jest.useRealTimers();
});

function resultsRequests(api: Sandbox) {
	return api.requests().filter((entry) => entry.path.endsWith('/speci-finder/results'));
}

/** The most results requests the API accepted in any 5 minutes. */
function busiestWindow(api: Sandbox): number {
	const accepted = resultsRequests(api)
		.filter((entry) => entry.status !== 429)
		.map((entry) => Date.parse(entry.at));
	return Math.max(
		0,
		...accepted.map(
			(start) => accepted.filter((at) => at >= start && at < start + WINDOW_MS).length,
		),
	);
}

test('main and two workers at 3x the limit: every execution completes or stops with the budget message', async () => {
	useVirtualTime('2030-03-10T09:00:00.000Z');
	const started = Date.now();
	const api = await startSandbox({ projects: 700, seed: 3 });
	sandbox = api;
	const open = api.listOpen(companyId);
	const expected = JSON.stringify(open);
	const pages = Math.ceil(open.length / 100);
	expect(pages).toBeGreaterThanOrEqual(3);
	const perProcess = Math.ceil((3 * LIMIT) / pages / PROCESSES.length);
	const spacingMs = WINDOW_MS / perProcess;

	const credential = { authUrl: api.url, baseUrl: api.url, ...api.fixtures.client };
	const processes = [];
	for (const name of PROCESSES) processes.push(await loadN8nProcess(name, credential));
	// Each process starts an execution every `spacingMs`, the processes a little apart.
	const runs: Array<Promise<NodeRun>> = [];
	for (const [index, process] of processes.entries()) {
		for (let run = 0; run < perProcess; run++) {
			runs.push(
				after(
					run * spacingMs + (index * spacingMs) / PROCESSES.length,
					async () => await process.getMany({ companyId }),
				),
			);
		}
	}
	const results = await runInVirtualTime(
		Promise.all(runs),
		() => api.requests().length + api.tokensIssued(),
	);

	const complete = results.filter(
		(run) =>
			run.error === undefined &&
			JSON.stringify((run.items ?? []).map((item) => item.json)) === expected,
	).length;
	const budgetStops = results.filter((run) => BUDGET_MESSAGE.test(run.error?.message ?? ''));
	const otherFailures = results
		.filter((run) => run.error !== undefined && !BUDGET_MESSAGE.test(run.error.message))
		.map((run) => run.error?.message ?? '');
	const requests = resultsRequests(api);
	reportFigures('One limit, three processes: main + 2 workers at 3x the limit', {
		processes: PROCESSES.length,
		executions: results.length,
		pagesPerExecution: pages,
		requestsAsked: results.length * pages,
		resultsRequestsSent: requests.length,
		acceptedByTheApi: requests.filter((entry) => entry.status !== 429).length,
		rateLimitedByTheApi: requests.filter((entry) => entry.status === 429).length,
		busiestFiveMinutes: busiestWindow(api),
		completedWithTheExactList: complete,
		stoppedWithTheBudgetMessage: budgetStops.length,
		stoppedByTheApi: budgetStops.filter((run) =>
			/counted by the API/.test(run.error?.message ?? ''),
		).length,
		otherFailures: otherFailures.length,
		tokenRequests: api.tokensIssued(),
		virtualMinutes: Math.round((Date.now() - started) / 60_000),
	});

	expect(otherFailures).toEqual([]);
	expect(complete + budgetStops.length).toBe(results.length);
	for (const run of budgetStops) {
		expect(run.error?.description).toMatch(/Run the workflow later, set a Limit/);
	}
	expect(busiestWindow(api)).toBeLessThanOrEqual(LIMIT);
	// The limit carries this many whole walks per window: waiting must not waste them.
	expect(complete).toBeGreaterThanOrEqual(Math.floor(LIMIT / pages));
	expect(api.tokensIssued()).toBe(PROCESSES.length);
}, 120_000);
