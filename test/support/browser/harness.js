// @ts-check
'use strict';

/**
 * What each browser test file runs against: a real n8n (the version SMP_N8N_VERSION picks) and
 * Debian's headless Chromium signed in to its editor as the owner; and the README's and docs' text
 * that the tests follow word for word. Node's APIs are here, out of the .ts tests' reach (lint).
 */

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { chromium } = require('playwright-core');

const { SANDBOX_FIXTURES } = require('../../../sandbox');
const { EXAMPLES_DIR, credentialsFor } = require('../../../scripts/n8n/examples');
const { selectedN8nVersion, supportedN8nVersions } = require('../../../scripts/n8n/install');
const { featuresOf } = require('../../../scripts/n8n/lines');
const { packageJson, REPO_ROOT } = require('../../../scripts/n8n/package');
const { startN8n } = require('../../../scripts/n8n/runtime');
const { startSmtpSink } = require('../../../scripts/n8n/smtp-sink');
const { ensurePrograms } = require('../e2e/debian-packages');
const stack = require('../e2e/stack');
const { signIn } = require('./editor');
const { startRegistry } = require('./registry');

/** @typedef {{ log: (line: string) => void }} Logger */
/** @typedef {import('../../../scripts/n8n/launch').Cleanups} Cleanups */

const OWNER = { email: 'browser-owner@example.com', firstName: 'Browser', lastName: 'Owner' };
const DOCS_SCREENSHOTS = path.join(REPO_ROOT, 'docs', 'screenshots');
const FIRST_WORKFLOW_HEADING = '## First workflow: a daily digest';

/**
 * Debian's Chromium (the error names the package when it is missing), driven by playwright-core
 * with no browser download, at the size of the screenshots in docs/screenshots.
 * @param {Cleanups} cleanups
 */
async function openChromium(cleanups) {
	const { chromium: executablePath } = await ensurePrograms([
		{ name: 'chromium', candidates: ['chromium'], debianPackage: 'chromium' },
	]);
	const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'smp-chromium-'));
	cleanups.push(async () => fs.rmSync(profile, { recursive: true, force: true }));
	const context = await chromium.launchPersistentContext(profile, {
		executablePath,
		headless: true,
		// Playwright's own flags cover headless, no sandbox (as root) and most background services;
		// these turn off the rest that would call Google's servers, which this machine refuses.
		args: ['--disable-gpu', '--disable-quic', '--disable-sync'],
		viewport: { width: 1440, height: 900 },
		deviceScaleFactor: 1,
		colorScheme: 'light',
		// Pasting a workflow into the canvas goes through the system clipboard.
		permissions: ['clipboard-read', 'clipboard-write'],
	});
	cleanups.push(() => context.close());
	context.setDefaultTimeout(30_000);
	return context.pages()[0] ?? (await context.newPage());
}

/**
 * n8n in a throw-away folder, and Chromium signed in to its editor as the owner.
 * @param {Cleanups} cleanups @param {Logger} logger
 * @param {Partial<import('../../../scripts/n8n/launch').LaunchOptions>} options
 */
async function launchWithBrowser(cleanups, logger, options) {
	const [{ n8n, owner }, page] = await Promise.all([
		stack.launchInFolder(cleanups, logger, 'smp-browser-', {
			owner: OWNER,
			data: () => ({ credentials: [], workflows: [] }),
			...options,
		}),
		openChromium(cleanups),
	]);
	// Leaving an imported, unsaved workflow asks the browser to confirm: the tests leave.
	page.on('dialog', (dialog) => void dialog.accept());
	await signIn(page, n8n.baseUrl, owner);
	const n8nVersion = n8n.runtime.n8nVersion;
	return { n8n, page, baseUrl: n8n.baseUrl, n8nVersion, stop: cleanups.stopAll };
}

/**
 * The screenshots in docs/screenshots, each taken when a test reaches its screen, so they show
 * what the tests saw. Written there only with SMP_SCREENSHOTS=1 (`npm run screenshots`) and from
 * the newest n8n, the one users install; otherwise dropped, leaving the tree as it was.
 * @param {Logger} logger
 */
function screenshots(logger) {
	const forDocs = process.env.SMP_SCREENSHOTS === '1';
	const newest = supportedN8nVersions().at(-1);
	if (forDocs && selectedN8nVersion() !== newest) {
		throw new Error(
			`SMP_SCREENSHOTS=1 takes them from the n8n users install: unset SMP_N8N_VERSION`,
		);
	}
	/** @type {Set<string>} */
	const taken = new Set();
	return {
		shown: fs.readdirSync(DOCS_SCREENSHOTS).filter((name) => name.endsWith('.png')),
		taken: () => [...taken],
		/** @param {import('playwright-core').Page} page @param {string} name e.g. credential.png */
		take: async (page, name) => {
			// Away from anything with a tooltip, and after n8n's pop-ups have closed by themselves.
			await page.mouse.move(720, 2);
			await page
				.locator('.el-notification')
				.first()
				.waitFor({ state: 'detached', timeout: 15_000 })
				.catch(() => undefined);
			await page.screenshot({ path: forDocs ? path.join(DOCS_SCREENSHOTS, name) : undefined });
			taken.add(name);
			if (forDocs) logger.log(`saved docs/screenshots/${name}`);
		},
	};
}

/**
 * The editor with the package installed, on the sandbox, beside a mail sink. With `credentials`,
 * the two that the README's first workflow asks for are already made (the package's, and SMTP to
 * the mail sink); without, there is nothing else: the user creates the credential in the browser.
 * @param {Logger} logger @param {{ credentials?: boolean }} [options]
 */
function startEditor(logger, options = {}) {
	return stack.startStack(logger, async (cleanups) => {
		const sandbox = await stack.startNoonSandbox(cleanups, {});
		const smtp = await startSmtpSink();
		cleanups.push(() => smtp.stop());
		const credentials = options.credentials ? credentialsFor({ baseUrl: sandbox.url, smtp }) : [];
		const editor = await launchWithBrowser(cleanups, logger, {
			data: () => ({ credentials, workflows: [] }),
		});
		return {
			...editor,
			sandbox,
			smtp,
			fixtures: SANDBOX_FIXTURES,
			features: featuresOf(editor.n8nVersion),
			screenshots: screenshots(logger),
		};
	});
}

/**
 * An n8n without the package, whose Community Nodes panel installs it from a local Verdaccio
 * (registry.js) holding the packed package; `publishNextRelease` publishes a newer copy.
 * @param {Logger} logger
 */
function startCommunityNodes(logger) {
	return stack.startStack(logger, async (cleanups) => {
		const tarball = process.env.SMP_E2E_TARBALL;
		if (!tarball)
			throw new Error('SMP_E2E_TARBALL is unset: run the suite through its jest config');
		const registry = await startRegistry(logger);
		cleanups.push(() => registry.stop());
		await registry.publish(tarball);
		const { name, version } = packageJson();
		const nextVersion = version.replace(/\d+$/, (patch) => String(Number(patch) + 1));
		const editor = await launchWithBrowser(cleanups, logger, {
			withoutPackage: true,
			extraEnv: registry.env,
			start: async (prepared, removeFolderIfOrphaned) => {
				// n8n's community nodes folder, where n8n runs npm; n8n creates the rest of it.
				const nodesFolder = path.join(prepared.n8nFolder, 'nodes');
				fs.mkdirSync(nodesFolder, { recursive: true });
				fs.writeFileSync(path.join(nodesFolder, '.npmrc'), registry.npmrc);
				const started = await startN8n(prepared, { removeFolderIfOrphaned });
				cleanups.push(() => started.stop());
				return started;
			},
		});
		const installed = `${editor.n8n.userFolder}/.n8n/nodes/node_modules/${name}/package.json`;
		return {
			...editor,
			packageName: name,
			version,
			nextVersion,
			registry,
			publishNextRelease: () => registry.publish(tarball, nextVersion),
			/** @returns {string[]} the package versions in n8n's community nodes folder */
			installedVersions: () =>
				fs.existsSync(installed) ? [JSON.parse(fs.readFileSync(installed, 'utf8')).version] : [],
		};
	});
}

/** The example workflows, each with `json`, the text a user copies from its file. */
function exampleFiles() {
	return fs
		.readdirSync(EXAMPLES_DIR)
		.filter((file) => file.endsWith('.json'))
		.sort()
		.map((file) => {
			const json = fs.readFileSync(path.join(EXAMPLES_DIR, file), 'utf8');
			/** @type {{ id: string, name: string, nodes: { name: string, type: string }[] }} */
			const workflow = JSON.parse(json);
			return { ...workflow, json };
		});
}

/**
 * @param {RegExp} pattern
 * @param {string} text
 * @param {string} file the text's, for the error
 */
function matchIn(pattern, text, file) {
	const found = pattern.exec(text)?.[1]?.trim();
	// The text and the tests have parted: they would no longer follow it word for word.
	if (!found) throw new Error(`${file} no longer matches ${pattern}`);
	return found;
}

/** What the README's first workflow tells a user to pick and type, read from its own text. */
function frontPageDigest() {
	const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
	const section = readme.slice(readme.indexOf(FIRST_WORKFLOW_HEADING)).split(/\n## /)[0];
	/** @param {RegExp} pattern @param {string} [text] */
	const find = (pattern, text = section.replace(/\s+/g, ' ')) =>
		matchIn(pattern, text, 'README.md');
	return {
		trigger: find(/\(_([^_]+)_ in the list of triggers\)/),
		hour: find(/_Trigger at Hour_ to _([^_]+)_/),
		getMany: find(/search for \*\*Supplier Matched Projects\*\* and pick _([^_]+)_/),
		aggregate: find(/set _Aggregate_ to _([^_]+)_/),
		outputField: find(/_Put Output in Field_ to `([^`]+)`/),
		sendEmailAction: find(/add \*\*Send Email\*\* \(_([^_]+)_\)/),
		subject: find(/_Subject_ such as `([^`]+)`/),
		emailFormat: find(/set _Email Format_ to _([^_]+)_/),
		// The Text to paste, with its line breaks.
		expression: find(/```\n([^`]+?)\n\s*```/, section),
	};
}

/** The columns of Simplify's flat rows, in order, as docs/using-the-nodes.md lists them. */
function simplifiedColumns() {
	const file = 'docs/using-the-nodes.md';
	const prose = fs.readFileSync(path.join(REPO_ROOT, file), 'utf8').replace(/\s+/g, ' ');
	/** @param {RegExp} pattern */
	const columns = (pattern) => matchIn(pattern, prose, file).split(', ');
	return {
		projects: columns(/flat rows\. Projects: `([^`]+)`/),
		tenders: columns(/\. Tenders: `([^`]+)`/),
	};
}

module.exports = {
	startEditor,
	startCommunityNodes,
	exampleFiles,
	frontPageDigest,
	simplifiedColumns,
};
