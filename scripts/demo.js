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
const { N8nClient, generatePassword } = require('./n8n/client');
const { credentialsFor, loadExamples, EXAMPLE_IDS } = require('./n8n/examples');
const { buildAndPack, installIntoN8n } = require('./n8n/package');
const { onShutdown } = require('./n8n/processes');
const {
	ensureRuntime,
	prepareN8n,
	startN8n,
	importIntoN8n,
	isPortFree,
	makeUserFolder,
} = require('./n8n/runtime');
const { startSmtpSink } = require('./n8n/smtp-sink');

/** @param {string} line */
function say(line) {
	console.log(`[demo] ${line}`);
}

async function main() {
	const everySeconds = envNumber('DEMO_NEW_TENDER_EVERY_SECONDS', 60, 5, 86400);
	const wantedPort = envNumber('DEMO_N8N_PORT', 5678, 1, 65535);
	const keep = process.env.DEMO_KEEP === '1';

	/** @type {(() => Promise<void>)[]} */
	const stops = [];
	let stopped = false;
	const stopAll = async () => {
		if (stopped) return;
		stopped = true;
		for (const stop of stops.reverse()) {
			try {
				await stop();
			} catch (error) {
				say(`while stopping: ${error instanceof Error ? error.message : String(error)}`);
			}
		}
	};
	// With `npm run demo | tee log`, Ctrl-C ends tee first: writing to its closed pipe must not
	// crash the demo before it has stopped what it started.
	process.stdout.on('error', () => {});
	onShutdown(async () => {
		console.log('');
		say('stopping n8n, the sandbox and the mail sink ...');
		await stopAll();
		say('stopped.');
	});

	try {
		const runtime = await ensureRuntime({ log: say });
		const tarball = await buildAndPack({ log: say });
		stops.push(async () => fs.rmSync(path.dirname(tarball), { recursive: true, force: true }));

		const demoFolder = makeUserFolder('smp-demo-');
		stops.push(async () => {
			if (keep) say(`kept the demo folder: ${demoFolder}`);
			else fs.rmSync(demoFolder, { recursive: true, force: true });
		});
		const filesDir = path.join(demoFolder, 'files');
		const mailDir = path.join(demoFolder, 'mail');
		fs.mkdirSync(filesDir, { recursive: true });

		const sandbox = await startSandbox({ port: 0 });
		stops.push(() => sandbox.stop());
		const { companyId } = SANDBOX_FIXTURES;
		const timer = setInterval(() => {
			const tender = sandbox.openTender({ companyId });
			say(
				`sandbox: new tender "${tender.name}" (${tender.id}) on project ${tender.projectId}, quotes due ${tender.quotesDueAt}`,
			);
		}, everySeconds * 1000);
		stops.push(async () => clearInterval(timer));

		const written = new Set();
		const watcher = fs.watch(filesDir, (_event, name) => {
			if (
				name &&
				name.endsWith('.xlsx') &&
				!written.has(name) &&
				fs.existsSync(path.join(filesDir, name))
			) {
				written.add(name);
				say(`spreadsheet written: ${path.join(filesDir, name)}`);
			}
		});
		stops.push(async () => watcher.close());

		const smtp = await startSmtpSink({
			mailDir,
			onMail: (mail) =>
				say(`mail sink: "${mail.subject}" to ${mail.to.join(', ')} -> ${mail.file}`),
		});
		stops.push(() => smtp.stop());

		const port = (await isPortFree(wantedPort)) ? wantedPort : undefined;
		const prepared = await prepareN8n({
			runtime,
			userFolder: path.join(demoFolder, 'n8n'),
			port,
			extraEnv: { N8N_RESTRICT_FILE_ACCESS_TO: filesDir },
		});
		say(`installing the package into ${prepared.n8nFolder}/nodes (as a community node)`);
		await installIntoN8n(prepared.userFolder, tarball);

		const credentials = credentialsFor({
			authUrl: sandbox.url,
			baseUrl: sandbox.url,
			client: SANDBOX_FIXTURES.client,
			smtp: { host: smtp.host, port: smtp.port },
		});
		say(
			'importing the demo credentials and the example workflows (n8n import:credentials, import:workflow)',
		);
		await importIntoN8n(prepared, { credentials, workflows: loadExamples({ filesDir }) });

		say('starting n8n ...');
		const n8n = await startN8n(prepared, { removeFolderIfOrphaned: keep ? undefined : demoFolder });
		stops.push(() => n8n.stop());
		const owner = {
			email: 'demo@example.com',
			password: generatePassword(),
			firstName: 'Demo',
			lastName: 'User',
		};
		const client = new N8nClient(n8n.baseUrl, runtime);
		await client.setupOwner(owner);
		for (const workflowId of Object.values(EXAMPLE_IDS)) await client.activateWorkflow(workflowId);

		console.log(
			[
				'',
				'  n8n is running with the Supplier Matched Projects nodes installed.',
				'',
				`  Open     ${n8n.baseUrl}/`,
				`  Log in   ${owner.email}  /  ${owner.password}`,
				'',
				'  Three example workflows are imported and active (Overview > Workflows):',
				'    - New matching tenders → spreadsheet file   (writes .xlsx files)',
				'    - New matching tenders → email digest       (sends to the local mail sink)',
				'    - Daily digest of every open matching tender (7:00; open it and press "Execute workflow")',
				'',
				`  The sandbox API (${sandbox.url}) gains a new tender for ${companyId} every ${everySeconds} s;`,
				'  the trigger workflows poll every minute and pass on only tenders they have not seen.',
				`  Spreadsheets: ${filesDir}`,
				`  Emails:       ${mailDir}`,
				`  n8n's log:    ${n8n.logFile}`,
				'',
				'  Ctrl-C stops everything.',
				'',
			].join('\n'),
		);
	} catch (error) {
		say(`failed: ${error instanceof Error ? error.message : String(error)}`);
		await stopAll();
		process.exitCode = 1;
	}
}

void main();
