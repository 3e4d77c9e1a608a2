import { sleep } from 'n8n-workflow';

import { outputItems, startE2e, type E2eEnvironment } from '../support/e2e/harness';
import {
	announcements,
	firstAnnouncedAt,
	listedTenderIds,
	mentioned,
	msSincePollSecond,
	openTenderOnLatePage,
	PAGE_SIZE,
	POLL_LINES,
	readDurableState,
	topUpMatchedProjects,
	triggerNotes,
	triggerPollingAt,
	untilSecond,
	waitForAnnouncements,
	walksSince,
	type Announcement,
} from '../support/e2e/scheduler';
import {
	companyResultsRequests,
	logLines,
	sandboxNow,
	stderrLogger,
	waitForLog,
	waitUntil,
} from '../support/e2e/support';

/**
 * The trigger under n8n's durable scheduler for poll triggers (n8n 2.33 on), switched on in full
 * as a self-hosting user does: the scheduler, its poll triggers, the workflow publication service
 * and the durable poll cursors. The scheduler runs each poll as a task (abandoned after 45 s),
 * loads the trigger's state from poller_state before it and commits it after a poll that emitted
 * nothing, and backs a failing poll off by its error's declared cause or HTTP status. One n8n
 * serves every test, in this order; the last tests kill -9 it and restart it on the same database.
 *
 * A second, durable trigger workflow polls a sandbox of its own at :30 of every minute: activated
 * before the first test, with a tender opened right after, it runs beside the first tests; the
 * second describe checks what its polls did, then kills n8n between polls, slows its API down and
 * kills n8n mid-walk.
 */

const ONE_POLL_MS = 75_000;
/** Longer than a page call may wait in all (two minutes), so no poll can wait it out in itself. */
const RETRY_AFTER_SECONDS = 150;

/** The durable workflow: the trigger polling every minute at :30, on its own sandbox. */
const DURABLE = {
	id: 'smpSchedulerDurable',
	name: 'scheduler: new matching tenders at :30',
	// As the trigger workflow's builder names the node.
	nodeId: 'smpSchedulerDurable-trigger',
	node: 'New Matching Tender',
	second: 30,
	credentialId: 'smpSchedulerOwnSandbox',
};
/** A complete walk is 10 pages of 100. */
const MATCHED_PROJECTS = 1_000;
const WALK_PAGES = MATCHED_PROJECTS / PAGE_SIZE;
/** Due late in the 60-day window, so the tender's project sorts near the end of the walk. */
const LATE_DUE_IN_DAYS = 58;
/** Every API request (token and results) answered this late in the slow tests. */
const LATENCY_MS = 5_000;
const ANNOUNCED_WITHIN_MS = 3 * 60_000;

let env: E2eEnvironment;
/** Printed after the last test, so a CI log shows what was measured. */
const figures: string[] = [];

/** The durable workflow's activation, which the first tests run beside. */
let activation: Awaited<ReturnType<typeof activateAndOpenTender>>;

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

const resultsRequests = () => companyResultsRequests(env.sandbox, env.fixtures.companyId);

function own() {
	const { ownSandbox } = env;
	if (ownSandbox === undefined) throw new Error('the durable workflow has no sandbox');
	return ownSandbox;
}

const durableAnnouncements = () => announcements(env.client, DURABLE.id, DURABLE.node);

const waitForDurable = (tenderIds: string[], timeoutMs: number) =>
	waitForAnnouncements(env.client, {
		workflowId: DURABLE.id,
		nodeName: DURABLE.node,
		tenderIds,
		timeoutMs,
	});

/** Executions in `after` that `before` did not list, each as the tenders it announced. */
function newSince(before: Announcement[], after: Announcement[]): string[][] {
	const known = new Set(before.map((one) => one.executionId));
	return after.filter((one) => !known.has(one.executionId)).map((one) => one.tenderIds);
}

const listing = (executions: string[][]) =>
	`[${executions.map((tenders) => tenders.join(',')).join('; ')}]`;

/** The durable workflow's lines of n8n's log after `since` that contain `text`. */
const durableLines = (text: string, since: number) =>
	logLines(env.n8nLog(), text, { since, workflowId: DURABLE.id });

/** The trigger's own log lines after `since`, as figure lines (none when it logged nothing). */
const notesSince = (since: number) =>
	triggerNotes(env.n8nLog(), since).map((note) => `    trigger logged ${note}`);

/** A tender due late in the window on a late page of the walk, with where it sits. */
const openLateTender = () => openTenderOnLatePage(own(), env.fixtures.companyId, LATE_DUE_IN_DAYS);

/** kill -9 of n8n's process group; returns a figure naming what it killed. */
async function killN8n(): Promise<string> {
	const killed = await env.killN8n();
	const named = killed.map((command) => (/task-runner/.test(command) ? 'task runner' : 'n8n'));
	return `${killed.length} process(es) of its group (${named.join(', ')})`;
}

/**
 * Activates the durable workflow 15 to 45 s before its first scheduled poll falls due and opens a
 * tender as soon as activation returns: where n8n's log stood, how long before the first scheduled
 * poll the tender opened, the polls finished and walks begun by then, and poller_state right after.
 */
async function activateAndOpenTender() {
	const sincePoll = msSincePollSecond(DURABLE.second);
	if (sincePoll < 15_000 || sincePoll > 45_000) await untilSecond((DURABLE.second + 40) % 60);
	const since = env.n8nLog().length;
	const sandboxFrom = sandboxNow(own());
	const activating = Date.now();
	await env.client.activateWorkflow(DURABLE.id);
	const activationMs = Date.now() - activating;
	const tender = openLateTender();
	const openedAt = Date.now();
	return {
		since,
		activationMs,
		tender,
		openedAt,
		beforeFirstPollMs: 60_000 - msSincePollSecond(DURABLE.second),
		pollsBefore: durableLines(POLL_LINES.finished, since).length,
		walksBefore: walksSince(own(), env.fixtures.companyId, sandboxFrom).length,
		state: await readDurableState(env.n8n, DURABLE.id),
	};
}

beforeAll(async () => {
	env = await startE2e(stderrLogger, {
		extraEnv: {
			N8N_SCHEDULER_ENABLED: 'true',
			N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
			// Without it n8n 2.41 logs "durable poll cursors stay disabled".
			N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
			// The poller's state (the trigger's own, its failures and backoff) kept by the scheduler.
			N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
		},
		ownSandbox: { credentialId: DURABLE.credentialId, projects: 400 },
		workflows: [triggerPollingAt(DURABLE)],
	});
	// Later tenders open on existing projects, so every complete walk stays 10 pages of 100.
	const opened = topUpMatchedProjects(own(), env.fixtures.companyId, MATCHED_PROJECTS);
	figures.push(
		`  durable workflow's sandbox: ${opened} projects opened, ${MATCHED_PROJECTS} matched, ${WALK_PAGES} pages a walk`,
	);
	activation = await activateAndOpenTender();
}, 12 * 60_000);

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
			await waitForLog(env.n8nLog, 'Provisioned scheduler jobs for poll trigger node', {
				workflowId,
				timeoutMs: 30_000,
			});
			await waitForLog(env.n8nLog, POLL_LINES.quiet, { workflowId, timeoutMs: 2 * ONE_POLL_MS });
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
				`  429 with Retry-After ${RETRY_AFTER_SECONDS} s: next API request ${Math.round(firstAfterMs / 1000)} s later; n8n ${logLines(env.n8nLog(), POLL_LINES.backedOff, { workflowId }).length > 0 ? 'logged a backoff' : 'logged no backoff (the trigger held its own requests back)'}`,
			);

			// One more poll after the one that emitted it must not emit it again.
			const emittedAt = sandboxNow(env.sandbox);
			const [later] = await env.executionsAfterPolls([workflowId], emittedAt, 1, 2 * ONE_POLL_MS);
			expect(later).toHaveLength(1);
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

describe('durable cursors across activation, kill -9 and a slow API', () => {
	test(
		'a tender opened right after activation, before the first scheduled poll, is announced exactly once',
		async () => {
			const { since, tender, openedAt, state } = activation;
			// Nothing but the activation's own walk had run: the tender was new to every scheduled poll.
			expect(activation.pollsBefore).toBe(0);
			expect(activation.walksBefore).toBe(1);
			// A few poll cycles: the first decides, the later ones must not announce it again.
			await waitForLog(env.n8nLog, POLL_LINES.finished, {
				since,
				workflowId: DURABLE.id,
				count: 3,
				timeoutMs: 4 * ONE_POLL_MS,
			});
			await sleep(5_000);

			const found = await durableAnnouncements();
			const announcedAt = firstAnnouncedAt(found, tender.id);
			const [seeded] = state.pollerStates;
			const [row] = (await readDurableState(env.n8n, DURABLE.id)).pollerStates;
			const listed = listedTenderIds(own(), env.fixtures.companyId);
			const polls = durableLines(POLL_LINES.finished, since);
			figures.push(
				`  activation (${seconds(activation.activationMs)}): poller_state row ${seeded ? `created, cursor ${seeded.cursor.length} bytes mentioning ${mentioned(seeded.cursor, listed).length} of ${listed.length} listed tenders` : 'absent'}; tender ${tender.id} (${tender.where}) opened ${seconds(activation.beforeFirstPollMs)} before the first scheduled poll`,
				`  after ${polls.length} scheduled polls (${polls.filter((line) => line.includes(POLL_LINES.emitted)).length} with new data): executions ${listing(found.map((one) => one.tenderIds))}; ${announcedAt ? `announced ${seconds(announcedAt - openedAt)} after it opened` : 'never announced'}; the cursor ${mentioned(row?.cursor ?? '', [tender.id]).length ? 'holds it as seen' : 'does not hold it'}`,
			);
			expect(found.map((one) => one.tenderIds)).toEqual([[tender.id]]);
			expect((announcedAt ?? Infinity) - openedAt).toBeLessThan(3 * ONE_POLL_MS);
		},
		6 * 60_000,
	);

	test(
		"n8n's durable poll cursors are on: poller_state holds the trigger's state, its static data does not",
		async () => {
			const { since } = activation;
			expect(env.n8nLog()).not.toContain('durable poll cursors stay disabled');
			const provisioned = durableLines('Provisioned scheduler jobs for poll trigger node', since);
			expect(provisioned).not.toEqual([]);
			// A poll that finished with nothing new commits the state it staged.
			await waitForLog(env.n8nLog, POLL_LINES.quiet, {
				since,
				workflowId: DURABLE.id,
				timeoutMs: 2 * ONE_POLL_MS,
			});

			const { pollerStates, staticData } = await readDurableState(env.n8n, DURABLE.id);
			const listed = listedTenderIds(own(), env.fixtures.companyId);
			const row = pollerStates.find((one) => one.nodeId === DURABLE.nodeId);
			const cursor = row?.cursor ?? '';
			figures.push(
				`  durable cursor: ${pollerStates.length} poller_state row(s); cursor ${cursor.length} bytes, mentions ${mentioned(cursor, listed).length} of ${listed.length} listed tenders, written ${row?.updatedAt} (row made ${row?.createdAt}); workflow static data ${staticData.length} bytes, mentions ${mentioned(staticData, listed).length}`,
			);
			expect(row).toBeDefined();
			expect(listed.filter((id) => mentioned(cursor, [id]).length === 0)).toEqual([]);
			expect(row?.updatedAt).not.toBe(row?.createdAt);
			expect(mentioned(staticData, listed)).toEqual([]);
		},
		3 * 60_000,
	);

	test(
		'the state is durable: after kill -9 and a restart on the same database, a tender opened meanwhile is announced exactly once, and nothing else is',
		async () => {
			const { since } = activation;
			// Right after a quiet poll committed the state, the second quiet one at least.
			const quiet = durableLines(POLL_LINES.quiet, since).length;
			await waitForLog(env.n8nLog, POLL_LINES.quiet, {
				since,
				workflowId: DURABLE.id,
				count: Math.max(2, quiet + 1),
				timeoutMs: 3 * ONE_POLL_MS,
			});
			const before = await durableAnnouncements();
			const killed = await killN8n();
			const tender = openLateTender();
			const restartedFrom = env.n8nLog().length;
			const restartMs = await env.restartN8n();
			const servedAt = Date.now();

			// The first poll after the restart announces it and nothing else (not the baseline);
			// the next test's executions, only its own tender's, cover the polls after that.
			const { found, allAnnounced, ms } = await waitForDurable([tender.id], 3 * ONE_POLL_MS);
			await sleep(5_000);
			const after = newSince(before, allAnnounced ? await durableAnnouncements() : found);
			const announcedAt = firstAnnouncedAt(found, tender.id);
			const provisioned = durableLines('Provisioned scheduler jobs', restartedFrom);
			const activationPolls = durableLines('Poll trigger initiated', restartedFrom);
			figures.push(
				`  kill -9 right after a quiet poll (${Math.max(2, quiet + 1)} since activation): ${killed}; n8n served again ${seconds(restartMs)} after its restart, jobs provisioned again: ${provisioned.map((line) => line.match(/"inserted":\d+/)?.[0]).join(', ') || 'none'}, ${activationPolls.length} activation poll(s)`,
				`  tender ${tender.id} (${tender.where}) opened while n8n was down: ${announcedAt ? `announced ${seconds(announcedAt - servedAt)} after n8n served` : `not announced within ${seconds(ms)}`}; executions since the kill: ${listing(after)}`,
			);
			expect(after).toEqual([[tender.id]]);
		},
		6 * 60_000,
	);

	test(
		'kill -9 in the middle of a walk that spans polls (1,000 matched projects, every request 5 s late): every tender opened is announced exactly once',
		async () => {
			expect(own().listOpen(env.fixtures.companyId)).toHaveLength(MATCHED_PROJECTS);
			own().setLatency(LATENCY_MS);
			const from = env.n8nLog().length;
			const before = await durableAnnouncements();
			const midWalk = await waitForMidWalk(3 * ONE_POLL_MS);
			const killed = await killN8n();
			const tender = openLateTender();
			const restartMs = await env.restartN8n();
			const servedAt = Date.now();

			// The next test's executions, only its own tender's, cover the polls after this one.
			const { found, allAnnounced, ms } = await waitForDurable([tender.id], ANNOUNCED_WITHIN_MS);
			await sleep(5_000);
			const after = newSince(before, allAnnounced ? await durableAnnouncements() : found);
			const announcedAt = firstAnnouncedAt(found, tender.id);
			const abandoned = durableLines(POLL_LINES.abandoned, from).length;
			figures.push(
				`  kill -9 at page ${midWalk} of ${WALK_PAGES} of a walk (${LATENCY_MS / 1000} s a request): ${killed}; served again after ${seconds(restartMs)}; tender ${tender.id} (${tender.where}) opened while down: ${announcedAt ? `announced ${seconds(announcedAt - servedAt)} after n8n served` : `not announced within ${seconds(ms)}`}; ${abandoned} poll(s) abandoned at 45 s; executions since the test began ${listing(after)}`,
				...notesSince(from),
			);
			expect(after).toEqual([[tender.id]]);
		},
		8 * 60_000,
	);

	test(
		'slow API, durable scheduler in full: 1,000 matched projects, every request 5 s late; a tender on a late page is announced exactly once within 3 minutes, and no poll is abandoned',
		async () => {
			expect(own().listOpen(env.fixtures.companyId)).toHaveLength(MATCHED_PROJECTS);
			own().setLatency(LATENCY_MS);
			const before = await durableAnnouncements();
			const from = env.n8nLog().length;
			const sandboxFrom = sandboxNow(own());
			const tender = openLateTender();
			const openedAt = Date.now();

			// Every execution of the 3 minutes after it opened, so one more would count.
			await waitForDurable([tender.id], ANNOUNCED_WITHIN_MS);
			await sleep(Math.max(0, openedAt + ANNOUNCED_WITHIN_MS - Date.now()));
			const found = await durableAnnouncements();
			const after = newSince(before, found);
			const announcedAt = firstAnnouncedAt(found, tender.id);
			const abandoned = durableLines(POLL_LINES.abandoned, from).length;
			const finished = durableLines(POLL_LINES.finished, from).length;
			const skipped = durableLines(POLL_LINES.skippedForBackoff, from).length;
			const walks = walksSince(own(), env.fixtures.companyId, sandboxFrom);
			figures.push(
				`  slow API (${LATENCY_MS / 1000} s a request), tender ${tender.id} (${tender.where}): ${announcedAt ? `announced ${seconds(announcedAt - openedAt)} after it opened` : `not announced within ${seconds(ANNOUNCED_WITHIN_MS)}`}; in those 3 minutes ${abandoned} poll(s) abandoned at 45 s, ${finished} finished, ${skipped} skipped for backoff; walks (pages each): [${walks.map((walk) => walk.pages).join(', ')}]; executions ${listing(after)}`,
				...notesSince(from),
			);
			own().setLatency(0);
			expect(after).toEqual([[tender.id]]);
			expect((announcedAt ?? Infinity) - openedAt).toBeLessThanOrEqual(ANNOUNCED_WITHIN_MS);
			expect(abandoned).toBe(0);
		},
		5 * 60_000,
	);
});

/**
 * Waits until the durable workflow's current walk has fetched some but not all of its pages (from
 * the second to the last but two) and its last page came within the latency, so its next request
 * is on its way; returns the pages fetched.
 */
function waitForMidWalk(timeoutMs: number): Promise<number> {
	const midWalk = () => {
		const walk = walksSince(own(), env.fixtures.companyId, '').at(-1);
		const sinceLastMs = walk ? own().clock.now() - Date.parse(walk.lastAt) : Infinity;
		const midway = walk !== undefined && walk.pages >= 2 && walk.pages <= WALK_PAGES - 2;
		return midway && sinceLastMs < LATENCY_MS - 2_000 ? walk.pages : undefined;
	};
	const failure = () => 'no walk was between its second and last pages';
	return waitUntil(midWalk, { timeoutMs, intervalMs: 200, failure });
}
