// @ts-check
'use strict';

/**
 * Everything the e2e suite runs against, started and stopped as one: the sandbox API (in this
 * process, so tests can change its data directly), a token recorder in front of its token
 * endpoint, a local SMTP sink, and a real n8n with the packed package installed as a community
 * node, the credentials and workflows imported through n8n's CLI, and an owner logged in.
 *
 * The .ts tests cannot use Node APIs (community-node lint), so the file and process work is here.
 */

const fs = require('node:fs');
const path = require('node:path');

const { startSandbox, SANDBOX_FIXTURES } = require('../../../sandbox');
const { outputItems } = require('../../../scripts/n8n/client');
const { cleanupStack, launchN8n, throwAwayFolder } = require('../../../scripts/n8n/launch');
const { packageJson } = require('../../../scripts/n8n/package');
const { startSmtpSink } = require('../../../scripts/n8n/smtp-sink');
const { loadExamples, EXAMPLE_IDS, credentialsFor } = require('../../../scripts/n8n/examples');
const { startTokenRecorder } = require('./token-recorder');
const { waitForPolls } = require('./support');

/** Workflows only the suite uses (the examples are imported as well). */
const E2E_WORKFLOW_DIR = path.resolve(__dirname, '..', '..', 'e2e', 'workflows');

const WRONG_SECRET_CREDENTIAL_ID = 'smpE2eWrongSecret';

/** @typedef {Awaited<ReturnType<typeof startE2e>>} E2eEnvironment */

/**
 * @param {string} dir
 * @returns {string[]} every file under dir
 */
function filesIn(dir) {
	if (!fs.existsSync(dir)) return [];
	return fs
		.readdirSync(dir, { recursive: true, withFileTypes: true })
		.filter((entry) => entry.isFile())
		.map((entry) => path.join(entry.parentPath, entry.name));
}

/**
 * @param {{ log: (line: string) => void }} logger
 */
async function startE2e(logger) {
	const cleanups = cleanupStack(logger);
	try {
		// More projects than one page of 100 holds, so a complete walk needs several pages. The
		// sandbox's day starts at noon, so no due date passes midnight (leaving the listing) while
		// the suite runs, whenever it starts.
		const today = new Date().toISOString().slice(0, 10);
		const sandbox = await startSandbox({ port: 0, projects: 400, now: `${today}T12:00:00.000Z` });
		cleanups.push(() => sandbox.stop());
		const tokenRecorder = await startTokenRecorder(sandbox.url);
		cleanups.push(() => tokenRecorder.stop());
		const smtp = await startSmtpSink();
		cleanups.push(() => smtp.stop());

		const keep = process.env.SMP_E2E_KEEP === '1';
		const folder = throwAwayFolder({ cleanups, logger, prefix: 'smp-n8n-', keep });
		/** @type {ReturnType<typeof credentialsFor>} */
		let credentials = [];
		const { n8n, client, filesDir, cliLog } = await launchN8n({
			logger,
			cleanups,
			folder,
			keep,
			logLevel: 'debug',
			owner: { email: 'e2e-owner@example.com', firstName: 'E2E', lastName: 'Owner' },
			data: (files) => {
				credentials = credentialsFor({
					authUrl: tokenRecorder.url,
					baseUrl: sandbox.url,
					client: SANDBOX_FIXTURES.client,
					smtp: { host: smtp.host, port: smtp.port },
				});
				credentials.push({
					...credentials[0],
					id: WRONG_SECRET_CREDENTIAL_ID,
					name: 'Supplier Matched Projects (wrong secret)',
					data: { ...credentials[0].data, clientSecret: 'not-the-issued-secret' },
				});
				const workflows = [
					...loadExamples({ filesDir: files }),
					...fs
						.readdirSync(E2E_WORKFLOW_DIR)
						.filter((name) => name.endsWith('.json'))
						.map((name) => JSON.parse(fs.readFileSync(path.join(E2E_WORKFLOW_DIR, name), 'utf8'))),
				];
				return { credentials, workflows };
			},
		});
		fs.writeFileSync(path.join(folder, 'n8n-cli.log'), cliLog);

		const secrets = () => [
			{ label: 'client secret', value: SANDBOX_FIXTURES.client.clientSecret },
			...tokenRecorder.tokens.map((token, index) => ({
				label: `access token #${index + 1}`,
				value: token,
			})),
		];

		return {
			sandbox,
			tokenRecorder,
			smtp,
			n8n,
			client, // logged in as the owner
			packageName: packageJson().name,
			filesDir, // where workflows may write files
			fixtures: SANDBOX_FIXTURES,
			credentialIds: {
				credential: credentials[0].id,
				wrongSecretCredential: WRONG_SECRET_CREDENTIAL_ID,
			},
			exampleIds: EXAMPLE_IDS,
			callWebhook: client.callWebhook.bind(client),
			waitForExecutions: client.waitForExecutions.bind(client),
			executionDetail: client.getExecution.bind(client),
			/** @type {(since: string, count: number, timeoutMs: number) => Promise<void>} */
			waitForPolls: (since, count, timeoutMs) => waitForPolls(sandbox, { since, count, timeoutMs }),
			// n8n alone, so that its files can be read at rest.
			stopN8n: () => n8n.stop(),
			/** @returns {string[]} where the client secret or an issued token appears */
			secretsFoundOnDisk() {
				/** @type {string[]} */
				const found = [];
				for (const file of filesIn(folder)) {
					const content = fs.readFileSync(file);
					for (const secret of secrets()) {
						if (content.includes(secret.value))
							found.push(`${secret.label} in ${path.relative(folder, file)}`);
					}
				}
				return found;
			},
			filesIn,
			stop: cleanups.stopAll,
		};
	} catch (error) {
		await cleanups.stopAll();
		throw error;
	}
}

module.exports = { startE2e, outputItems, filesIn };
