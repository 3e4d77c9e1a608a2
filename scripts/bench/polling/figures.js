// @ts-check
'use strict';

/**
 * The figures of a polling run, from n8n's executions and what the triggers emitted (its REST
 * API), the sandbox's request log and n8n's own log; times are this machine's epoch ms.
 */

const fs = require('node:fs');

const { outputItems } = require('../../n8n/client');
const { DEFAULT_PAGE_SIZE, pagesFor } = require('../floors');
const { RESULTS_PATH } = require('../sandbox');
const { fixed } = require('../tables');

/** @typedef {{ tenderId: string, companyId: string, openedAtMs: number }} OpenedTender */
/** @typedef {{ ms: number, companyId: string, status: number, cursor: unknown, limit: unknown }} TimedRequest */

const TRIGGER_NODE = 'Supplier Matched Projects Trigger';

/**
 * @param {number[]} sorted ascending
 * @param {number} fraction
 * @returns {number | undefined} the nearest-rank quantile
 */
function quantile(sorted, fraction) {
	if (sorted.length === 0) return undefined;
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))];
}

/**
 * When each complete walk of one company started. A walk starts with an accepted first page (no
 * cursor) and is complete once as many pages were accepted as the company's matched projects
 * fill; a new first page before that abandons it. Refused requests neither start nor advance a
 * walk, so a walk retried or spread over several polls counts once.
 * @param {TimedRequest[]} requests the company's, oldest first
 * @param {(ms: number) => number} matchedAt the company's matched projects at that instant
 */
function completeWalkStarts(requests, matchedAt) {
	const starts = [];
	/** @type {{ startMs: number, pages: number, needed: number } | undefined} */
	let walk;
	for (const request of requests.filter((each) => each.status === 200)) {
		if (!request.cursor) {
			const pageSize = Number(request.limit ?? DEFAULT_PAGE_SIZE);
			walk = { startMs: request.ms, pages: 0, needed: pagesFor(matchedAt(request.ms), pageSize) };
		}
		if (walk !== undefined && ++walk.pages >= walk.needed) {
			starts.push(walk.startMs);
			walk = undefined;
		}
	}
	return starts;
}

/**
 * Every execution of the bench's workflows before the end, with what its trigger emitted.
 * @param {import('../../n8n/client').N8nClient} client
 * @param {Map<string, string>} companyOf by workflow id
 * @param {number} toMs
 */
async function readExecutions(client, companyOf, toMs) {
	const executions = [];
	for (const summary of await client.listExecutions()) {
		const startedMs = Date.parse(summary.startedAt ?? summary.stoppedAt ?? '');
		if (!companyOf.has(summary.workflowId) || startedMs > toMs) continue;
		const detail = await client.getExecution(summary.id);
		const ran = (detail.runData[TRIGGER_NODE] ?? []).length > 0;
		const failed = summary.status === 'error' || summary.status === 'crashed' || !!detail.error;
		const tenderIds = ran ? outputItems(detail, TRIGGER_NODE).map((item) => item.tenderId) : [];
		executions.push({ startedMs, tenderIds, failed });
	}
	return executions.sort((a, b) => a.startedMs - b.startedMs);
}

/**
 * The longest a company waited between starts of complete walks, from its activation to the end
 * of the run, in floor cycles: the worst company's.
 * @param {TimedRequest[]} requests
 * @param {Run} run
 */
function longestWaitCycles(requests, { bench, companyOf, opened, activations, floorMs, toMs }) {
	const waits = activations.map(({ workflowId, startedMs }) => {
		const companyId = companyOf.get(workflowId);
		const openedAt = opened.filter((t) => t.companyId === companyId).map((t) => t.openedAtMs);
		const matchedAt = (/** @type {number} */ ms) =>
			bench.projects + openedAt.filter((at) => at <= ms).length;
		const own = requests.filter((request) => request.companyId === companyId);
		const starts = completeWalkStarts(own, matchedAt).filter((ms) => ms >= startedMs);
		const points = [startedMs, ...starts, toMs];
		return Math.max(...points.slice(1).map((ms, index) => ms - points[index]));
	});
	return Math.max(...waits) / floorMs;
}

/**
 * @typedef {object} Run
 * @property {import('../../n8n/client').N8nClient} client
 * @property {import('../sandbox').BenchSandbox & { toRealMs: (at: string) => number }} bench
 * @property {Map<string, string>} companyOf by workflow id
 * @property {OpenedTender[]} opened
 * @property {{ workflowId: string, startedMs: number, error?: string }[]} activations
 * @property {number} floorMs
 * @property {number} toMs the end of the run
 * @property {string} logFile n8n's console output
 */

/**
 * The figures, as the rows of a table.
 * @param {Run} run
 * @returns {Promise<string[][]>}
 */
async function collectFigures(run) {
	const { bench, opened, activations, floorMs, toMs } = run;
	const fromMs = Math.min(...activations.map((activation) => activation.startedMs));
	const requests = bench.sandbox.requests().flatMap(({ path, at, status, query }) => {
		const match = RESULTS_PATH.exec(path);
		const ms = bench.toRealMs(at);
		const companyId = decodeURIComponent(match?.[1] ?? '');
		const [cursor, limit] = [query.cursor, query.limit].map((value) => [value].flat()[0]);
		return match && ms >= fromMs && ms <= toMs ? [{ ms, companyId, status, cursor, limit }] : [];
	});
	requests.sort((a, b) => a.ms - b.ms);
	const executions = await readExecutions(run.client, run.companyOf, toMs);
	const announced = opened.map(({ tenderId, openedAtMs }) => {
		const by = executions.filter((execution) => execution.tenderIds.includes(tenderId));
		return { count: by.length, latencyMs: by.length > 0 ? by[0].startedMs - openedAtMs : NaN };
	});
	const latencies = announced.map((tender) => tender.latencyMs).filter((ms) => !Number.isNaN(ms));
	latencies.sort((a, b) => a - b);
	const [median, p95] = [0.5, 0.95].map((fraction) => quantile(latencies, fraction));
	const seconds = (/** @type {number | undefined} */ ms) =>
		ms === undefined ? '—' : `${fixed(ms / 1000, 1)} s`;
	const log = fs.existsSync(run.logFile) ? fs.readFileSync(run.logFile, 'utf8') : '';
	const count = (/** @type {unknown[]} */ list) => fixed(list.length);
	return [
		['Tenders opened', count(opened)],
		['Announced exactly once', count(announced.filter((tender) => tender.count === 1))],
		['Announced more than once', count(announced.filter((tender) => tender.count > 1))],
		['Never announced', count(announced.filter((tender) => tender.count === 0))],
		['Latency open → announcing execution: median / p95', `${seconds(median)} / ${seconds(p95)}`],
		['Floor cycle', seconds(floorMs)],
		['p95 latency ÷ floor cycle', p95 === undefined ? '—' : fixed(p95 / floorMs, 2)],
		[
			'Longest wait between a company’s complete walks (floor cycles)',
			fixed(longestWaitCycles(requests, run), 2),
		],
		[
			'Executions: all / failed',
			`${count(executions)} / ${count(executions.filter((execution) => execution.failed))}`,
		],
		['Activations that failed', count(activations.filter((activation) => activation.error))],
		['API answers 429', count(requests.filter((request) => request.status === 429))],
		[
			'n8n log: "Poll exceeded its timeout and was abandoned"',
			fixed(log.split('Poll exceeded its timeout and was abandoned').length - 1),
		],
		[
			'n8n log: "Poll failed; backing off" (durable scheduler)',
			fixed(log.split('Poll failed; backing off').length - 1),
		],
	];
}

module.exports = { collectFigures, TRIGGER_NODE };
