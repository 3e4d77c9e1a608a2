import { sleep } from 'n8n-workflow';

import { startCompatE2e, type CompatEnvironment } from '../support/e2e/compat-harness';
import { outputItems } from '../support/e2e/harness';
import { sandboxNow, stderrLogger } from '../support/e2e/support';

/**
 * The trigger under n8n's durable scheduler for poll triggers (n8n 2.33 on; the version
 * SMP_N8N_VERSION picks must have it), switched on as a self-hosting user does. The scheduler
 * runs each poll as a task, and backs a failing poll off by the cause the error declares, or its
 * HTTP status. One n8n serves every test, in this order.
 */

const ONE_POLL_MS = 75_000;
/** Longer than a page call may wait in all (two minutes), so no poll can wait it out in itself. */
const RETRY_AFTER_SECONDS = 150;

let env: CompatEnvironment;
/** Printed after the last test, so a CI log shows what was measured. */
const figures: string[] = [];

/** Waits until n8n's log says what `pattern` matches. */
async function waitForLog(pattern: RegExp, timeoutMs: number): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!pattern.test(env.n8nLog())) {
		if (Date.now() > deadline) throw new Error(`n8n did not log ${pattern} within ${timeoutMs} ms`);
		await sleep(1_000);
	}
}

function resultsRequests() {
	const path = `/api/supplier/v1/companies/${env.fixtures.companyId}/speci-finder/results`;
	return env.sandbox.requests().filter((entry) => entry.path === path);
}

beforeAll(async () => {
	env = await startCompatE2e(stderrLogger, {
		folderPrefix: 'smp-n8n-scheduler-',
		extraEnv: {
			N8N_SCHEDULER_ENABLED: 'true',
			N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
			// The poller's state (its failures and backoff) kept by the scheduler.
			N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
		},
	});
}, 10 * 60_000);

afterAll(async () => {
	if (figures.length > 0) {
		stderrLogger.log(`durable scheduler on n8n ${env?.n8nVersion}:\n${figures.join('\n')}`);
	}
	await env?.stop();
}, 60_000);

describe("the trigger under n8n's durable poll scheduler", () => {
	test(
		'after a 429 no request reaches the API until its Retry-After has passed, and a tender added meanwhile is announced once',
		async () => {
			expect(env.features.durablePollScheduler).toBe(true);
			const { id: workflowId, node } = env.workflows.trigger;
			await env.client.activateWorkflow(workflowId);
			// The scheduler owns the trigger's polls, and its first task polls and emits nothing.
			await waitForLog(/Provisioned scheduler jobs for poll trigger node/, 30_000);
			await waitForLog(/Poll returned no new data; nothing to hand off/, 2 * ONE_POLL_MS);
			await sleep(5_000);
			expect(await env.client.listExecutions(workflowId)).toEqual([]);

			env.sandbox.injectFault({ kind: 'rateLimited', retryAfterSeconds: RETRY_AFTER_SECONDS });
			const tender = env.sandbox.openTender({ companyId: env.fixtures.companyId });
			const [execution] = await env.client.waitForExecutions(
				workflowId,
				1,
				2 * ONE_POLL_MS + RETRY_AFTER_SECONDS * 1000,
			);

			const requests = resultsRequests();
			const refused = requests.find((entry) => entry.status === 429);
			expect(refused).toBeDefined();
			const refusedAt = Date.parse(refused?.at ?? '');
			const after = requests.filter((entry) => Date.parse(entry.at) > refusedAt);
			expect(after.length).toBeGreaterThan(0);
			const firstAfterMs = Date.parse(after[0].at) - refusedAt;
			expect(firstAfterMs).toBeGreaterThanOrEqual(RETRY_AFTER_SECONDS * 1000);
			expect(execution.status).toBe('success');
			const detail = await env.client.getExecution(execution.id);
			expect(outputItems(detail, node).map((item) => item.tenderId)).toEqual([tender.id]);
			figures.push(
				`  429 with Retry-After ${RETRY_AFTER_SECONDS} s: next API request ${Math.round(firstAfterMs / 1000)} s later; n8n ${/Poll failed; backing off/.test(env.n8nLog()) ? 'logged a backoff' : 'logged no backoff (the trigger held its own requests back)'}`,
			);

			// One more poll after the one that emitted it must not emit it again.
			const emittedAt = sandboxNow(env.sandbox);
			await env.waitForPolls(emittedAt, 1, 2 * ONE_POLL_MS);
			await sleep(5_000);
			expect(await env.client.listExecutions(workflowId)).toHaveLength(1);
		},
		12 * 60_000,
	);

	test(
		'an API that refuses the credential is reported as a failed execution, and n8n stops polling it',
		async () => {
			const { id: workflowId } = env.workflows.trigger;
			// Every answer a 401, a fresh token included: nothing the next poll would see pass.
			env.sandbox.injectFault({ kind: 'serverError', status: 401, times: 50 });
			const refusedFrom = sandboxNow(env.sandbox);

			const executions = await env.client.waitForExecutions(workflowId, 2, 2 * ONE_POLL_MS);

			const failed = executions.find((execution) => execution.status === 'error');
			expect(failed).toBeDefined();
			const detail = await env.client.getExecution(failed?.id ?? '');
			expect(detail.error?.message).toMatch(/^The API refused access to company/);
			const firstRefusal = resultsRequests().find(
				(entry) => entry.at > refusedFrom && entry.status === 401,
			);
			expect(firstRefusal).toBeDefined();

			// n8n backs an actionable failure off for 30 minutes: no poll in the next one and a bit.
			const reportedAt = sandboxNow(env.sandbox);
			await sleep(ONE_POLL_MS);
			const since = resultsRequests().filter((entry) => entry.at > reportedAt);
			figures.push(
				`  401 on every request: reported as failed execution ${failed?.id}; ${since.length} API request(s) in the ${ONE_POLL_MS / 1000} s after`,
			);
			expect(since).toEqual([]);
			env.sandbox.clearFaults();
			await env.client.deactivateWorkflow(workflowId);
		},
		6 * 60_000,
	);
});
