#!/usr/bin/env node
// @ts-check
'use strict';

/**
 * `npm run bench:polling` (its settings: docs/benchmarks.md): the trigger in a real n8n when one
 * partner credential serves many companies, one workflow each holding only the trigger, against
 * the sandbox with its real rate limit. After activation it opens 25 tenders, each for a random
 * company, then says which were announced once, twice or never, how late, and the longest a
 * company waited for a complete walk (figures.js).
 */

const crypto = require('node:crypto');
const { setTimeout: delay } = require('node:timers/promises');

const { envNumber } = require('../../../sandbox/env');
const { createRandom } = require('../../../sandbox/random');
const { credentialsFor } = require('../../n8n/examples');
const { cleanupStack, launchN8n, throwAwayFolder } = require('../../n8n/launch');
const { MAX_PAGE_SIZE, pagesFor } = require('../floors');
const { startBenchSandbox } = require('../sandbox');
const { renderSections } = require('../tables');
const { collectFigures, TRIGGER_NODE } = require('./figures');

const POLL_INTERVAL_MS = 60_000;
/** The rate limit, 100 requests per 5 minutes, spent evenly: one request every 3 s. */
const SLOT_MS = 3_000;
const TENDERS = 25;
/** n8n's durable scheduler for poll triggers, with the poller's cursors kept by it. */
const DURABLE_ENV = {
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
};

const benchStart = Date.now();
const logger = {
	/** @param {string} line */
	log(line) {
		const elapsed = String(Math.round((Date.now() - benchStart) / 1000)).padStart(5);
		process.stderr.write(`[bench:polling ${elapsed} s] ${line}\n`);
	},
};

function settings() {
	const scheduler = process.env.POLLING_SCHEDULER ?? 'legacy';
	if (scheduler !== 'legacy' && scheduler !== 'durable') {
		throw new Error(`POLLING_SCHEDULER is legacy or durable (got ${scheduler})`);
	}
	const companies = envNumber('POLLING_COMPANIES', 30, 1, 500);
	const projects = envNumber('POLLING_PROJECTS', 60, 0, 100_000);
	const minutes = envNumber('POLLING_MINUTES', 12, 2, 24 * 60);
	// The floor cycle: every company one complete walk within the rate limit, or one poll interval.
	const pagesPerWalk = pagesFor(projects, MAX_PAGE_SIZE);
	const floorMs = Math.max(companies * pagesPerWalk * SLOT_MS, POLL_INTERVAL_MS);
	const runMs = minutes * 60_000;
	// Tenders open after a floor cycle and a poll (the first walks record their baseline), and
	// none in the last three floor cycles, so the last one had time to be announced.
	const warmupMs = Math.min(floorMs + POLL_INTERVAL_MS, runMs / 4);
	const tailMs = Math.min(Math.max(3 * floorMs, runMs / 3), runMs / 2);
	const everyMs = (runMs - warmupMs - tailMs) / (TENDERS - 1);
	const tenderAtMs = Array.from({ length: TENDERS }, (_, index) => warmupMs + index * everyMs);
	return { scheduler, companies, projects, minutes, pagesPerWalk, floorMs, runMs, tenderAtMs };
}

/**
 * One workflow per company, holding only its trigger, on the one credential.
 * @param {string[]} companyIds
 * @param {{ id: string, name: string }} credential
 */
function benchWorkflows(companyIds, { id, name }) {
	return companyIds.map((companyId, index) => ({
		id: `smpPollBench${String(index + 1).padStart(4, '0')}`,
		name: `polling bench: new tenders of ${companyId}`,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: crypto.randomUUID(),
				name: TRIGGER_NODE,
				type: 'n8n-nodes-supplier-matched-projects.supplierMatchedProjectsTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					pollTimes: { item: [{ mode: 'everyMinute' }] },
					companyId,
					event: 'newTender',
					output: 'tenders',
					simplify: true,
				},
				credentials: { supplierMatchedProjectsApi: { id, name } },
			},
		],
		connections: {},
		pinData: {},
	}));
}

/**
 * Opens a tender for a random company (the same ones in every run) at each planned time.
 * @param {import('../../../sandbox').Sandbox} sandbox
 * @param {string[]} companyIds
 * @param {number[]} tenderAtMs from now
 */
function openTenders(sandbox, companyIds, tenderAtMs) {
	const random = createRandom(1);
	/** @type {import('./figures').OpenedTender[]} */
	const opened = [];
	const open = () => {
		const companyId = random.pick(companyIds);
		const tenderId = sandbox.openTender({ companyId }).id;
		opened.push({ tenderId, companyId, openedAtMs: Date.now() });
		logger.log(`tender ${opened.length}/${tenderAtMs.length} opened for ${companyId}`);
	};
	const timers = tenderAtMs.map((atMs) => setTimeout(open, atMs));
	return { opened, stop: () => timers.forEach(clearTimeout) };
}

/**
 * @param {ReturnType<typeof settings>} run
 * @param {import('../../n8n/launch').Cleanups} cleanups
 */
async function measure(run, cleanups) {
	const companies = Array.from({ length: run.companies }, (_, index) => {
		const companyId = `poll-co-${String(index + 1).padStart(3, '0')}`;
		// A word only the tenders opened for this company carry ("Pollco007 package").
		return { companyId, keywords: [companyId.replace(/[^a-z0-9]/g, '')] };
	});
	const companyIds = companies.map((company) => company.companyId);
	// The sandbox's day starts at noon, so no due date passes midnight while a run lasts.
	const now = `${new Date().toISOString().slice(0, 10)}T12:00:00.000Z`;
	const bench = await startBenchSandbox({ companies, projects: run.projects, seed: 1, now });
	cleanups.push(() => bench.sandbox.stop());
	const offsetMs = bench.sandbox.clock.now() - Date.now();
	const [credential] = credentialsFor({ baseUrl: bench.sandbox.url });
	const workflows = benchWorkflows(companyIds, credential);
	const companyOf = new Map(workflows.map((workflow, index) => [workflow.id, companyIds[index]]));
	const { n8n, client } = await launchN8n({
		logger,
		cleanups,
		folder: throwAwayFolder({ cleanups, logger, prefix: 'smp-bench-polling-', keep: false }),
		keep: false,
		extraEnv: run.scheduler === 'durable' ? DURABLE_ENV : {},
		owner: { email: 'polling-bench@example.com', firstName: 'Polling', lastName: 'Bench' },
		data: () => ({ credentials: [credential], workflows }),
	});
	logger.log(`activating ${workflows.length} workflows (each runs the trigger's first poll)`);
	const activations = [];
	for (const workflowId of companyOf.keys()) {
		const startedMs = Date.now();
		// A failed activation is counted, not thrown: a package under test may fail it.
		const error = await client.activateWorkflow(workflowId).then(() => undefined, String);
		if (error !== undefined) logger.log(`activating ${workflowId} failed: ${error}`);
		activations.push({ workflowId, startedMs, error });
	}
	logger.log(`activated; measuring for ${run.minutes} min`);
	const tenders = openTenders(bench.sandbox, companyIds, run.tenderAtMs);
	cleanups.push(async () => tenders.stop());
	await delay(run.runMs);
	logger.log("collecting the figures (executions with their data, the request log, n8n's log)");
	return collectFigures({
		client,
		bench: { ...bench, toRealMs: (at) => Date.parse(at) - offsetMs },
		companyOf,
		opened: tenders.opened,
		activations,
		floorMs: run.floorMs,
		toMs: Date.now(),
		logFile: n8n.logFile,
	});
}

async function main() {
	process.env.SMP_N8N_VERSION ??= '2.41.1';
	const run = settings();
	const cleanups = cleanupStack(logger);
	try {
		const rows = await measure(run, cleanups);
		await cleanups.stopAll();
		const packed = process.env.SMP_E2E_TARBALL ?? 'packed from the work tree';
		const title = `Polling bench: n8n ${process.env.SMP_N8N_VERSION}, ${run.scheduler} scheduler, ${run.companies} companies × ${run.projects} matched projects (${run.pagesPerWalk} page(s) a walk) on one credential, ${run.minutes} min after activation (${packed})`;
		process.stdout.write(`${renderSections([{ title, headers: ['Figure', 'Value'], rows }])}\n`);
	} finally {
		await cleanups.stopAll();
	}
}

main().catch((/** @type {unknown} */ error) => {
	logger.log(`failed: ${error instanceof Error ? error.message : String(error)}`);
	process.exitCode = 1;
});
