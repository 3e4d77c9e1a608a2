// @ts-check
'use strict';

/**
 * The steps every real-n8n harness shares: a cleanup stack that stops what was started when a
 * later step fails, the sandbox behind a token recorder, n8n launched in a throw-away folder, the
 * search for secrets at rest, and MCP sessions.
 */

const fs = require('node:fs');
const path = require('node:path');

const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const {
	StreamableHTTPClientTransport,
} = require('@modelcontextprotocol/sdk/client/streamableHttp.js');

const { startSandbox, SANDBOX_FIXTURES } = require('../../../sandbox');
const { cleanupStack, launchN8n, throwAwayFolder } = require('../../../scripts/n8n/launch');
const { delay, tail } = require('../../../scripts/n8n/runtime');
const { startTokenRecorder } = require('./token-recorder');

/** @typedef {{ log: (line: string) => void }} Logger */
/** @typedef {import('../../../scripts/n8n/launch').Cleanups} Cleanups */

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
 * The sandbox API (startNoonSandbox) behind a token recorder.
 * @param {Cleanups} cleanups
 * @param {Parameters<typeof startSandbox>[0]} options
 */
async function startRecordedSandbox(cleanups, options) {
	const sandbox = await startNoonSandbox(cleanups, options);
	const tokenRecorder = await startTokenRecorder(sandbox.url);
	cleanups.push(() => tokenRecorder.stop());
	return { sandbox, tokenRecorder };
}

/**
 * n8n launched in a new folder, kept after the run when SMP_E2E_KEEP=1.
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
 * @param {{ tokens: string[] }} tokenRecorder
 * @returns {{ label: string, value: string }[]} every access token it saw issued
 */
function issuedTokens(tokenRecorder) {
	return tokenRecorder.tokens.map((token, index) => ({
		label: `access token #${index + 1}`,
		value: token,
	}));
}

/**
 * @param {string} dir
 * @param {{ tokens: string[] }} tokenRecorder
 * @returns {string[]} where under dir the sandbox client's secret or an issued token appears
 */
function secretsOnDisk(dir, tokenRecorder) {
	const secrets = [
		{ label: 'client secret', value: SANDBOX_FIXTURES.client.clientSecret },
		...issuedTokens(tokenRecorder),
	];
	/** @type {string[]} */
	const found = [];
	for (const file of filesIn(dir)) {
		const content = fs.readFileSync(file);
		for (const secret of secrets) {
			if (content.includes(secret.value))
				found.push(`${secret.label} in ${path.relative(dir, file)}`);
		}
	}
	return found;
}

/**
 * @typedef {object} McpSession
 * @property {() => Promise<{ name: string, description?: string, inputSchema: Record<string, any> }[]>} listTools
 * @property {(name: string, args?: Record<string, unknown>) => Promise<{ content: { type: string, text?: string }[], isError?: boolean }>} callTool
 * @property {() => Promise<void>} close
 */

/**
 * An MCP session with an MCP Server Trigger or n8n's own MCP server, as an assistant opens one.
 * @param {string} url
 * @param {string} clientName
 * @param {Record<string, string>} [headers] sent with every request (n8n's server wants a key)
 * @returns {Promise<McpSession>}
 */
async function connectMcp(url, clientName, headers = {}) {
	const client = new Client({ name: clientName, version: '1.0.0' });
	await client.connect(
		new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }),
	);
	return {
		listTools: async () => (await client.listTools()).tools,
		callTool: async (name, args = {}) =>
			/** @type {any} */ (await client.callTool({ name, arguments: args })),
		close: () => client.close(),
	};
}

/**
 * Waits until `ready` says a server serves, failing with its log's end when it has exited or
 * `timeoutMs` passed.
 * @param {{ ready: () => Promise<boolean>, server: import('node:child_process').ChildProcess, failure: string, logFile: string, timeoutMs: number, intervalMs: number }} options
 */
async function waitUntilServing({ ready, server, failure, logFile, timeoutMs, intervalMs }) {
	const deadline = Date.now() + timeoutMs;
	while (!(await ready())) {
		if (server.exitCode !== null || Date.now() > deadline) {
			throw new Error(`${failure}:\n${tail(logFile, 30)}`);
		}
		await delay(intervalMs);
	}
}

module.exports = {
	startStack,
	waitUntilServing,
	startNoonSandbox,
	startRecordedSandbox,
	launchInFolder,
	filesIn,
	issuedTokens,
	secretsOnDisk,
	connectMcp,
};
