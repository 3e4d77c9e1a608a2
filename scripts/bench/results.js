// @ts-check
'use strict';

/** The bench's verdicts on its targets, its tables, and the one file of results. */

const fs = require('node:fs');
const path = require('node:path');

const { networkSections, probeLine } = require('./network');
const { fixed, mebibytes, columnsSection, renderSections } = require('./tables');

/** @typedef {import('./index').Results} Results */
/** @typedef {import('./sandbox').RequestCounts} RequestCounts */
/** @typedef {{ met: boolean, target: string, measured: string }} Verdict */

const WALK_RATIO = 1.05;
const ITEMS_PER_SECOND = 100_000;
const COMPARE_MS = 200;
const BYTES_PER_TENDER = 64;

/**
 * @param {number} count
 * @param {string} noun
 */
const plural = (count, noun) => `${fixed(count)} ${noun}${count === 1 ? '' : 's'}`;

/** @param {{ results: number, tokens: number }} counts */
const pagesAndTokens = ({ results, tokens }) =>
	`${plural(results, 'page')} + ${plural(tokens, 'token')}`;

/**
 * @param {Omit<Results, 'verdicts'>} results
 * @returns {Verdict[]}
 */
function judge({ settings, tokens, wallTime, items, trigger }) {
	const oneToken = `one token per credential per process per hour: ${tokens.executions} executions`;
	const { backToBack, spread } = tokens;
	return [
		...wallTime.map(({ projects, floor, requests: { ours } }) => ({
			met: ours.results === floor.results && ours.tokens === floor.tokens,
			target: `requests = floor for ${fixed(projects)} projects (${pagesAndTokens(floor)})`,
			measured: `${pagesAndTokens(ours)}${ours.failed > 0 ? `, ${ours.failed} refused` : ''}`,
		})),
		{
			met: backToBack.ours.tokens <= backToBack.floor,
			target: `${oneToken} back to back (floor ${backToBack.floor})`,
			measured: plural(backToBack.ours.tokens, 'token'),
		},
		{
			met: spread.ours.tokens <= spread.floor,
			target: `${oneToken} ${spread.minutesBetween} min apart, ${fixed(spread.spanMinutes)} min (floor ${spread.floor})`,
			measured: `${plural(spread.ours.tokens, 'token')}, ${plural(spread.ours.failed, 'refused request')}`,
		},
		...wallTime.map(({ projects, pages, cells }) => ({
			met: cells.ours.ratioToFloor <= WALK_RATIO,
			target: `walk of ${fixed(projects)} projects within ${WALK_RATIO}× of ${pages} × ${settings.latencyMs} ms (warm token)`,
			measured: `${fixed(cells.ours.ratioToFloor, 3)}× (plain client ${fixed(cells.plain100.ratioToFloor, 3)}×, bare round trips ${fixed(cells.roundTrips.ratioToFloor, 3)}×, timers alone ${fixed(cells.timers.ratioToFloor, 3)}×)`,
		})),
		...items.modes
			.filter((mode) => mode.output === 'tenders')
			.map((mode) => ({
				met: mode.itemsPerModeCpuSecond === null || mode.itemsPerModeCpuSecond >= ITEMS_PER_SECOND,
				target: `≥ ${fixed(ITEMS_PER_SECOND)} items per CPU second splitting ${fixed(items.projects)} projects into tenders${mode.simplify ? ', simplified' : ''} through the engine (CPU beyond the same walk in the default output)`,
				measured: `${mode.itemsPerModeCpuSecond === null ? 'no measurable CPU' : fixed(mode.itemsPerModeCpuSecond)} items/s (whole walk: ${fixed(mode.itemsPerCpuSecond)} items/s)`,
			})),
		...trigger.flatMap((measurement) => [
			{
				met: measurement.diff.cpuMs < COMPARE_MS,
				target: `trigger comparison of ${fixed(measurement.tracked)} tracked tenders < ${COMPARE_MS} ms CPU (${measurement.event})`,
				measured: `${fixed(measurement.diff.cpuMs)} ms (whole poll's state work ${fixed(measurement.total.cpuMs)} ms)`,
			},
			{
				met: measurement.bytesPerTender <= BYTES_PER_TENDER,
				target: `≤ ${BYTES_PER_TENDER} bytes of static data per tracked tender (${measurement.event})`,
				measured: `${fixed(measurement.bytesPerTender, 1)} B (with 36-character ids ${fixed(measurement.uuidBytesPerTender, 1)} B)`,
			},
		]),
	];
}

/** @param {RequestCounts} counts */
const countsCell = ({ results, tokens, failed }) =>
	`${fixed(results)} + ${tokens}${failed > 0 ? ` (${failed} refused)` : ''}`;

/** @param {RequestCounts} counts */
const tokensCell = ({ results, tokens, failed }) =>
	`${tokens} (${fixed(results)} page requests${failed > 0 ? `, ${failed} refused with 401` : ''})`;

/** @param {{ medianMs: number, ratioToFloor: number }} cell */
const wallCell = (cell) => `${fixed(cell.medianMs)} ms (${fixed(cell.ratioToFloor, 3)}×)`;

/** @param {{ cpuMs: number, wallMs: number }} step */
const cpuAndWall = (step) => `${fixed(step.cpuMs)} (${fixed(step.wallMs)})`;

/** @param {Results} results */
function loopbackSections({ settings, tokens, wallTime, items, trigger }) {
	const { executions, projectsPerExecution, backToBack, spread } = tokens;
	return [
		columnsSection(
			'Requests of one full walk (page requests + token requests), each client cold',
			wallTime,
			[
				['projects', (row) => fixed(row.projects)],
				['floor', (row) => countsCell({ ...row.floor, failed: 0 })],
				['ours', (row) => countsCell(row.requests.ours)],
				['recipe (HTTP Request + OAuth2)', (row) => countsCell(row.requests.recipe)],
				['plain client, 25/page', (row) => countsCell(row.requests.defaultPageSize)],
			],
		),
		columnsSection(
			`Token requests over ${executions} executions on one credential (${fixed(projectsPerExecution)} projects each)`,
			[
				{ label: 'back to back', ...backToBack },
				{
					label: `${spread.minutesBetween} min apart, ${fixed(spread.spanMinutes)} min (simulated clock)`,
					...spread,
				},
			],
			[
				['executions', (row) => row.label],
				['floor', (row) => String(row.floor)],
				['ours', (row) => tokensCell(row.ours)],
				['recipe', (row) => tokensCell(row.recipe)],
			],
		),
		columnsSection(
			`Wall time of a full walk, ${settings.latencyMs} ms added to every request, median of ${settings.repetitions} (× pages × latency)`,
			wallTime,
			[
				['projects', (row) => fixed(row.projects)],
				['floor', (row) => `${fixed(row.floorMs)} ms`],
				['timers alone', (row) => wallCell(row.cells.timers)],
				['bare round trips', (row) => wallCell(row.cells.roundTrips)],
				['ours', (row) => wallCell(row.cells.ours)],
				['recipe', (row) => wallCell(row.cells.recipe)],
				['plain client, 100/page', (row) => wallCell(row.cells.plain100)],
			],
		),
		columnsSection(
			`${fixed(items.projects)} projects (${fixed(items.tenders)} tenders, ${mebibytes(items.responseBytes)} of JSON in ${items.pages} pages) into items through the engine, warm CPU, median of ${settings.repetitions}; the plain client (fetch + JSON.parse) walks the same pages in ${fixed(items.plainCpuMs)} ms, JSON.parse alone takes ${fixed(items.parseCpuMs)} ms`,
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
				['shaping alone', (mode) => `${fixed(mode.shapingCpuMs, 1)} ms`],
			],
		),
		columnsSection(
			`Trigger state work per poll, ${fixed(trigger[0].tracked)} tracked tenders (1% new, 1% changed, 1% gone): median CPU (wall) ms`,
			trigger,
			[
				['event', (row) => row.event],
				['read state', (row) => cpuAndWall(row.read)],
				['list tenders', (row) => cpuAndWall(row.list)],
				['compare', (row) => cpuAndWall(row.diff)],
				['write state', (row) => cpuAndWall(row.write)],
				['total', (row) => cpuAndWall(row.total)],
				['static data', (row) => mebibytes(row.stateBytes)],
				['bytes / tender', (row) => fixed(row.bytesPerTender, 1)],
				['with 36-char ids', (row) => fixed(row.uuidBytesPerTender, 1)],
			],
		),
	];
}

/** @param {{ output: string, simplify: boolean }} mode */
const isDefault = (mode) => mode.output === 'projects' && !mode.simplify;

/**
 * Prints the tables and writes them as Markdown beside the results as JSON.
 * @param {string} file
 * @param {Results} results
 */
function writeResults(file, results) {
	const { machine, versions } = results;
	const [start, end] = [machine.loadAverageAtStart[0], machine.loadAverageAtEnd[0]];
	const headline = `n8n-core ${versions['n8n-core']}, n8n-workflow ${versions['n8n-workflow']}, n8n-nodes-base ${versions['n8n-nodes-base']} (HTTP Request node v${versions.httpRequestNode}); Node ${machine.node}, ${machine.cpus} CPUs, load average ${fixed(start, 1)} at start, ${fixed(end, 1)} at end`;
	const targets = columnsSection('Targets', results.verdicts, [
		['', (verdict) => (verdict.met ? 'met' : 'MISSED')],
		['target', (verdict) => verdict.target],
		['measured', (verdict) => verdict.measured],
	]);
	const sections = [...loopbackSections(results), ...networkSections(results.network), targets];
	const tables = [headline, probeLine(results.network), renderSections(sections)].join('\n');
	const markdownFile = file.replace(/\.json$/, '.md');
	fs.mkdirSync(path.dirname(file), { recursive: true });
	fs.writeFileSync(file, `${JSON.stringify(results, null, '\t')}\n`);
	fs.writeFileSync(markdownFile, `${tables}\n`);
	process.stdout.write(`${tables}\n\nResults: ${file} (tables as Markdown: ${markdownFile})\n`);
}

module.exports = { judge, writeResults };
