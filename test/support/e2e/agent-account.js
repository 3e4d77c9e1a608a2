// @ts-check
'use strict';

/**
 * An account shaped like a real supplier's, the one issue 19's size targets are stated against:
 * 237 matched projects, each with 1 to 3 open tenders, two consultants and two tendering
 * subcontractors. Built by the sandbox's generator, served to real n8n by the AI suite and
 * measured in-process by test/unit/nodes/SupplierMatchedProjects/actions/matchedProject/tool-answer-size.test.ts.
 */

const { startSandbox, createSandboxData, SANDBOX_FIXTURES } = require('../../../sandbox');

const AGENT_ACCOUNT = Object.freeze({ projects: 237, tendersPerProject: [1, 3] });

/** @typedef {{ seed?: number, now?: string }} AccountOptions */

/** @param {AccountOptions} options @returns {import('../../../sandbox').SandboxOptions} */
function sandboxOptions(options) {
	return {
		seed: options.seed ?? 19,
		now: options.now,
		// No generated projects: every project is opened below, so every one matches the company.
		projects: 0,
		partyCounts: { consultants: 2, subcontractors: 2 },
	};
}

/** @param {{ openTender: import('../../../sandbox').Sandbox['openTender'] }} sandbox */
function openAccount(sandbox) {
	const { companyId } = SANDBOX_FIXTURES;
	const [fewest, most] = AGENT_ACCOUNT.tendersPerProject;
	for (let index = 0; index < AGENT_ACCOUNT.projects; index++) {
		const { projectId } = sandbox.openTender({ companyId });
		// 1, 2, 3, 1, 2, 3, ...: every count present, in a fixed order.
		const tenders = fewest + (index % (most - fewest + 1));
		for (let more = 1; more < tenders; more++) sandbox.openTender({ companyId, projectId });
	}
}

/** @param {AccountOptions} [options] @returns {Promise<import('../../../sandbox').Sandbox>} */
async function startAgentAccountSandbox(options = {}) {
	const sandbox = await startSandbox({ port: 0, ...sandboxOptions(options) });
	openAccount(sandbox);
	return sandbox;
}

/**
 * The account's projects as the API lists them (earliest quotes due first), without a server.
 * @param {AccountOptions} [options] @returns {import('../../../sandbox').Project[]}
 */
function agentAccountProjects(options = {}) {
	const { store } = createSandboxData(sandboxOptions(options));
	openAccount(store);
	return store.listOpen(SANDBOX_FIXTURES.companyId);
}

module.exports = { startAgentAccountSandbox, agentAccountProjects, AGENT_ACCOUNT };
