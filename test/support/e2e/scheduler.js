// @ts-check
'use strict';

/**
 * What the durable scheduler's test (test/e2e/durable-scheduler.test.ts) reads and drives beside
 * n8n's REST API: a trigger workflow that polls at a known second, n8n's log by workflow, its
 * poller_state rows (read with n8n's own sqlite3 under n8n's Node), the sandbox's matched projects
 * and where a walk or a tender is, and which executions carried which tenders. The .ts test cannot
 * use Node APIs (community-node lint), so this is JavaScript.
 */

const fs = require('node:fs');
const path = require('node:path');

const { outputItems } = require('../../../scripts/n8n/client');
const { runGroup } = require('../../../scripts/n8n/processes');
const { delay } = require('../../../scripts/n8n/runtime');

/** A full page: the trigger asks for 100 projects per request. */
const PAGE_SIZE = 100;
const DAY_MS = 86_400_000;
const TRIGGER_FILE = path.resolve(__dirname, '..', '..', 'e2e-compat', 'workflows', 'trigger.json');

/** What n8n 2.41 logs about a scheduled poll (poll-trigger-task-handler.js, poll-backoff.service.js). */
const POLL_LINES = Object.freeze({
	quiet: 'Poll returned no new data; nothing to hand off',
	emitted: 'Poll returned new data; handed off to a new execution',
	abandoned: 'Poll exceeded its timeout and was abandoned',
	backedOff: 'Poll failed; backing off',
	skippedForBackoff: 'Poll is backing off; skipping this occurrence',
});

/**
 * The compat suite's trigger (test/e2e-compat/workflows/trigger.json) as another workflow that
 * polls every minute at `second` (a custom cron), so a test knows when its polls fall due, with
 * the credential of id `credentialId`.
 * @param {{ id: string, name: string, nodeId: string, second: number, credentialId: string }} options
 */
function triggerPollingAt({ id, name, nodeId, second, credentialId }) {
	const workflow = JSON.parse(fs.readFileSync(TRIGGER_FILE, 'utf8'));
	const [node] = workflow.nodes;
	node.id = nodeId;
	node.parameters.pollTimes = { item: [{ mode: 'custom', cronExpression: `${second} * * * * *` }] };
	node.credentials.supplierMatchedProjectsApi.id = credentialId;
	return { ...workflow, id, name };
}

/**
 * Waits until the wall clock's second of the minute is `second` (the next time it is).
 * @param {number} second 0 to 59
 */
async function untilSecond(second) {
	const now = Date.now();
	const waitMs = (((second * 1000 - (now % 60_000)) % 60_000) + 60_000) % 60_000;
	await delay(waitMs);
}

/**
 * How far the wall clock is past a poll falling due at `second` of every minute, in ms (0 to 59,999).
 * @param {number} second
 */
function msSincePollSecond(second) {
	return ((((Date.now() % 60_000) - second * 1000) % 60_000) + 60_000) % 60_000;
}

/**
 * The lines of n8n's log after `since` (a length of the log text) that contain `text`, of one
 * workflow when `workflowId` is given (n8n puts it in each line's metadata).
 * @param {string} log
 * @param {string} text
 * @param {{ since?: number, workflowId?: string }} [options]
 */
function logLines(log, text, options = {}) {
	const workflow = options.workflowId && `"workflowId":${JSON.stringify(options.workflowId)}`;
	return log
		.slice(options.since ?? 0)
		.split('\n')
		.filter((line) => line.includes(text) && (!workflow || line.includes(workflow)));
}

/**
 * Waits until n8n's log holds `count` lines after `since` that contain `text` (of `workflowId`).
 * @param {() => string} readLog
 * @param {string} text
 * @param {{ since?: number, workflowId?: string, count?: number, timeoutMs: number }} options
 * @returns {Promise<string[]>} the lines
 */
async function waitForLog(readLog, text, options) {
	const deadline = Date.now() + options.timeoutMs;
	const count = options.count ?? 1;
	for (;;) {
		const lines = logLines(readLog(), text, options);
		if (lines.length >= count) return lines;
		if (Date.now() > deadline) {
			throw new Error(
				`n8n logged ${lines.length} of ${count} line(s) with "${text}"${options.workflowId ? ` for ${options.workflowId}` : ''} within ${options.timeoutMs} ms`,
			);
		}
		await delay(500);
	}
}

/**
 * What the trigger itself logged after `since` (its lines start with its display name): each
 * distinct message once, its times and level first, cut to `width` characters.
 * @param {string} log
 * @param {number} since
 * @param {number} [width]
 */
function triggerNotes(log, since, width = 160) {
	/** @type {Map<string, number>} */
	const counts = new Map();
	for (const line of logLines(log, 'Supplier Matched Projects Trigger "', { since })) {
		const [, level = '?', message = line] = /\|\s*(\w+)\s*\|\s*(.*?)(?: \{"|$)/.exec(line) ?? [];
		const note = `${level}: ${message.replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '<time>').slice(0, width)}`;
		counts.set(note, (counts.get(note) ?? 0) + 1);
	}
	return [...counts].map(([note, times]) => `${times}x ${note}`);
}

/**
 * Scheduled polls of a workflow that ran to their end (with or without new data) after `since`.
 * @param {string} log
 * @param {string} workflowId
 * @param {number} since
 */
function finishedPolls(log, workflowId, since) {
	return logLines(log, 'Poll returned ', { since, workflowId }).length;
}

/**
 * Waits until `count` scheduled polls of the workflow ran to their end after `since`.
 * @param {() => string} readLog
 * @param {string} workflowId
 * @param {{ since: number, count: number, timeoutMs: number }} options
 */
async function waitForFinishedPolls(readLog, workflowId, options) {
	await waitForLog(readLog, 'Poll returned ', { ...options, workflowId });
}

/**
 * Runs one read-only query on n8n's SQLite database with n8n's own sqlite3, under the Node it
 * was built for (the tests' Node may be another).
 * @param {{ runtime: { nodeBin: string, n8nHome: string }, databaseFile: string }} n8n
 * @param {string} sql
 * @param {unknown[]} [params]
 * @returns {Promise<Record<string, unknown>[]>}
 */
async function queryDatabase(n8n, sql, params = []) {
	const script = `
		const sqlite3 = require('sqlite3');
		const [file, sql, params] = [process.argv[1], process.argv[2], JSON.parse(process.argv[3])];
		const db = new sqlite3.Database(file, sqlite3.OPEN_READONLY, (error) => {
			if (error) throw error;
		});
		db.configure('busyTimeout', 10000);
		db.all(sql, params, (error, rows) => {
			if (error) throw error;
			process.stdout.write(JSON.stringify(rows));
			db.close();
		});`;
	const result = await runGroup(
		n8n.runtime.nodeBin,
		['-e', script, n8n.databaseFile, sql, JSON.stringify(params)],
		{ cwd: n8n.runtime.n8nHome, timeoutMs: 60_000 },
	);
	if (result.code !== 0) throw new Error(`reading n8n's database failed: ${result.stderr}`);
	return JSON.parse(result.stdout);
}

/**
 * @typedef {object} DurableState
 * @property {{ nodeId: string, cursor: string, consecutiveErrors: number, backoffUntil: string | null, createdAt: string, updatedAt: string }[]} pollerStates
 *   n8n's poller_state rows of the workflow: the durable cursor (the trigger's state, as JSON
 *   text) and the poll's failures and backoff
 * @property {string} staticData the workflow's own static data (workflow_entity), as JSON text
 */

/**
 * @param {{ runtime: { nodeBin: string, n8nHome: string }, databaseFile: string }} n8n
 * @param {string} workflowId
 * @returns {Promise<DurableState>}
 */
async function readDurableState(n8n, workflowId) {
	const pollerStates = await queryDatabase(
		n8n,
		'SELECT nodeId, "cursor", consecutiveErrors, backoffUntil, createdAt, updatedAt FROM poller_state WHERE workflowId = ?',
		[workflowId],
	);
	const [workflow] = await queryDatabase(
		n8n,
		'SELECT staticData FROM workflow_entity WHERE id = ?',
		[workflowId],
	);
	return {
		pollerStates: /** @type {DurableState['pollerStates']} */ (pollerStates),
		staticData: String(workflow?.staticData ?? ''),
	};
}

/**
 * Which of `ids` a stored text (a cursor, static data) mentions, as JSON strings.
 * @param {string} text
 * @param {string[]} ids
 */
function mentioned(text, ids) {
	return ids.filter((id) => text.includes(JSON.stringify(id)));
}

/** @typedef {import('../../../sandbox').Sandbox} Sandbox */

/**
 * YYYY-MM-DD, `days` after the sandbox's today.
 * @param {Sandbox} sandbox
 * @param {number} days
 */
function sandboxDay(sandbox, days) {
	return new Date(sandbox.clock.now() + days * DAY_MS).toISOString().slice(0, 10);
}

/**
 * Every tender id the company's complete walk lists now.
 * @param {Sandbox} sandbox
 * @param {string} companyId
 */
function listedTenderIds(sandbox, companyId) {
	return sandbox
		.listOpen(companyId)
		.flatMap((project) => project.tenders.map((tender) => tender.id));
}

/**
 * Opens tenders on new projects until the company has exactly `total` matched projects, due 1 to
 * 40 days ahead (so the last weeks of the window stay free for the tenders a test places late).
 * @param {Sandbox} sandbox
 * @param {string} companyId
 * @param {number} total
 * @returns {number} how many it opened
 */
function topUpMatchedProjects(sandbox, companyId, total) {
	const listed = sandbox.listOpen(companyId).length;
	if (listed > total) throw new Error(`${companyId} has ${listed} matched projects, over ${total}`);
	for (let index = 0; index < total - listed; index++) {
		sandbox.openTender({ companyId, quotesDueAt: sandboxDay(sandbox, 1 + (index % 40)) });
	}
	return total - listed;
}

/**
 * Where a walk finds a tender now: its project's place in the listing and the page it is on.
 * @param {Sandbox} sandbox
 * @param {string} companyId
 * @param {string} tenderId
 */
function placeOf(sandbox, companyId, tenderId) {
	const listing = sandbox.listOpen(companyId);
	const index = listing.findIndex((project) =>
		project.tenders.some((tender) => tender.id === tenderId),
	);
	return {
		index,
		page: Math.floor(index / PAGE_SIZE) + 1,
		pages: Math.ceil(listing.length / PAGE_SIZE),
	};
}

/**
 * Opens a tender due `dueInDays` ahead on an existing project as late in the listing as one can
 * take it without moving (its earliest due date is no later), so the number of matched projects
 * stays and the tender sits on a late page.
 * @param {Sandbox} sandbox
 * @param {string} companyId
 * @param {number} dueInDays
 */
function openTenderOnLatePage(sandbox, companyId, dueInDays) {
	const quotesDueAt = sandboxDay(sandbox, dueInDays);
	const project = [...sandbox.listOpen(companyId)].reverse().find((candidate) => {
		const earliest = candidate.tenders[0]?.quotesDueAt;
		return typeof earliest === 'string' && earliest <= quotesDueAt;
	});
	if (project === undefined)
		throw new Error(`${companyId} has no dated project to add a tender to`);
	const tender = sandbox.openTender({ companyId, projectId: project.projectId, quotesDueAt });
	return { tender, ...placeOf(sandbox, companyId, tender.id) };
}

/**
 * The company's results requests after `since` (sandbox time), split into walks: a walk starts
 * with a request without a cursor. Each walk lists its pages' answer times and statuses.
 * @param {Sandbox} sandbox
 * @param {string} companyId
 * @param {string} since
 */
function walksSince(sandbox, companyId, since) {
	const resultsPath = `/api/supplier/v1/companies/${companyId}/speci-finder/results`;
	/** @type {{ pages: number, statuses: number[], firstAt: string, lastAt: string }[]} */
	const walks = [];
	for (const entry of sandbox.requests()) {
		if (entry.path !== resultsPath || entry.at <= since) continue;
		const current = walks.at(-1);
		if (!entry.query.cursor || current === undefined) {
			walks.push({ pages: 1, statuses: [entry.status], firstAt: entry.at, lastAt: entry.at });
		} else {
			current.pages++;
			current.statuses.push(entry.status);
			current.lastAt = entry.at;
		}
	}
	return walks;
}

/**
 * @typedef {object} Announcement
 * @property {string} executionId
 * @property {string} status
 * @property {string | null} startedAt
 * @property {string[]} tenderIds the tenders its trigger announced
 */

/**
 * Every finished execution of the workflow, oldest first, with the tenders its trigger announced
 * (none for an execution the trigger did not run in, such as a failed poll's).
 * @param {import('../../../scripts/n8n/client').N8nClient} client
 * @param {string} workflowId
 * @param {string} nodeName the trigger's
 * @returns {Promise<Announcement[]>}
 */
async function announcements(client, workflowId, nodeName) {
	const executions = (await client.listExecutions(workflowId))
		.filter((execution) => execution.stoppedAt !== null)
		.sort((a, b) => Number(a.id) - Number(b.id));
	/** @type {Announcement[]} */
	const found = [];
	for (const execution of executions) {
		const detail = await client.getExecution(execution.id);
		const ran = (detail.runData[nodeName] ?? []).length > 0;
		const items = ran ? outputItems(detail, nodeName) : [];
		found.push({
			executionId: execution.id,
			status: execution.status,
			startedAt: execution.startedAt,
			tenderIds: items.map((item) => String(item.tenderId)),
		});
	}
	return found;
}

/**
 * How many executions announced each tender.
 * @param {Announcement[]} found
 * @param {string[]} tenderIds
 * @returns {Record<string, number>}
 */
function timesAnnounced(found, tenderIds) {
	return Object.fromEntries(
		tenderIds.map((id) => [id, found.filter((one) => one.tenderIds.includes(id)).length]),
	);
}

/**
 * When the first execution that announced `tenderId` started (epoch ms), undefined if none did.
 * @param {Announcement[]} found
 * @param {string} tenderId
 */
function firstAnnouncedAt(found, tenderId) {
	const starts = found
		.filter((one) => one.tenderIds.includes(tenderId) && one.startedAt !== null)
		.map((one) => Date.parse(String(one.startedAt)));
	return starts.length > 0 ? Math.min(...starts) : undefined;
}

/**
 * Waits until every one of `tenderIds` is announced by some execution, or the time is up.
 * @param {import('../../../scripts/n8n/client').N8nClient} client
 * @param {{ workflowId: string, nodeName: string, tenderIds: string[], timeoutMs: number }} options
 * @returns {Promise<{ found: Announcement[], allAnnounced: boolean, ms: number }>}
 */
async function waitForAnnouncements(client, { workflowId, nodeName, tenderIds, timeoutMs }) {
	const started = Date.now();
	for (;;) {
		const found = await announcements(client, workflowId, nodeName);
		const counts = timesAnnounced(found, tenderIds);
		const allAnnounced = tenderIds.every((id) => counts[id] > 0);
		if (allAnnounced || Date.now() - started > timeoutMs) {
			return { found, allAnnounced, ms: Date.now() - started };
		}
		await delay(2_000);
	}
}

module.exports = {
	PAGE_SIZE,
	POLL_LINES,
	triggerPollingAt,
	untilSecond,
	msSincePollSecond,
	logLines,
	triggerNotes,
	waitForLog,
	finishedPolls,
	waitForFinishedPolls,
	queryDatabase,
	readDurableState,
	mentioned,
	sandboxDay,
	listedTenderIds,
	topUpMatchedProjects,
	placeOf,
	openTenderOnLatePage,
	walksSince,
	announcements,
	timesAnnounced,
	firstAnnouncedAt,
	waitForAnnouncements,
};
