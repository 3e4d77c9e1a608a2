#!/usr/bin/env node
// @ts-check
'use strict';

/**
 * `npm run bench`: requests, tokens, wall time, CPU and memory of our node against the physical
 * floor, the HTTP Request node recipe and a plain client, side by side in one run against the
 * local sandbox. Prints the tables and writes them as JSON (and Markdown) under .bench-results/.
 *
 * Then the network view: the same walks over HTTPS through a latency proxy (network.js).
 * `npm run bench -- --network` runs that part alone.
 *
 * Environment: BENCH_REPETITIONS (default 3) repetitions of every timed measurement;
 * BENCH_OUTPUT the JSON file to write.
 */

const { fork } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parseArgs } = require('node:util');

const { envNumber } = require('../../sandbox/env');
const { installRuntime, assertSingleN8nTree, requireTypeScript, REPO_ROOT } = require('./runtime');
const { median } = require('simple-statistics');
const {
	DEFAULT_PAGE_SIZE,
	MAX_PAGE_SIZE,
	pagesFor,
	requestFloor,
	tokenFloor,
} = require('./floors');
const { fixed, renderSections } = require('./tables');
const { countRequests, startBenchSandbox } = require('./sandbox');
const { measureNetwork, networkSections, probeLine } = require('./network');
const { judge, renderTables } = require('./results');

/** @typedef {import('./sandbox').BenchSandbox} BenchSandbox */
/** @typedef {import('./sandbox').RequestCounts} RequestCounts */
/** @typedef {import('./clients').Client} Client */
/** @typedef {import('./clients').Target} Target */
/** @typedef {import('./items-worker').ItemsResult} ItemsResult */
/** @typedef {import('./items-worker').ItemsJob} ItemsJob */
/** @typedef {import('./trigger').TriggerMeasurement} TriggerMeasurement */
/** @typedef {import('./results').Verdict} Verdict */
/** @typedef {import('n8n-workflow').IVersionedNodeType} IVersionedNodeType */
/** @typedef {import('n8n-workflow').ICredentialType} ICredentialType */
/** @typedef {import('../../nodes/SupplierMatchedProjects/api/types').Project} Project */
/** @typedef {import('../../nodes/SupplierMatchedProjects/api/types').ResultsPage} ResultsPage */
/** @typedef {typeof import('./clients')} Clients */
/** @typedef {{ httpRequestNode: IVersionedNodeType, oauth2Credential: ICredentialType }} N8nBase */

const SIZES = [100, 1_000, 10_000];
const LATENCY_MS = 50;
const EXECUTIONS = 50;
const MINUTES_BETWEEN_EXECUTIONS = 5;
const TOKEN_LIFETIME_MS = 3_600_000;
const ITEMS_PROJECTS = 10_000;
const TRIGGER_TENDERS = 100_000;
/**
 * Walks longer than this are not timed: the plain client at 25 per page needs 400 pages (20 s at
 * 50 ms) for 10,000 projects, and its ratio to the floor is already clear at 1,000. A cold walk
 * differs from a warm one by one token request, which shows at the smaller sizes.
 */
const LONGEST_TIMED_WALK = 200;
const LARGEST_COLD_WALK = 1_000;
const MODES = /** @type {const} */ ([
	{ output: 'projects', simplify: false },
	{ output: 'projects', simplify: true },
	{ output: 'tenders', simplify: false },
	{ output: 'tenders', simplify: true },
]);

const benchStart = performance.now();

/**
 * @param {string} line
 */
function progress(line) {
	const seconds = ((performance.now() - benchStart) / 1000).toFixed(0).padStart(4);
	process.stderr.write(`[bench ${seconds} s] ${line}\n`);
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
 * @returns {{ ms: () => number }} CPU time of this process since the call
 */
function cpuClock() {
	const start = process.cpuUsage();
	return {
		ms: () => {
			const used = process.cpuUsage(start);
			return (used.user + used.system) / 1000;
		},
	};
}

/**
 * How long `count` 50 ms timers in a row take in this process right now: what the latency alone
 * costs on this machine, before any client or server work.
 * @param {number} count
 * @returns {Promise<number>}
 */
async function timersInARow(count) {
	const start = performance.now();
	for (let index = 0; index < count; index++) {
		await new Promise((resolve) => setTimeout(resolve, LATENCY_MS));
	}
	return performance.now() - start;
}

// ---- requests and tokens of one full walk, each client cold (new process, new credential)

/**
 * @param {(projects: number) => BenchSandbox} sandboxOf
 * @param {Clients} clients
 * @param {N8nBase} n8nBase
 */
async function measureRequests(sandboxOf, clients, n8nBase) {
	const rows = [];
	for (const projects of SIZES) {
		const bench = sandboxOf(projects);
		const target = targetOf(bench);
		/** @type {Record<string, RequestCounts>} */
		const counts = {};
		for (const client of [
			clients.ourNode(target),
			clients.recipe(target, n8nBase),
			clients.plainClient(target, { name: 'defaultPageSize' }),
		]) {
			client.forget();
			counts[client.name] = (await measuredWalk(bench, client)).counts;
		}
		rows.push({
			projects,
			tenders: bench.tenders,
			floor: requestFloor(projects),
			defaultPageSizePages: pagesFor(projects, DEFAULT_PAGE_SIZE),
			clients: counts,
		});
	}
	return rows;
}

// ---- tokens over many executions on one credential

/**
 * @param {BenchSandbox} bench
 * @param {Clients} clients
 * @param {N8nBase} n8nBase
 */
async function measureTokens(bench, clients, n8nBase) {
	const target = targetOf(bench);
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
			const { counts } = await measuredWalk(bench, client);
			total.results += counts.results;
			total.tokens += counts.tokens;
			total.failed += counts.failed;
		}
		return total;
	};
	const backToBack = {
		ours: await executions(clients.ourNode(target)),
		recipe: await executions(clients.recipe(target, n8nBase)),
	};
	const spanMs = (EXECUTIONS - 1) * MINUTES_BETWEEN_EXECUTIONS * 60_000;
	const spread = await withSimulatedTime(async (advance) => ({
		ours: await executions(clients.ourNode(target), advance),
		recipe: await executions(clients.recipe(target, n8nBase), advance),
	}));
	return {
		executions: EXECUTIONS,
		projectsPerExecution: bench.projects,
		backToBack: { floor: 1, ...backToBack },
		spread: {
			minutesBetween: MINUTES_BETWEEN_EXECUTIONS,
			spanMinutes: spanMs / 60_000,
			floor: tokenFloor(spanMs, TOKEN_LIFETIME_MS),
			...spread,
		},
	};
}

// ---- wall time with latency, warm and cold

/**
 * @param {(projects: number) => BenchSandbox} sandboxOf
 * @param {Clients} clients
 * @param {N8nBase} n8nBase
 * @param {number} repetitions
 */
async function measureWallTime(sandboxOf, clients, n8nBase, repetitions) {
	const rows = [];
	for (const projects of SIZES) {
		const bench = sandboxOf(projects);
		const target = targetOf(bench);
		const pages = pagesFor(projects, MAX_PAGE_SIZE);
		const defaultPages = pagesFor(projects, DEFAULT_PAGE_SIZE);
		// In each round the cold run comes before the warm one: its forget() empties the process's
		// token cache, and the warm run then uses the token the cold one fetched.
		const lineup = [
			{ key: 'oursCold', client: clients.ourNode(target), cold: true, pages },
			{ key: 'ours', client: clients.ourNode(target), cold: false, pages },
			{ key: 'recipe', client: clients.recipe(target, n8nBase), cold: false, pages },
			{
				key: 'plain100',
				client: clients.plainClient(target, { name: 'plain100', pageSize: MAX_PAGE_SIZE }),
				cold: false,
				pages,
			},
			{
				key: 'defaultPageSize',
				client: clients.plainClient(target, { name: 'defaultPageSize' }),
				cold: false,
				pages: defaultPages,
			},
		].filter(
			(entry) =>
				entry.pages <= LONGEST_TIMED_WALK && (!entry.cold || projects <= LARGEST_COLD_WALK),
		);
		const bare = clients.roundTrips(target);
		// Untimed walks fill the sandbox's response cache and give the warm clients their token.
		bench.sandbox.setLatency(0);
		for (const entry of lineup) await measuredWalk(bench, entry.client);
		await bare.inARow(1);
		bench.sandbox.setLatency(LATENCY_MS);
		/** @type {Record<string, number[]>} */
		const runs = Object.fromEntries([
			...lineup.map((entry) => [entry.key, []]),
			['timers', []],
			['roundTrips', []],
		]);
		for (let round = 0; round < repetitions; round++) {
			runs.timers.push(await timersInARow(pages));
			runs.roundTrips.push(await bare.inARow(pages));
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
		const floorMs = pages * LATENCY_MS;
		/**
		 * @param {string} key
		 * @param {number} requests
		 * @returns {WallCell}
		 */
		const cell = (key, requests) => {
			const medianMs = median(runs[key]);
			return {
				requests,
				medianMs,
				ratioToFloor: medianMs / floorMs,
				runsMs: runs[key],
			};
		};
		rows.push({
			projects,
			pages,
			latencyMs: LATENCY_MS,
			floorMs,
			timers: cell('timers', pages),
			roundTrips: cell('roundTrips', pages),
			clients: Object.fromEntries(
				lineup.map((entry) => [entry.key, cell(entry.key, entry.pages + (entry.cold ? 1 : 0))]),
			),
		});
	}
	return rows;
}

// ---- CPU and memory: 10,000 projects into items, one process per output mode

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
 * @param {BenchSandbox} bench
 * @param {number} repetitions
 */
async function measureItems(bench, repetitions) {
	const target = targetOf(bench);
	const { shapeItems } =
		/** @type {typeof import('../../nodes/SupplierMatchedProjects/helpers/items')} */ (
			requireTypeScript('nodes/SupplierMatchedProjects/helpers/items.ts')
		);
	const modes = [];
	for (const mode of MODES) {
		progress(`  ${mode.output}${mode.simplify ? ', simplified' : ''}`);
		const result = await measureItemsInChild({
			target,
			output: mode.output,
			simplify: mode.simplify,
			projects: bench.projects,
			repetitions,
		});
		const items = result.cold.items;
		/** @param {import('./items-worker').WalkMeasurement[]} walks */
		const cpuOf = (walks) => median(walks.map((walk) => walk.cpuMs));
		/**
		 * Pairwise, walk by walk under the same load: what `walks` cost beyond `baseline`.
		 * @param {import('./items-worker').WalkMeasurement[]} walks
		 * @param {import('./items-worker').WalkMeasurement[]} baseline
		 */
		const beyond = (walks, baseline) =>
			median(walks.map((walk, index) => walk.cpuMs - baseline[index].cpuMs));
		const oursCpuMs = cpuOf(result.ours);
		const modeCpuMs = beyond(result.ours, result.projects);
		modes.push({
			...mode,
			items,
			oursCpuMs,
			plainCpuMs: cpuOf(result.plain),
			beyondPlainCpuMs: beyond(result.ours, result.plain),
			modeCpuMs,
			itemsPerCpuSecond: (items * 1000) / oursCpuMs,
			itemsPerModeCpuSecond: modeCpuMs > 0 ? (items * 1000) / modeCpuMs : null,
			peakRssBytes: result.maxRssBytes,
			rssGrowthBytes: result.maxRssBytes - result.cold.rssBeforeBytes,
			peakHeapGrowthBytes: median(
				result.ours.map((walk) => walk.peakHeapBytes - walk.heapBeforeBytes),
			),
		});
	}

	progress('  JSON.parse of the pages and item shaping alone, in this process');
	const clients = /** @type {Clients} */ (require('./clients'));
	const { bodies } = await clients
		.plainClient(target, { name: 'pages', pageSize: MAX_PAGE_SIZE, keepBodies: true })
		.walk();
	/** @type {number[]} */
	const parseRuns = [];
	/** @type {Project[]} */
	let parsed = [];
	for (let round = -1; round < repetitions; round++) {
		const clock = cpuClock();
		parsed = bodies.flatMap((body) => /** @type {ResultsPage} */ (JSON.parse(body)).data);
		if (round >= 0) parseRuns.push(clock.ms());
	}
	const shaping = MODES.map((mode) => {
		/** @type {number[]} */
		const cpuRuns = [];
		let items = 0;
		for (let round = -1; round < repetitions; round++) {
			const clock = cpuClock();
			items = shapeItems(parsed, mode).length;
			if (round >= 0) cpuRuns.push(clock.ms());
		}
		const cpuMs = median(cpuRuns);
		return {
			...mode,
			items,
			cpuMs,
			itemsPerCpuSecond: cpuMs >= 0.5 ? (items * 1000) / cpuMs : null,
		};
	});
	return {
		projects: bench.projects,
		tenders: bench.tenders,
		pages: bodies.length,
		responseBytes: bodies.reduce((sum, body) => sum + Buffer.byteLength(body, 'utf8'), 0),
		parseCpuMs: median(parseRuns),
		modes,
		shaping,
	};
}

/**
 * `--network`: the network tables alone, written to network-results.json beside the full results.
 * @param {string} outputFile
 */
async function networkOnly(outputFile) {
	const loadAtStart = os.loadavg();
	const startedAt = new Date();
	const runtime = await installRuntime(progress);
	progress('network: HTTPS through the latency proxy');
	const network = await measureNetwork({ progress });
	const results = {
		generatedAt: startedAt.toISOString(),
		finishedAt: new Date().toISOString(),
		machine: machine(loadAtStart),
		versions: runtime.versions,
		network,
	};
	const loads = (/** @type {number[]} */ values) =>
		values.map((value) => fixed(value, 1)).join(' ');
	const tables = [
		`n8n-core ${runtime.versions['n8n-core']}; Node ${process.version}, ${os.cpus().length} CPUs, load average ${loads(loadAtStart)} at start, ${loads(os.loadavg())} at end`,
		probeLine(network),
		renderSections(networkSections(network)),
	].join('\n');
	writeResults(path.join(path.dirname(outputFile), 'network-results.json'), results, tables);
}

/**
 * The machine a run measured on, with its load average at the start and now.
 * @param {number[]} loadAtStart
 */
function machine(loadAtStart) {
	return {
		node: process.version,
		platform: `${process.platform} ${process.arch}`,
		cpus: os.cpus().length,
		cpuModel: os.cpus()[0]?.model ?? 'unknown',
		loadAverageAtStart: loadAtStart,
		loadAverageAtEnd: os.loadavg(),
	};
}

/**
 * Writes the results as JSON and the tables as Markdown beside them, and prints the tables.
 * @param {string} file
 * @param {object} results
 * @param {string} tables
 */
function writeResults(file, results, tables) {
	const markdownFile = file.replace(/\.json$/, '.md');
	fs.mkdirSync(path.dirname(file), { recursive: true });
	fs.writeFileSync(file, `${JSON.stringify(results, null, '\t')}\n`);
	fs.writeFileSync(markdownFile, `${tables}\n`);
	process.stdout.write(`${tables}\n\nResults: ${file} (tables as Markdown: ${markdownFile})\n`);
}

async function main() {
	const repetitions = envNumber('BENCH_REPETITIONS', 3, 1, 50);
	const outputFile = path.resolve(
		process.env.BENCH_OUTPUT ?? path.join(REPO_ROOT, '.bench-results', 'bench-results.json'),
	);
	const { values } = parseArgs({ options: { network: { type: 'boolean' } } });
	if (values.network) return networkOnly(outputFile);
	const startedAt = new Date();
	const loadAtStart = os.loadavg();
	progress('loading the real n8n install (installs it once, about five minutes, if missing)');
	const runtime = await installRuntime(progress);
	const { HttpRequest } = /** @type {{ HttpRequest: new () => IVersionedNodeType }} */ (
		runtime.requireFromN8n('n8n-nodes-base/dist/nodes/HttpRequest/HttpRequest.node.js')
	);
	const { OAuth2Api } = /** @type {{ OAuth2Api: new () => ICredentialType }} */ (
		runtime.requireFromN8n('n8n-nodes-base/dist/credentials/OAuth2Api.credentials.js')
	);
	const nodesBaseVersion = /** @type {{ version: string }} */ (
		runtime.requireFromN8n('n8n-nodes-base/package.json')
	).version;
	/** @type {N8nBase} */
	const n8nBase = { httpRequestNode: new HttpRequest(), oauth2Credential: new OAuth2Api() };
	const recipeVersion =
		n8nBase.httpRequestNode.description.defaultVersion ?? n8nBase.httpRequestNode.currentVersion;
	/** @type {Clients} */
	const clients = require('./clients');
	const { measureTrigger } = require('./trigger');

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

		progress('requests of a full walk');
		const requests = await measureRequests(sandboxOf, clients, n8nBase);
		progress(`tokens over ${EXECUTIONS} executions`);
		const tokens = await measureTokens(sandboxOf(100), clients, n8nBase);
		progress(`wall time with ${LATENCY_MS} ms latency per request, ${repetitions} repetitions`);
		const wallTime = await measureWallTime(sandboxOf, clients, n8nBase, repetitions);
		progress(
			`CPU and memory of ${fixed(ITEMS_PROJECTS)} projects into items, one process per output mode`,
		);
		const items = await measureItems(sandboxOf(ITEMS_PROJECTS), repetitions);
		progress(`trigger state over ${fixed(TRIGGER_TENDERS)} tracked tenders`);
		const trigger = /** @type {const} */ (['newTender', 'newOrUpdatedTender', 'quotesDueSoon']).map(
			(event) =>
				measureTrigger({ event, tracked: TRIGGER_TENDERS, repetitions: Math.max(5, repetitions) }),
		);
		assertSingleN8nTree();
		progress('network: HTTPS through the latency proxy, clients in a process of their own');
		const network = await measureNetwork({ progress });

		/** @type {Results} */
		const results = {
			generatedAt: startedAt.toISOString(),
			finishedAt: new Date().toISOString(),
			machine: machine(loadAtStart),
			versions: {
				...runtime.versions,
				'n8n-nodes-base': nodesBaseVersion,
				httpRequestNode: recipeVersion,
			},
			settings: {
				repetitions,
				latencyMs: LATENCY_MS,
			},
			requests,
			tokens,
			wallTime,
			items,
			trigger,
			network,
			verdicts: [],
		};
		results.verdicts = judge(results);
		writeResults(outputFile, results, renderTables(results));
	} finally {
		for (const bench of sandboxes.values()) await bench.sandbox.stop();
	}
}

/**
 * @typedef {{ requests: number, medianMs: number, ratioToFloor: number, runsMs: number[] }} WallCell
 * @typedef {Awaited<ReturnType<typeof measureItems>>} ItemsSection
 * @typedef {object} Results
 * @property {string} generatedAt
 * @property {string} finishedAt
 * @property {{ node: string, platform: string, cpus: number, cpuModel: string, loadAverageAtStart: number[], loadAverageAtEnd: number[] }} machine
 * @property {Record<string, string | number>} versions
 * @property {{ repetitions: number, latencyMs: number }} settings
 * @property {Awaited<ReturnType<typeof measureRequests>>} requests
 * @property {Awaited<ReturnType<typeof measureTokens>>} tokens
 * @property {Array<{ projects: number, pages: number, floorMs: number, timers: WallCell, roundTrips: WallCell, clients: Record<string, WallCell | undefined> }>} wallTime
 * @property {ItemsSection} items
 * @property {TriggerMeasurement[]} trigger
 * @property {Awaited<ReturnType<typeof measureNetwork>>} network
 * @property {Verdict[]} verdicts
 */

main().catch((/** @type {unknown} */ error) => {
	process.stderr.write(
		`[bench] failed: ${error instanceof Error ? error.message : String(error)}\n`,
	);
	process.exitCode = 1;
});
