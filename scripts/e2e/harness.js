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

const { startSandbox, SANDBOX_FIXTURES } = require('../../sandbox');
const { N8nClient, generatePassword, outputItems } = require('../n8n/client');
const { buildAndPack, installIntoN8n, packageJson } = require('../n8n/package');
const { ensureRuntime, prepareN8n, startN8n, importIntoN8n } = require('../n8n/runtime');
const { startSmtpSink } = require('../n8n/smtp-sink');
const { loadExamples, EXAMPLE_IDS, credentialsFor } = require('../n8n/examples');
const { startTokenRecorder } = require('./token-recorder');
const { cleanupStack, waitForPolls } = require('./support');

/** @typedef {import('../n8n/client').ExecutionSummary} ExecutionSummary */
/** @typedef {import('../n8n/client').ExecutionDetail} ExecutionDetail */

/** Workflows only the suite uses (the examples are imported as well). */
const E2E_WORKFLOW_DIR = path.resolve(__dirname, '..', '..', 'test', 'e2e', 'workflows');

const WRONG_SECRET_CREDENTIAL_ID = 'smpE2eWrongSecret';

/**
 * @typedef {object} E2eEnvironment
 * @property {import('../../sandbox').Sandbox} sandbox
 * @property {import('./token-recorder').TokenRecorder} tokenRecorder
 * @property {import('../n8n/smtp-sink').SmtpSink} smtp
 * @property {import('../n8n/runtime').N8nInstance} n8n
 * @property {N8nClient} client logged in as the owner
 * @property {string} packageName
 * @property {string} filesDir where workflows may write files
 * @property {typeof SANDBOX_FIXTURES} fixtures
 * @property {{ credential: string, wrongSecretCredential: string }} credentialIds
 * @property {typeof EXAMPLE_IDS} exampleIds
 * @property {(pathName: string, init?: { method?: string }) => Promise<{ status: number, body: unknown, ms: number }>} callWebhook
 * @property {(workflowId: string, count: number, timeoutMs: number) => Promise<ExecutionSummary[]>} waitForExecutions
 * @property {(executionId: string) => Promise<ExecutionDetail>} executionDetail
 * @property {(since: string, count: number, timeoutMs: number) => Promise<void>} waitForPolls
 * @property {() => Promise<void>} stopN8n stops n8n only (so its files can be read at rest)
 * @property {() => string[]} secretsFoundOnDisk where the client secret or an issued token appears
 * @property {(dir: string) => string[]} filesIn
 * @property {() => Promise<void>} stop
 */

/**
 * @param {string} dir
 * @returns {string[]} every file under dir
 */
function filesIn(dir) {
	if (!fs.existsSync(dir)) return [];
	/** @type {string[]} */
	const found = [];
	for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) found.push(...filesIn(full));
		else if (entry.isFile()) found.push(full);
	}
	return found;
}

/**
 * @param {{ log: (line: string) => void }} logger
 * @returns {Promise<E2eEnvironment>}
 */
async function startE2e(logger) {
	const cleanups = cleanupStack(logger);
	try {
		const runtime = await ensureRuntime(logger);
		const tarball = process.env.SMP_E2E_TARBALL || (await buildAndPack(logger));

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

		const prepared = await prepareN8n({ runtime, logLevel: 'debug' });
		const keep = process.env.SMP_E2E_KEEP === '1';
		cleanups.push(async () => {
			if (keep) logger.log(`kept n8n's user folder: ${prepared.userFolder}`);
			else fs.rmSync(prepared.userFolder, { recursive: true, force: true });
		});
		const filesDir = path.join(prepared.userFolder, 'files');
		fs.mkdirSync(filesDir, { recursive: true });
		prepared.env.N8N_RESTRICT_FILE_ACCESS_TO = filesDir;

		logger.log(`installing ${path.basename(tarball)} into ${prepared.n8nFolder}/nodes`);
		await installIntoN8n(prepared.userFolder, tarball);

		const credentials = credentialsFor({
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
			...loadExamples({ filesDir }),
			...fs
				.readdirSync(E2E_WORKFLOW_DIR)
				.filter((name) => name.endsWith('.json'))
				.map((name) => JSON.parse(fs.readFileSync(path.join(E2E_WORKFLOW_DIR, name), 'utf8'))),
		];
		// Outside n8n's folder until imported, so the secret scan below covers only what n8n wrote.
		const cliLog = await importIntoN8n(prepared, { credentials, workflows });
		fs.writeFileSync(path.join(prepared.userFolder, 'n8n-cli.log'), cliLog);

		logger.log('starting n8n');
		const n8n = await startN8n(prepared, {
			removeFolderIfOrphaned: keep ? undefined : prepared.userFolder,
		});
		cleanups.push(() => n8n.stop());
		const client = new N8nClient(n8n.baseUrl, runtime);
		await client.setupOwner({
			email: 'e2e-owner@example.com',
			password: generatePassword(),
			firstName: 'E2E',
			lastName: 'Owner',
		});

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
			client,
			packageName: packageJson().name,
			filesDir,
			fixtures: SANDBOX_FIXTURES,
			credentialIds: {
				credential: credentials[0].id,
				wrongSecretCredential: WRONG_SECRET_CREDENTIAL_ID,
			},
			exampleIds: EXAMPLE_IDS,
			callWebhook: (pathName, init) => client.callWebhook(pathName, init),
			waitForExecutions: (workflowId, count, timeoutMs) =>
				client.waitForExecutions(workflowId, count, timeoutMs),
			executionDetail: (executionId) => client.getExecution(executionId),
			waitForPolls: (since, count, timeoutMs) => waitForPolls(sandbox, { since, count, timeoutMs }),
			stopN8n: () => n8n.stop(),
			secretsFoundOnDisk() {
				/** @type {string[]} */
				const found = [];
				for (const file of filesIn(prepared.userFolder)) {
					const content = fs.readFileSync(file);
					for (const secret of secrets()) {
						if (content.includes(secret.value))
							found.push(`${secret.label} in ${path.relative(prepared.userFolder, file)}`);
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
