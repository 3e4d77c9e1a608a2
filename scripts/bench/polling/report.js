// @ts-check
'use strict';

/**
 * The polling bench's figures as text: a headline with the settings, the figures table, the
 * failed executions' messages and the longest wait per company; and the whole result as JSON.
 */

const fs = require('node:fs');
const path = require('node:path');

const { fixed, renderSections } = require('../tables');

/** Companies listed one by one; beyond, the ones that waited longest. */
const MAX_COMPANY_ROWS = 40;
const MAX_MESSAGE_ROWS = 10;
const MAX_MESSAGE_LENGTH = 200;

/**
 * @typedef {object} Settings
 * @property {string} n8nVersion
 * @property {'legacy' | 'durable'} scheduler
 * @property {number} companies
 * @property {number} projects
 * @property {number} latencyMs
 * @property {number} minutes
 * @property {number} seed
 * @property {string} packed what was measured: the tarball, or "the work tree"
 */

/**
 * @typedef {object} Result
 * @property {string} startedAt
 * @property {string} finishedAt
 * @property {Settings} settings
 * @property {import('./plan').Plan} plan
 * @property {import('./workflows').Activation[]} activations
 * @property {import('./figures').Figures} figures
 */

/** @param {number | undefined} ms */
const seconds = (ms) => (ms === undefined || Number.isNaN(ms) ? '—' : `${fixed(ms / 1000, 1)} s`);
/** @param {number | undefined} ratio */
const times = (ratio) => (ratio === undefined ? '—' : `${fixed(ratio, 2)}×`);

/** @param {Result} result */
function headline({ settings, plan }) {
	return [
		`Polling bench: n8n ${settings.n8nVersion}, ${settings.scheduler} scheduler, ${settings.companies} companies × ${fixed(settings.projects)} matched projects (${plan.pagesPerWalk} page${plan.pagesPerWalk === 1 ? '' : 's'} a walk) on one credential, API latency ${fixed(settings.latencyMs)} ms, ${settings.minutes} min after activation (${settings.packed}).`,
		`Tenders open every ${seconds(plan.everyMs)} from ${seconds(plan.warmupMs)}; none in the last ${seconds(plan.tailMs)}. Floor cycle ${seconds(plan.floorMs)}.`,
	].join('\n');
}

/** @param {Result} result @returns {string[][]} */
function figureRows({ settings, plan, activations, figures }) {
	const { tenders, executions, requests, walks, log } = figures;
	const worst = [...walks].sort((a, b) => b.longestGapMs - a.longestGapMs)[0];
	const latency = tenders.latencyMs;
	const failedActivations = activations.filter((activation) => activation.error !== undefined);
	/** @param {{ mean: number, max5Min: number }} rate */
	const rate = (rate) => `${fixed(rate.mean, 1)} / ${fixed(rate.max5Min, 1)}`;
	return [
		['Tenders opened', fixed(tenders.opened)],
		['Announced exactly once', fixed(tenders.exactlyOnce)],
		['Announced more than once (duplicated)', fixed(tenders.duplicated)],
		['Never announced (lost)', fixed(tenders.lost)],
		[
			'  of which opened before its company’s first complete walk',
			fixed(tenders.lostOpenedBeforeBaseline),
		],
		['Announced by another company’s workflow', fixed(tenders.announcedByOtherCompanies)],
		['Other tenders announced (not opened in the run)', fixed(tenders.otherTendersAnnounced)],
		[
			'Latency open → announcing execution: median / p95 / max',
			`${seconds(latency.median)} / ${seconds(latency.p95)} / ${seconds(latency.max)}`,
		],
		['Floor cycle', seconds(plan.floorMs)],
		[
			'p95 latency / floor cycle',
			times(latency.p95 === undefined ? undefined : latency.p95 / plan.floorMs),
		],
		[
			'Longest wait between complete walks (worst company)',
			worst ? `${seconds(worst.longestGapMs)} (${worst.companyId})` : '—',
		],
		['  the same in floor cycles', times(worst?.longestGapCycles)],
		[
			'Companies that waited more than 3 floor cycles',
			`${walks.filter((walk) => walk.longestGapCycles > 3).length} of ${walks.length}`,
		],
		[
			'Executions: all / announcing / failed',
			`${fixed(executions.total)} / ${fixed(executions.announcing)} / ${fixed(executions.failed)}`,
		],
		['Distinct error messages of failed executions', fixed(executions.errorMessages.length)],
		['Activations that failed', fixed(failedActivations.length)],
		['API answers 429', fixed(requests.rateLimited)],
		['API answers other than 200 and 429', fixed(requests.otherErrors)],
		['API requests per minute: mean / busiest 5 min', rate(requests.perMinute)],
		['  accepted (not 429): mean / busiest 5 min', rate(requests.acceptedPerMinute)],
		['Token requests', fixed(requests.tokens)],
		['n8n log: "Poll exceeded its timeout and was abandoned"', fixed(log.pollTimedOut)],
		[
			'n8n log: "durable poll cursors stay disabled"',
			settings.scheduler === 'durable' ? (log.cursorsStayDisabled ? 'yes' : 'no') : '— (legacy)',
		],
		['n8n log: the trigger\'s "skipped a poll" warnings', fixed(log.skippedPolls)],
		[
			'n8n log: "Poll failed; backing off" (durable scheduler)',
			settings.scheduler === 'durable' ? fixed(log.backingOff) : '— (legacy)',
		],
	];
}

/** @param {Result} result @returns {string} */
function renderReport(result) {
	const { figures } = result;
	const walks = [...figures.walks].sort((a, b) => b.longestGapMs - a.longestGapMs);
	const shown = walks.slice(0, MAX_COMPANY_ROWS);
	const sections = [
		{ title: 'Figures', headers: ['Figure', 'Value'], rows: figureRows(result) },
		{
			title: `Longest wait between complete walks, by company${shown.length < walks.length ? ` (the ${shown.length} longest of ${walks.length})` : ''}`,
			headers: ['Company', 'Complete walks', 'Longest wait', 'Floor cycles'],
			rows: shown.map((walk) => [
				walk.companyId,
				fixed(walk.completeWalks),
				seconds(walk.longestGapMs),
				times(walk.longestGapCycles),
			]),
		},
	];
	const messages = figures.executions.errorMessages.slice(0, MAX_MESSAGE_ROWS);
	if (messages.length > 0) {
		sections.push({
			title: 'Failed executions by error message',
			headers: ['Executions', 'Message'],
			rows: messages.map(({ count, message }) => {
				const line = message.replace(/\s+/g, ' ');
				const short =
					line.length > MAX_MESSAGE_LENGTH ? `${line.slice(0, MAX_MESSAGE_LENGTH)}…` : line;
				return [fixed(count), short];
			}),
		});
	}
	return `${headline(result)}\n${renderSections(sections)}\n`;
}

/**
 * @param {string} file
 * @param {Result} result
 */
function writeJson(file, result) {
	fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
	fs.writeFileSync(file, `${JSON.stringify(result, null, '\t')}\n`);
}

module.exports = { renderReport, writeJson };
