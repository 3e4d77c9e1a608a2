// @ts-check
'use strict';

/**
 * What differs between the n8n versions this repository runs, in one place: what an n8n of a given
 * version needs to import workflows the way the others do, and which of n8n's features it has. The
 * REST differences (activation without a publication status before n8n 2.3x) are told apart by
 * n8n's own answers, in client.js. Requires nothing from node_modules (CI runs install.js first).
 */

const crypto = require('node:crypto');

const { runGroup } = require('./processes');

/**
 * Versions compared part by part.
 * @param {string} a e.g. 2.41.1
 * @param {string} b
 * @returns {number} negative when a is older than b
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
 * @param {string} from the first version that has it
 * @param {string} [before] the first that no longer does
 */
function inRange(version, from, before) {
	return (
		compareVersions(version, from) >= 0 &&
		(before === undefined || compareVersions(version, before) < 0)
	);
}

/**
 * n8n 2.0's `import:workflow` refuses a workflow without `versionId` (NOT NULL) and writes no
 * `workflow_history` row, which activating a version needs; n8n 1.123.81 and 2.30.8 assign the
 * version and write its row themselves.
 * @param {string} version
 */
function importWritesNoHistory(version) {
	return inRange(version, '2.0.0', '2.1.0');
}

/**
 * Which of n8n's features an n8n of this version has, for the tests that need one.
 * @param {string} version
 */
function featuresOf(version) {
	return {
		/** The MCP Server Trigger at typeVersion 2 (n8n 1.123 has it, and every 2.x). */
		mcpServerTrigger: inRange(version, '1.123.0'),
		/** `N8N_SCHEDULER_POLL_TRIGGERS_ENABLED`: polls backed off by failure cause (2.33 on). */
		durablePollScheduler: inRange(version, '2.33.0'),
		/** n8n-workflow's `TIMED_CAUSES`, the failure causes a wait helps (2.40 on). */
		failureCauses: inRange(version, '2.40.0'),
		/**
		 * n8n's own MCP server with the workflow builder's tools (search_nodes, get_node_types,
		 * create_workflow_from_code) and MCP access switched on by environment: 2.30.8 has them,
		 * 2.0.3 and 1.123.81 have neither.
		 */
		mcpBuilder: inRange(version, '2.30.0'),
		/**
		 * A usableAsTool node's tool copy keeps the node's search aliases (n8n's setToolCodex):
		 * 2.30.8 keeps them; 2.0.3 and 1.123.81 give the copy a codex of its own without them.
		 */
		toolCopyKeepsAliases: inRange(version, '2.30.0'),
		/**
		 * The module that fetches n8n's MCP server registry (2.30.8 has it, 2.0.3 not); an n8n
		 * refuses to start when told to disable a module it does not know.
		 */
		mcpRegistryModule: inRange(version, '2.30.0'),
		/**
		 * The credential's Test applies its response-code rules to an error answer: a redirect it
		 * did not follow, a 404 (2.40.7 and 2.41.1 do; 2.30.8 and older show n8n's own message,
		 * "Request failed with status code 302", "The resource you are requesting could not be
		 * found", the error having no response attached where the tester looks).
		 */
		testResponseCodeRules: inRange(version, '2.40.0'),
		/**
		 * Pasting or importing a workflow in the editor picks the user's own credential for a node
		 * whose credential is unknown, and says so ("Credentials auto-added": 2.40.7 and 2.41.1 do;
		 * 2.30.8 and 1.123.81 drop the unknown credential, so the node asks for one).
		 */
		credentialsPickedOnPaste: inRange(version, '2.40.0'),
	};
}

/**
 * The workflows as this n8n's `import:workflow` takes them.
 * @param {string} version
 * @param {unknown[]} workflows workflow JSON objects
 * @returns {unknown[]}
 */
function workflowsForImport(version, workflows) {
	if (!importWritesNoHistory(version)) return workflows;
	return workflows.map((workflow) => ({
		versionId: crypto.randomUUID(),
		.../** @type {object} */ (workflow),
	}));
}

/**
 * Writes what this n8n's `import:workflow` left out and later ones write: for n8n 2.0, one
 * `workflow_history` row per imported workflow (its version as imported, by "import"), so that
 * the version can be activated. Run with n8n stopped, before it starts.
 * @param {{ runtime: { nodeBin: string, n8nHome: string, n8nVersion: string }, databaseFile: string }} prepared
 */
async function afterWorkflowImport(prepared) {
	if (!importWritesNoHistory(prepared.runtime.n8nVersion)) return;
	// n8n's own sqlite3, under the Node it was built for.
	const script = `
		const sqlite3 = require('sqlite3');
		const db = new sqlite3.Database(process.argv[1]);
		db.run(
			"INSERT INTO workflow_history (versionId, workflowId, nodes, connections, authors) " +
				"SELECT versionId, id, nodes, connections, 'import' FROM workflow_entity " +
				"WHERE versionId NOT IN (SELECT versionId FROM workflow_history)",
			(error) => {
				if (error) throw error;
				db.close();
			},
		);`;
	const result = await runGroup(prepared.runtime.nodeBin, ['-e', script, prepared.databaseFile], {
		cwd: prepared.runtime.n8nHome,
		timeoutMs: 60000,
	});
	if (result.code !== 0) {
		throw new Error(
			`writing the workflow history n8n ${prepared.runtime.n8nVersion}'s import leaves out failed: ${result.stderr}`,
		);
	}
}

module.exports = { compareVersions, featuresOf, workflowsForImport, afterWorkflowImport };
