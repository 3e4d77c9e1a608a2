import {
	addNode,
	closePanel,
	executeWorkflow,
	fieldByLabel,
	nodeDetails,
	openNextStepPanel,
	openPanelResult,
	openTriggerPanel,
	pasteExpression,
	pickOption,
	publishWithoutWarning,
	runStep,
	switchOn,
} from '../support/browser/editor';
import { frontPageDigest, startEditor } from '../support/browser/harness';
import { stderrLogger } from '../support/e2e/support';

/**
 * The README's first workflow, the daily digest, built in n8n's editor as its three steps say
 * (every choice and text typed is read from the README), then run once: one email lists every
 * open tender. What the front page promises a newcomer, on each line the browser suite runs on.
 * The two credentials it needs are already made.
 */

const APP_NAME = 'Supplier Matched Projects';
const FROM = 'tenders@example.com';
const TO = 'sales@example.com';

const digest = frontPageDigest();
let env: Awaited<ReturnType<typeof startEditor>>;

beforeAll(async () => {
	env = await startEditor(stderrLogger, { credentials: true });
}, 10 * 60_000);

afterAll(async () => {
	await env?.stop();
}, 2 * 60_000);

test('1. When: the Schedule Trigger, daily at the hour the README says', async () => {
	const { page } = env;
	await openTriggerPanel(page, env.baseUrl);
	await openPanelResult(page, digest.trigger);
	const panel = nodeDetails(page);

	await pickOption(page, digest.hour, fieldByLabel(panel, 'Trigger at Hour'));

	await expect(fieldByLabel(panel, 'Trigger Interval').inputValue()).resolves.toBe('Days');
	await closePanel(page);
});

test('2. The tenders: Get Many with Return All, Output Tenders and Simplify lists them', async () => {
	const { page } = env;
	await openNextStepPanel(page);
	const panel = await addNode(page, APP_NAME, digest.getMany);
	await fieldByLabel(panel, 'Company ID').fill(env.fixtures.companyId);
	await switchOn(panel, 'Return All');
	await pickOption(page, 'Tenders', fieldByLabel(panel, 'Output'));
	await switchOn(panel, 'Simplify');

	await runStep(panel, 'Execute step', /^tenderId/);

	await closePanel(page);
});

test('3. The email: Aggregate, then Send Email with the pasted expression, sends one digest', async () => {
	const { page } = env;
	await openNextStepPanel(page);
	const aggregate = await addNode(page, 'Aggregate');
	await pickOption(page, digest.aggregate, fieldByLabel(aggregate, 'Aggregate'));
	await fieldByLabel(aggregate, 'Put Output in Field').fill(digest.outputField);
	await closePanel(page);

	await openNextStepPanel(page);
	const panel = await addNode(page, 'Send Email', digest.sendEmailAction);
	await fieldByLabel(panel, 'From Email').fill(FROM);
	await fieldByLabel(panel, 'To Email').fill(TO);
	await fieldByLabel(panel, 'Subject').fill(digest.subject);
	await pickOption(page, digest.emailFormat, fieldByLabel(panel, 'Email Format'));
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
	await publishWithoutWarning(env.page);
});
