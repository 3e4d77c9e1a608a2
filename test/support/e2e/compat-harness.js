// @ts-check
'use strict';

/**
 * The world of the compatibility suite (test/e2e-compat) and of the durable scheduler's test: the
 * packed package in a real n8n of the version SMP_N8N_VERSION picks, with a few workflows (see
 * compatWorkflows), against the sandbox API (in this process) behind a token recorder.
 * What each n8n version needs to import and activate them is the launcher's (scripts/n8n/lines.js).
 * The .ts tests cannot use Node APIs (community-node lint), so the process and file work is here.
 */

const fs = require('node:fs');
const path = require('node:path');

const { SANDBOX_FIXTURES } = require('../../../sandbox');
const { credentialsFor, workflowsIn } = require('../../../scripts/n8n/examples');
const { featuresOf } = require('../../../scripts/n8n/lines');
const { packageJson } = require('../../../scripts/n8n/package');
const { exited, signalGroup } = require('../../../scripts/n8n/processes');
const { delay, startN8n } = require('../../../scripts/n8n/runtime');
const { waitForPolls } = require('./support');
const { getManyWorkflow, mcpServerWorkflow } = require('./workflows');
const stack = require('./stack');

const COMPAT_WORKFLOW_DIR = path.resolve(__dirname, '..', '..', 'e2e-compat', 'workflows');

const COMPAT_WORKFLOWS = Object.freeze({
	listProjects: { id: 'smpCompatListProjects', path: 'compat-projects' },
	listProjectsNone: { id: 'smpCompatListProjectsNone', path: 'compat-projects-none' },
	trigger: { id: 'smpCompatTrigger', node: 'New Matching Tender' },
	mcp: { id: 'smpCompatMcp', path: 'smp-compat-projects' },
	apiError: { id: 'smpCompatApiError', path: 'compat-refused' },
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
}

/**
 * The suite's workflows: those of its folder, the node as an MCP tool, and Get Many on a webhook
 * call with the credential, with the "None" one, and for a company the client is not registered for.
 * @param {{ id: string, name: string }[]} credentials as compatCredentials orders them
 */
function compatWorkflows([credential, , noneAllowed]) {
	const { listProjects, listProjectsNone, apiError, mcp } = COMPAT_WORKFLOWS;
	const getMany = [
		{ ...listProjects, companyId: SANDBOX_FIXTURES.companyId, credential },
		{ ...listProjectsNone, companyId: SANDBOX_FIXTURES.companyId, credential: noneAllowed },
		{ ...apiError, companyId: SANDBOX_FIXTURES.unregisteredCompanyId, credential },
	];
	const tool = { id: credential.id, name: credential.name };
	return [
		...workflowsIn(COMPAT_WORKFLOW_DIR),
		mcpServerWorkflow({
			...mcp,
			name: 'compat: matched projects as an MCP tool',
			credential: tool,
		}),
		...getMany.map((workflow) =>
			getManyWorkflow({
				...workflow,
				name: `compat: ${workflow.path}`,
				credential: { id: workflow.credential.id, name: workflow.credential.name },
			}),
		),
	];
}

/**
 * The live (not zombie) processes of a process group, read from /proc (Linux), each with its
 * command line cut to 300 characters.
 * @param {number} groupId
 * @returns {{ pid: number, command: string }[]}
 */
function groupMembers(groupId) {
	/** @type {{ pid: number, command: string }[]} */
	const members = [];
	for (const name of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(name)) continue;
		let stat;
		let command;
		try {
			stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
			command = fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ').trim();
		} catch {
			continue; // gone meanwhile
		}
		// "pid (comm) state ppid pgrp ...": comm may hold spaces, so read after its last ')'.
		const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		if (Number(group) === groupId && state !== 'Z') {
			members.push({ pid: Number(name), command: command.slice(0, 300) });
		}
	}
	return members;
}

/**
 * Kills n8n as a crash or `kill -9` does: SIGKILL to its whole process group (the task runner
 * with it), nothing shut down. Resolves once no process of the group is left.
 * @param {import('../../../scripts/n8n/runtime').N8nInstance} n8n
 * @returns {Promise<{ pid: number, command: string }[]>} the processes it killed
 */
async function killGroup(n8n) {
	const groupId = n8n.child.pid;
	if (groupId === undefined) throw new Error('n8n has no process id');
	const members = groupMembers(groupId);
	signalGroup(groupId, 'SIGKILL');
	await exited(n8n.child);
	const deadline = Date.now() + 10_000;
	while (groupMembers(groupId).length > 0) {
		if (Date.now() > deadline) {
			throw new Error(`processes of n8n's group ${groupId} outlived SIGKILL by 10 s`);
		}
		await delay(100);
	}
	return members;
}

/**
 * The second sandbox of options.ownSandbox, and the credential of that id for it; none when not
 * asked for.
 * @param {import('./stack').Cleanups} cleanups
 * @param {{ credentialId: string, projects: number } | undefined} own
 */
async function startOwnSandbox(cleanups, own) {
	if (own === undefined) return { ownSandbox: undefined, ownCredentials: [] };
	const ownSandbox = await stack.startNoonSandbox(cleanups, { projects: own.projects });
	const credential = {
		...credentialsFor({ baseUrl: ownSandbox.url })[0],
		id: own.credentialId,
		name: 'Supplier Matched Projects (own sandbox)',
	};
	return { ownSandbox, ownCredentials: [credential] };
}

/**
 * @param {{ log: (line: string) => void }} logger
 * @param {{ extraEnv?: NodeJS.ProcessEnv, folderPrefix?: string, sandbox?: { rateLimit?: false }, ownSandbox?: { credentialId: string, projects: number }, workflows?: unknown[] }} [options]
 *   extraEnv: laid over n8n's environment (e.g. the durable scheduler's switch); ownSandbox: a
 *   second sandbox and a credential of that id for it, for workflows whose requests, faults and
 *   latency stay apart from the suite's; workflows: imported beside the suite's own
 */
function startCompatE2e(logger, options = {}) {
	return stack.startStack(logger, async (cleanups) => {
		// More projects than one page of 100 holds, so a complete walk needs several pages.
		const { sandbox, tokenRecorder } = await stack.startRecordedSandbox(cleanups, {
			projects: 400,
			...options.sandbox,
		});
		const { ownSandbox, ownCredentials } = await startOwnSandbox(cleanups, options.ownSandbox);
		const launched = await stack.launchInFolder(
			cleanups,
			logger,
			options.folderPrefix ?? 'smp-n8n-compat-',
			{
				logLevel: 'debug',
				extraEnv: options.extraEnv,
				owner: { email: 'compat-owner@example.com', firstName: 'Compat', lastName: 'Owner' },
				data: () => {
					const credentials = compatCredentials(tokenRecorder, sandbox);
					return {
						credentials: [...credentials, ...ownCredentials],
						workflows: [...compatWorkflows(credentials), ...(options.workflows ?? [])],
					};
				},
			},
		);
		const { runtime, client, prepared, owner, folder, keep } = launched;
		/** The n8n running now: the one launched, or the one restartN8n started after it. */
		let n8n = launched.n8n;

		return {
			sandbox,
			/** The second sandbox (options.ownSandbox), if asked for. */
			ownSandbox,
			tokenRecorder,
			get n8n() {
				return n8n;
			},
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
			/** n8n's own log of this run (its console output, every start of it in one file). */
			n8nLog: () => fs.readFileSync(n8n.logFile, 'utf8'),
			stopN8n: () => n8n.stop(),
			/** `kill -9` of n8n's whole process group; @returns the processes it killed */
			killN8n: () => killGroup(n8n),
			/**
			 * Starts n8n again on the same user folder, database and port (after killN8n), and logs
			 * the client in again.
			 * @returns {Promise<number>} ms until it served
			 */
			restartN8n: async () => {
				const started = Date.now();
				const restarted = await startN8n(prepared, {
					removeFolderIfOrphaned: keep ? undefined : folder,
				});
				cleanups.push(() => restarted.stop());
				n8n = restarted;
				await client.login(owner);
				return Date.now() - started;
			},
			/** @returns {string[]} where the client secret or an issued token appears */
			secretsFoundOnDisk: () => stack.secretsOnDisk(n8n.userFolder, tokenRecorder),
			stop: cleanups.stopAll,
		};
	});
}

/** @typedef {Awaited<ReturnType<typeof startCompatE2e>>} CompatEnvironment */

module.exports = { startCompatE2e };
