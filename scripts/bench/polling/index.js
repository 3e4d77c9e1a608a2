#!/usr/bin/env node
// @ts-check
'use strict';

/**
 * `npm run bench:polling`: how the trigger holds up in a real n8n when one partner credential
 * serves many companies. The packed package (the work tree, or --tarball) in n8n 2.41.1, one
 * trigger workflow per company (new tenders, every minute) on one credential, against the sandbox
 * with its real rate limit (100 requests per 5 minutes per client). After activation it opens
 * about 25 tenders, each for a random company, and after the run it prints which were announced
 * once, twice or never, how late, the longest a company waited for a complete walk, failed
 * executions, 429s and the requests per minute (figures.js, report.js).
 *
 *   npm run bench:polling -- --companies 30 --scheduler durable --minutes 12
 *   npm run bench:polling -- --companies 1 --projects 20000 --json large.json
 *
 * Flags: --companies N (30), --projects P per company (60), --latency-ms L per API request (0),
 * --scheduler legacy|durable (legacy), --minutes M after activation (15), --tender-every S seconds
 * (default: about 25 tenders between the warm-up and the quiet tail, see plan.js), --seed (1),
 * --json FILE (the result as JSON), --tarball FILE (a packed package instead of packing the work
 * tree; SMP_E2E_TARBALL does the same), --keep (keep n8n's folder, for its logs and database).
 * SMP_N8N_VERSION picks another installed n8n. Ctrl-C stops everything it started.
 */

const path = require('node:path');
const { parseArgs } = require('node:util');

const { cleanupStack, launchN8n, throwAwayFolder } = require('../../n8n/launch');
const { delay } = require('../../n8n/runtime');
const { collectFigures } = require('./figures');
const { planRun } = require('./plan');
const { renderReport, writeJson } = require('./report');
const { startPollingSandbox, startTenderOpener } = require('./sandbox');
const { activateAll, benchCredentials, benchWorkflows } = require('./workflows');

const N8N_VERSION = '2.41.1';
/** n8n's durable scheduler for poll triggers, with the poller's cursors kept by it. */
const DURABLE_ENV = Object.freeze({
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
});
/** Activations asked for at once; each runs the trigger's first poll. */
const ACTIVATION_CONCURRENCY = 4;
const PROGRESS_EVERY_MS = 60_000;

const benchStart = Date.now();
const logger = {
	/** @param {string} line */
	log(line) {
		const elapsed = String(Math.round((Date.now() - benchStart) / 1000)).padStart(5);
		process.stderr.write(`[bench:polling ${elapsed} s] ${line}\n`);
	},
};
const log = logger.log;

/**
 * @param {string} name
 * @param {string | undefined} given
 * @param {number} fallback
 * @param {number} min
 * @param {number} max
 * @param {boolean} [whole]
 */
function numberFlag(name, given, fallback, min, max, whole = true) {
	const value = given === undefined ? fallback : Number(given);
	if (
		!Number.isFinite(value) ||
		value < min ||
		value > max ||
		(whole && !Number.isInteger(value))
	) {
		throw new Error(
			`--${name} takes a ${whole ? 'whole ' : ''}number from ${min} to ${max} (got ${given})`,
		);
	}
	return value;
}

function readFlags() {
	const text = /** @type {const} */ ({ type: 'string' });
	const { values } = parseArgs({
		options: {
			companies: text,
			projects: text,
			'latency-ms': text,
			scheduler: text,
			minutes: text,
			'tender-every': text,
			seed: text,
			json: text,
			tarball: text,
			keep: { type: 'boolean' },
		},
	});
	const scheduler = values.scheduler ?? 'legacy';
	if (scheduler !== 'legacy' && scheduler !== 'durable') {
		throw new Error(`--scheduler takes legacy or durable (got ${scheduler})`);
	}
	/** @type {'legacy' | 'durable'} */
	const schedulerName = scheduler;
	const every = values['tender-every'];
	return {
		companies: numberFlag('companies', values.companies, 30, 1, 500),
		projects: numberFlag('projects', values.projects, 60, 0, 100_000),
		latencyMs: numberFlag('latency-ms', values['latency-ms'], 0, 0, 120_000),
		scheduler: schedulerName,
		minutes: numberFlag('minutes', values.minutes, 15, 2, 24 * 60, false),
		tenderEverySeconds:
			every === undefined ? undefined : numberFlag('tender-every', every, 0, 1, 86_400, false),
		seed: numberFlag('seed', values.seed, 1, 0, 2 ** 32 - 1),
		json: values.json,
		tarball: values.tarball === undefined ? undefined : path.resolve(values.tarball),
		keep: values.keep === true,
	};
}

/** @typedef {ReturnType<typeof readFlags>} Flags */

/**
 * Waits until `untilMs`, saying once a minute how far the run is.
 * @param {number} untilMs
 * @param {import('../../../sandbox').Sandbox} sandbox
 * @param {{ opened: unknown[] }} opener
 */
async function waitWithProgress(untilMs, sandbox, opener) {
	while (Date.now() < untilMs) {
		await delay(Math.min(PROGRESS_EVERY_MS, untilMs - Date.now()));
		const requests = sandbox.requests().filter((entry) => entry.path.endsWith('/results'));
		const refused = requests.filter((entry) => entry.status === 429).length;
		const left = Math.max(0, Math.round((untilMs - Date.now()) / 1000));
		log(
			`${opener.opened.length} tenders opened, ${requests.length} API requests (${refused} answered 429), ${left} s to go`,
		);
	}
}

/**
 * Starts the sandbox and n8n, activates the workflows, opens the tenders, waits, and collects.
 * @param {Flags} flags
 * @param {import('./plan').Plan} plan
 * @param {import('../../n8n/launch').Cleanups} cleanups
 */
async function run(flags, plan, cleanups) {
	const startedAt = new Date().toISOString();
	const bench = await startPollingSandbox({ ...flags, log });
	cleanups.push(() => bench.sandbox.stop());
	const { workflows, companyOf } = benchWorkflows(bench.companyIds);
	const folder = throwAwayFolder({
		cleanups,
		logger,
		prefix: 'smp-bench-polling-',
		keep: flags.keep,
	});
	const { runtime, n8n, client } = await launchN8n({
		logger,
		cleanups,
		folder,
		keep: flags.keep,
		extraEnv: flags.scheduler === 'durable' ? { ...DURABLE_ENV } : {},
		owner: { email: 'polling-bench@example.com', firstName: 'Polling', lastName: 'Bench' },
		data: () => ({ credentials: benchCredentials(bench.sandbox.url, bench.client), workflows }),
	});
	log(`activating ${workflows.length} workflows, ${ACTIVATION_CONCURRENCY} at a time`);
	bench.sandbox.resetRequests();
	const fromMs = Date.now();
	const activations = await activateAll(client, [...companyOf.keys()], {
		concurrency: ACTIVATION_CONCURRENCY,
		log,
	});
	const startMs = Date.now();
	log(
		`activated in ${Math.round((startMs - fromMs) / 1000)} s; measuring for ${flags.minutes} min`,
	);
	const opener = startTenderOpener({
		...bench,
		startMs,
		tenderAtMs: plan.tenderAtMs,
		seed: flags.seed,
		log,
	});
	cleanups.push(async () => opener.stop());
	await waitWithProgress(startMs + plan.runMs, bench.sandbox, opener);
	opener.stop();
	const toMs = Date.now();
	log("collecting the figures (executions with their data, the request log, n8n's log)");
	const figures = await collectFigures({
		client,
		bench,
		companyOf,
		opened: opener.opened,
		activations,
		projects: flags.projects,
		floorMs: plan.floorMs,
		fromMs,
		toMs,
		logFile: n8n.logFile,
	});
	const { json, tarball, keep, tenderEverySeconds, ...settings } = flags;
	const packed = tarball ?? process.env.SMP_E2E_TARBALL ?? 'packed from the work tree';
	return {
		startedAt,
		finishedAt: new Date().toISOString(),
		settings: { ...settings, n8nVersion: runtime.n8nVersion, packed },
		plan,
		activations,
		figures,
	};
}

async function main() {
	const flags = readFlags();
	if (flags.tarball) process.env.SMP_E2E_TARBALL = flags.tarball;
	process.env.SMP_N8N_VERSION ??= N8N_VERSION;
	const plan = planRun(flags);
	const cleanups = cleanupStack(logger);
	try {
		const result = await run(flags, plan, cleanups);
		await cleanups.stopAll();
		process.stdout.write(renderReport(result));
		if (flags.json) {
			writeJson(flags.json, result);
			log(`result written to ${path.resolve(flags.json)}`);
		}
	} finally {
		await cleanups.stopAll();
	}
}

main().catch((/** @type {unknown} */ error) => {
	log(`failed: ${error instanceof Error ? error.message : String(error)}`);
	process.exitCode = 1;
});
