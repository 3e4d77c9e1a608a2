#!/usr/bin/env node
// @ts-check
'use strict';

/**
 * `npm run bench`: requests, tokens, wall time, CPU and memory of our node against the physical
 * floor, the HTTP Request node recipe and a plain client, side by side in one run against the
 * local sandbox. Prints the tables and writes them as JSON (and Markdown) under .bench-results/.
 *
 * Environment: BENCH_REPETITIONS (default 3) repetitions of every timed measurement;
 * BENCH_OUTPUT the JSON file to write.
 */

const { fork } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { installRuntime, assertSingleN8nTree, requireTypeScript, REPO_ROOT } = require('./runtime');
const {
	DEFAULT_PAGE_SIZE,
	MAX_PAGE_SIZE,
	median,
	pagesFor,
	perSecond,
	ratio,
	requestFloor,
	tokenFloor,
	verdict,
} = require('./stats');
const { fixed, mebibytes, markdownTable, textTable } = require('./report');
const { countRequests, startBenchSandbox } = require('./sandbox');

/** @typedef {import('./sandbox').BenchSandbox} BenchSandbox */
/** @typedef {import('./clients').Client} Client */
/** @typedef {import('./clients').Target} Target */
/** @typedef {import('./items-worker').ItemsResult} ItemsResult */
/** @typedef {import('./items-worker').ItemsJob} ItemsJob */
/** @typedef {import('./trigger').TriggerMeasurement} TriggerMeasurement */
/** @typedef {import('./stats').Verdict} Verdict */
/** @typedef {import('./sandbox').RequestCounts} RequestCounts */

const SIZES = [100, 1_000, 10_000];
const LATENCY_MS = 50;
const EXECUTIONS = 50;
const MINUTES_BETWEEN_EXECUTIONS = 5;
const TOKEN_LIFETIME_MS = 3_600_000;
const ITEMS_PROJECTS = 10_000;
const TRIGGER_TENDERS = 100_000;
const TARGETS = Object.freeze({
	walkRatio: 1.05,
	itemsPerSecond: 100_000,
	triggerMs: 200,
	bytesPerTender: 64,
});

/**
 * @param {string} line
 */
function progress(line) {
	process.stderr.write(`[bench] ${line}\n`);
}

/**
 * @param {string} name
 * @param {number} fallback
 * @returns {number}
 */
function envCount(name, fallback) {
	const raw = process.env[name];
	if (raw === undefined || raw === '') return fallback;
	const value = Number(raw);
	if (!Number.isInteger(value) || value < 1 || value > 50) {
		throw new Error(`${name} must be a whole number from 1 to 50 (got ${JSON.stringify(raw)})`);
	}
	return value;
}

/**
 * @param {BenchSandbox} bench
 * @returns {Target}
 */
function targetOf(bench) {
	return { url: bench.sandbox.url, companyId: bench.companyId, client: bench.client };
}

/**
 * One execution against a sandbox, checked: every project delivered, and what it sent counted.
 * @param {BenchSandbox} bench
 * @param {Client} client
 * @returns {Promise<{ counts: RequestCounts, wallMs: number, items: number }>}
 */
async function measuredWalk(bench, client) {
	client.freshBudget();
	bench.sandbox.resetRequests();
	const start = performance.now();
	const result = await client.walk();
	const wallMs = performance.now() - start;
	const counts = countRequests(bench.sandbox);
	const delivered = result.projects();
	if (delivered !== bench.projects) {
		throw new Error(
			`${client.name} delivered ${delivered} of ${bench.projects} projects; the bench only compares complete walks`,
		);
	}
	if (counts.failed > 0 && client.name === 'ours') {
		throw new Error(
			`our node got ${counts.failed} failed answers from the sandbox; nothing should fail here`,
		);
	}
	return { counts, wallMs, items: result.items };
}

/**
 * Runs `run` with Date.now moved forward by what it asks for; everything in this process that
 * tells time by Date.now (our token cache, n8n's OAuth2 token expiry, the sandbox clock) sees the
 * same simulated time. Timers are untouched.
 * @template T
 * @param {(advance: (ms: number) => void) => Promise<T>} run
 * @returns {Promise<T>}
 */
async function withSimulatedTime(run) {
	const realNow = Date.now;
	let skew = 0;
	Date.now = () => realNow() + skew;
	try {
		return await run((ms) => {
			skew += ms;
		});
	} finally {
		Date.now = realNow;
	}
}

/**
 * @param {ItemsJob} job
 * @returns {Promise<ItemsResult>}
 */
function measureItemsInChild(job) {
	return new Promise((resolve, reject) => {
		const child = fork(path.join(__dirname, 'items-worker.js'), [JSON.stringify(job)], {
			execArgv: ['--expose-gc'],
			stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
		});
		/** @type {{ ok: true, result: ItemsResult } | { ok: false, error: string } | undefined} */
		let answer;
		child.on('message', (message) => {
			answer = /** @type {typeof answer} */ (message);
		});
		child.on('error', reject);
		child.on('exit', (code, signal) => {
			if (answer?.ok) resolve(answer.result);
			else
				reject(
					new Error(
						`the items measurement (${job.output}${job.simplify ? ', simplified' : ''}) failed: ${answer?.ok === false ? answer.error : `exit ${signal ?? code}`}`,
					),
				);
		});
	});
}

/**
 * @returns {{ user: number, system: number, ms: () => number }}
 */
function cpuClock() {
	const start = process.cpuUsage();
	return {
		...start,
		ms: () => {
			const used = process.cpuUsage(start);
			return (used.user + used.system) / 1000;
		},
	};
}

async function main() {
	const repetitions = envCount('BENCH_REPETITIONS', 3);
	const outputFile = path.resolve(
		process.env.BENCH_OUTPUT ?? path.join(REPO_ROOT, '.bench-results', 'bench-results.json'),
	);
	const startedAt = new Date();
	const loadAtStart = os.loadavg();
	progress('loading the real n8n install (installs it once, about ten minutes, if missing)');
	const runtime = await installRuntime(progress);
	const { HttpRequest } =
		/** @type {{ HttpRequest: new () => import('n8n-workflow').IVersionedNodeType }} */ (
			runtime.requireFromN8n('n8n-nodes-base/dist/nodes/HttpRequest/HttpRequest.node.js')
		);
	const { OAuth2Api } =
		/** @type {{ OAuth2Api: new () => import('n8n-workflow').ICredentialType }} */ (
			runtime.requireFromN8n('n8n-nodes-base/dist/credentials/OAuth2Api.credentials.js')
		);
	const nodesBaseVersion = /** @type {{ version: string }} */ (
		runtime.requireFromN8n('n8n-nodes-base/package.json')
	).version;
	const n8nBase = { httpRequestNode: new HttpRequest(), oauth2Credential: new OAuth2Api() };
	const recipeVersion =
		n8nBase.httpRequestNode.description.defaultVersion ?? n8nBase.httpRequestNode.currentVersion;
	const { ourNode, recipe, plainClient } = require('./clients');
	const { measureTrigger } = require('./trigger');
	const { shapeItems } =
		/** @type {typeof import('../../nodes/SupplierMatchedProjects/helpers/items')} */ (
			requireTypeScript('nodes/SupplierMatchedProjects/helpers/items.ts')
		);

	/** @type {Map<number, BenchSandbox>} */
	const sandboxes = new Map();
	try {
		for (const projects of SIZES) {
			progress(`starting a sandbox with ${fixed(projects)} projects`);
			sandboxes.set(projects, await startBenchSandbox({ projects }));
		}
		/** @param {number} projects */
		const sandboxOf = (projects) => {
			const bench = sandboxes.get(projects);
			if (bench === undefined) throw new Error(`no sandbox with ${projects} projects`);
			return bench;
		};

		// ---- requests and tokens of one full walk, each client cold (new process, new credential)
		progress('requests of a full walk');
		const requestRows = [];
		for (const projects of SIZES) {
			const bench = sandboxOf(projects);
			const target = targetOf(bench);
			/** @type {Record<string, RequestCounts>} */
			const clients = {};
			for (const client of [
				ourNode(target),
				recipe(target, n8nBase),
				plainClient(target, { name: 'defaultPageSize' }),
			]) {
				client.forget();
				clients[client.name] = (await measuredWalk(bench, client)).counts;
			}
			requestRows.push({
				projects,
				tenders: bench.tenders,
				floor: requestFloor(projects),
				defaultPageSizePages: pagesFor(projects, DEFAULT_PAGE_SIZE),
				clients,
			});
		}

		// ---- tokens over many executions on one credential
		progress(`tokens over ${EXECUTIONS} executions`);
		const tokenBench = sandboxOf(100);
		const tokenTarget = targetOf(tokenBench);
		/**
		 * @param {Client} client
		 * @param {(ms: number) => void} [advance]
		 */
		const executions = async (client, advance) => {
			client.forget();
			/** @type {RequestCounts} */
			const total = { results: 0, tokens: 0, failed: 0 };
			for (let execution = 0; execution < EXECUTIONS; execution++) {
				if (execution > 0) advance?.(MINUTES_BETWEEN_EXECUTIONS * 60_000);
				const { counts } = await measuredWalk(tokenBench, client);
				total.results += counts.results;
				total.tokens += counts.tokens;
				total.failed += counts.failed;
			}
			return total;
		};
		const backToBack = {
			ours: await executions(ourNode(tokenTarget)),
			recipe: await executions(recipe(tokenTarget, n8nBase)),
		};
		const spreadMs = (EXECUTIONS - 1) * MINUTES_BETWEEN_EXECUTIONS * 60_000;
		const spread = await withSimulatedTime(async (advance) => ({
			ours: await executions(ourNode(tokenTarget), advance),
			recipe: await executions(recipe(tokenTarget, n8nBase), advance),
		}));
		const tokens = {
			executions: EXECUTIONS,
			pagesPerExecution: pagesFor(100, MAX_PAGE_SIZE),
			backToBack: { floor: 1, ...backToBack },
			spread: {
				minutesBetween: MINUTES_BETWEEN_EXECUTIONS,
				spanMinutes: spreadMs / 60_000,
				floor: tokenFloor(spreadMs, TOKEN_LIFETIME_MS),
				...spread,
			},
		};

		// ---- wall time with latency, warm and cold
		progress(`wall time with ${LATENCY_MS} ms latency per request, ${repetitions} repetitions`);
		const wallRows = [];
		for (const projects of SIZES) {
			const bench = sandboxOf(projects);
			const target = targetOf(bench);
			const pages = pagesFor(projects, MAX_PAGE_SIZE);
			const defaultPages = pagesFor(projects, DEFAULT_PAGE_SIZE);
			// Cold runs before warm ones in each round: the cold run's forget() empties the process's
			// token cache, and the warm run then uses the token the cold one fetched.
			const lineup = [
				{ key: 'oursCold', client: ourNode(target), cold: true, pages },
				{ key: 'ours', client: ourNode(target), cold: false, pages },
				{ key: 'recipe', client: recipe(target, n8nBase), cold: false, pages },
				{
					key: 'plain100',
					client: plainClient(target, { name: 'plain100', pageSize: 100 }),
					cold: false,
					pages,
				},
				{
					key: 'defaultPageSize',
					client: plainClient(target, { name: 'defaultPageSize' }),
					cold: false,
					pages: defaultPages,
				},
			];
			bench.sandbox.setLatency(0);
			for (const entry of lineup) await measuredWalk(bench, entry.client);
			bench.sandbox.setLatency(LATENCY_MS);
			/** @type {Record<string, number[]>} */
			const runs = Object.fromEntries(lineup.map((entry) => [entry.key, []]));
			for (let round = 0; round < repetitions; round++) {
				for (const entry of lineup) {
					if (entry.cold) entry.client.forget();
					const { counts, wallMs } = await measuredWalk(bench, entry.client);
					const expectedTokens = entry.cold ? 1 : 0;
					if (counts.results !== entry.pages || counts.tokens !== expectedTokens) {
						throw new Error(
							`${entry.key} sent ${counts.results} page and ${counts.tokens} token requests during a timed walk of ${projects} projects; expected ${entry.pages} and ${expectedTokens}`,
						);
					}
					runs[entry.key].push(wallMs);
				}
			}
			bench.sandbox.setLatency(0);
			wallRows.push({
				projects,
				pages,
				latencyMs: LATENCY_MS,
				floorMs: pages * LATENCY_MS,
				clients: Object.fromEntries(
					lineup.map((entry) => {
						const floorMs = (entry.pages + (entry.cold ? 1 : 0)) * LATENCY_MS;
						const medianMs = median(runs[entry.key]);
						return [
							entry.key,
							{
								requests: entry.pages + (entry.cold ? 1 : 0),
								medianMs,
								floorMs,
								ratioToOwnFloor: ratio(medianMs, floorMs),
								ratioToFloor: ratio(medianMs, pages * LATENCY_MS),
								runsMs: runs[entry.key],
							},
						];
					}),
				),
			});
		}

		// ---- CPU and memory: 10,000 projects into items, one process per measurement
		const itemsBench = sandboxOf(ITEMS_PROJECTS);
		const itemsTarget = targetOf(itemsBench);
		const modes = /** @type {const} */ ([
			{ output: 'projects', simplify: false },
			{ output: 'projects', simplify: true },
			{ output: 'tenders', simplify: false },
			{ output: 'tenders', simplify: true },
		]);
		progress(
			`CPU and memory of ${fixed(ITEMS_PROJECTS)} projects into items, ${modes.length} modes × ${repetitions} processes`,
		);
		/** @type {Map<string, ItemsResult[]>} */
		const itemRuns = new Map();
		for (let round = 0; round < repetitions; round++) {
			for (const mode of modes) {
				const key = `${mode.output}/${mode.simplify}`;
				const result = await measureItemsInChild({
					target: itemsTarget,
					output: mode.output,
					simplify: mode.simplify,
					projects: ITEMS_PROJECTS,
				});
				itemRuns.set(key, [...(itemRuns.get(key) ?? []), result]);
			}
		}

		progress('parse floor and item shaping alone, in this process');
		/** @type {string[]} */
		const bodies = [];
		{
			const token = await fetch(`${itemsTarget.url}/oauth2/token`, {
				method: 'POST',
				headers: { 'content-type': 'application/x-www-form-urlencoded' },
				body: new URLSearchParams({
					grant_type: 'client_credentials',
					client_id: itemsTarget.client.clientId,
					client_secret: itemsTarget.client.clientSecret,
				}).toString(),
			}).then(async (response) => /** @type {{ access_token: string }} */ (await response.json()));
			/** @type {string | null} */
			let cursor = null;
			do {
				const url = new URL(
					`${itemsTarget.url}/api/supplier/v1/companies/${itemsTarget.companyId}/speci-finder/results`,
				);
				url.searchParams.set('limit', String(MAX_PAGE_SIZE));
				if (cursor !== null) url.searchParams.set('cursor', cursor);
				const text = await fetch(url, {
					headers: {
						authorization: `Bearer ${token.access_token}`,
						'x-service-client-id': itemsTarget.client.clientId,
					},
				}).then(async (response) => await response.text());
				bodies.push(text);
				cursor =
					/** @type {import('../../nodes/SupplierMatchedProjects/api/types').ResultsPage} */ (
						JSON.parse(text)
					)._metadata.nextCursor;
			} while (cursor !== null);
		}
		const bodyBytes = bodies.reduce((sum, body) => sum + Buffer.byteLength(body, 'utf8'), 0);
		/** @type {number[]} */
		const parseRuns = [];
		/** @type {import('../../nodes/SupplierMatchedProjects/api/types').Project[]} */
		let parsedProjects = [];
		for (let round = 0; round < repetitions + 1; round++) {
			const clock = cpuClock();
			parsedProjects = bodies.flatMap(
				(body) =>
					/** @type {import('../../nodes/SupplierMatchedProjects/api/types').ResultsPage} */ (
						JSON.parse(body)
					).data,
			);
			if (round > 0) parseRuns.push(clock.ms());
		}
		const shaping = modes.map((mode) => {
			/** @type {number[]} */
			const cpuRuns = [];
			let items = 0;
			for (let round = 0; round < repetitions + 1; round++) {
				const clock = cpuClock();
				items = shapeItems(parsedProjects, mode).length;
				if (round > 0) cpuRuns.push(clock.ms());
			}
			const cpuMs = median(cpuRuns);
			return {
				...mode,
				items,
				cpuMs,
				itemsPerCpuSecond: cpuMs >= 0.5 ? perSecond(items, cpuMs) : null,
			};
		});
		const items = {
			projects: ITEMS_PROJECTS,
			tenders: itemsBench.tenders,
			pages: bodies.length,
			responseBytes: bodyBytes,
			parseFloorCpuMs: median(parseRuns),
			modes: modes.map((mode) => {
				const results = itemRuns.get(`${mode.output}/${mode.simplify}`) ?? [];
				const warmCpuMs = median(results.map((result) => result.warm.cpuMs));
				const count = results[0]?.warm.items ?? 0;
				return {
					...mode,
					items: count,
					warmCpuMs,
					warmWallMs: median(results.map((result) => result.warm.wallMs)),
					coldCpuMs: median(results.map((result) => result.cold.cpuMs)),
					itemsPerCpuSecond: perSecond(count, warmCpuMs),
					peakRssBytes: median(results.map((result) => result.maxRssBytes)),
					rssGrowthBytes: median(
						results.map((result) => result.maxRssBytes - result.cold.rssBeforeBytes),
					),
					peakHeapGrowthBytes: median(
						results.map((result) => result.warm.peakHeapBytes - result.warm.heapBeforeBytes),
					),
					runs: results,
				};
			}),
			shaping,
		};

		// ---- the trigger's state work over 100,000 tracked tenders
		progress(`trigger state over ${fixed(TRIGGER_TENDERS)} tracked tenders`);
		const triggerRepetitions = Math.max(5, repetitions);
		const trigger = [
			measureTrigger({
				event: 'newTender',
				tracked: TRIGGER_TENDERS,
				repetitions: triggerRepetitions,
			}),
			measureTrigger({
				event: 'newOrUpdatedTender',
				tracked: TRIGGER_TENDERS,
				repetitions: triggerRepetitions,
			}),
		];

		assertSingleN8nTree();

		// ---- verdicts
		/** @type {Verdict[]} */
		const verdicts = [];
		for (const row of requestRows) {
			const ours = row.clients.ours;
			verdicts.push({
				target: `requests = floor for ${fixed(row.projects)} projects (${row.floor.results} pages + ${row.floor.tokens} token)`,
				measured: `${ours.results} pages + ${ours.tokens} token`,
				met: ours.results === row.floor.results && ours.tokens === row.floor.tokens,
			});
		}
		verdicts.push(
			verdict(
				`one token per credential per process per hour: ${EXECUTIONS} executions back to back (floor 1)`,
				tokens.backToBack.ours.tokens,
				'<=',
				tokens.backToBack.floor,
				(value) => `${value} token${value === 1 ? '' : 's'}`,
			),
			verdict(
				`one token per credential per process per hour: ${EXECUTIONS} executions ${MINUTES_BETWEEN_EXECUTIONS} min apart over ${fixed(tokens.spread.spanMinutes)} min (floor ${tokens.spread.floor})`,
				tokens.spread.ours.tokens,
				'<=',
				tokens.spread.floor,
				(value) => `${value} tokens`,
			),
		);
		for (const row of wallRows) {
			verdicts.push(
				verdict(
					`walk of ${fixed(row.projects)} projects within ${TARGETS.walkRatio}× of ${row.pages} pages × ${LATENCY_MS} ms (warm token)`,
					row.clients.ours.ratioToFloor,
					'<=',
					TARGETS.walkRatio,
					(value) =>
						`${fixed(value, 3)}× (plain client: ${fixed(row.clients.plain100.ratioToFloor, 3)}×)`,
				),
			);
		}
		for (const mode of items.modes.filter((entry) => entry.output === 'tenders')) {
			verdicts.push(
				verdict(
					`≥ ${fixed(TARGETS.itemsPerSecond)} items per CPU second splitting ${fixed(ITEMS_PROJECTS)} projects into tenders${mode.simplify ? ' (simplified)' : ''}, through the engine`,
					mode.itemsPerCpuSecond,
					'>=',
					TARGETS.itemsPerSecond,
					(value) => `${fixed(value)} items/s`,
				),
			);
		}
		for (const measurement of trigger) {
			verdicts.push(
				verdict(
					`trigger comparison of ${fixed(measurement.tracked)} tracked tenders < ${TARGETS.triggerMs} ms (${measurement.event})`,
					measurement.diff.cpuMs,
					'<',
					TARGETS.triggerMs,
					(value) =>
						`${fixed(value)} ms CPU (whole poll's state work: ${fixed(measurement.total.cpuMs)} ms)`,
				),
				verdict(
					`≤ ${TARGETS.bytesPerTender} bytes of static data per tracked tender (${measurement.event})`,
					measurement.bytesPerTender,
					'<=',
					TARGETS.bytesPerTender,
					(value) =>
						`${fixed(value, 1)} B (36-character ids: ${fixed(measurement.uuidBytesPerTender, 1)} B)`,
				),
			);
		}

		const results = {
			generatedAt: startedAt.toISOString(),
			finishedAt: new Date().toISOString(),
			machine: {
				node: process.version,
				platform: `${process.platform} ${process.arch}`,
				cpus: os.cpus().length,
				cpuModel: os.cpus()[0]?.model ?? 'unknown',
				loadAverageAtStart: loadAtStart,
				loadAverageAtEnd: os.loadavg(),
			},
			versions: {
				...runtime.versions,
				'n8n-nodes-base': nodesBaseVersion,
				httpRequestNode: recipeVersion,
			},
			settings: {
				repetitions,
				latencyMs: LATENCY_MS,
				notes: [
					'The sandbox runs with its rate limit off (rateLimit: false): 10,000 projects at the default page size take 400 requests, four times what the API allows in 5 minutes.',
					"The sandbox's response cache is off (cacheSeconds: 0), so every repeated walk reaches the server.",
					"Our node's process-wide rate budget (100 requests per 5 minutes per credential) is emptied before each measured walk, as if each ran in its own 5-minute window.",
					"Our node, the recipe and the items workers run on n8n-core and n8n-workflow from the real n8n install's tree; the recipe's OAuth2 token is saved into the credential as n8n's credentials helper does.",
					'Timed medians: wall time with the sandbox in this process; CPU and memory of items in a child process per measurement (the sandbox stays in the parent).',
				],
			},
			requests: requestRows,
			tokens,
			wallTime: wallRows,
			items,
			trigger,
			verdicts,
		};
		fs.mkdirSync(path.dirname(outputFile), { recursive: true });
		fs.writeFileSync(outputFile, `${JSON.stringify(results, null, '\t')}\n`);
		const tables = renderTables(results);
		fs.writeFileSync(outputFile.replace(/\.json$/, '') + '.md', `${tables.markdown}\n`);
		process.stdout.write(`${tables.text}\n\nResults: ${outputFile}\n`);
	} finally {
		for (const bench of sandboxes.values()) await bench.sandbox.stop();
	}
}

/**
 * @typedef {object} Results
 * @property {{ repetitions: number, latencyMs: number, notes: string[] }} settings
 * @property {Record<string, string | number>} versions
 * @property {{ loadAverageAtStart: number[], loadAverageAtEnd: number[], cpus: number, node: string }} machine
 * @property {Array<{ projects: number, tenders: number, floor: { results: number, tokens: number }, defaultPageSizePages: number, clients: Record<string, RequestCounts> }>} requests
 * @property {{ executions: number, backToBack: { floor: number, ours: RequestCounts, recipe: RequestCounts }, spread: { minutesBetween: number, spanMinutes: number, floor: number, ours: RequestCounts, recipe: RequestCounts } }} tokens
 * @property {Array<{ projects: number, pages: number, floorMs: number, clients: Record<string, { requests: number, medianMs: number, floorMs: number, ratioToOwnFloor: number, ratioToFloor: number }> }>} wallTime
 * @property {{ projects: number, tenders: number, pages: number, responseBytes: number, parseFloorCpuMs: number, modes: Array<{ output: string, simplify: boolean, items: number, warmCpuMs: number, warmWallMs: number, coldCpuMs: number, itemsPerCpuSecond: number, peakRssBytes: number, rssGrowthBytes: number, peakHeapGrowthBytes: number }>, shaping: Array<{ output: string, simplify: boolean, items: number, cpuMs: number, itemsPerCpuSecond: number | null }> }} items
 * @property {TriggerMeasurement[]} trigger
 * @property {Verdict[]} verdicts
 */

/**
 * @param {Results} results
 * @returns {{ text: string, markdown: string }}
 */
function renderTables(results) {
	/** @type {Array<{ title: string, headers: string[], rows: string[][] }>} */
	const sections = [];
	/** @param {RequestCounts} counts */
	const pagesAndTokens = (counts) => `${fixed(counts.results)} + ${counts.tokens}`;

	sections.push({
		title: 'Requests of one full walk (results pages + token requests), each client cold',
		headers: [
			'projects',
			'floor',
			'ours',
			'recipe (HTTP Request + OAuth2)',
			'default page size (25)',
		],
		rows: results.requests.map((row) => [
			fixed(row.projects),
			`${fixed(row.floor.results)} + ${row.floor.tokens}`,
			pagesAndTokens(row.clients.ours),
			pagesAndTokens(row.clients.recipe),
			pagesAndTokens(row.clients.defaultPageSize),
		]),
	});

	const { tokens } = results;
	/** @param {RequestCounts} counts */
	const tokenCell = (counts) =>
		`${counts.tokens} (${fixed(counts.results)} page requests${counts.failed > 0 ? `, ${counts.failed} refused with 401` : ''})`;
	sections.push({
		title: `Token requests over ${tokens.executions} executions on one credential (100 projects each)`,
		headers: ['executions', 'floor', 'ours', 'recipe'],
		rows: [
			[
				'back to back',
				String(tokens.backToBack.floor),
				tokenCell(tokens.backToBack.ours),
				tokenCell(tokens.backToBack.recipe),
			],
			[
				`${tokens.spread.minutesBetween} min apart (${fixed(tokens.spread.spanMinutes)} min, simulated clock)`,
				String(tokens.spread.floor),
				tokenCell(tokens.spread.ours),
				tokenCell(tokens.spread.recipe),
			],
		],
	});

	/** @param {{ medianMs: number, ratioToFloor: number }} cell */
	const wallCell = (cell) => `${fixed(cell.medianMs)} ms (${fixed(cell.ratioToFloor, 3)}×)`;
	sections.push({
		title: `Wall time of a full walk, ${results.settings.latencyMs} ms added per request, median of ${results.settings.repetitions} (ratio to pages × latency)`,
		headers: [
			'projects',
			'floor',
			'ours',
			'ours cold (+ token)',
			'recipe',
			'plain client, 100/page',
			'plain client, 25/page',
		],
		rows: results.wallTime.map((row) => [
			fixed(row.projects),
			`${fixed(row.floorMs)} ms`,
			wallCell(row.clients.ours),
			`${wallCell(row.clients.oursCold)}`,
			wallCell(row.clients.recipe),
			wallCell(row.clients.plain100),
			wallCell(row.clients.defaultPageSize),
		]),
	});

	const { items } = results;
	sections.push({
		title: `${fixed(items.projects)} projects (${fixed(items.tenders)} tenders, ${mebibytes(items.responseBytes)} of JSON in ${items.pages} pages) into items through the engine: warm CPU, median of ${results.settings.repetitions} processes; JSON.parse of the pages alone: ${fixed(items.parseFloorCpuMs)} ms`,
		headers: [
			'output',
			'items',
			'CPU',
			'items / CPU s',
			'shaping alone',
			'cold CPU',
			'peak RSS',
			'RSS growth',
			'heap growth',
		],
		rows: items.modes.map((mode) => {
			const alone = items.shaping.find(
				(entry) => entry.output === mode.output && entry.simplify === mode.simplify,
			);
			return [
				`${mode.output}${mode.simplify ? ', simplified' : ''}`,
				fixed(mode.items),
				`${fixed(mode.warmCpuMs)} ms`,
				fixed(mode.itemsPerCpuSecond),
				alone === undefined ? '—' : `${fixed(alone.cpuMs, 1)} ms`,
				`${fixed(mode.coldCpuMs)} ms`,
				mebibytes(mode.peakRssBytes),
				mebibytes(mode.rssGrowthBytes),
				mebibytes(mode.peakHeapGrowthBytes),
			];
		}),
	});

	sections.push({
		title:
			'Trigger state per poll over 100,000 tracked tenders (1% new, 1% changed, 1% gone): median CPU (wall)',
		headers: [
			'event',
			'read state',
			'list tenders',
			'compare',
			'write state',
			'total',
			'static data',
			'bytes / tender',
			'with 36-char ids',
		],
		rows: results.trigger.map((measurement) => [
			measurement.event,
			`${fixed(measurement.read.cpuMs)} (${fixed(measurement.read.wallMs)}) ms`,
			`${fixed(measurement.list.cpuMs)} (${fixed(measurement.list.wallMs)}) ms`,
			`${fixed(measurement.diff.cpuMs)} (${fixed(measurement.diff.wallMs)}) ms`,
			`${fixed(measurement.write.cpuMs)} (${fixed(measurement.write.wallMs)}) ms`,
			`${fixed(measurement.total.cpuMs)} (${fixed(measurement.total.wallMs)}) ms`,
			mebibytes(measurement.stateBytes),
			fixed(measurement.bytesPerTender, 1),
			fixed(measurement.uuidBytesPerTender, 1),
		]),
	});

	sections.push({
		title: 'Targets',
		headers: ['', 'target', 'measured'],
		rows: results.verdicts.map((entry) => [
			entry.met ? 'met' : 'MISSED',
			entry.target,
			entry.measured,
		]),
	});

	const load = `load average ${results.machine.loadAverageAtStart.map((value) => fixed(value, 1)).join(' ')} at start, ${results.machine.loadAverageAtEnd.map((value) => fixed(value, 1)).join(' ')} at end, ${results.machine.cpus} CPUs, Node ${results.machine.node}`;
	const header = [
		`n8n-core ${results.versions['n8n-core']}, n8n-workflow ${results.versions['n8n-workflow']}, n8n-nodes-base ${results.versions['n8n-nodes-base']} (HTTP Request node v${results.versions.httpRequestNode}); ${load}`,
		...results.settings.notes.map((note) => `- ${note}`),
	];
	return {
		text: [
			...header,
			...sections.map(
				(section) => `\n${section.title}\n${textTable(section.headers, section.rows)}`,
			),
		].join('\n'),
		markdown: [
			...header,
			...sections.map(
				(section) => `\n**${section.title}**\n\n${markdownTable(section.headers, section.rows)}`,
			),
		].join('\n'),
	};
}

main().catch((/** @type {unknown} */ error) => {
	process.stderr.write(
		`[bench] failed: ${error instanceof Error ? error.message : String(error)}\n`,
	);
	process.exitCode = 1;
});
