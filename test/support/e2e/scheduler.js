// @ts-check
'use strict';

/**
 * What the trigger's real-n8n tests (mostly durable-scheduler.test.ts) read and drive beside n8n's
 * REST API: poller_state rows, the sandbox's listing and walks, the tenders each execution carried.
 */

const { outputItems } = require('../../../scripts/n8n/client');
const { querySqlite } = require('../../../scripts/n8n/lines');
const { delay } = require('../../../scripts/n8n/runtime');
const { companyResultsRequests } = require('./support');
const { triggerWorkflow } = require('./workflows');

/** A full page: the trigger asks for 100 projects per request. */
const PAGE_SIZE = 100;
const DAY_MS = 86_400_000;

/** What n8n 2.41 logs about a scheduled poll (poll-trigger-task-handler.js, poll-backoff.service.js). */
const POLL_LINES = Object.freeze({
	quiet: 'Poll returned no new data; nothing to hand off',
	emitted: 'Poll returned new data; handed off to a new execution',
	finished: 'Poll returned ',
	abandoned: 'Poll exceeded its timeout and was abandoned',
	backedOff: 'Poll failed; backing off',
	skippedForBackoff: 'Poll is backing off; skipping this occurrence',
});

/**
 * The trigger polling every minute at `second`, so a test knows when its polls fall due.
 * @param {{ id: string, name: string, second: number, credentialId: string }} options
 */
function triggerPollingAt({ id, name, second, credentialId }) {
	return triggerWorkflow({
		id,
		name,
		credential: { id: credentialId, name: credentialId },
		pollTimes: [{ mode: 'custom', cronExpression: `${second} * * * * *` }],
	});
}

/**
 * @param {number} second
 * @returns {number} ms (0 to 59,999) since the clock last showed it
 */
function msSincePollSecond(second) {
	return ((((Date.now() % 60_000) - second * 1000) % 60_000) + 60_000) % 60_000;
}

/** Waits until the wall clock next shows `second` (0 to 59) of a minute. @param {number} second */
async function untilSecond(second) {
	await delay((60_000 - msSincePollSecond(second)) % 60_000);
}

/**
 * What the trigger itself logged after `since`: each distinct message once, with its count and
 * level, cut to 160 characters.
 * @param {string} log @param {number} since
 */
function triggerNotes(log, since) {
	/** @type {Map<string, number>} */
	const counts = new Map();
	const lines = log.slice(since).split('\n');
	for (const line of lines.filter((one) => one.includes('Supplier Matched Projects Trigger "'))) {
		const [, level = '?', message = line] = /\|\s*(\w+)\s*\|\s*(.*?)(?: \{"|$)/.exec(line) ?? [];
		const note = `${level}: ${message.replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '<time>').slice(0, 160)}`;
		counts.set(note, (counts.get(note) ?? 0) + 1);
	}
	return [...counts].map(([note, times]) => `${times}x ${note}`);
}

/**
 * The workflow's poller_state rows (the cursor is the trigger's state as JSON text) and its own
 * static data.
 * @param {{ runtime: { nodeBin: string, n8nHome: string }, databaseFile: string }} n8n
 * @param {string} workflowId
 */
async function readDurableState(n8n, workflowId) {
	const pollerStates =
		/** @type {{ nodeId: string, cursor: string, createdAt: string, updatedAt: string }[]} */ (
			await querySqlite(
				n8n,
				'SELECT nodeId, "cursor", createdAt, updatedAt FROM poller_state WHERE workflowId = ?',
				[workflowId],
			)
		);
	const [workflow] = await querySqlite(n8n, 'SELECT staticData FROM workflow_entity WHERE id = ?', [
		workflowId,
	]);
	return { pollerStates, staticData: String(workflow?.staticData ?? '') };
}

/**
 * @param {string} text
 * @param {string[]} ids
 * @returns the ids the text holds as JSON strings
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
 * Every tender id a complete walk lists now.
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
 * 40 days ahead (the last weeks of the window stay free for the tenders a test places late).
 * @param {Sandbox} sandbox @param {string} companyId @param {number} total
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
 * Opens a tender due `dueInDays` ahead on the latest existing project that can take it without
 * moving (its earliest due date is no later): the number of matched projects stays, and the
 * tender sits on a late page.
 * @param {Sandbox} sandbox @param {string} companyId @param {number} dueInDays
 * @returns {{ id: string, where: string }} where: the page a walk finds it on ("page 10 of 10")
 */
function openTenderOnLatePage(sandbox, companyId, dueInDays) {
	const quotesDueAt = sandboxDay(sandbox, dueInDays);
	const project = [...sandbox.listOpen(companyId)].reverse().find((candidate) => {
		const earliest = candidate.tenders[0]?.quotesDueAt;
		return typeof earliest === 'string' && earliest <= quotesDueAt;
	});
	if (project === undefined)
		throw new Error(`${companyId} has no dated project to add a tender to`);
	const { id } = sandbox.openTender({ companyId, projectId: project.projectId, quotesDueAt });
	const listing = sandbox.listOpen(companyId);
	const index = listing.findIndex((one) => one.tenders.some((tender) => tender.id === id));
	const pages = Math.ceil(listing.length / PAGE_SIZE);
	return { id, where: `page ${Math.floor(index / PAGE_SIZE) + 1} of ${pages}` };
}

/**
 * The company's results requests after `since` (sandbox time), split into walks, each starting
 * with a request without a cursor.
 * @param {Sandbox} sandbox @param {string} companyId @param {string} since
 */
function walksSince(sandbox, companyId, since) {
	/** @type {{ pages: number, lastAt: string }[]} */
	const walks = [];
	for (const entry of companyResultsRequests(sandbox, companyId)) {
		if (entry.at <= since) continue;
		const current = walks.at(-1);
		if (!entry.query.cursor || current === undefined) walks.push({ pages: 1, lastAt: entry.at });
		else {
			current.pages++;
			current.lastAt = entry.at;
		}
	}
	return walks;
}

/**
 * Every finished execution of the workflow, oldest first, with the tenders its trigger announced
 * (none where the trigger did not run, as in a failed poll's).
 * @param {import('../../../scripts/n8n/client').N8nClient} client
 * @param {string} workflowId
 * @param {string} nodeName the trigger's
 */
async function announcements(client, workflowId, nodeName) {
	const executions = (await client.listExecutions(workflowId))
		.filter((execution) => execution.stoppedAt !== null)
		.sort((a, b) => Number(a.id) - Number(b.id));
	const found = [];
	for (const { id, startedAt } of executions) {
		const detail = await client.getExecution(id);
		const items = (detail.runData[nodeName] ?? []).length > 0 ? outputItems(detail, nodeName) : [];
		found.push({
			executionId: id,
			startedAt,
			tenderIds: items.map((item) => String(item.tenderId)),
		});
	}
	return found;
}

/** @typedef {Awaited<ReturnType<typeof announcements>>[number]} Announcement */

/**
 * When the first execution that announced `tenderId` started (epoch ms), if one did.
 * @param {Announcement[]} found @param {string} tenderId
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
 */
async function waitForAnnouncements(client, { workflowId, nodeName, tenderIds, timeoutMs }) {
	const started = Date.now();
	for (;;) {
		const found = await announcements(client, workflowId, nodeName);
		const allAnnounced = tenderIds.every((id) => found.some((one) => one.tenderIds.includes(id)));
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
	triggerNotes,
	readDurableState,
	mentioned,
	listedTenderIds,
	topUpMatchedProjects,
	openTenderOnLatePage,
	walksSince,
	announcements,
	firstAnnouncedAt,
	waitForAnnouncements,
};
