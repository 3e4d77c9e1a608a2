// @ts-check
'use strict';

/** The bench's verdicts on its targets, and its tables as text and Markdown, from the results. */

const { median } = require('simple-statistics');
const { fixed, mebibytes, columnsSection, renderSections } = require('./tables');
const { networkSections, probeLine } = require('./network');

/** @typedef {import('./index').Results} Results */
/** @typedef {import('./index').WallCell} WallCell */
/** @typedef {import('./sandbox').RequestCounts} RequestCounts */
/** @typedef {{ target: string, measured: string, met: boolean }} Verdict */

const TARGETS = Object.freeze({
	walkRatio: 1.05,
	itemsPerSecond: 100_000,
	triggerMs: 200,
	bytesPerTender: 64,
});

/**
 * @param {number} count
 * @param {string} noun
 */
function plural(count, noun) {
	return `${fixed(count)} ${noun}${count === 1 ? '' : 's'}`;
}

/**
 * @param {WallCell | undefined} cell
 * @param {string} key
 * @returns {WallCell}
 */
function timed(cell, key) {
	if (cell === undefined) throw new Error(`the wall-time results have no timing for ${key}`);
	return cell;
}

/**
 * @param {string} target
 * @param {number} measured
 * @param {'<=' | '>=' | '<'} comparison
 * @param {number} limit
 * @param {(value: number) => string} format
 * @returns {Verdict}
 */
function verdict(target, measured, comparison, limit, format) {
	const met =
		comparison === '<='
			? measured <= limit
			: comparison === '<'
				? measured < limit
				: measured >= limit;
	return { target, measured: format(measured), met };
}

/**
 * @param {Results} results
 * @returns {Verdict[]}
 */
function judge(results) {
	/** @type {Verdict[]} */
	const verdicts = [];
	for (const row of results.requests) {
		const ours = row.clients.ours;
		verdicts.push({
			target: `requests = floor for ${fixed(row.projects)} projects (${plural(row.floor.results, 'page')} + ${plural(row.floor.tokens, 'token')})`,
			measured: `${plural(ours.results, 'page')} + ${plural(ours.tokens, 'token')}${ours.failed > 0 ? `, ${ours.failed} refused` : ''}`,
			met: ours.results === row.floor.results && ours.tokens === row.floor.tokens,
		});
	}
	const { tokens } = results;
	verdicts.push(
		verdict(
			`one token per credential per process per hour: ${tokens.executions} executions back to back (floor 1)`,
			tokens.backToBack.ours.tokens,
			'<=',
			tokens.backToBack.floor,
			(value) => plural(value, 'token'),
		),
		verdict(
			`one token per credential per process per hour: ${tokens.executions} executions ${tokens.spread.minutesBetween} min apart, ${fixed(tokens.spread.spanMinutes)} min (floor ${tokens.spread.floor})`,
			tokens.spread.ours.tokens,
			'<=',
			tokens.spread.floor,
			(value) =>
				`${plural(value, 'token')}, ${plural(tokens.spread.ours.failed, 'refused request')}`,
		),
	);
	for (const row of results.wallTime) {
		const ours = timed(row.clients.ours, 'ours');
		const plain = timed(row.clients.plain100, 'plain100');
		verdicts.push(
			verdict(
				`walk of ${fixed(row.projects)} projects within ${TARGETS.walkRatio}× of ${row.pages} × ${results.settings.latencyMs} ms (warm token)`,
				ours.ratioToFloor,
				'<=',
				TARGETS.walkRatio,
				(value) =>
					`${fixed(value, 3)}× (plain client ${fixed(plain.ratioToFloor, 3)}×, bare round trips ${fixed(row.roundTrips.ratioToFloor, 3)}×, timers alone ${fixed(row.timers.ratioToFloor, 3)}×)`,
			),
		);
	}
	for (const mode of results.items.modes.filter((entry) => entry.output === 'tenders')) {
		verdicts.push(
			verdict(
				`≥ ${fixed(TARGETS.itemsPerSecond)} items per CPU second splitting ${fixed(results.items.projects)} projects into tenders${mode.simplify ? ', simplified' : ''} through the engine (CPU beyond the same walk in the default output)`,
				mode.itemsPerModeCpuSecond ?? Infinity,
				'>=',
				TARGETS.itemsPerSecond,
				(value) =>
					`${Number.isFinite(value) ? fixed(value) : 'no measurable CPU'} items/s (whole walk: ${fixed(mode.itemsPerCpuSecond)} items/s)`,
			),
		);
	}
	for (const measurement of results.trigger) {
		verdicts.push(
			verdict(
				`trigger comparison of ${fixed(measurement.tracked)} tracked tenders < ${TARGETS.triggerMs} ms CPU (${measurement.event})`,
				measurement.diff.cpuMs,
				'<',
				TARGETS.triggerMs,
				(value) =>
					`${fixed(value)} ms (whole poll's state work ${fixed(measurement.total.cpuMs)} ms)`,
			),
			verdict(
				`≤ ${TARGETS.bytesPerTender} bytes of static data per tracked tender (${measurement.event})`,
				measurement.bytesPerTender,
				'<=',
				TARGETS.bytesPerTender,
				(value) =>
					`${fixed(value, 1)} B (with 36-character ids ${fixed(measurement.uuidBytesPerTender, 1)} B)`,
			),
		);
	}
	return verdicts;
}

/** @typedef {import('./tables').Section} Section */

/** @param {RequestCounts} counts */
function pagesAndTokens(counts) {
	return `${fixed(counts.results)} + ${counts.tokens}${counts.failed > 0 ? ` (${counts.failed} refused)` : ''}`;
}

/** @param {Results} results */
function requestsTable(results) {
	return columnsSection(
		'Requests of one full walk (page requests + token requests), each client cold',
		results.requests,
		[
			['projects', (row) => fixed(row.projects)],
			['floor', (row) => `${fixed(row.floor.results)} + ${row.floor.tokens}`],
			['ours', (row) => pagesAndTokens(row.clients.ours)],
			['recipe (HTTP Request + OAuth2)', (row) => pagesAndTokens(row.clients.recipe)],
			['plain client, 25/page', (row) => pagesAndTokens(row.clients.defaultPageSize)],
		],
	);
}

/**
 * @param {Results} results
 * @returns {Section}
 */
function tokensTable({ tokens }) {
	/** @param {RequestCounts} counts */
	const tokenCell = (counts) =>
		`${counts.tokens} (${fixed(counts.results)} page requests${counts.failed > 0 ? `, ${counts.failed} refused with 401` : ''})`;
	return {
		title: `Token requests over ${tokens.executions} executions on one credential (${fixed(tokens.projectsPerExecution)} projects each)`,
		headers: ['executions', 'floor', 'ours', 'recipe'],
		rows: [
			[
				'back to back',
				String(tokens.backToBack.floor),
				tokenCell(tokens.backToBack.ours),
				tokenCell(tokens.backToBack.recipe),
			],
			[
				`${tokens.spread.minutesBetween} min apart, ${fixed(tokens.spread.spanMinutes)} min (simulated clock)`,
				String(tokens.spread.floor),
				tokenCell(tokens.spread.ours),
				tokenCell(tokens.spread.recipe),
			],
		],
	};
}

/** @param {Results} results */
function wallTimeTable(results) {
	/** @param {WallCell | undefined} cell */
	const wallCell = (cell) =>
		cell === undefined ? '—' : `${fixed(cell.medianMs)} ms (${fixed(cell.ratioToFloor, 3)}×)`;
	return columnsSection(
		`Wall time of a full walk, ${results.settings.latencyMs} ms added to every request, median of ${results.settings.repetitions} (× pages × latency)`,
		results.wallTime,
		[
			['projects', (row) => fixed(row.projects)],
			['floor', (row) => `${fixed(row.floorMs)} ms`],
			['timers alone', (row) => wallCell(row.timers)],
			['bare round trips', (row) => wallCell(row.roundTrips)],
			['ours', (row) => wallCell(row.clients.ours)],
			['ours cold (+ token)', (row) => wallCell(row.clients.oursCold)],
			['recipe', (row) => wallCell(row.clients.recipe)],
			['plain client, 100/page', (row) => wallCell(row.clients.plain100)],
			['plain client, 25/page', (row) => wallCell(row.clients.defaultPageSize)],
		],
	);
}

/** @param {Results} results */
function itemsTable(results) {
	const { items } = results;
	/** @param {Results['items']['modes'][number]} mode */
	const isDefault = (mode) => mode.output === 'projects' && !mode.simplify;
	/** @param {Results['items']['modes'][number]} mode */
	const shapingAlone = (mode) => {
		const alone = items.shaping.find(
			(entry) => entry.output === mode.output && entry.simplify === mode.simplify,
		);
		return alone === undefined ? '—' : `${fixed(alone.cpuMs, 1)} ms`;
	};
	return columnsSection(
		`${fixed(items.projects)} projects (${fixed(items.tenders)} tenders, ${mebibytes(items.responseBytes)} of JSON in ${items.pages} pages) into items through the engine, warm CPU, median of ${results.settings.repetitions}; the plain client (fetch + JSON.parse) walks the same pages in ${fixed(median(items.modes.map((mode) => mode.plainCpuMs)))} ms, JSON.parse alone takes ${fixed(items.parseCpuMs)} ms`,
		items.modes,
		[
			['output', (mode) => `${mode.output}${mode.simplify ? ', simplified' : ''}`],
			['items', (mode) => fixed(mode.items)],
			['whole walk CPU', (mode) => `${fixed(mode.oursCpuMs)} ms`],
			['items / CPU s', (mode) => fixed(mode.itemsPerCpuSecond)],
			['of it: this output', (mode) => (isDefault(mode) ? '—' : `${fixed(mode.modeCpuMs)} ms`)],
			[
				'items / CPU s of it',
				(mode) =>
					isDefault(mode) || mode.itemsPerModeCpuSecond === null
						? '—'
						: fixed(mode.itemsPerModeCpuSecond),
			],
			['beyond plain client', (mode) => `${fixed(mode.beyondPlainCpuMs)} ms`],
			['shaping alone', shapingAlone],
			['peak RSS', (mode) => mebibytes(mode.peakRssBytes)],
			['RSS growth', (mode) => mebibytes(mode.rssGrowthBytes)],
			['heap growth', (mode) => mebibytes(mode.peakHeapGrowthBytes)],
		],
	);
}

/** @param {Results} results */
function triggerTable(results) {
	/** @param {{ cpuMs: number, wallMs: number }} step */
	const cpuAndWall = (step) => `${fixed(step.cpuMs)} (${fixed(step.wallMs)})`;
	return columnsSection(
		`Trigger state work per poll, ${fixed(results.trigger[0]?.tracked ?? 0)} tracked tenders (1% new, 1% changed, 1% gone): median CPU (wall) ms`,
		results.trigger,
		[
			['event', (measurement) => measurement.event],
			['read state', (measurement) => cpuAndWall(measurement.read)],
			['list tenders', (measurement) => cpuAndWall(measurement.list)],
			['compare', (measurement) => cpuAndWall(measurement.diff)],
			['write state', (measurement) => cpuAndWall(measurement.write)],
			['total', (measurement) => cpuAndWall(measurement.total)],
			['static data', (measurement) => mebibytes(measurement.stateBytes)],
			['bytes / tender', (measurement) => fixed(measurement.bytesPerTender, 1)],
			['with 36-char ids', (measurement) => fixed(measurement.uuidBytesPerTender, 1)],
		],
	);
}

/**
 * @param {Results} results
 * @returns {string} Markdown
 */
function renderTables(results) {
	const sections = [
		requestsTable(results),
		tokensTable(results),
		wallTimeTable(results),
		...networkSections(results.network),
		itemsTable(results),
		triggerTable(results),
		columnsSection('Targets', results.verdicts, [
			['', (entry) => (entry.met ? 'met' : 'MISSED')],
			['target', (entry) => entry.target],
			['measured', (entry) => entry.measured],
		]),
	];
	return [headline(results), probeLine(results.network), renderSections(sections)].join('\n');
}

/**
 * What ran, on what, and how busy the machine was.
 * @param {Pick<Results, 'machine' | 'versions'>} results
 */
function headline({ machine, versions }) {
	const loads = (/** @type {number[]} */ values) =>
		values.map((value) => fixed(value, 1)).join(' ');
	return `n8n-core ${versions['n8n-core']}, n8n-workflow ${versions['n8n-workflow']}, n8n-nodes-base ${versions['n8n-nodes-base']} (HTTP Request node v${versions.httpRequestNode}); Node ${machine.node}, ${machine.cpus} CPUs, load average ${loads(machine.loadAverageAtStart)} at start, ${loads(machine.loadAverageAtEnd)} at end`;
}

module.exports = { headline, judge, renderTables, verdict };
