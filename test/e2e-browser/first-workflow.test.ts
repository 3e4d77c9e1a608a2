import {
	closePanel,
	executeStep,
	executeWorkflow,
	fieldByLabel,
	newWorkflow,
	nodeDetails,
	openNextStepPanel,
	openPanelResult,
	openTriggerPanel,
	pasteExpression,
	pickOption,
	publishWorkflow,
	searchNodePanel,
	switchByLabel,
} from '../support/browser/editor';
import { startFirstWorkflow } from '../support/browser/harness';
import { stderrLogger } from '../support/e2e/support';

/**
 * The README's first workflow, the daily digest, built in n8n's editor as its three steps say
 * (every choice and text typed is read from the README), then run once: one email lists every
 * open tender. What the front page promises a newcomer, on each line the browser suite runs on.
 * The two credentials it needs are already made.
 */

type FirstWorkflow = Awaited<ReturnType<typeof startFirstWorkflow>>;

const APP_NAME = 'Supplier Matched Projects';
const FROM = 'tenders@example.com';
const TO = 'sales@example.com';

let env: FirstWorkflow;

beforeAll(async () => {
	env = await startFirstWorkflow(stderrLogger);
}, 10 * 60_000);

afterAll(async () => {
	await env?.stop();
}, 2 * 60_000);

test('1. When: the Schedule Trigger, daily at the hour the README says', async () => {
	const { page, digest } = env;
	await newWorkflow(page, env.baseUrl);
	await openTriggerPanel(page);
	await page.getByText(digest.trigger, { exact: true }).first().click();

	await fieldByLabel(nodeDetails(page), 'Trigger at Hour').click();
	await pickOption(page, digest.hour);

	await expect(fieldByLabel(nodeDetails(page), 'Trigger Interval').inputValue()).resolves.toBe(
		'Days',
	);
	await closePanel(page);
});

test('2. The tenders: Get Many with Return All, Output Tenders and Simplify lists them', async () => {
	const { page, digest } = env;
	await openNextStepPanel(page);
	await searchNodePanel(page, APP_NAME);
	const found = await openPanelResult(page, APP_NAME);
	await found.getByText(digest.getMany, { exact: true }).click();
	const panel = nodeDetails(page);
	await panel.getByRole('textbox', { name: 'Parameter: "companyId"' }).fill(env.fixtures.companyId);
	await switchByLabel(panel, 'Return All').set(true);
	await fieldByLabel(panel, 'Output').click();
	await pickOption(page, 'Tenders');
	await switchByLabel(panel, 'Simplify').set(true);

	await executeStep(panel, /^tenderId/);

	await closePanel(page);
});

test('3. The email: Aggregate, then Send Email with the pasted expression, sends one digest', async () => {
	const { page, digest } = env;
	await openNextStepPanel(page);
	await searchNodePanel(page, 'Aggregate');
	await openPanelResult(page, 'Aggregate');
	await fieldByLabel(nodeDetails(page), 'Aggregate').click();
	await pickOption(page, digest.aggregate);
	await fieldByLabel(nodeDetails(page), 'Put Output in Field').fill(digest.outputField);
	await closePanel(page);

	await openNextStepPanel(page);
	await searchNodePanel(page, 'Send Email');
	const found = await openPanelResult(page, 'Send Email');
	await found.getByText(digest.sendEmailAction, { exact: true }).click();
	const panel = nodeDetails(page);
	await fieldByLabel(panel, 'From Email').fill(FROM);
	await fieldByLabel(panel, 'To Email').fill(TO);
	await fieldByLabel(panel, 'Subject').fill(digest.subject);
	await fieldByLabel(panel, 'Email Format').click();
	await pickOption(page, digest.emailFormat);
	await pasteExpression(page, panel, 'Text', digest.expression);
	await closePanel(page);

	const outcome = await executeWorkflow(page);

	expect(outcome).toMatch(/success/i);
	const mail = await env.smtp.waitFor((received) => received.to.includes(TO), 60_000);
	const tenders = env.sandbox
		.listOpen(env.fixtures.companyId)
		.flatMap((project) => project.tenders.map((tender) => tender.name));
	const lines = mail.body.split('\n').slice(0, tenders.length);
	expect(env.smtp.messages).toHaveLength(1);
	expect(mail.subject).toBe(digest.subject);
	expect(lines.map((line) => line.split(' | ')[1])).toEqual(tenders);
	for (const line of lines) expect(line).toMatch(/^(\d{4}-\d{2}-\d{2}|no due date) \| /);
	stderrLogger.log(
		`n8n ${env.n8nVersion}: the README's digest, built in the editor, sent one email of ${tenders.length} tender lines`,
	);
});

test('then Publish (Active on 1.x): it runs every morning, with no warning', async () => {
	const { confirmation, warnings, published } = await publishWorkflow(env.page);

	expect(confirmation).toMatch(/Workflow (published|activated)/);
	expect(warnings).toEqual([]);
	expect(published).toBe(true);
});
