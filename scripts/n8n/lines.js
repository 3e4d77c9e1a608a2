// @ts-check
'use strict';

/**
 * What differs between the n8n versions this repository runs: what one needs to import workflows
 * as the others do, and which of n8n's features it has (the REST differences are told apart by
 * n8n's answers, in client.js). Requires nothing from node_modules (CI runs install.js first).
 */

const crypto = require('node:crypto');

const { runOrThrow } = require('./processes');

/**
 * @param {string} a e.g. 2.41.1
 * @param {string} b
 * @returns {number} negative when a is older
 */
function compareVersions(a, b) {
	const [left, right] = [a, b].map((version) => version.split('.').map(Number));
	for (let i = 0; i < Math.max(left.length, right.length); i++) {
		const difference = (left[i] ?? 0) - (right[i] ?? 0);
		if (difference !== 0) return difference;
	}
	return 0;
}

/**
 * @param {string} version
 * @param {string} from the first version with it
 * @param {string} [before] the first without
 */
function inRange(version, from, before) {
	return (
		compareVersions(version, from) >= 0 &&
		(before === undefined || compareVersions(version, before) < 0)
	);
}

/**
 * n8n 2.0's `import:workflow` refuses a workflow without `versionId` (NOT NULL) and writes no
 * `workflow_history` row, which activating a version needs; 1.123.81 and 2.30.8 do both.
 * @param {string} version
 */
function importWritesNoHistory(version) {
	return inRange(version, '2.0.0', '2.1.0');
}

/** Which of n8n's features this version has. @param {string} version */
function featuresOf(version) {
	return {
		/** `N8N_SCHEDULER_POLL_TRIGGERS_ENABLED`: polls backed off by failure cause. */
		durablePollScheduler: inRange(version, '2.33.0'),
		/** n8n's own MCP server with the workflow builder's tools, switched on by environment. */
		mcpBuilder: inRange(version, '2.30.0'),
		/** A usableAsTool node's tool copy keeps the node's search aliases (n8n's setToolCodex). */
		toolCopyKeepsAliases: inRange(version, '2.30.0'),
		/** n8n refuses to start when told to disable a module it does not know, as this one. */
		mcpRegistryModule: inRange(version, '2.30.0'),
		/**
		 * The credential's Test applies its response-code rules to an error answer (a redirect, a
		 * 404); older lines show n8n's own "Request failed with status code 302".
		 */
		testResponseCodeRules: inRange(version, '2.40.0'),
		/**
		 * Pasting a workflow in the editor picks the user's own credential for a node whose
		 * credential is unknown ("Credentials auto-added"); older lines leave the node asking.
		 */
		credentialsPickedOnPaste: inRange(version, '2.40.0'),
	};
}

/**
 * The workflows as this n8n's `import:workflow` takes them.
 * @param {string} version @param {unknown[]} workflows @returns {unknown[]}
 */
function workflowsForImport(version, workflows) {
	if (!importWritesNoHistory(version)) return workflows;
	return workflows.map((workflow) => ({
		versionId: crypto.randomUUID(),
		.../** @type {object} */ (workflow),
	}));
}

/**
 * Runs SQL on n8n's SQLite database with n8n's own sqlite3, under the Node it was built for.
 * @param {{ runtime: { nodeBin: string, n8nHome: string }, databaseFile: string }} n8n
 * @param {string} sql @param {unknown[]} [params] @returns {Promise<Record<string, unknown>[]>}
 */
async function querySqlite(n8n, sql, params = []) {
	const script = `
		const sqlite3 = require('sqlite3');
		const db = new sqlite3.Database(process.argv[1]);
		db.configure('busyTimeout', 10000);
		db.all(process.argv[2], JSON.parse(process.argv[3]), (error, rows) => {
			if (error) throw error;
			process.stdout.write(JSON.stringify(rows));
			db.close();
		});`;
	const args = ['-e', script, n8n.databaseFile, sql, JSON.stringify(params)];
	const options = { cwd: n8n.runtime.n8nHome, timeoutMs: 60000 };
	return JSON.parse(await runOrThrow(n8n.runtime.nodeBin, args, options));
}

/**
 * Writes what this n8n's `import:workflow` left out: for n8n 2.0, one `workflow_history` row per
 * imported workflow, so that its version can be activated. Run with n8n stopped.
 * @param {{ runtime: { nodeBin: string, n8nHome: string, n8nVersion: string }, databaseFile: string }} prepared
 */
async function afterWorkflowImport(prepared) {
	if (!importWritesNoHistory(prepared.runtime.n8nVersion)) return;
	await querySqlite(
		prepared,
		"INSERT INTO workflow_history (versionId, workflowId, nodes, connections, authors) SELECT versionId, id, nodes, connections, 'import' FROM workflow_entity WHERE versionId NOT IN (SELECT versionId FROM workflow_history)",
	);
}

module.exports = {
	compareVersions,
	featuresOf,
	workflowsForImport,
	afterWorkflowImport,
	querySqlite,
};
