// @ts-check
'use strict';

/**
 * The example workflows in examples/, as the demo and the e2e suites import them, and the
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

/**
 * @typedef {{ id: string, name: string, nodes: { name: string, type: string, webhookId?: string, parameters: Record<string, unknown>, disabled?: boolean }[], [key: string]: unknown }} WorkflowJson
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
 * Every example, its spreadsheet written to `filesDir` (one n8n may write to here). Only the write
 * node's path changes: the notes still name the default folder.
 * @param {{ filesDir: string }} options @returns {WorkflowJson[]}
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
 * Credentials, as `n8n import:credentials` reads them, for the ids the examples use: the sandbox's
 * client at `baseUrl` (tokens from `authUrl`, by default the same), and an SMTP server (by default
 * none listening).
 * @param {{ baseUrl: string, authUrl?: string, smtp?: { host: string, port: number } }} options
 * @returns {{ id: string, name: string, type: string, data: Record<string, unknown> }[]}
 */
function credentialsFor({ baseUrl, authUrl = baseUrl, smtp = { host: '127.0.0.1', port: 25 } }) {
	const { clientId, clientSecret } = SANDBOX_FIXTURES.client;
	return [
		{
			id: 'smpExampleCredential',
			name: 'Supplier Matched Projects account',
			type: 'supplierMatchedProjectsApi',
			data: { authUrl, baseUrl, clientId, clientSecret, scope: 'speci-finder/read' },
		},
		{
			id: 'smpExampleSmtp',
			name: 'SMTP account',
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

module.exports = { workflowsIn, loadExamples, credentialsFor, EXAMPLE_IDS, EXAMPLES_DIR };
