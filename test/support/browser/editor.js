// @ts-check
'use strict';

/**
 * What a user does in n8n's editor, as steps the browser tests share. Elements are found by the
 * role, label or text a user sees; where n8n gives an element neither (the node panel's result
 * names, a canvas node's issue marker), by the `data-test-id` n8n's own tests use, named here
 * once. The steps work on every supported line (1.123 and 2.x name some buttons differently).
 */

/** @typedef {import('playwright-core').Page} Page */
/** @typedef {import('playwright-core').Locator} Locator */

/** n8n's names for elements that have no role or text of their own. */
const TEST_IDS = Object.freeze({
	nodePanel: '[data-test-id="node-creator"]',
	nodePanelResultName: '[data-test-id="node-creator-item-name"]',
	issueMarker: '[data-test-id="node-issues"]',
	nodePanelClose: '[data-test-id="ndv-close-button"]',
	// The canvas's own "Execute workflow": each trigger node has a hidden one of the same name.
	executeWorkflow: '[data-test-id="execute-workflow-button"]',
});

/**
 * Signs in on the sign-in page, as the owner.
 * @param {Page} page
 * @param {string} baseUrl
 * @param {{ email: string, password: string }} owner
 */
async function signIn(page, baseUrl, owner) {
	await page.goto(`${baseUrl}/signin`);
	const boxes = page.getByRole('textbox');
	await boxes.first().fill(owner.email);
	await page.locator('input[type="password"]').fill(owner.password);
	await page.getByRole('button', { name: 'Sign in' }).click();
	await page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 60_000 });
}

/**
 * A new, empty workflow in the editor.
 * @param {Page} page
 * @param {string} baseUrl
 */
async function newWorkflow(page, baseUrl) {
	await page.goto(`${baseUrl}/workflow/new`);
	await page.getByText(/^Add first step/).waitFor();
}

/**
 * The node panel's search box, once the panel is open.
 * @param {Page} page
 */
const searchBox = (page) => page.getByPlaceholder('Search nodes...');

/**
 * Opens "What triggers this workflow?" from an empty canvas's "Add first step".
 * @param {Page} page
 */
async function openTriggerPanel(page) {
	await page
		.getByRole('group')
		.filter({ hasText: /^Add first step/ })
		.getByRole('button')
		.click();
	await searchBox(page).waitFor();
}

/**
 * Opens the node panel for the next step ("What happens next?"): the canvas's "Open nodes panel"
 * button on n8n 2.x, the Tab key on 1.x (whose button has no name).
 * @param {Page} page
 */
async function openNextStepPanel(page) {
	const button = page.getByRole('button', { name: 'Open nodes panel' });
	// A panel that is still closing takes the first click as its own: try again, a few times.
	for (let attempt = 1; ; attempt++) {
		if ((await button.count()) > 0) await button.click();
		else await page.keyboard.press('Tab');
		const opened = await searchBox(page)
			.waitFor({ timeout: 5_000 })
			.then(() => true)
			.catch(() => false);
		if (opened) return;
		if (attempt === 3) throw new Error('the node panel did not open for the next step');
	}
}

/**
 * Types a phrase into the open node panel and reads the results' names, top first, once they
 * stop changing.
 * @param {Page} page
 * @param {string} phrase
 * @returns {Promise<string[]>}
 */
async function searchNodePanel(page, phrase) {
	await searchBox(page).fill(phrase);
	const names = page.locator(TEST_IDS.nodePanel).locator(TEST_IDS.nodePanelResultName);
	let previous = '';
	for (let read = 0; read < 40; read++) {
		await page.waitForTimeout(150);
		const current = (await names.allInnerTexts()).map((name) => name.trim());
		const key = JSON.stringify(current);
		if (read >= 2 && key === previous) return current;
		previous = key;
	}
	return JSON.parse(previous);
}

/**
 * In the open node panel, opens the first result of a search, and returns what the panel lists
 * for it (its triggers and actions, e.g. "On new tender", "Get many matched projects").
 * @param {Page} page
 * @param {string} name the result's name
 */
async function openPanelResult(page, name) {
	await page.locator(TEST_IDS.nodePanel).getByText(name, { exact: true }).first().click();
	return page.locator(TEST_IDS.nodePanel);
}

/**
 * Pastes a workflow into the open (empty) canvas, as a user who copied an example file's text:
 * the JSON goes to the clipboard, then Ctrl+V on the canvas.
 * @param {Page} page
 * @param {string} json
 */
async function pasteWorkflow(page, json) {
	await page.evaluate(`navigator.clipboard.writeText(${JSON.stringify(json)})`);
	await page.getByText(/^Add first step/).waitFor();
	await page.mouse.click(300, 300);
	await page.keyboard.press('Control+V');
}

/**
 * A node on the canvas, by its name.
 * @param {Page} page
 * @param {string} name
 */
function canvasNode(page, name) {
	return page
		.getByRole('group')
		.filter({ has: page.getByText(name, { exact: true }) })
		.filter({ has: page.getByRole('button', { name: 'Delete' }) })
		.filter({ hasNot: page.getByRole('heading') });
}

/**
 * The issue marker of a canvas node, and what its tooltip says when hovered (null: no marker).
 * @param {Page} page
 * @param {string} name
 * @returns {Promise<string | null>}
 */
async function issuesOf(page, name) {
	const marker = canvasNode(page, name).locator(TEST_IDS.issueMarker);
	if ((await marker.count()) === 0 || !(await marker.first().isVisible())) return null;
	const tooltip = page
		.getByText(/^Issues/)
		.filter({ visible: true })
		.first();
	// The previous node's tooltip must be gone first, or it would be read instead.
	await page.mouse.move(5, 5);
	await tooltip.waitFor({ state: 'hidden' });
	await marker.first().hover();
	await tooltip.waitFor();
	const text = await tooltip.locator('xpath=..').innerText();
	await page.mouse.move(5, 5);
	return text;
}

/**
 * The open node's panel (NDV): the dialog with the node's "Docs" link.
 * @param {Page} page
 * @returns {Locator}
 */
function nodeDetails(page) {
	return page.getByRole('dialog').filter({ has: page.getByRole('link', { name: 'Docs' }) });
}

/**
 * Opens a node's panel (NDV) by double-clicking it on the canvas.
 * @param {Page} page
 * @param {string} name
 * @returns {Promise<Locator>} the panel
 */
async function openNode(page, name) {
	await canvasNode(page, name).dblclick();
	const panel = nodeDetails(page);
	await panel.waitFor();
	return panel;
}

/**
 * Closes whatever panel is open (NDV, node panel) with Escape. A node's panel that stays open (a
 * select that kept the focus after a pick takes the Escape as its own) is closed as a user closes
 * it: "Back to canvas" on n8n 1.x, its close button on 2.x.
 * @param {Page} page
 */
async function closePanel(page) {
	await page.keyboard.press('Escape');
	await page.waitForTimeout(300);
	const nodePanel = nodeDetails(page);
	if (!(await nodePanel.isVisible())) return;
	const backToCanvas = page.getByText('Back to canvas', { exact: true });
	if (await backToCanvas.isVisible()) await backToCanvas.click();
	else await page.locator(TEST_IDS.nodePanelClose).click();
	await nodePanel.waitFor({ state: 'hidden' });
}

/**
 * A form field's label, by the text a user reads (a required field's ends in "*").
 * @param {Locator} scope
 * @param {string} label
 */
function labelOf(scope, label) {
	return scope
		.locator('label')
		.filter({ hasText: new RegExp(`^\\s*${escapeRegExp(label)}(\\s|\\*|$)`) });
}

/**
 * From a label, its field: n8n's labels are not tied to their inputs, so the field is the nearest
 * element around the label that holds an input.
 */
const FIELD_AROUND_LABEL = 'xpath=ancestor::div[.//input or .//textarea][1]';

/**
 * The text box of a form field, by the label a user reads above it.
 * @param {Locator} scope
 * @param {string} label
 */
function fieldByLabel(scope, label) {
	return labelOf(scope, label).locator(FIELD_AROUND_LABEL).locator('input, textarea').first();
}

/**
 * Shows a field's hint, as a user does: hovering its label, then the help icon that appears.
 * @param {Page} page
 * @param {Locator} scope
 * @param {string} label
 * @param {string} hint
 * @returns {Promise<boolean>} whether the hint is shown
 */
async function showHint(page, scope, label, hint) {
	const labelElement = labelOf(scope, label).first();
	await labelElement.hover();
	await labelElement.locator('svg').first().hover();
	const shown = await page
		.getByText(hint, { exact: true })
		.waitFor({ timeout: 5_000 })
		.then(() => true)
		.catch(() => false);
	await page.mouse.move(5, 5);
	return shown;
}

/**
 * A switch (boolean parameter), by its label; `set` clicks its visible track when it is not
 * already in the wanted state.
 * @param {Locator} scope
 * @param {string} label
 */
function switchByLabel(scope, label) {
	const input = scope
		.locator('label')
		.filter({ hasText: new RegExp(`^\\s*${escapeRegExp(label)}(\\s|$)`) })
		.locator('xpath=ancestor::div[.//*[@role="switch"]][1]')
		.getByRole('switch');
	return {
		isOn: async () => (await input.getAttribute('aria-checked')) === 'true',
		/** @param {boolean} on */
		set: async (on) => {
			if ((await input.getAttribute('aria-checked')) !== String(on)) {
				await input.locator('xpath=..').click();
			}
		},
	};
}

/**
 * Switches a parameter from Fixed to Expression and pastes an expression into it, as a user who
 * copied it: hovering the parameter shows its Fixed / Expression switch.
 * @param {Page} page
 * @param {Locator} scope
 * @param {string} label
 * @param {string} expression
 */
async function pasteExpression(page, scope, label, expression) {
	const labelElement = labelOf(scope, label).first();
	const parameter = labelElement.locator(FIELD_AROUND_LABEL);
	await labelElement.hover();
	await parameter.getByText('Expression', { exact: true }).click();
	await page.evaluate(`navigator.clipboard.writeText(${JSON.stringify(expression)})`);
	await parameter.locator('[contenteditable="true"]').first().click();
	await page.keyboard.press('Control+V');
}

/**
 * Runs the open workflow from the canvas ("Execute workflow") and waits until n8n says how it went.
 * @param {Page} page
 * @returns {Promise<string>} what n8n's pop-up says, e.g. "Workflow executed successfully"
 */
async function executeWorkflow(page) {
	await page.locator(TEST_IDS.executeWorkflow).click();
	const toast = page
		.locator('.el-notification')
		.filter({ hasText: /workflow/i })
		.first();
	await toast.waitFor({ timeout: 120_000 });
	return (await toast.innerText()).trim();
}

/**
 * Picks an option of an open select list by the text it shows first.
 * @param {Page} page
 * @param {string} text
 */
async function pickOption(page, text) {
	await page
		.getByRole('option')
		.filter({ has: page.getByText(text, { exact: true }) })
		.first()
		.click();
}

/**
 * Presses an open NDV's "Execute step" and reads its output table once the column this run shows
 * first is there (the table of an earlier run may still be showing until then).
 * @param {Locator} panel
 * @param {RegExp} firstColumn
 */
async function executeStep(panel, firstColumn) {
	await panel.getByRole('button', { name: 'Execute step' }).first().click();
	await panel.getByRole('columnheader', { name: firstColumn }).first().waitFor({ timeout: 60_000 });
	return await outputTable(panel);
}

/**
 * The output panel of an open NDV once a run has filled it: its item count ("28 items") and its
 * table's column names.
 * @param {Locator} panel
 * @returns {Promise<{ count: number, columns: string[] }>}
 */
async function outputTable(panel) {
	const count = panel.getByText(/^\d+ items?$/).first();
	await count.waitFor({ timeout: 60_000 });
	await panel.getByRole('columnheader').first().waitFor();
	const columns = (await panel.getByRole('columnheader').allInnerTexts())
		.map((column) => column.trim())
		.filter(Boolean);
	return { count: Number.parseInt(await count.innerText(), 10), columns };
}

/**
 * Publishes the open workflow as its user does: "Publish" and its dialog's "Publish" on n8n 2.x;
 * "Save", then the Active switch on 1.x. Returns the confirmation n8n shows ("Workflow published"
 * or "Workflow activated", closed with "Got it"), the pop-up messages that are not successes
 * (warnings, errors: n8n tells their kind only by their icon's class), and whether the header
 * then shows the workflow as published (2.x) or active (1.x).
 * @param {Page} page
 * @returns {Promise<{ confirmation: string, warnings: string[], published: boolean }>}
 */
async function publishWorkflow(page) {
	const publish = page.getByRole('button', { name: 'Publish', exact: true });
	const newLine = (await publish.count()) > 0;
	if (newLine) {
		await publish.first().click();
		await page.getByRole('dialog').getByRole('button', { name: 'Publish', exact: true }).click();
	} else {
		// Running a step saved it already, then the header says "Saved" instead.
		const save = page.getByRole('button', { name: 'Save', exact: true });
		if ((await save.count()) > 0) await save.click();
		await page.getByText('Saved', { exact: true }).waitFor();
		// The switch's input is hidden under the track a user clicks.
		await page.getByRole('switch').first().locator('xpath=..').click();
	}
	const gotIt = page.getByRole('button', { name: 'Got it' });
	await gotIt.waitFor({ timeout: 60_000 });
	const confirmation = await page.getByRole('dialog').filter({ has: gotIt }).innerText();
	await gotIt.click();
	const warnings = await page
		.locator('.el-notification')
		.filter({ hasNot: page.locator('.el-notification--success') })
		.allInnerTexts();
	const published = newLine
		? await page.getByRole('button', { name: 'Published' }).isVisible()
		: await page.getByText('Active', { exact: true }).first().isVisible();
	return { confirmation, warnings, published };
}

/** @param {string} text */
function escapeRegExp(text) {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

module.exports = {
	TEST_IDS,
	signIn,
	newWorkflow,
	openTriggerPanel,
	openNextStepPanel,
	searchNodePanel,
	openPanelResult,
	pasteWorkflow,
	canvasNode,
	issuesOf,
	nodeDetails,
	openNode,
	closePanel,
	fieldByLabel,
	showHint,
	switchByLabel,
	pickOption,
	pasteExpression,
	executeWorkflow,
	executeStep,
	outputTable,
	publishWorkflow,
};
