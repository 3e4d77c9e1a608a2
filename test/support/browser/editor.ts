import type { Locator, Page } from 'playwright-core';

/**
 * What a user does in n8n's editor, as steps the browser tests share. Elements are found by the
 * role, label or text a user sees; where n8n gives an element neither (the node panel's results,
 * a canvas node's issue marker), by the `data-test-id` n8n's own tests use. The steps work on
 * every supported line (1.123 and 2.x name some buttons differently).
 */

const NODE_PANEL = '[data-test-id="node-creator"]';
// n8n's labels are not tied to their inputs: a field is the nearest element around its label
// that holds one.
const FIELD_AROUND_LABEL = 'xpath=ancestor::div[.//input or .//textarea][1]';

/** Whether the element shows within the timeout. */
const appears = (locator: Locator, timeout: number) =>
	locator.waitFor({ timeout }).then(
		() => true,
		() => false,
	);

export async function signIn(
	page: Page,
	baseUrl: string,
	owner: { email: string; password: string },
) {
	await page.goto(`${baseUrl}/signin`);
	await page.getByRole('textbox').first().fill(owner.email);
	await page.locator('input[type="password"]').fill(owner.password);
	await page.getByRole('button', { name: 'Sign in' }).click();
	await page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 60_000 });
}

async function newWorkflow(page: Page, baseUrl: string) {
	await page.goto(`${baseUrl}/workflow/new`);
	await page.getByText(/^Add first step/).waitFor();
}

/** The node panel's search box, once the panel is open. */
const searchBox = (page: Page) => page.getByPlaceholder('Search nodes...');

/** A new, empty workflow, with "What triggers this workflow?" opened from "Add first step". */
export async function openTriggerPanel(page: Page, baseUrl: string) {
	await newWorkflow(page, baseUrl);
	await page
		.getByRole('group')
		.filter({ hasText: /^Add first step/ })
		.getByRole('button')
		.click();
	await searchBox(page).waitFor();
}

/** The node panel for the next step: the "Open nodes panel" button on 2.x, Tab on 1.x (unnamed). */
export async function openNextStepPanel(page: Page) {
	const button = page.getByRole('button', { name: 'Open nodes panel' });
	// A panel that is still closing takes the first click as its own: try again, a few times.
	for (let attempt = 1; attempt <= 3; attempt++) {
		if ((await button.count()) > 0) await button.click();
		else await page.keyboard.press('Tab');
		if (await appears(searchBox(page), 5_000)) return;
	}
	throw new Error('the node panel did not open for the next step');
}

/** Types into the open node panel and reads the results' names, top first, once they settle. */
export async function searchNodePanel(page: Page, phrase: string): Promise<string[]> {
	await searchBox(page).fill(phrase);
	const names = page.locator(NODE_PANEL).locator('[data-test-id="node-creator-item-name"]');
	let previous = '';
	for (let read = 0; read < 40; read++) {
		await page.waitForTimeout(150);
		const current = JSON.stringify((await names.allInnerTexts()).map((name) => name.trim()));
		if (read >= 2 && current === previous) break;
		previous = current;
	}
	return JSON.parse(previous);
}

/** Opens a result of the open node panel, which then lists its triggers and actions. */
export async function openPanelResult(page: Page, name: string) {
	await page.locator(NODE_PANEL).getByText(name, { exact: true }).first().click();
	return page.locator(NODE_PANEL);
}

/** Adds a node from the open node panel, clicking `picks` in turn; returns the node's panel. */
export async function addNode(page: Page, name: string, ...picks: Array<string | RegExp>) {
	await searchNodePanel(page, name);
	const results = await openPanelResult(page, name);
	for (const pick of picks) await results.getByText(pick, { exact: true }).click();
	return nodeDetails(page);
}

/** Puts a text on the clipboard and pastes it where `focus` puts the cursor, as a user does. */
async function paste(page: Page, text: string, focus: () => Promise<void>) {
	await page.evaluate(`navigator.clipboard.writeText(${JSON.stringify(text)})`);
	await focus();
	await page.keyboard.press('Control+V');
}

/** A new workflow with a workflow's JSON pasted on its canvas, as from an example file. */
export async function pasteWorkflow(page: Page, baseUrl: string, json: string) {
	await newWorkflow(page, baseUrl);
	await paste(page, json, () => page.mouse.click(300, 300));
}

function canvasNode(page: Page, name: string) {
	return page
		.getByRole('group')
		.filter({ has: page.getByText(name, { exact: true }) })
		.filter({ has: page.getByRole('button', { name: 'Delete' }) })
		.filter({ hasNot: page.getByRole('heading') });
}

/** What the issue marker of a canvas node says when hovered (null: no marker). */
export async function issuesOf(page: Page, name: string): Promise<string | null> {
	const marker = canvasNode(page, name).locator('[data-test-id="node-issues"]').first();
	if (!(await marker.isVisible())) return null;
	const tooltip = page
		.getByText(/^Issues/)
		.filter({ visible: true })
		.first();
	// The previous node's tooltip must be gone first, or it would be read instead.
	await page.mouse.move(5, 5);
	await tooltip.waitFor({ state: 'hidden' });
	await marker.hover();
	const text = await tooltip.locator('xpath=..').innerText();
	await page.mouse.move(5, 5);
	return text;
}

/** The open node's panel (NDV): the dialog with the node's "Docs" link. */
export function nodeDetails(page: Page) {
	return page.getByRole('dialog').filter({ has: page.getByRole('link', { name: 'Docs' }) });
}

export async function openNode(page: Page, name: string) {
	await canvasNode(page, name).dblclick();
	await nodeDetails(page).waitFor();
	return nodeDetails(page);
}

/**
 * Closes whatever panel is open with Escape; a node's panel that stays open (a select kept the
 * focus and took the Escape) with "Back to canvas" on n8n 1.x, its close button on 2.x.
 */
export async function closePanel(page: Page) {
	await page.keyboard.press('Escape');
	await page.waitForTimeout(300);
	if (!(await nodeDetails(page).isVisible())) return;
	const backToCanvas = page.getByText('Back to canvas', { exact: true });
	if (await backToCanvas.isVisible()) await backToCanvas.click();
	else await page.locator('[data-test-id="ndv-close-button"]').click();
	await nodeDetails(page).waitFor({ state: 'hidden' });
}

/** A form field's label, by the text a user reads (a required field's ends in "*"). */
function labelOf(scope: Locator, label: string) {
	const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
	return scope.locator('label').filter({ hasText: new RegExp(`^\\s*${escaped}(\\s|\\*|$)`) });
}

/** The text box of a form field, by its label. */
export function fieldByLabel(scope: Locator, label: string) {
	return labelOf(scope, label).locator(FIELD_AROUND_LABEL).locator('input, textarea').first();
}

/** Whether a field's hint shows when a user hovers its label, then the help icon that appears. */
export async function showHint(page: Page, scope: Locator, label: string, hint: string) {
	const labelElement = labelOf(scope, label).first();
	await labelElement.hover();
	await labelElement.locator('svg').first().hover();
	const shown = await appears(page.getByText(hint, { exact: true }), 5_000);
	await page.mouse.move(5, 5);
	return shown;
}

/** Turns a switch (a boolean parameter) on by its label, unless it is on already. */
export async function switchOn(scope: Locator, label: string) {
	const input = labelOf(scope, label)
		.locator('xpath=ancestor::div[.//*[@role="switch"]][1]')
		.getByRole('switch');
	// The switch's input is hidden under the track a user clicks.
	if ((await input.getAttribute('aria-checked')) !== 'true')
		await input.locator('xpath=..').click();
}

/** Switches a parameter to Expression (hovering it shows the switch) and pastes one into it. */
export async function pasteExpression(page: Page, scope: Locator, label: string, text: string) {
	const labelElement = labelOf(scope, label).first();
	const parameter = labelElement.locator(FIELD_AROUND_LABEL);
	await labelElement.hover();
	await parameter.getByText('Expression', { exact: true }).click();
	await paste(page, text, () => parameter.locator('[contenteditable="true"]').first().click());
}

/** Runs the open workflow from the canvas; returns what n8n's pop-up then says. */
export async function executeWorkflow(page: Page) {
	// The canvas's own: each trigger node has a hidden "Execute workflow" button too.
	await page.locator('[data-test-id="execute-workflow-button"]').click();
	const toast = page
		.locator('.el-notification')
		.filter({ hasText: /workflow/i })
		.first();
	await toast.waitFor({ timeout: 120_000 });
	return (await toast.innerText()).trim();
}

/** Picks an option of a select list, opening it with a click on `select` when given. */
export async function pickOption(page: Page, text: string, select?: Locator) {
	await select?.click();
	await page
		.getByRole('option')
		.filter({ has: page.getByText(text, { exact: true }) })
		.first()
		.click();
}

/**
 * Presses a button of an open NDV that runs it ("Execute step", "Fetch Test Event") and reads the
 * item count and column names once `firstColumn` shows (an earlier run's table may show till then).
 */
export async function runStep(panel: Locator, button: string, firstColumn: RegExp) {
	await panel.getByRole('button', { name: button }).first().click();
	await panel.getByRole('columnheader', { name: firstColumn }).first().waitFor({ timeout: 60_000 });
	const count = panel.getByText(/^\d+ items?$/).first();
	await count.waitFor({ timeout: 60_000 });
	const columns = (await panel.getByRole('columnheader').allInnerTexts())
		.map((column) => column.trim())
		.filter(Boolean);
	return { count: Number.parseInt(await count.innerText(), 10), columns };
}

/**
 * Publishes the open workflow ("Publish" and its dialog's "Publish" on n8n 2.x; "Save", then the
 * Active switch on 1.x) and expects n8n to confirm it, to show no pop-up but successes (n8n tells
 * their kind only by their icon's class), and its header to show it published (2.x) or active.
 */
export async function publishWithoutWarning(page: Page) {
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
	expect(confirmation).toMatch(/Workflow (published|activated)/);
	expect(warnings).toEqual([]);
	expect(published).toBe(true);
}
