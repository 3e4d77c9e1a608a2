/**
 * Concurrency: twenty executions of Get Many started at once on one credential, through n8n's
 * real engine against the sandbox, on virtual time (the sandbox's latency passes at once). The
 * sandbox counts what arrives: token requests, results requests, and any 429 its own rate
 * limiter (100 requests per 5 minutes per client) sends.
 */
import { startSandbox } from '../../sandbox';
import { runInVirtualTime, useVirtualTime } from '../support/engine/clock';
import { n8nProcess, type N8nProcess, type NodeRun } from '../support/harness';
import { captureLogs } from '../support/reliability/logs';
import { reportFigures } from '../support/reliability/report';
import type { Sandbox } from '../support/engine/poll-world';

const EXECUTIONS = 20;
const companyId = 'company-1';

let sandbox: Sandbox | undefined;

beforeAll(() => {
	captureLogs();
});

beforeEach(() => useVirtualTime());

afterEach(async () => {
	await sandbox?.stop();
	sandbox = undefined;
	jest.useRealTimers();
});

async function startWith(projects: number): Promise<Sandbox> {
	sandbox = await startSandbox({ projects, seed: 3 });
	return sandbox;
}

/** A fresh process with the sandbox's client as its credential. */
function processOn(api: Sandbox): N8nProcess {
	return n8nProcess({ credential: { authUrl: api.url, baseUrl: api.url, ...api.fixtures.client } });
}

async function twentyAtOnce(proc: N8nProcess): Promise<NodeRun[]> {
	return await runInVirtualTime(() =>
		Promise.all(Array.from({ length: EXECUTIONS }, async () => await proc.getMany({ companyId }))),
	);
}

function resultsRequests(api: Sandbox) {
	return api.requests().filter((entry) => entry.path.endsWith('/speci-finder/results'));
}

/** How many runs succeeded with exactly the list expected (as JSON). */
function withTheExactList(runs: NodeRun[], expected: string): number {
	const listed = (run: NodeRun) => JSON.stringify((run.items ?? []).map((item) => item.json));
	return runs.filter((run) => run.error === undefined && listed(run) === expected).length;
}

function limitedByTheApi(api: Sandbox): number {
	return resultsRequests(api).filter((entry) => entry.status === 429 && entry.fault === null)
		.length;
}

test('twenty executions at once: one token request, all succeed, paced to the rate limit', async () => {
	const api = await startWith(400);
	// Slow answers widen the window in which the executions race for a token.
	api.setLatency(150);
	const expected = JSON.stringify(api.listOpen(companyId));
	// Two pages a walk: the last of the twenty walks, in turn, starts well within 2 minutes.
	const pages = Math.ceil(api.listOpen(companyId).length / 100);
	expect(pages).toBe(2);

	const runs = await twentyAtOnce(processOn(api));

	const succeeded = withTheExactList(runs, expected);
	const sentAt = resultsRequests(api).map((entry) => Date.parse(entry.at));
	reportFigures('Concurrency: 20 executions at once, one credential', {
		executions: EXECUTIONS,
		succeededWithTheExactList: succeeded,
		tokenRequests: api.tokensIssued(),
		pagesPerExecution: pages,
		resultsRequests: sentAt.length,
		rateLimitedByTheApi: limitedByTheApi(api),
		virtualSeconds: Math.round((sentAt[sentAt.length - 1] - sentAt[0]) / 1000),
	});
	expect(runs.map((run) => run.error?.message)).toEqual(Array(EXECUTIONS).fill(undefined));
	expect(succeeded).toBe(EXECUTIONS);
	expect(api.tokensIssued()).toBe(1);
	expect(sentAt).toHaveLength(EXECUTIONS * pages);
	expect(limitedByTheApi(api)).toBe(0);
	// A burst of 10 within one pace (each waits only for the answer before it), then 3 s apart.
	const gaps = sentAt.slice(1).map((at, i) => at - sentAt[i]);
	expect(sentAt[9] - sentAt[0]).toBeLessThan(3000);
	expect(Math.min(...gaps.slice(10))).toBeGreaterThanOrEqual(3000);
});

test('twenty executions at once after the token was revoked: one new token', async () => {
	const api = await startWith(120);
	const proc = processOn(api);
	expect((await runInVirtualTime(() => proc.getMany({ companyId }))).error).toBeUndefined();
	expect(api.tokensIssued()).toBe(1);
	api.revokeTokens();
	api.setLatency(100);

	const runs = await twentyAtOnce(proc);

	reportFigures('Concurrency: 20 executions at once after a revoked token', {
		executions: EXECUTIONS,
		succeeded: runs.filter((run) => run.error === undefined).length,
		newTokenRequests: api.tokensIssued() - 1,
		unauthorisedAnswers: resultsRequests(api).filter((entry) => entry.status === 401).length,
	});
	expect(runs.map((run) => run.error?.message)).toEqual(Array(EXECUTIONS).fill(undefined));
	expect(api.tokensIssued() - 1).toBe(1);
});

test('twenty executions needing more than 2 minutes of requests: walks finish in turn, the rest stop in the queue, none wasted, no 429', async () => {
	const api = await startWith(1500);
	const listed = api.listOpen(companyId).length;
	const pages = Math.ceil(listed / 100);
	// More than the burst and 2 minutes of pacing (10 + 40 requests) can carry.
	expect(pages * EXECUTIONS).toBeGreaterThan(50);
	const expected = JSON.stringify(api.listOpen(companyId));

	const runs = await twentyAtOnce(processOn(api));

	const exact = withTheExactList(runs, expected);
	const stoppedInTheQueue = runs.filter((run) =>
		/^Walks through the results on this credential are queued: this run waited 120 s/.test(
			run.error?.message ?? '',
		),
	).length;
	reportFigures('Concurrency: 20 executions at once needing more than 2 minutes of requests', {
		executions: EXECUTIONS,
		requestsNeeded: pages * EXECUTIONS,
		resultsRequestsSent: resultsRequests(api).length,
		succeededWithTheExactList: exact,
		stoppedInTheQueue,
		rateLimitedByTheApi: limitedByTheApi(api),
		tokenRequests: api.tokensIssued(),
	});
	expect(exact + stoppedInTheQueue).toBe(EXECUTIONS);
	// Every request went to a walk that finished, each walk's first page after the last page of the
	// walk before it: the walks that stopped sent nothing.
	const firstPages = resultsRequests(api).flatMap((entry, index) =>
		entry.query.cursor === undefined ? [index] : [],
	);
	expect(firstPages).toEqual(Array.from({ length: exact }, (_, walk) => walk * pages));
	expect(resultsRequests(api)).toHaveLength(exact * pages);
	expect(limitedByTheApi(api)).toBe(0);
	expect(api.tokensIssued()).toBe(1);
	// The burst and 2 minutes of pacing are spent on whole walks, one after another.
	expect(exact).toBeGreaterThanOrEqual(Math.floor(50 / pages));
});
