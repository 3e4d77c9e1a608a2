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

const { SANDBOX_FIXTURES } = require('../../../sandbox');
const { outputItems } = require('../../../scripts/n8n/client');
const { packageJson } = require('../../../scripts/n8n/package');
const { startSmtpSink } = require('../../../scripts/n8n/smtp-sink');
const {
	loadExamples,
	workflowsIn,
	EXAMPLE_IDS,
	credentialsFor,
} = require('../../../scripts/n8n/examples');
const { waitForPolls } = require('./support');
const stack = require('./stack');

/** Workflows only the suite uses (the examples are imported as well). */
const E2E_WORKFLOW_DIR = path.resolve(__dirname, '..', '..', 'e2e', 'workflows');

const WRONG_SECRET_CREDENTIAL_ID = 'smpE2eWrongSecret';

/** @typedef {Awaited<ReturnType<typeof startE2e>>} E2eEnvironment */

/**
 * @param {{ log: (line: string) => void }} logger
 */
function startE2e(logger) {
	return stack.startStack(logger, async (cleanups) => {
		// More projects than one page of 100 holds, so a complete walk needs several pages.
		const { sandbox, tokenRecorder } = await stack.startRecordedSandbox(cleanups, {
			projects: 400,
		});
		const smtp = await startSmtpSink();
		cleanups.push(() => smtp.stop());

		/** @type {ReturnType<typeof credentialsFor>} */
		let credentials = [];
		const { folder, n8n, client, filesDir, cliLog } = await stack.launchInFolder(
			cleanups,
			logger,
			'smp-n8n-',
			{
				logLevel: 'debug',
				owner: { email: 'e2e-owner@example.com', firstName: 'E2E', lastName: 'Owner' },
				data: (files) => {
					credentials = credentialsFor({
						authUrl: tokenRecorder.url,
						baseUrl: sandbox.url,
						smtp: { host: smtp.host, port: smtp.port },
					});
					credentials.push(stack.wrongSecretCredential(credentials[0], WRONG_SECRET_CREDENTIAL_ID));
					const workflows = [
						...loadExamples({ filesDir: files }),
						...workflowsIn(E2E_WORKFLOW_DIR),
					];
					return { credentials, workflows };
				},
			},
		);
		fs.writeFileSync(path.join(folder, 'n8n-cli.log'), cliLog);

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
			secretsFoundOnDisk: () => stack.secretsOnDisk(folder, tokenRecorder),
			filesIn: stack.filesIn,
			stop: cleanups.stopAll,
		};
	});
}

module.exports = { startE2e, outputItems };
