// @ts-check
'use strict';

/**
 * The figures of a run, from three sources: n8n's executions and the items the triggers emitted
 * (its REST API, with each execution's data), the sandbox's request log, and n8n's own log.
 * Times are this machine's epoch ms; the request log's sandbox times are converted.
 */

const fs = require('node:fs');

const { outputItems } = require('../../n8n/client');
const { walksByCompany } = require('./walks');
const { TRIGGER_NODE } = require('./workflows');

const RESULTS_PATH = /^\/api\/supplier\/v1\/companies\/([^/]+)\/speci-finder\/results$/;
const TOKEN_PATH = '/oauth2/token';
const FIVE_MINUTES_MS = 5 * 60_000;
const LOG_LINES = Object.freeze({
	pollTimedOut: 'Poll exceeded its timeout and was abandoned',
	cursorsDisabled: 'durable poll cursors stay disabled',
	skippedPoll: 'skipped a poll',
	backingOff: 'Poll failed; backing off',
});

/** @typedef {import('./sandbox').OpenedTender} OpenedTender */
/** @typedef {import('./walks').TimedRequest} TimedRequest */

/**
 * @typedef {object} BenchExecution
 * @property {string} id
 * @property {string} workflowId
 * @property {string} status
 * @property {number} startedMs
 * @property {unknown[]} tenderIds what the trigger emitted, by item
 * @property {string} [error] the failed execution's message
 */

/**
 * @param {number[]} sorted ascending
 * @param {number} fraction
 * @returns {number | undefined} the nearest-rank quantile
 */
function quantile(sorted, fraction) {
	if (sorted.length === 0) return undefined;
	const rank = Math.ceil(fraction * sorted.length) - 1;
	return sorted[Math.min(sorted.length - 1, Math.max(0, rank))];
}

/**
 * Every execution of the bench's workflows, with what its trigger emitted.
 * @param {import('../../n8n/client').N8nClient} client
 * @param {Map<string, string>} companyOf by workflow id
 * @returns {Promise<BenchExecution[]>}
 */
async function readExecutions(client, companyOf) {
	const listed = (await client.listExecutions()).filter((summary) =>
		companyOf.has(summary.workflowId),
	);
	/** @type {BenchExecution[]} */
	const executions = [];
	for (const summary of listed) {
		const detail = await client.getExecution(summary.id);
		const runs = detail.runData[TRIGGER_NODE] ?? [];
		const items = runs.length > 0 ? outputItems(detail, TRIGGER_NODE) : [];
		const failed = summary.status === 'error' || summary.status === 'crashed' || !!detail.error;
		const nodeError = runs[runs.length - 1]?.error;
		executions.push({
			id: summary.id,
			workflowId: summary.workflowId,
			status: summary.status,
			startedMs: Date.parse(summary.startedAt ?? summary.stoppedAt ?? ''),
			tenderIds: items.map((item) => item.tenderId),
			...(failed && { error: detail.error?.message ?? nodeError?.message ?? summary.status }),
		});
	}
	return executions;
}

/**
 * Each opened tender against the executions that announced it.
 * @param {{ opened: OpenedTender[], executions: BenchExecution[], companyOf: Map<string, string>, baselineMs: Map<string, number | undefined> }} input
 */
function tenderFigures({ opened, executions, companyOf, baselineMs }) {
	/** @type {Map<unknown, BenchExecution[]>} */
	const announcedBy = new Map();
	for (const execution of [...executions].sort((a, b) => a.startedMs - b.startedMs)) {
		for (const tenderId of execution.tenderIds) {
			announcedBy.set(tenderId, [...(announcedBy.get(tenderId) ?? []), execution]);
		}
	}
	const tenders = opened.map((tender) => {
		const by = announcedBy.get(tender.tenderId) ?? [];
		const baseline = baselineMs.get(tender.companyId);
		return {
			...tender,
			announcements: by.length,
			byOtherCompanies: by.filter((e) => companyOf.get(e.workflowId) !== tender.companyId).length,
			latencyMs: by.length > 0 ? by[0].startedMs - tender.openedAtMs : undefined,
			openedBeforeBaseline: baseline === undefined || tender.openedAtMs < baseline,
		};
	});
	const latencies = tenders.flatMap((t) => (t.latencyMs === undefined ? [] : [t.latencyMs]));
	latencies.sort((a, b) => a - b);
	const openedIds = new Set(opened.map((tender) => tender.tenderId));
	const lost = tenders.filter((tender) => tender.announcements === 0);
	return {
		opened: tenders.length,
		exactlyOnce: tenders.filter((tender) => tender.announcements === 1).length,
		duplicated: tenders.filter((tender) => tender.announcements > 1).length,
		lost: lost.length,
		lostOpenedBeforeBaseline: lost.filter((tender) => tender.openedBeforeBaseline).length,
		announcedByOtherCompanies: tenders.filter((tender) => tender.byOtherCompanies > 0).length,
		otherTendersAnnounced: [...announcedBy.keys()].filter((id) => !openedIds.has(String(id)))
			.length,
		latencyMs: {
			median: quantile(latencies, 0.5),
			p95: quantile(latencies, 0.95),
			max: latencies[latencies.length - 1],
		},
		tenders,
	};
}

/**
 * @param {BenchExecution[]} executions
 */
function executionFigures(executions) {
	/** @type {Map<string, number>} */
	const messages = new Map();
	for (const execution of executions) {
		if (execution.error !== undefined) {
			messages.set(execution.error, (messages.get(execution.error) ?? 0) + 1);
		}
	}
	return {
		total: executions.length,
		announcing: executions.filter((execution) => execution.tenderIds.length > 0).length,
		failed: executions.filter((execution) => execution.error !== undefined).length,
		errorMessages: [...messages]
			.map(([message, count]) => ({ message, count }))
			.sort((a, b) => b.count - a.count),
	};
}

/**
 * Requests per minute over the run, and in the busiest 5-minute window (sliding; the whole run
 * when it is shorter).
 * @param {number[]} times ascending
 * @param {number} fromMs
 * @param {number} toMs
 */
function perMinute(times, fromMs, toMs) {
	const spanMs = Math.min(FIVE_MINUTES_MS, toMs - fromMs);
	let busiest = 0;
	let last = 0;
	for (const [first, startMs] of [fromMs, ...times].entries()) {
		if (startMs > toMs - spanMs) break;
		const from = Math.max(0, first - 1);
		while (last < times.length && times[last] < startMs + spanMs) last++;
		busiest = Math.max(busiest, last - from);
	}
	return { mean: times.length / ((toMs - fromMs) / 60_000), max5Min: busiest / (spanMs / 60_000) };
}

/**
 * @param {{ requests: TimedRequest[], tokenRequests: number, fromMs: number, toMs: number }} input
 */
function requestFigures({ requests, tokenRequests, fromMs, toMs }) {
	const times = requests.map((request) => request.ms);
	const accepted = requests.filter((request) => request.status !== 429).map((r) => r.ms);
	for (const list of [times, accepted]) list.sort((a, b) => a - b);
	return {
		results: requests.length,
		rateLimited: requests.length - accepted.length,
		otherErrors: requests.filter((r) => r.status !== 200 && r.status !== 429).length,
		tokens: tokenRequests,
		perMinute: perMinute(times, fromMs, toMs),
		acceptedPerMinute: perMinute(accepted, fromMs, toMs),
	};
}

/** @param {string} logFile n8n's console output */
function logFigures(logFile) {
	const lines = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').split('\n') : [];
	/** @param {string} text */
	const count = (text) => lines.filter((line) => line.includes(text)).length;
	return {
		pollTimedOut: count(LOG_LINES.pollTimedOut),
		cursorsStayDisabled: count(LOG_LINES.cursorsDisabled) > 0,
		skippedPolls: count(LOG_LINES.skippedPoll),
		backingOff: count(LOG_LINES.backingOff),
	};
}

/**
 * @param {{ client: import('../../n8n/client').N8nClient, bench: import('./sandbox').PollingSandbox, companyOf: Map<string, string>, opened: OpenedTender[], activations: import('./workflows').Activation[], projects: number, floorMs: number, fromMs: number, toMs: number, logFile: string }} input
 *   fromMs: the first activation; toMs: the end of the run
 */
async function collectFigures(input) {
	const { bench, companyOf, fromMs, toMs } = input;
	const logged = bench.sandbox.requests();
	/** @type {TimedRequest[]} */
	const requests = logged.flatMap((entry) => {
		const match = RESULTS_PATH.exec(entry.path);
		const ms = bench.toRealMs(entry.at);
		return match && ms >= fromMs && ms <= toMs
			? [{ ...entry, ms, companyId: decodeURIComponent(match[1]) }]
			: [];
	});
	requests.sort((a, b) => a.ms - b.ms);
	const activatedMs = new Map(
		input.activations.map((a) => [companyOf.get(a.workflowId) ?? '', a.startedMs]),
	);
	const walks = walksByCompany({
		requests,
		companyIds: bench.companyIds,
		projects: input.projects,
		opened: input.opened,
		activatedMs,
		endMs: toMs,
		floorMs: input.floorMs,
	});
	const executions = (await readExecutions(input.client, companyOf)).filter(
		(execution) => !(execution.startedMs > toMs),
	);
	const baselineMs = new Map(walks.map((walk) => [walk.companyId, walk.baselineMs]));
	const tokenRequests = logged.filter(
		(entry) => entry.path === TOKEN_PATH && bench.toRealMs(entry.at) <= toMs,
	).length;
	return {
		tenders: tenderFigures({ opened: input.opened, executions, companyOf, baselineMs }),
		executions: executionFigures(executions),
		requests: requestFigures({ requests, tokenRequests, fromMs, toMs }),
		walks,
		log: logFigures(input.logFile),
	};
}

/** @typedef {Awaited<ReturnType<typeof collectFigures>>} Figures */

module.exports = { collectFigures, quantile, perMinute };
