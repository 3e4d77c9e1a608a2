// @ts-check
'use strict';

/**
 * The example workflows in examples/, as the demo and the e2e suite import them, and the
 * credentials they refer to (by the ids the examples carry).
 */

const fs = require('node:fs');
const path = require('node:path');

const { SANDBOX_FIXTURES } = require('../../sandbox');

const EXAMPLES_DIR = path.resolve(__dirname, '..', '..', 'examples');

/** Where the spreadsheet example writes: the n8n Docker image's default allowed folder. */
const EXAMPLE_FILES_DIR = '/home/node/.n8n-files';

const EXAMPLE_IDS = Object.freeze({
	tendersToSpreadsheet: 'smpExampleTendersToSheet',
	tendersToEmail: 'smpExampleTendersToEmail',
	dailyDigest: 'smpExampleDailyDigest',
	quotesDueSoon: 'smpExampleQuotesDueSoon',
});

/** The credential ids and names the examples refer to. */
const EXAMPLE_CREDENTIALS = Object.freeze({
	supplier: { id: 'smpExampleCredential', name: 'Supplier Matched Projects account' },
	smtp: { id: 'smpExampleSmtp', name: 'SMTP account' },
});

/**
 * @typedef {{ id: string, name: string, nodes: { name: string, type: string, parameters: Record<string, unknown>, disabled?: boolean }[], [key: string]: unknown }} WorkflowJson
 */

/**
 * @param {string} dir
 * @returns {any[]} every workflow (.json file) in dir, by file name
 */
function workflowsIn(dir) {
	return fs
		.readdirSync(dir)
		.filter((name) => name.endsWith('.json'))
		.sort()
		.map((name) => JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')));
}

/**
 * Reads every example, with the folder the spreadsheet is written to moved to `filesDir` (a
 * folder that n8n may write to in this environment). Only the write node's path changes: the
 * notes still tell the reader about the default folder.
 * @param {{ filesDir: string }} options
 * @returns {WorkflowJson[]}
 */
function loadExamples(options) {
	return workflowsIn(EXAMPLES_DIR).map((/** @type {WorkflowJson} */ workflow) => {
		for (const node of workflow.nodes) {
			const fileName = node.parameters.fileName;
			if (node.type === 'n8n-nodes-base.readWriteFile' && typeof fileName === 'string') {
				node.parameters.fileName = fileName.split(EXAMPLE_FILES_DIR).join(options.filesDir);
			}
		}
		return workflow;
	});
}

/**
 * Credentials, in the shape `n8n import:credentials` reads, for the ids the examples use: the
 * sandbox's client at `baseUrl` (tokens from `authUrl`, by default the same), and an SMTP server
 * (by default none listening).
 * @param {{ baseUrl: string, authUrl?: string, smtp?: { host: string, port: number } }} options
 * @returns {{ id: string, name: string, type: string, data: Record<string, unknown> }[]}
 */
function credentialsFor({ baseUrl, authUrl = baseUrl, smtp = { host: '127.0.0.1', port: 25 } }) {
	return [
		{
			...EXAMPLE_CREDENTIALS.supplier,
			type: 'supplierMatchedProjectsApi',
			data: {
				authUrl,
				baseUrl,
				clientId: SANDBOX_FIXTURES.client.clientId,
				clientSecret: SANDBOX_FIXTURES.client.clientSecret,
				scope: 'speci-finder/read',
			},
		},
		{
			...EXAMPLE_CREDENTIALS.smtp,
			type: 'smtp',
			data: {
				host: smtp.host,
				port: smtp.port,
				secure: false,
				disableStartTls: true,
				user: '',
				password: '',
			},
		},
	];
}

module.exports = {
	workflowsIn,
	loadExamples,
	credentialsFor,
	EXAMPLE_IDS,
	EXAMPLE_CREDENTIALS,
	EXAMPLES_DIR,
};
