// @ts-check
'use strict';

/**
 * The world of the compatibility suite (test/e2e-compat) and of the durable scheduler's test: the
 * packed package in a real n8n of the version SMP_N8N_VERSION picks, with the few workflows of
 * test/e2e-compat/workflows/, against the sandbox API (in this process) behind a token recorder.
 * What each n8n version needs to import and activate them is the launcher's (scripts/n8n/lines.js).
 * The .ts tests cannot use Node APIs (community-node lint), so the process and file work is here.
 */

const fs = require('node:fs');
const path = require('node:path');

const { SANDBOX_FIXTURES } = require('../../../sandbox');
const { credentialsFor, workflowsIn } = require('../../../scripts/n8n/examples');
const { featuresOf } = require('../../../scripts/n8n/lines');
const { packageJson } = require('../../../scripts/n8n/package');
const { waitForPolls } = require('./support');
const stack = require('./stack');

const COMPAT_WORKFLOW_DIR = path.resolve(__dirname, '..', '..', 'e2e-compat', 'workflows');
/** The e2e suite's workflow for an API error, run on every line as it is on the newest. */
const API_ERROR_WORKFLOW = path.resolve(
	__dirname,
	'..',
	'..',
	'e2e',
	'workflows',
	'api-error-webhook.json',
);

const COMPAT_WORKFLOWS = Object.freeze({
	listProjects: { id: 'smpCompatListProjects', path: 'compat-projects' },
	listProjectsNone: { id: 'smpCompatListProjectsNone', path: 'compat-projects-none' },
	trigger: { id: 'smpCompatTrigger', node: 'New Matching Tender' },
	mcp: { id: 'smpCompatMcp', path: 'smp-compat-projects' },
	apiError: { id: 'smpE2eApiError', path: 'e2e-refused' },
});

const CREDENTIAL_IDS = Object.freeze({
	credential: 'smpExampleCredential',
	wrongSecret: 'smpCompatWrongSecret',
	// The editor of some n8n versions stores "None" on a new credential.
	noneAllowed: 'smpCompatNone',
});

/**
 * The credential, and the same with a wrong secret, and with "None" for allowed domains.
 * @param {{ url: string }} tokenRecorder
 * @param {{ url: string }} sandbox
 */
function compatCredentials(tokenRecorder, sandbox) {
	const [credential] = credentialsFor({ authUrl: tokenRecorder.url, baseUrl: sandbox.url });
	return [
		credential,
		stack.wrongSecretCredential(credential, CREDENTIAL_IDS.wrongSecret),
		{
			...credential,
			id: CREDENTIAL_IDS.noneAllowed,
			name: 'Supplier Matched Projects (allowed domains: None)',
			data: { ...credential.data, allowedHttpRequestDomains: 'none' },
		},
	];
}

/**
 * @param {{ log: (line: string) => void }} logger
 * @param {{ extraEnv?: NodeJS.ProcessEnv, folderPrefix?: string, sandbox?: { rateLimit?: false } }} [options]
 *   extraEnv: laid over n8n's environment (e.g. the durable scheduler's switch)
 */
function startCompatE2e(logger, options = {}) {
	return stack.startStack(logger, async (cleanups) => {
		// More projects than one page of 100 holds, so a complete walk needs several pages.
		const { sandbox, tokenRecorder } = await stack.startRecordedSandbox(cleanups, {
			projects: 400,
			...options.sandbox,
		});
		const { runtime, n8n, client } = await stack.launchInFolder(
			cleanups,
			logger,
			options.folderPrefix ?? 'smp-n8n-compat-',
			{
				logLevel: 'debug',
				extraEnv: options.extraEnv,
				owner: { email: 'compat-owner@example.com', firstName: 'Compat', lastName: 'Owner' },
				data: () => ({
					credentials: compatCredentials(tokenRecorder, sandbox),
					workflows: [
						...workflowsIn(COMPAT_WORKFLOW_DIR),
						JSON.parse(fs.readFileSync(API_ERROR_WORKFLOW, 'utf8')),
					],
				}),
			},
		);

		return {
			sandbox,
			tokenRecorder,
			n8n,
			client, // logged in as the owner
			n8nVersion: runtime.n8nVersion,
			features: featuresOf(runtime.n8nVersion),
			packageName: packageJson().name,
			fixtures: SANDBOX_FIXTURES,
			credentialIds: CREDENTIAL_IDS,
			workflows: COMPAT_WORKFLOWS,
			/** @type {(pathName: string) => Promise<import('./stack').McpSession>} an MCP session, as an assistant opens one */
			connectMcp: (pathName) =>
				stack.connectMcp(`${n8n.baseUrl}/mcp/${pathName}`, 'smp-e2e-compat'),
			/** @type {(since: string, count: number, timeoutMs: number) => Promise<void>} */
			waitForPolls: (since, count, timeoutMs) => waitForPolls(sandbox, { since, count, timeoutMs }),
			/** n8n's own log of this run (its console output). */
			n8nLog: () => fs.readFileSync(n8n.logFile, 'utf8'),
			stopN8n: () => n8n.stop(),
			/** @returns {string[]} where the client secret or an issued token appears */
			secretsFoundOnDisk: () => stack.secretsOnDisk(n8n.userFolder, tokenRecorder),
			stop: cleanups.stopAll,
		};
	});
}

/** @typedef {Awaited<ReturnType<typeof startCompatE2e>>} CompatEnvironment */

module.exports = { startCompatE2e };
