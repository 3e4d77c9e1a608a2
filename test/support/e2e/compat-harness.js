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

const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const {
	StreamableHTTPClientTransport,
} = require('@modelcontextprotocol/sdk/client/streamableHttp.js');

const { startSandbox, SANDBOX_FIXTURES } = require('../../../sandbox');
const { credentialsFor } = require('../../../scripts/n8n/examples');
const { cleanupStack, launchN8n, throwAwayFolder } = require('../../../scripts/n8n/launch');
const { featuresOf } = require('../../../scripts/n8n/lines');
const { packageJson } = require('../../../scripts/n8n/package');
const { startTokenRecorder } = require('./token-recorder');
const { waitForPolls } = require('./support');
const { filesIn } = require('./harness');

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
 * @typedef {object} McpSession
 * @property {() => Promise<{ name: string, description?: string }[]>} listTools
 * @property {(name: string, args?: Record<string, unknown>) => Promise<{ content: { type: string, text?: string }[], isError?: boolean }>} callTool
 * @property {() => Promise<void>} close
 */

/**
 * @param {{ log: (line: string) => void }} logger
 * @param {{ extraEnv?: NodeJS.ProcessEnv, folderPrefix?: string, sandbox?: { rateLimit?: false } }} [options]
 *   extraEnv: laid over n8n's environment (e.g. the durable scheduler's switch)
 */
async function startCompatE2e(logger, options = {}) {
	const cleanups = cleanupStack(logger);
	try {
		// More projects than one page of 100 holds, so a complete walk needs several pages. The
		// sandbox's day starts at noon, so no due date passes midnight while the suite runs.
		const today = new Date().toISOString().slice(0, 10);
		const sandbox = await startSandbox({
			port: 0,
			projects: 400,
			now: `${today}T12:00:00.000Z`,
			...options.sandbox,
		});
		cleanups.push(() => sandbox.stop());
		const tokenRecorder = await startTokenRecorder(sandbox.url);
		cleanups.push(() => tokenRecorder.stop());

		const keep = process.env.SMP_E2E_KEEP === '1';
		const folder = throwAwayFolder({
			cleanups,
			logger,
			prefix: options.folderPrefix ?? 'smp-n8n-compat-',
			keep,
		});
		const { runtime, n8n, client } = await launchN8n({
			logger,
			cleanups,
			folder,
			keep,
			logLevel: 'debug',
			extraEnv: options.extraEnv,
			owner: { email: 'compat-owner@example.com', firstName: 'Compat', lastName: 'Owner' },
			data: () => {
				const [credential] = credentialsFor({
					authUrl: tokenRecorder.url,
					baseUrl: sandbox.url,
					client: SANDBOX_FIXTURES.client,
					smtp: { host: '127.0.0.1', port: 25 },
				});
				const credentials = [
					credential,
					{
						...credential,
						id: CREDENTIAL_IDS.wrongSecret,
						name: 'Supplier Matched Projects (wrong secret)',
						data: { ...credential.data, clientSecret: 'not-the-issued-secret' },
					},
					{
						...credential,
						id: CREDENTIAL_IDS.noneAllowed,
						name: 'Supplier Matched Projects (allowed domains: None)',
						data: { ...credential.data, allowedHttpRequestDomains: 'none' },
					},
				];
				const workflows = [
					...fs
						.readdirSync(COMPAT_WORKFLOW_DIR)
						.filter((name) => name.endsWith('.json'))
						.map((name) => path.join(COMPAT_WORKFLOW_DIR, name)),
					API_ERROR_WORKFLOW,
				].map((file) => JSON.parse(fs.readFileSync(file, 'utf8')));
				return { credentials, workflows };
			},
		});

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
			/** @type {(pathName: string) => Promise<McpSession>} an MCP session, as an assistant opens one */
			connectMcp: async (pathName) => {
				const mcp = new Client({ name: 'smp-e2e-compat', version: '1.0.0' });
				await mcp.connect(
					new StreamableHTTPClientTransport(new URL(`${n8n.baseUrl}/mcp/${pathName}`)),
				);
				return {
					listTools: async () => (await mcp.listTools()).tools,
					callTool: async (name, args = {}) =>
						/** @type {any} */ (await mcp.callTool({ name, arguments: args })),
					close: () => mcp.close(),
				};
			},
			/** @type {(since: string, count: number, timeoutMs: number) => Promise<void>} */
			waitForPolls: (since, count, timeoutMs) => waitForPolls(sandbox, { since, count, timeoutMs }),
			/** n8n's own log of this run (its console output). */
			n8nLog: () => fs.readFileSync(n8n.logFile, 'utf8'),
			stopN8n: () => n8n.stop(),
			/** @returns {string[]} where the client secret or an issued token appears */
			secretsFoundOnDisk() {
				const secrets = [
					{ label: 'client secret', value: SANDBOX_FIXTURES.client.clientSecret },
					...tokenRecorder.tokens.map((token, index) => ({
						label: `access token #${index + 1}`,
						value: token,
					})),
				];
				/** @type {string[]} */
				const found = [];
				for (const file of filesIn(n8n.userFolder)) {
					const content = fs.readFileSync(file);
					for (const secret of secrets) {
						if (content.includes(secret.value))
							found.push(`${secret.label} in ${path.relative(n8n.userFolder, file)}`);
					}
				}
				return found;
			},
			stop: cleanups.stopAll,
		};
	} catch (error) {
		await cleanups.stopAll();
		throw error;
	}
}

/** @typedef {Awaited<ReturnType<typeof startCompatE2e>>} CompatEnvironment */

module.exports = { startCompatE2e };
