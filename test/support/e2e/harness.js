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

const { SANDBOX_FIXTURES } = require('../../../sandbox');
const { outputItems } = require('../../../scripts/n8n/client');
const { packageJson } = require('../../../scripts/n8n/package');
const { startSmtpSink } = require('../../../scripts/n8n/smtp-sink');
const { loadExamples, EXAMPLE_IDS, credentialsFor } = require('../../../scripts/n8n/examples');
const { waitForPolls } = require('./support');
const { getManyWorkflow, triggerWorkflow } = require('./workflows');
const stack = require('./stack');

/** Get Many on a webhook call: every project of the fixture company, with the credential. */
const LIST_PROJECTS = Object.freeze({ id: 'smpE2eListProjects', path: 'e2e-projects' });

/** Each event's trigger with two Poll Times that fall due at the same second. */
const TWO_SCHEDULES = Object.freeze([
	{ id: 'smpE2eTwoSchedulesNew', trigger: 'New Tender', parameters: { event: 'newTender' } },
	{
		id: 'smpE2eTwoSchedulesDueSoon',
		trigger: 'Quotes Due Soon',
		parameters: { event: 'quotesDueSoon', daysBeforeQuotesDue: 3 },
	},
]);

/**
 * The workflows only the suite uses (the examples are imported as well).
 * @param {{ id: string, name: string }} credential
 */
function e2eWorkflows(credential) {
	const listProjects = getManyWorkflow({
		...LIST_PROJECTS,
		name: `e2e: ${LIST_PROJECTS.path}`,
		companyId: SANDBOX_FIXTURES.companyId,
		credential,
	});
	const sameSecond = [
		{ mode: 'custom', cronExpression: '0 * * * * *' },
		{ mode: 'custom', cronExpression: '0 */1 * * * *' },
	];
	const twoSchedules = TWO_SCHEDULES.map(({ id, trigger, parameters }) =>
		triggerWorkflow({
			id,
			name: `e2e: ${trigger} with two Poll Times at the same second`,
			node: trigger,
			credential,
			pollTimes: sameSecond,
			parameters: { ...parameters, simplify: false },
		}),
	);
	return [listProjects, ...twoSchedules];
}

/** @typedef {Awaited<ReturnType<typeof startE2e>>} E2eEnvironment */

/**
 * @param {{ log: (line: string) => void }} logger
 */
function startE2e(logger) {
	return stack.startStack(logger, async (cleanups) => {
		// More projects than one page of 100 holds, so a complete walk needs several pages.
		const { sandbox, tokenRecorder } = await stack.startRecordedSandbox(cleanups, {
			projects: 400,
		});
		const smtp = await startSmtpSink();
		cleanups.push(() => smtp.stop());

		const { folder, n8n, client, filesDir, cliLog } = await stack.launchInFolder(
			cleanups,
			logger,
			'smp-n8n-',
			{
				logLevel: 'debug',
				owner: { email: 'e2e-owner@example.com', firstName: 'E2E', lastName: 'Owner' },
				data: (files) => {
					const credentials = credentialsFor({
						authUrl: tokenRecorder.url,
						baseUrl: sandbox.url,
						smtp: { host: smtp.host, port: smtp.port },
					});
					const [{ id, name }] = credentials;
					const workflows = [...loadExamples({ filesDir: files }), ...e2eWorkflows({ id, name })];
					return { credentials, workflows };
				},
			},
		);
		fs.writeFileSync(path.join(folder, 'n8n-cli.log'), cliLog);

		return {
			sandbox,
			tokenRecorder,
			smtp,
			n8n,
			client, // logged in as the owner
			packageName: packageJson().name,
			filesDir, // where workflows may write files
			fixtures: SANDBOX_FIXTURES,
			exampleIds: EXAMPLE_IDS,
			listProjects: LIST_PROJECTS,
			twoSchedules: TWO_SCHEDULES,
			/** @type {(since: string, count: number, timeoutMs: number) => Promise<void>} */
			waitForPolls: (since, count, timeoutMs) => waitForPolls(sandbox, { since, count, timeoutMs }),
			// n8n alone, so that its files can be read at rest.
			stopN8n: () => n8n.stop(),
			/** @returns {string[]} where the client secret or an issued token appears */
			secretsFoundOnDisk: () => stack.secretsOnDisk(folder, tokenRecorder),
			filesIn: stack.filesIn,
			stop: cleanups.stopAll,
		};
	});
}

module.exports = { startE2e, outputItems };
