import { sleep } from 'n8n-workflow';

import { startQueueE2e, type QueueE2eEnvironment } from '../support/e2e/queue-harness';
import { announcements } from '../support/e2e/scheduler';
import { sandboxNow, stderrLogger, waitForPolls, waitUntil } from '../support/e2e/support';
import { outputItems, type ExecutionSummary } from '../../scripts/n8n/client';
import { busiestWindow } from '../support/engine/rate-window';
import { reportFigures } from '../support/reliability/report';

/**
 * The packed package in n8n's queue mode: a main instance and two workers on PostgreSQL and
 * Redis (test/support/e2e/queue-harness.js). Each scenario has its own sandbox client and
 * credential, so its tokens and its share of the rate limit are its own. The tests run in this order.
 */

const COMPANY_ID = 'company-1';
const ONE_POLL_MS = 75_000;
const API_LIMIT = 100;
const API_WINDOW_MS = 5 * 60_000;
/** A run that stopped rather than wait longer: the spent window, the pace with others ahead, or the queue of walks. */
const BUDGET_MESSAGE =
	/^(This credential has used its 100 requests per 5 minutes|Requests on this credential are spent evenly|Walks through the results on this credential are queued)/;

let env: QueueE2eEnvironment;

beforeAll(async () => {
	env = await startQueueE2e(stderrLogger);
}, 15 * 60_000);

afterAll(async () => {
	await env?.stop();
}, 120_000);

function resultsRequests(clientId: string, since = '') {
	return env.sandbox
		.requests()
		.filter(
			(entry) =>
				entry.path.endsWith('/speci-finder/results') &&
				entry.clientId === clientId &&
				entry.at > since,
		);
}

function openProjects() {
	const projects = env.sandbox.listOpen(COMPANY_ID);
	return { projects, pages: Math.ceil(projects.length / 100) };
}

/** Which n8n process ran each execution, by the worker log line; main runs what no worker took. */
function ranOn(executions: ExecutionSummary[]): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const execution of executions) {
		const names = env.processes.thatStarted(execution.id);
		const name = names.length === 0 ? 'main' : names.join('+');
		counts[name] = (counts[name] ?? 0) + 1;
	}
	return counts;
}

/** The tenders each execution of the workflow announced, oldest first. */
async function emittedTenderIds(workflowId: string): Promise<string[][]> {
	const found = await announcements(env.client, workflowId, 'New Matching Tender');
	return found.map((execution) => execution.tenderIds);
}

type LoadFigures = Awaited<ReturnType<typeof runLoad>>;

/**
 * Starts Get Many executions evenly over `overMs` on all three processes: every third a manual
 * run, which stays on main (n8n's default), the others through the webhook, which the workers
 * run. Waits for every execution, then sorts them by what the node did.
 */
async function runLoad(
	scenario: QueueE2eEnvironment['scenarios'][string],
	load: { executions: number; overMs: number },
) {
	const { projects, pages } = openProjects();
	expect(pages).toBe(3);
	await env.client.activateWorkflow(scenario.workflowId);
	const spacingMs = load.overMs / load.executions;
	const started = Date.now();
	const webhookCalls = [];
	// An execution that waits for the rate limit page after page can outlast the 300 s a fetch
	// waits for response headers; what it did is read from n8n's own record of it below.
	let webhookCallsUnanswered = 0;
	for (let run = 0; run < load.executions; run++) {
		if (run % 3 === 0) await env.client.runManually(scenario.workflowId, 'On Manual Run');
		else
			webhookCalls.push(
				env.client
					.callWebhook(String(scenario.webhookPath), { timeoutMs: 10 * 60_000 })
					.catch(() => webhookCallsUnanswered++),
			);
		const next = started + (run + 1) * spacingMs;
		if (next > Date.now()) await sleep(next - Date.now());
	}
	await Promise.all(webhookCalls);
	const executions = await env.client.waitForExecutions(
		scenario.workflowId,
		load.executions,
		10 * 60_000,
	);
	const lastStop = Math.max(
		...executions.map((execution) => Date.parse(execution.stoppedAt ?? new Date().toISOString())),
	);

	const expected = JSON.stringify(projects);
	let completed = 0;
	const budgetStops: string[] = [];
	const otherFailures: string[] = [];
	for (const execution of executions) {
		const detail = await env.client.getExecution(execution.id);
		const run = detail.runData['Matched Projects']?.[0];
		const message = run?.error?.message ?? detail.error?.message;
		if (message === undefined) {
			const items = outputItems(detail, 'Matched Projects');
			if (JSON.stringify(items) === expected) completed++;
			else
				otherFailures.push(
					`execution ${execution.id}: ${items.length} projects, not the API's list`,
				);
		} else if (
			BUDGET_MESSAGE.test(message) &&
			/set a Limit/.test(String(run?.error?.description))
		) {
			budgetStops.push(message);
		} else otherFailures.push(`execution ${execution.id}: ${message}`);
	}
	const requests = resultsRequests(scenario.clientId);
	const accepted = requests.filter((entry) => entry.status !== 429).length;
	return {
		executions: executions.length,
		ranOn: ranOn(executions),
		pagesPerExecution: pages,
		requestsAsked: load.executions * pages,
		resultsRequestsSent: requests.length,
		acceptedByTheApi: accepted,
		answersOf429: requests.length - accepted,
		busiestFiveMinutes: busiestWindow(resultsRequests(scenario.clientId), API_WINDOW_MS),
		completed,
		budgetStops: budgetStops.length,
		budgetStopsCountedByTheApi: budgetStops.filter((message) => /counted by the API/.test(message))
			.length,
		otherFailures,
		// Accepted pages of walks that did not finish: a complete walk takes exactly `pages`.
		pagesWasted: accepted - completed * pages,
		tokenRequests: env.sandbox.tokensIssued({ clientId: scenario.clientId }),
		wallSeconds: Math.round((lastStop - started) / 1000),
		webhookCallsUnanswered,
	};
}

/** The figures as printed: other failures counted, their messages after. */
function shown(figures: LoadFigures) {
	const { otherFailures, ...rest } = figures;
	return {
		...rest,
		otherFailures: otherFailures.length,
		failureMessages: otherFailures.join(' | '),
	};
}

/** Every execution completed with the exact list or stopped with the budget message. */
function expectEveryExecutionAccountedFor(figures: LoadFigures, executions: number) {
	expect(figures.otherFailures).toEqual([]);
	expect(figures.executions).toBe(executions);
	expect(figures.completed + figures.budgetStops).toBe(executions);
	expect(figures.busiestFiveMinutes).toBeLessThanOrEqual(API_LIMIT);
	expect(figures.tokenRequests).toBeLessThanOrEqual(3);
}

describe('the packed package in queue mode (main + 2 workers, PostgreSQL, Redis)', () => {
	test('a Get Many execution (Return All, several pages) runs on a worker and returns every project in API order', async () => {
		const scenario = env.scenarios.getMany;
		const { projects, pages } = openProjects();
		expect(pages).toBeGreaterThanOrEqual(3);
		await env.client.activateWorkflow(scenario.workflowId);

		const response = await env.client.callWebhook(String(scenario.webhookPath));
		const [execution] = await env.client.waitForExecutions(scenario.workflowId, 1, 30_000);

		expect(response.status).toBe(200);
		expect(response.body).toEqual(projects);
		expect(execution.status).toBe('success');
		expect(execution.mode).toBe('webhook');
		// The worker that takes a job logs "Worker started execution <id> (job <n>)".
		const startedBy = env.processes.thatStarted(execution.id);
		expect(startedBy).toHaveLength(1);
		expect(startedBy[0]).toMatch(/^worker-/);
		expect(resultsRequests(scenario.clientId)).toHaveLength(pages);
		expect(env.sandbox.tokensIssued({ clientId: scenario.clientId })).toBe(1);
		reportFigures('Queue mode: one Get Many walk', {
			execution: execution.id,
			ranOn: startedBy[0],
			projects: projects.length,
			pageRequests: pages,
			tokenRequests: 1,
			webhookMs: response.ms,
		});
	});

	test('20 executions at once across the workers all succeed with at most one token per process and the floor of page requests', async () => {
		const scenario = env.scenarios.concurrent;
		const { projects, pages } = openProjects();
		await env.client.activateWorkflow(scenario.workflowId);

		const started = Date.now();
		const responses = await Promise.all(
			Array.from({ length: 20 }, () => env.client.callWebhook(String(scenario.webhookPath))),
		);
		const wallMs = Date.now() - started;
		const executions = await env.client.waitForExecutions(scenario.workflowId, 20, 60_000);

		for (const response of responses) {
			expect(response.status).toBe(200);
			expect(response.body).toEqual(projects);
		}
		expect(executions).toHaveLength(20);
		expect(executions.every((execution) => execution.status === 'success')).toBe(true);
		const byProcess = ranOn(executions);
		expect(Object.keys(byProcess).every((name) => /^worker-\d$/.test(name))).toBe(true);
		const tokens = env.sandbox.tokensIssued({ clientId: scenario.clientId });
		expect(tokens).toBeGreaterThanOrEqual(1);
		expect(tokens).toBeLessThanOrEqual(Object.keys(byProcess).length);
		expect(resultsRequests(scenario.clientId)).toHaveLength(20 * pages);
		reportFigures('Queue mode: 20 Get Many executions at once', {
			executions: executions.length,
			ranOn: byProcess,
			tokenRequests: tokens,
			pageRequests: resultsRequests(scenario.clientId).length,
			floor: 20 * pages,
			wallMs,
		});
	});

	test(
		'the trigger polls on the main instance and announces each new tender once: through a failing API and a restart of main',
		async () => {
			const scenario = env.scenarios.trigger;
			const polls = (since: string, count: number, timeoutMs: number) =>
				waitForPolls(env.sandbox, { since, count, timeoutMs, clientId: scenario.clientId });

			const activatedAt = sandboxNow(env.sandbox);
			await env.client.activateWorkflow(scenario.workflowId);
			await polls(activatedAt, 1, ONE_POLL_MS);
			await sleep(5_000);
			const baseline = await env.client.listExecutions(scenario.workflowId);
			expect(baseline).toEqual([]);

			const first = env.sandbox.openTender({ companyId: COMPANY_ID });
			await env.client.waitForExecutions(scenario.workflowId, 1, 2 * ONE_POLL_MS);
			expect(await emittedTenderIds(scenario.workflowId)).toEqual([[first.id]]);

			// Every attempt of the next poll fails, and a tender opens meanwhile.
			const failingFrom = sandboxNow(env.sandbox);
			env.sandbox.injectFault({ kind: 'serverError', times: 5 });
			const duringFailure = env.sandbox.openTender({ companyId: COMPANY_ID });
			await env.client.waitForExecutions(scenario.workflowId, 2, 4 * ONE_POLL_MS);
			const failedRequests = resultsRequests(scenario.clientId, failingFrom).filter(
				(entry) => entry.status >= 500,
			);
			expect(failedRequests).toHaveLength(5);
			expect(await emittedTenderIds(scenario.workflowId)).toEqual([[first.id], [duringFailure.id]]);

			const restartedAt = sandboxNow(env.sandbox);
			await env.restartMain();
			await polls(restartedAt, 1, 2 * ONE_POLL_MS);
			const afterRestart = env.sandbox.openTender({ companyId: COMPANY_ID });
			await env.client.waitForExecutions(scenario.workflowId, 3, 2 * ONE_POLL_MS);
			const announcedAt = sandboxNow(env.sandbox);
			// One more poll after the one that announced it must announce nothing.
			await polls(announcedAt, 1, 2 * ONE_POLL_MS);
			await sleep(5_000);

			const emitted = await emittedTenderIds(scenario.workflowId);
			expect(emitted).toEqual([[first.id], [duringFailure.id], [afterRestart.id]]);
			const executions = await env.client.listExecutions(scenario.workflowId);
			expect(executions.every((execution) => execution.status === 'success')).toBe(true);
			// n8n-core logs every poll as "Poll trigger initiated for workflow ..." where it runs.
			const pollLine = 'Poll trigger initiated for workflow "queue: new matching tenders"';
			const pollLog = [...env.processes.running.keys()].map((name) => ({
				name,
				polls: env.processes.log(name).split(pollLine).length - 1,
			}));
			const workersPolled = pollLog.filter((entry) => entry.name !== 'main' && entry.polls > 0);
			expect(workersPolled).toEqual([]);
			expect(pollLog.find((entry) => entry.name === 'main')?.polls).toBeGreaterThanOrEqual(1);
			await env.client.deactivateWorkflow(scenario.workflowId);
			reportFigures('Queue mode: the trigger on main', {
				pollsAnswered: resultsRequests(scenario.clientId).filter(
					(entry) => !entry.query.cursor && entry.status === 200,
				).length,
				attemptsOfTheFailingPoll: failedRequests.length,
				executions: executions.length,
				announced: emitted.map((ids) => ids.length).join(' + '),
				ranOn: ranOn(executions),
				pollsLogged: pollLog.map((entry) => `${entry.name} ${entry.polls}`).join(', '),
				tokenRequests: env.sandbox.tokensIssued({ clientId: scenario.clientId }),
			});
		},
		15 * 60_000,
	);

	test(
		'a worker killed in the middle of a Get Many walk: n8n fails that execution, and the next executions succeed',
		async () => {
			const scenario = env.scenarios.workerKill;
			const { projects, pages } = openProjects();
			await env.client.activateWorkflow(scenario.workflowId);
			// Slow pages, so the walk is still going when its worker dies.
			env.sandbox.setLatency(3_000);

			const call = env.client.callWebhook(String(scenario.webhookPath), { timeoutMs: 5 * 60_000 });
			await waitUntil(() => (resultsRequests(scenario.clientId).length > 0 ? true : undefined), {
				timeoutMs: 60_000,
				intervalMs: 100,
				failure: () => 'the walk sent no request',
			});
			const [running] = await env.client.listExecutions(scenario.workflowId);
			const [victim] = env.processes.thatStarted(running.id);
			expect(victim).toMatch(/^worker-/);
			const killedAt = Date.now();
			await env.processes.kill(victim);
			env.sandbox.setLatency(0);
			// Its job stays in Redis, locked by a worker that is gone, until n8n gives up on it.
			const inFlight = await env.snapshotRedis('with a killed job in flight');
			expect(inFlight).toMatch(/^bull:jobs:\d+$/m);
			expect(inFlight).toContain(`"executionId":"${running.id}"`);

			const response = await call;
			const [ended] = await env.client.waitForExecutions(scenario.workflowId, 1, 5 * 60_000);
			const endedMs = Date.now() - killedAt;
			const detail = await env.client.getExecution(ended.id);
			const requestsOfTheKilledWalk = resultsRequests(scenario.clientId).length;

			expect(ended.id).toBe(running.id);
			expect(ended.status).toBe('error');
			expect(detail.error?.message).toMatch(/failed to be processed too many times/);
			expect(response.status).toBe(500);
			expect(requestsOfTheKilledWalk).toBeLessThan(pages);

			await env.processes.start('worker-3');
			const next = [];
			for (let run = 0; run < 2; run++) {
				next.push(await env.client.callWebhook(String(scenario.webhookPath)));
			}
			for (const answer of next) {
				expect(answer.status).toBe(200);
				expect(answer.body).toEqual(projects);
			}
			const executions = await env.client.waitForExecutions(scenario.workflowId, 3, 30_000);
			expect(executions.slice(0, 2).every((execution) => execution.status === 'success')).toBe(
				true,
			);
			reportFigures('Queue mode: a worker killed mid-walk', {
				killed: victim,
				pagesBeforeTheKill: requestsOfTheKilledWalk,
				pagesOfAWalk: pages,
				executionStatus: ended.status,
				n8nError: String(detail.error?.message),
				webhookStatus: response.status,
				msFromKillToFailedExecution: endedMs,
				nextExecutions: 'succeeded, ' + JSON.stringify(ranOn(executions.slice(0, 2))),
				tokenRequests: env.sandbox.tokensIssued({ clientId: scenario.clientId }),
			});
		},
		10 * 60_000,
	);

	describe('one API limit shared by main and two workers, two loads at once on clients of their own', () => {
		let spread: LoadFigures;
		let burst: LoadFigures;

		beforeAll(async () => {
			[spread, burst] = await Promise.all([
				runLoad(env.scenarios.spread, { executions: 75, overMs: API_WINDOW_MS }),
				runLoad(env.scenarios.burst, { executions: 100, overMs: 60_000 }),
			]);
			reportFigures('Queue mode, spread: 75 executions x 3 pages over 5 minutes', shown(spread));
			reportFigures('Queue mode, burst: 100 executions x 3 pages in 1 minute', shown(burst));
		}, 25 * 60_000);

		test('spread over the window: at most 12 answers of 429, at least 58 complete, nothing fails otherwise, at most 10 pages wasted', () => {
			expectEveryExecutionAccountedFor(spread, 75);
			expect(spread.answersOf429).toBeLessThanOrEqual(12);
			expect(spread.completed).toBeGreaterThanOrEqual(58);
			expect(spread.pagesWasted).toBeLessThanOrEqual(10);
		});

		test('a burst in one minute: at most 12 answers of 429, at least 30 complete, nothing fails otherwise', () => {
			expectEveryExecutionAccountedFor(burst, 100);
			expect(burst.answersOf429).toBeLessThanOrEqual(12);
			expect(burst.completed).toBeGreaterThanOrEqual(30);
			expect(burst.pagesWasted).toBeLessThanOrEqual(10);
		});
	});

	test('no client secret and no issued token in PostgreSQL, Redis, the user folder or any process log', async () => {
		const tokens = env.tokenRecorder.tokens.length;
		expect(tokens).toBeGreaterThanOrEqual(Object.keys(env.scenarios).length);
		await env.processes.stopAll();

		const stored = await env.storedText();
		const text = (where: RegExp) =>
			stored
				.filter((place) => where.test(place.where))
				.map((place) => place.text)
				.join('\n');
		// The search reads what n8n really stored: the credentials, the workflows, the queue's jobs, the logs.
		expect(text(/^pg_dump/)).toContain(env.scenarios.getMany.credentialId);
		expect(text(/^pg_dump/)).toContain(COMPANY_ID);
		expect(text(/^Redis at the end/)).toContain(env.scenarios.spread.workflowId);
		// A job while it was in flight (n8n removes jobs from Redis once they are done).
		expect(text(/^Redis with a killed job/)).toMatch(/^bull:jobs:\d+$/m);
		const logs = stored.filter((place) => /console\.log$|^\.n8n\/logs\//.test(place.where));
		expect(logs.length).toBeGreaterThanOrEqual(2 * [...env.processes.running.keys()].length);
		const found = [];
		for (const place of stored) {
			for (const secret of env.secrets()) {
				if (place.text.includes(secret.value)) found.push(`${secret.label} in ${place.where}`);
			}
		}
		reportFigures('Queue mode: secrets at rest', {
			placesSearched: stored.length,
			megabytesSearched:
				Math.round(stored.reduce((sum, place) => sum + place.text.length, 0) / 1e5) / 10,
			logFiles: logs.length,
			clientSecrets: Object.keys(env.scenarios).length,
			tokensIssued: tokens,
			found: found.length,
		});
		expect(found).toEqual([]);
	});
});
