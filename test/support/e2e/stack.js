// @ts-check
'use strict';

/**
 * The steps every real-n8n harness shares: a cleanup stack that stops what was started when a
 * later step fails, the sandbox behind a token recorder, launchWorld (the one way the suites start
 * n8n), the search for secrets at rest, and MCP sessions.
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
const { exited, signalGroup } = require('../../../scripts/n8n/processes');
const { delay, startN8n } = require('../../../scripts/n8n/runtime');
const { startSmtpSink } = require('../../../scripts/n8n/smtp-sink');
const { startScriptedServer } = require('../reliability/server');
const { startScriptedModel } = require('./scripted-model');
const { sandboxNow, waitForPolls, waitUntil } = require('./support');

/** @typedef {{ log: (line: string) => void }} Logger */
/** @typedef {import('../../../scripts/n8n/launch').Cleanups} Cleanups */
/** @typedef {import('../../../sandbox').Sandbox} Sandbox */

/**
 * Runs `build` with a new cleanup stack; when it throws, whatever it started is stopped.
 * @template T
 * @param {Logger} logger
 * @param {(cleanups: Cleanups) => Promise<T>} build
 * @returns {Promise<T>}
 */
async function startStack(logger, build) {
	const cleanups = cleanupStack(logger);
	try {
		return await build(cleanups);
	} catch (error) {
		await cleanups.stopAll();
		throw error;
	}
}

/**
 * The sandbox API. Its day starts at noon, so no due date passes midnight (leaving the listing)
 * while a suite runs, whenever it starts.
 * @param {Cleanups} cleanups
 * @param {Parameters<typeof startSandbox>[0]} options
 */
async function startNoonSandbox(cleanups, options) {
	const today = new Date().toISOString().slice(0, 10);
	const sandbox = await startSandbox({ port: 0, now: `${today}T12:00:00.000Z`, ...options });
	cleanups.push(() => sandbox.stop());
	return sandbox;
}

/**
 * The sandbox behind a token recorder, so that a suite knows every token issued (`tokens`) to a
 * credential whose Auth URL is the recorder's.
 * @param {Cleanups} cleanups
 * @param {Parameters<typeof startSandbox>[0]} options
 */
async function startRecordedSandbox(cleanups, options) {
	const sandbox = await startNoonSandbox(cleanups, options);
	const tokenRecorder = await startScriptedServer(() => ({ forward: sandbox.url }));
	cleanups.push(() => tokenRecorder.stop());
	return { sandbox, tokenRecorder };
}

/**
 * n8n in a new folder, kept after the run when SMP_E2E_KEEP=1.
 * @param {Cleanups} cleanups
 * @param {Logger} logger
 * @param {string} prefix the folder's
 * @param {Omit<import('../../../scripts/n8n/launch').LaunchOptions, 'logger' | 'cleanups' | 'folder' | 'keep'>} options
 */
async function launchInFolder(cleanups, logger, prefix, options) {
	const keep = process.env.SMP_E2E_KEEP === '1';
	const folder = throwAwayFolder({ cleanups, logger, prefix, keep });
	const launched = await launchN8n({ logger, cleanups, folder, keep, ...options });
	return { folder, keep, ...launched };
}

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
 * @param {string[]} tokens
 * @returns {{ label: string, value: string }[]} with the client secret
 */
function secretsOf(tokens) {
	return [
		{ label: 'client secret', value: SANDBOX_FIXTURES.client.clientSecret },
		...tokens.map((value, index) => ({ label: `access token #${index + 1}`, value })),
	];
}

/**
 * @param {string} dir
 * @param {string[]} tokens
 * @returns {string[]} where under dir a secret is
 */
function secretsOnDisk(dir, tokens) {
	return filesIn(dir).flatMap((file) => {
		const content = fs.readFileSync(file);
		return secretsOf(tokens)
			.filter((secret) => content.includes(secret.value))
			.map((secret) => `${secret.label} in ${path.relative(dir, file)}`);
	});
}

/**
 * An MCP session with an MCP Server Trigger or n8n's own MCP server, as an assistant opens one.
 * @param {string} url @param {string} clientName
 * @param {Record<string, string>} [headers] sent with every request (n8n's server wants a key)
 */
async function connectMcp(url, clientName, headers = {}) {
	const client = new Client({ name: clientName, version: '1.0.0' });
	await client.connect(
		new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }),
	);
	return {
		/** @returns {Promise<{ name: string, description?: string, inputSchema: Record<string, any> }[]>} */
		listTools: async () => (await client.listTools()).tools,
		/** @returns {Promise<{ content: { type: string, text?: string }[], isError?: boolean }>} */
		callTool: async (
			/** @type {string} */ name,
			/** @type {Record<string, unknown>} */ args = {},
		) => /** @type {any} */ (await client.callTool({ name, arguments: args })),
		close: () => client.close(),
	};
}

/** @typedef {Awaited<ReturnType<typeof connectMcp>>} McpSession */

/**
 * The live (not zombie) processes of a process group, read from /proc (Linux).
 * @param {number} groupId
 * @returns {string[]} their command lines, cut to 300 characters
 */
function groupMembers(groupId) {
	return fs.readdirSync('/proc').flatMap((pid) => {
		try {
			const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
			// "pid (comm) state ppid pgrp ...": comm may hold spaces, so read after its last ')'.
			const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			if (Number(group) !== groupId || state === 'Z') return [];
			return [fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').slice(0, 300)];
		} catch {
			return []; // not a process, or gone meanwhile
		}
	});
}

/**
 * Kills n8n as a crash or `kill -9` does: SIGKILL to its whole process group (the task runner
 * with it), nothing shut down. Resolves once no process of the group is left.
 * @param {import('../../../scripts/n8n/runtime').N8nInstance} n8n
 * @returns {Promise<string[]>} the command lines of the processes it killed
 */
async function killGroup(n8n) {
	const groupId = /** @type {number} */ (n8n.child.pid);
	const members = groupMembers(groupId);
	signalGroup(groupId, 'SIGKILL');
	await exited(n8n.child);
	await waitUntil(() => (groupMembers(groupId).length === 0 ? true : undefined), {
		timeoutMs: 10_000,
		intervalMs: 100,
		failure: () => `processes of n8n's group ${groupId} outlived SIGKILL`,
	});
	return members;
}

/** The OpenAI credential the AI Agent example names, pointed at the scripted model. */
const OPENAI_CREDENTIAL = Object.freeze({
	id: 'smpExampleOpenAi',
	name: 'OpenAI account',
	type: 'openAiApi',
});

/**
 * A real n8n with the package, on the sandbox: how every suite but the queue's starts one. It
 * gets the examples' credentials (tokens through `tokenRecorder` when given, a local mail sink,
 * OpenAI at a scripted model) beside `credentials`, and `workflows`, of which it activates
 * `activate`.
 * @param {Cleanups} cleanups @param {Logger} logger
 * @param {{ name: string, sandbox: Sandbox, tokenRecorder?: { url: string, tokens: string[] }, logLevel?: string, extraEnv?: NodeJS.ProcessEnv, credentials?: unknown[], workflows?: (filesDir: string) => unknown[], activate?: string[] }} options
 */
async function launchWorld(cleanups, logger, options) {
	const { sandbox, tokenRecorder } = options;
	const smtp = await startSmtpSink();
	cleanups.push(() => smtp.stop());
	const model = await startScriptedModel();
	cleanups.push(() => model.stop());
	const openAi = {
		...OPENAI_CREDENTIAL,
		data: { apiKey: 'sk-scripted-model', url: model.baseUrl },
	};
	const launched = await launchInFolder(cleanups, logger, `smp-n8n-${options.name}-`, {
		logLevel: options.logLevel ?? 'debug',
		extraEnv: options.extraEnv,
		owner: { email: `${options.name}-owner@example.com`, firstName: 'E2E', lastName: 'Owner' },
		data: (filesDir) => ({
			credentials: [
				...credentialsFor({ authUrl: tokenRecorder?.url, baseUrl: sandbox.url, smtp }),
				openAi,
				...(options.credentials ?? []),
			],
			workflows: options.workflows?.(filesDir) ?? [],
		}),
	});
	const { folder, n8n, client, runtime } = launched;
	fs.writeFileSync(path.join(folder, 'n8n-cli.log'), launched.cliLog);
	for (const id of options.activate ?? []) await client.activateWorkflow(id);
	return {
		sandbox,
		smtp,
		model,
		n8n,
		client,
		filesDir: launched.filesDir,
		n8nVersion: runtime.n8nVersion,
		features: featuresOf(runtime.n8nVersion),
		fixtures: SANDBOX_FIXTURES,
		packageName: packageJson().name,
		/** @type {(since: string, count: number, timeoutMs: number) => Promise<void>} */
		waitForPolls: (since, count, timeoutMs) => waitForPolls(sandbox, { since, count, timeoutMs }),
		...pollChecks(sandbox, client),
		connectMcp: (/** @type {string} */ mcpPath) =>
			connectMcp(`${n8n.baseUrl}/mcp/${mcpPath}`, 'smp-e2e'),
		/** @type {(chatId: string, message: string, sessionId?: string) => ReturnType<typeof client.callWebhook>} a public Chat Trigger's message, as n8n's chat widget sends it */
		chat: (chatId, chatInput, sessionId = 'e2e') =>
			client.callWebhook(`${chatId}/chat`, {
				json: { action: 'sendMessage', sessionId, chatInput },
			}),
		/** n8n's console output, every start of it */
		n8nLog: () => fs.readFileSync(n8n.logFile, 'utf8'),
		stopN8n: () => n8n.stop(),
		killN8n: () => killGroup(n8n),
		/** Starts n8n again on the same folder, database and port; @returns the ms until it served */
		restartN8n: () => restartN8n(launched),
		/** @returns {string[]} where the client secret or an issued token appears in n8n's files */
		secretsFoundOnDisk: () => secretsOnDisk(folder, tokenRecorder?.tokens ?? []),
		filesIn,
		stop: cleanups.stopAll,
	};
}

/**
 * What trigger workflows ran once the sandbox has seen their polls.
 * @param {Sandbox} sandbox @param {import('../../../scripts/n8n/client').N8nClient} client
 */
function pollChecks(sandbox, client) {
	/**
	 * Waits for `count` polls after `since`, and 5 s more for an execution a poll started to be
	 * listed; @returns each workflow's executions
	 * @param {string[]} workflowIds @param {string} since @param {number} count @param {number} timeoutMs
	 */
	const executionsAfterPolls = async (workflowIds, since, count, timeoutMs) => {
		await waitForPolls(sandbox, { since, count, timeoutMs });
		await delay(5_000);
		return await Promise.all(workflowIds.map((id) => client.listExecutions(id)));
	};
	return {
		executionsAfterPolls,
		/**
		 * Publishes the workflows and returns each one's executions after its first poll (the one
		 * at activation, which must announce nothing).
		 * @param {string[]} workflowIds @param {number} timeoutMs
		 */
		activateAndPoll: async (workflowIds, timeoutMs) => {
			const activatedAt = sandboxNow(sandbox);
			for (const id of workflowIds) await client.activateWorkflow(id);
			return await executionsAfterPolls(workflowIds, activatedAt, workflowIds.length, timeoutMs);
		},
	};
}

/**
 * Starts n8n again on the same user folder, database and port (after killGroup), in place of the
 * instance that ran (whose stop is on the cleanups), and logs the client in again.
 * @param {Awaited<ReturnType<typeof launchInFolder>>} launched
 * @returns {Promise<number>} ms until it served
 */
async function restartN8n({ prepared, keep, folder, n8n, client, owner }) {
	const started = Date.now();
	const removeFolderIfOrphaned = keep ? undefined : folder;
	Object.assign(n8n, await startN8n(prepared, { removeFolderIfOrphaned }));
	await client.login(owner);
	return Date.now() - started;
}

module.exports = {
	startStack,
	startNoonSandbox,
	startRecordedSandbox,
	launchInFolder,
	launchWorld,
	filesIn,
	secretsOf,
	connectMcp,
};
