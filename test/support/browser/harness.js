// @ts-check
'use strict';

/**
 * What each browser test file runs against, started and stopped as one: the sandbox API, a real
 * n8n (the version SMP_N8N_VERSION picks) with an owner, Debian's Chromium signed in to its
 * editor, and where screenshots go. The editor file's n8n has the packed package installed as a
 * community node and nothing else: the user creates the credential and workflows in the browser.
 * The Community Nodes file's n8n starts without the package, with a local registry to install it
 * from.
 *
 * The .ts tests cannot use Node APIs (community-node lint), so the file and process work is here.
 */

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { SANDBOX_FIXTURES } = require('../../../sandbox');
const { EXAMPLES_DIR, EXAMPLE_IDS, credentialsFor } = require('../../../scripts/n8n/examples');
const { featuresOf } = require('../../../scripts/n8n/lines');
const { packageJson } = require('../../../scripts/n8n/package');
const { ensureRuntime, startN8n } = require('../../../scripts/n8n/runtime');
const { openChromium } = require('./chromium');
const { signIn } = require('./editor');
const { startRegistry, withVersion } = require('./registry');
const { startRegistryProxy } = require('./registry-proxy');
const { screenshotsFolder } = require('./screenshots');
const { startSmtpSink } = require('../../../scripts/n8n/smtp-sink');
const stack = require('../e2e/stack');

const OWNER = { email: 'browser-owner@example.com', firstName: 'Browser', lastName: 'Owner' };
const README = path.resolve(__dirname, '..', '..', '..', 'README.md');
const FIRST_WORKFLOW_HEADING = '## First workflow: a daily digest';

/**
 * @typedef {object} ExampleFile
 * @property {string} file its path
 * @property {string} json the file's text, as a user copies it to paste into the editor
 * @property {string} id the workflow's id (EXAMPLE_IDS)
 * @property {string} name the workflow's name
 * @property {{ name: string, ours: boolean, credentialTypes: string[] }[]} nodes all but sticky notes
 */

/**
 * The example workflows as a user downloads them, with what each node needs.
 * @returns {ExampleFile[]}
 */
function exampleFiles() {
	const packagePrefix = `${packageJson().name}.`;
	return fs
		.readdirSync(EXAMPLES_DIR)
		.filter((name) => name.endsWith('.json'))
		.sort()
		.map((name) => {
			const file = path.join(EXAMPLES_DIR, name);
			const json = fs.readFileSync(file, 'utf8');
			/** @type {{ id: string, name: string, nodes: { name: string, type: string, credentials?: Record<string, unknown> }[] }} */
			const workflow = JSON.parse(json);
			const nodes = workflow.nodes
				.filter((node) => node.type !== 'n8n-nodes-base.stickyNote')
				.map((node) => ({
					name: node.name,
					ours: node.type.startsWith(packagePrefix),
					credentialTypes: Object.keys(node.credentials ?? {}),
				}));
			return { file, json, id: workflow.id, name: workflow.name, nodes };
		});
}

/**
 * @param {import('../e2e/stack').Cleanups} cleanups
 * @param {{ log: (line: string) => void }} logger
 * @param {Partial<import('../../../scripts/n8n/launch').LaunchOptions>} options
 */
async function launchWithBrowser(cleanups, logger, options) {
	const [launched, page] = await Promise.all([
		stack.launchInFolder(cleanups, logger, 'smp-browser-', {
			owner: OWNER,
			data: () => ({ credentials: [], workflows: [] }),
			...options,
		}),
		openChromium(logger, cleanups),
	]);
	// Leaving an imported, unsaved workflow asks the browser to confirm: the tests leave.
	page.on('dialog', (dialog) => void dialog.accept());
	await signIn(page, launched.n8n.baseUrl, launched.owner);
	return { ...launched, page };
}

/**
 * The editor, with the package installed, for the credential, node panel, node, trigger,
 * example and AI-tool tests.
 * @param {{ log: (line: string) => void }} logger
 */
function startEditor(logger) {
	return stack.startStack(logger, async (cleanups) => {
		const { sandbox } = await stack.startRecordedSandbox(cleanups, {});
		const { n8n, client, page } = await launchWithBrowser(cleanups, logger, {});
		return {
			sandbox,
			n8n,
			client,
			page,
			baseUrl: n8n.baseUrl,
			n8nVersion: n8n.runtime.n8nVersion,
			features: featuresOf(n8n.runtime.n8nVersion),
			packageName: packageJson().name,
			fixtures: SANDBOX_FIXTURES,
			screenshots: screenshotsFolder(cleanups, logger),
			stop: cleanups.stopAll,
		};
	});
}

/**
 * What the README's first workflow tells a user to pick and type, read from the README's own
 * text so that the test follows it word for word, and fails when the text and n8n part.
 * @returns {FrontPageDigest}
 */
function frontPageDigest() {
	const readme = fs.readFileSync(README, 'utf8');
	const start = readme.indexOf(FIRST_WORKFLOW_HEADING);
	if (start < 0) throw new Error(`README.md has no "${FIRST_WORKFLOW_HEADING}" section`);
	const section = readme.slice(start).split(/\n## /)[0];
	const prose = section.replace(/\s+/g, ' ');
	/** @param {RegExp} pattern @param {string} [text] */
	const find = (pattern, text = prose) => {
		const found = pattern.exec(text)?.[1]?.trim();
		if (!found) throw new Error(`README.md's first workflow no longer matches ${pattern}`);
		return found;
	};
	return {
		trigger: find(/\(_([^_]+)_ in the list of triggers\)/),
		hour: find(/_Trigger at Hour_ to _([^_]+)_/),
		getMany: find(/search for \*\*Supplier Matched Projects\*\* and pick _([^_]+)_/),
		aggregate: find(/set _Aggregate_ to _([^_]+)_/),
		outputField: find(/_Put Output in Field_ to `([^`]+)`/),
		sendEmailAction: find(/add \*\*Send Email\*\* \(_([^_]+)_\)/),
		subject: find(/_Subject_ such as `([^`]+)`/),
		emailFormat: find(/set _Email Format_ to _([^_]+)_/),
		expression: find(/```\n([^`]+?)\n\s*```/, section),
	};
}

/**
 * @typedef {object} FrontPageDigest
 * @property {string} trigger what to pick in the list of triggers ("On a schedule")
 * @property {string} hour Trigger at Hour
 * @property {string} getMany the action to pick for Get Many
 * @property {string} aggregate Aggregate's choice
 * @property {string} outputField Put Output in Field
 * @property {string} sendEmailAction the action to pick for Send Email
 * @property {string} subject
 * @property {string} emailFormat
 * @property {string} expression the Text to paste
 */

/**
 * The editor with the package installed and the two credentials the README's first workflow
 * asks for already made (the package's, and SMTP to a local mail sink): the README's steps, and
 * only they, are the user's.
 * @param {{ log: (line: string) => void }} logger
 */
function startFirstWorkflow(logger) {
	return stack.startStack(logger, async (cleanups) => {
		const { sandbox } = await stack.startRecordedSandbox(cleanups, {});
		const smtp = await startSmtpSink();
		cleanups.push(() => smtp.stop());
		const { n8n, page } = await launchWithBrowser(cleanups, logger, {
			data: () => ({
				credentials: credentialsFor({
					baseUrl: sandbox.url,
					smtp: { host: smtp.host, port: smtp.port },
				}),
				workflows: [],
			}),
		});
		return {
			sandbox,
			smtp,
			page,
			baseUrl: n8n.baseUrl,
			n8nVersion: n8n.runtime.n8nVersion,
			fixtures: SANDBOX_FIXTURES,
			digest: frontPageDigest(),
			stop: cleanups.stopAll,
		};
	});
}

/**
 * An n8n without the package, a local registry holding the packed package, and a newer copy of
 * it ready to publish, for the Community Nodes panel test.
 * @param {{ log: (line: string) => void }} logger
 */
function startCommunityNodes(logger) {
	return stack.startStack(logger, async (cleanups) => {
		const tarball = process.env.SMP_E2E_TARBALL;
		if (!tarball)
			throw new Error('SMP_E2E_TARBALL is unset: run the suite through its jest config');
		const registry = await startRegistry(logger, await ensureRuntime(logger));
		cleanups.push(() => registry.stop());
		const proxy = await startRegistryProxy(registry.url);
		cleanups.push(() => proxy.stop());
		await registry.publish(tarball);
		const { name, version } = packageJson();
		const work = fs.mkdtempSync(path.join(os.tmpdir(), 'smp-next-release-'));
		cleanups.push(async () => fs.rmSync(work, { recursive: true, force: true }));
		const nextVersion = version.replace(/\d+$/, (patch) => String(Number(patch) + 1));
		const nextRelease = await withVersion(tarball, nextVersion, work);
		const { n8n, page } = await launchWithBrowser(cleanups, logger, {
			withoutPackage: true,
			extraEnv: proxy.env,
			start: async (prepared, removeFolderIfOrphaned) => {
				// n8n's community nodes folder, where n8n runs npm; n8n creates the rest of it.
				fs.mkdirSync(path.join(prepared.n8nFolder, 'nodes'), { recursive: true });
				fs.writeFileSync(path.join(prepared.n8nFolder, 'nodes', '.npmrc'), proxy.npmrc);
				const started = await startN8n(prepared, { removeFolderIfOrphaned });
				cleanups.push(() => started.stop());
				return started;
			},
		});
		return {
			n8n,
			page,
			baseUrl: n8n.baseUrl,
			packageName: name,
			version,
			nextVersion,
			registry,
			proxy,
			publishNextRelease: () => registry.publish(nextRelease),
			/** @returns {string[]} the package versions in n8n's community nodes folder */
			installedVersions: () => installedVersions(n8n.userFolder, name),
			stop: cleanups.stopAll,
		};
	});
}

/**
 * @param {string} userFolder
 * @param {string} name
 */
function installedVersions(userFolder, name) {
	const manifest = path.join(userFolder, '.n8n', 'nodes', 'node_modules', name, 'package.json');
	if (!fs.existsSync(manifest)) return [];
	return [JSON.parse(fs.readFileSync(manifest, 'utf8')).version];
}

module.exports = {
	startEditor,
	startFirstWorkflow,
	startCommunityNodes,
	exampleFiles,
	// The AI Agent example is not among the examples the e2e suite runs by id.
	EXAMPLE_IDS: { ...EXAMPLE_IDS, tenderAssistant: 'smpExampleTenderAssistant' },
};
