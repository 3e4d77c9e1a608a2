#!/usr/bin/env node
// @ts-check
'use strict';

/**
 * `npm run screenshots`: refreshes docs/screenshots/*.png from a real n8n editor in headless
 * Chromium (Debian's `chromium`, driven by playwright-core). The n8n, package and data are the
 * demo's: sandbox API, the example workflows and a credential pointing at the sandbox.
 *
 * Environment: CHROMIUM_PATH (default /usr/bin/chromium).
 */

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { chromium } = require('playwright-core');

const { startSandbox } = require('../sandbox');
const {
	credentialsFor,
	loadExamples,
	EXAMPLE_IDS,
	EXAMPLE_CREDENTIALS,
} = require('./n8n/examples');
const { cleanupStack, launchN8n, throwAwayFolder } = require('./n8n/launch');
const { REPO_ROOT } = require('./n8n/package');

const OUTPUT_DIR = path.join(REPO_ROOT, 'docs', 'screenshots');
const CHROMIUM_FLAGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

const logger = {
	/** @param {string} line */
	log(line) {
		console.log(`[screenshots] ${line}`);
	},
};
const say = logger.log;

/**
 * Waits until the first element `selector` finds is visible, then `settleMs` for icons and fonts,
 * which settle after it appears.
 * @param {import('playwright-core').Page} page
 * @param {string} selector
 * @param {number} [settleMs]
 */
async function shown(page, selector, settleMs = 1500) {
	await page.locator(selector).first().waitFor({ state: 'visible', timeout: 60000 });
	await page.waitForTimeout(settleMs);
}

/**
 * Opens a node's parameters panel by its id (n8n's editor routes /workflow/<id>/<nodeId> there).
 * @param {import('playwright-core').Page} page
 * @param {string} baseUrl
 * @param {string} workflowId
 * @param {string} nodeId
 */
async function openNode(page, baseUrl, workflowId, nodeId) {
	await page.goto(`${baseUrl}/workflow/${workflowId}/${nodeId}`);
	await shown(page, '[data-test-id="ndv"]', 0);
	await shown(page, '[data-test-id="node-parameters"]');
}

/**
 * Runs the open node (the panel's Execute step / Fetch Test Event button) against the sandbox and
 * waits for its output to show.
 * @param {import('playwright-core').Page} page
 */
async function runOpenNode(page) {
	await page.locator('[data-test-id="ndv"] [data-test-id="node-execute-button"]').first().click();
	await shown(page, '[data-test-id="ndv"] table tbody tr', 0);
	// Away from the output toolbar, whose hint tooltip would cover the table.
	await page.mouse.move(10, 450);
	for (const close of await page.locator('.el-notification__closeBtn').all()) await close.click();
	await page.waitForTimeout(2500);
}

/**
 * @param {{ id: string, nodes: { id?: string, name: string }[] }[]} workflows
 * @param {string} workflowId
 * @param {string} nodeName
 */
function nodeIdOf(workflows, workflowId, nodeName) {
	const node = workflows
		.find((workflow) => workflow.id === workflowId)
		?.nodes.find((n) => n.name === nodeName);
	if (!node?.id) throw new Error(`example ${workflowId} has no node "${nodeName}" with an id`);
	return node.id;
}

/**
 * The demo's n8n, its owner, and the examples it holds.
 * @param {import('./n8n/launch').Cleanups} cleanups
 */
async function startN8nWithExamples(cleanups) {
	const folder = throwAwayFolder({ cleanups, logger, prefix: 'smp-screenshots-', keep: false });
	const sandbox = await startSandbox({ port: 0 });
	cleanups.push(() => sandbox.stop());
	const workflows = loadExamples({ filesDir: path.join(folder, 'files') });
	const { n8n, owner } = await launchN8n({
		logger,
		cleanups,
		folder,
		keep: false,
		owner: { email: 'docs@example.com', firstName: 'Docs', lastName: 'User' },
		data: () => ({
			credentials: [
				...credentialsFor({ baseUrl: sandbox.url }),
				// The AI Agent example's model credential, so its canvas shows no missing-credential warning.
				{
					id: 'smpExampleOpenAi',
					name: 'OpenAI account',
					type: 'openAiApi',
					data: { apiKey: 'sk-screenshots-only' },
				},
			],
			workflows,
		}),
	});
	return { baseUrl: n8n.baseUrl, owner, workflows };
}

/**
 * @param {import('playwright-core').Page} page
 * @param {Awaited<ReturnType<typeof startN8nWithExamples>>} editor
 */
async function shootEveryScreen(page, { baseUrl, workflows }) {
	fs.mkdirSync(OUTPUT_DIR, { recursive: true });
	/** @param {string} name */
	const shoot = async (name) => {
		const file = path.join(OUTPUT_DIR, name);
		await page.screenshot({ path: file });
		say(`saved ${path.relative(REPO_ROOT, file)}`);
	};
	/** @param {string} workflowId @param {string} nodeName */
	const openExampleNode = (workflowId, nodeName) =>
		openNode(page, baseUrl, workflowId, nodeIdOf(workflows, workflowId, nodeName));

	await openExampleNode(EXAMPLE_IDS.dailyDigest, 'All Open Tenders');
	await shoot('node-parameters.png');
	await runOpenNode(page);
	await shoot('node-output.png');

	await openExampleNode(EXAMPLE_IDS.tendersToEmail, 'New Matching Tender');
	await shoot('trigger-parameters.png');
	await runOpenNode(page);
	await shoot('trigger-test-event.png');

	await openExampleNode(EXAMPLE_IDS.quotesDueSoon, 'Quotes Due Soon');
	await shoot('trigger-quotes-due-soon.png');

	// Every filter a user can add, the budget, category, location and builder ones among them.
	await openExampleNode(EXAMPLE_IDS.dailyDigest, 'All Open Tenders');
	// The collection's "Add Filter" is a select: its label is the input's placeholder.
	await page.getByPlaceholder('Add Filter').first().click();
	await page.waitForTimeout(1000);
	await shoot('node-filters.png');

	await page.goto(`${baseUrl}/home/credentials/${EXAMPLE_CREDENTIALS.supplier.id}`);
	await shown(page, '[data-test-id="editCredential-modal"]');
	await shoot('credential.png');

	await page.goto(`${baseUrl}/workflow/${EXAMPLE_IDS.tendersToSpreadsheet}`);
	await shown(page, '[data-test-id="canvas-node"]');
	await shoot('example-workflow.png');

	// The node as an AI Agent's tool: the example's canvas, then the tool's own parameters.
	const tenderAssistant = 'smpExampleTenderAssistant';
	await page.goto(`${baseUrl}/workflow/${tenderAssistant}`);
	await shown(page, '[data-test-id="canvas-node"]');
	await shoot('agent-workflow.png');
	await openExampleNode(tenderAssistant, 'Matched Projects');
	await shoot('agent-tool-parameters.png');
}

async function main() {
	const executablePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
	if (!fs.existsSync(executablePath)) {
		throw new Error(
			`no Chromium at ${executablePath}: install Debian's "chromium" package or set CHROMIUM_PATH`,
		);
	}
	const cleanups = cleanupStack(logger);
	try {
		const editor = await startN8nWithExamples(cleanups);
		const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'smp-chromium-'));
		cleanups.push(async () => fs.rmSync(profile, { recursive: true, force: true }));
		const browser = await chromium.launchPersistentContext(profile, {
			executablePath,
			headless: true,
			args: CHROMIUM_FLAGS,
			viewport: { width: 1440, height: 900 },
			deviceScaleFactor: 1,
			colorScheme: 'light',
		});
		cleanups.push(() => browser.close());
		const page = browser.pages()[0] ?? (await browser.newPage());

		say('logging in');
		await page.goto(`${editor.baseUrl}/signin`);
		await page
			.locator('input[type="email"], input[name="emailOrLdapLoginId"]')
			.first()
			.fill(editor.owner.email);
		await page.locator('input[type="password"]').first().fill(editor.owner.password);
		await page.keyboard.press('Enter');
		await page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 60000 });
		await shootEveryScreen(page, editor);
	} finally {
		await cleanups.stopAll();
	}
}

main().catch((error) => {
	console.error(`[screenshots] failed: ${error instanceof Error ? error.message : String(error)}`);
	process.exitCode = 1;
});
