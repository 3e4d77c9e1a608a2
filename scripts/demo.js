#!/usr/bin/env node
// @ts-check
'use strict';

/**
 * `npm run demo`: the package working inside a real n8n, on this machine only.
 *
 * Builds and packs the package, starts the sandbox API with demo data that gains a new matching
 * tender every minute, a local mail sink, and n8n on 127.0.0.1 with the package installed as a
 * community node, a demo credential and the example workflows imported and activated. Prints the
 * editor URL and how to log in. Ctrl-C stops everything and removes the demo's folder.
 *
 * Environment: DEMO_N8N_PORT (default 5678, or a free port when taken),
 * DEMO_NEW_TENDER_EVERY_SECONDS (default 60), DEMO_KEEP=1 keeps the demo folder.
 */

const fs = require('node:fs');
const path = require('node:path');

const { startSandbox, SANDBOX_FIXTURES } = require('../sandbox');
const { envNumber } = require('../sandbox/env');
const { credentialsFor, loadExamples, EXAMPLE_IDS } = require('./n8n/examples');
const { cleanupStack, launchN8n, throwAwayFolder } = require('./n8n/launch');
const { tryPort } = require('./n8n/runtime');
const { startSmtpSink } = require('./n8n/smtp-sink');

const logger = {
	/** @param {string} line */
	log(line) {
		console.log(`[demo] ${line}`);
	},
};
const say = logger.log;

/**
 * @param {{ n8n: { baseUrl: string, logFile: string }, owner: { email: string, password: string }, sandbox: { url: string }, everySeconds: number, filesDir: string, mailDir: string }} where
 */
function printWelcome(where) {
	console.log(
		[
			'',
			'  n8n is running with the Supplier Matched Projects nodes installed.',
			'',
			`  Open     ${where.n8n.baseUrl}/`,
			`  Log in   ${where.owner.email}  /  ${where.owner.password}`,
			'',
			'  Three example workflows are imported and active (Overview > Workflows):',
			'    - New matching tenders → spreadsheet file   (writes .xlsx files)',
			'    - New matching tenders → email digest       (sends to the local mail sink)',
			'    - Daily digest of every open matching tender (7:00; open it and press "Execute workflow")',
			'',
			`  The sandbox API (${where.sandbox.url}) gains a new tender for ${SANDBOX_FIXTURES.companyId} every ${where.everySeconds} s;`,
			'  the trigger workflows poll every minute and pass on only tenders they have not seen.',
			`  Spreadsheets: ${where.filesDir}`,
			`  Emails:       ${where.mailDir}`,
			`  n8n's log:    ${where.n8n.logFile}`,
			'',
			'  Ctrl-C stops everything.',
			'',
		].join('\n'),
	);
}

async function main() {
	const everySeconds = envNumber('DEMO_NEW_TENDER_EVERY_SECONDS', 60, 5, 86400);
	const wantedPort = envNumber('DEMO_N8N_PORT', 5678, 1, 65535);
	const keep = process.env.DEMO_KEEP === '1';

	// With `npm run demo | tee log`, Ctrl-C ends tee first: writing to its closed pipe must not
	// crash the demo before it has stopped what it started.
	process.stdout.on('error', () => {});
	const cleanups = cleanupStack(logger);
	try {
		const folder = throwAwayFolder({ cleanups, logger, prefix: 'smp-demo-', keep });
		const mailDir = path.join(folder, 'mail');

		const sandbox = await startSandbox({ port: 0 });
		cleanups.push(() => sandbox.stop());
		const { companyId } = SANDBOX_FIXTURES;
		const timer = setInterval(() => {
			const tender = sandbox.openTender({ companyId });
			say(
				`sandbox: new tender "${tender.name}" (${tender.id}) on project ${tender.projectId}, quotes due ${tender.quotesDueAt}`,
			);
		}, everySeconds * 1000);
		cleanups.push(async () => clearInterval(timer));

		const smtp = await startSmtpSink({
			mailDir,
			onMail: (mail) =>
				say(`mail sink: "${mail.subject}" to ${mail.to.join(', ')} -> ${mail.file}`),
		});
		cleanups.push(() => smtp.stop());

		const { n8n, client, owner, filesDir } = await launchN8n({
			logger,
			cleanups,
			folder,
			keep,
			port: await tryPort(wantedPort),
			owner: { email: 'demo@example.com', firstName: 'Demo', lastName: 'User' },
			data: (files) => ({
				credentials: credentialsFor({
					baseUrl: sandbox.url,
					smtp: { host: smtp.host, port: smtp.port },
				}),
				workflows: loadExamples({ filesDir: files }),
			}),
		});
		const written = new Set();
		const watcher = fs.watch(filesDir, (_event, name) => {
			if (
				name?.endsWith('.xlsx') &&
				!written.has(name) &&
				fs.existsSync(path.join(filesDir, name))
			) {
				written.add(name);
				say(`spreadsheet written: ${path.join(filesDir, name)}`);
			}
		});
		cleanups.push(async () => watcher.close());
		for (const workflowId of Object.values(EXAMPLE_IDS)) await client.activateWorkflow(workflowId);

		printWelcome({ n8n, owner, sandbox, everySeconds, filesDir, mailDir });
	} catch (error) {
		say(`failed: ${error instanceof Error ? error.message : String(error)}`);
		await cleanups.stopAll();
		process.exitCode = 1;
	}
}

void main();
