// @ts-check
'use strict';

/**
 * A sandbox holding one account shaped like a real supplier's, the account issue 19's size
 * targets are stated against: 237 matched projects, each with 1 to 3 open tenders, two
 * consultants and two tendering subcontractors.
 */

const { startSandbox, SANDBOX_FIXTURES } = require('../../sandbox');

const AGENT_ACCOUNT = Object.freeze({ projects: 237, tendersPerProject: [1, 3] });

/**
 * @param {{ seed?: number }} [options]
 * @returns {Promise<import('../../sandbox').Sandbox>}
 */
async function startAgentAccountSandbox(options = {}) {
	const sandbox = await startSandbox({
		port: 0,
		seed: options.seed ?? 19,
		// No generated projects: every project is opened below, so every one matches the company.
		projects: 0,
		partyCounts: { consultants: 2, subcontractors: 2 },
	});
	const { companyId } = SANDBOX_FIXTURES;
	const [fewest, most] = AGENT_ACCOUNT.tendersPerProject;
	for (let index = 0; index < AGENT_ACCOUNT.projects; index++) {
		const { projectId } = sandbox.openTender({ companyId });
		// 1, 2, 3, 1, 2, 3, ...: every count present, in a fixed order.
		const tenders = fewest + (index % (most - fewest + 1));
		for (let more = 1; more < tenders; more++) sandbox.openTender({ companyId, projectId });
	}
	return sandbox;
}

module.exports = { startAgentAccountSandbox, AGENT_ACCOUNT };
