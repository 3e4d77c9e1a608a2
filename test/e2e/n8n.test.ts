import { outputItems, startE2e, type E2eEnvironment } from '../support/e2e/harness';
import { readSpreadsheetRows, sandboxNow, stderrLogger } from '../support/e2e/support';

/**
 * The packed package, installed as a community node into a real n8n (the version SMP_N8N_VERSION
 * picks), driven through n8n's own CLI and the REST API its editor uses: the example workflows.
 * Loading, the credential's Test, paging, tokens and error messages are the compatibility suite's
 * (test/e2e-compat/), which CI runs on every supported version. One n8n serves every test, in
 * this order.
 */

const ONE_POLL_MS = 75_000;

let env: E2eEnvironment;

beforeAll(async () => {
	env = await startE2e(stderrLogger);
}, 10 * 60_000);

afterAll(async () => {
	await env?.stop();
}, 60_000);

describe('the packed package inside a real n8n', () => {
	test('the daily digest example emails every open tender in one message', async () => {
		const { companyId } = env.fixtures;
		const openTenders = env.sandbox.listOpen(companyId).flatMap((project) => project.tenders);

		const executionId = await env.client.runManually(env.exampleIds.dailyDigest, 'Every Morning');
		const mail = await env.smtp.waitFor(
			(message) => message.subject.includes('open tender'),
			60_000,
		);
		const [execution] = await env.client.waitForExecutions(env.exampleIds.dailyDigest, 1, 30_000);

		expect(execution.id).toBe(executionId);
		expect(execution.status).toBe('success');
		expect(mail.subject).toBe(`${openTenders.length} open tenders match your keywords`);
		for (const tender of [openTenders[0], openTenders[openTenders.length - 1]]) {
			expect(mail.body).toContain(tender.id);
		}
	});

	test(
		'activated trigger workflows emit only the tender added between polls, once, and nothing at activation',
		async () => {
			const { companyId } = env.fixtures;
			const triggerWorkflows = [env.exampleIds.tendersToSpreadsheet, env.exampleIds.tendersToEmail];
			expect(await env.activateAndPoll(triggerWorkflows, ONE_POLL_MS)).toEqual([[], []]);

			const tender = env.sandbox.openTender({ companyId });
			const addedAt = sandboxNow(env.sandbox);
			const executions = [];
			for (const workflowId of triggerWorkflows) {
				const [execution] = await env.client.waitForExecutions(workflowId, 1, 2 * ONE_POLL_MS);
				expect(execution).toBeDefined();
				expect(execution.status).toBe('success');
				executions.push(await env.client.getExecution(execution.id));
			}
			for (const execution of executions) {
				const emitted = outputItems(execution, 'New Matching Tender');
				expect(emitted.map((item) => item.tenderId)).toEqual([tender.id]);
			}
			const mail = await env.smtp.waitFor((message) => message.body.includes(tender.id), 30_000);
			expect(mail.subject).toBe('1 new matching tender');
			const rows = readSpreadsheetRows(env, 'supplier-tenders-');
			expect(rows.map((row) => row.tenderId)).toEqual([tender.id]);

			// Each workflow polls once a minute, so two polls of each since the tender was added means
			// at least one more after the poll that emitted it, which must not emit it again.
			const polls = 2 * triggerWorkflows.length;
			const after = await env.executionsAfterPolls(
				triggerWorkflows,
				addedAt,
				polls,
				3 * ONE_POLL_MS,
			);
			for (const executions of after) expect(executions).toHaveLength(1);
		},
		12 * 60_000,
	);

	test(
		'an activated Quotes Due Soon trigger emails a reminder once when a tender is re-dated into its window, with API text escaped',
		async () => {
			const { companyId } = env.fixtures;
			const workflowId = env.exampleIds.quotesDueSoon;
			// Far outside the three-day window at activation, with markup in its name.
			const tender = env.sandbox.openTender({
				companyId,
				name: 'Roofing <b>& Cladding</b>',
			});
			env.sandbox.redateTender(tender.id, 20);
			expect(await env.activateAndPoll([workflowId], ONE_POLL_MS)).toEqual([[]]);

			// Through the sandbox's control surface, as a client on another clock would.
			const redate = await fetch(`${env.sandbox.url}/__sandbox/tenders/${tender.id}/redate`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ dueInDays: 2 }),
			});
			expect(redate.status).toBe(200);
			const redated = (await redate.json()) as { quotesDueAt: string };
			const redatedAt = sandboxNow(env.sandbox);

			const [execution] = await env.client.waitForExecutions(workflowId, 1, 2 * ONE_POLL_MS);
			expect(execution?.status).toBe('success');
			const detail = await env.client.getExecution(execution.id);
			// n8n's time zone here is the machine's (GENERIC_TIMEZONE); days are counted in it, on the
			// day the execution started, which a run crossing midnight could tell from today.
			const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
			const today = new Date(execution.startedAt ?? '').toLocaleDateString('sv-SE', { timeZone });
			const daysLeft = Math.round(
				(Date.parse(`${redated.quotesDueAt}T12:00:00Z`) - Date.parse(`${today}T12:00:00Z`)) /
					86_400_000,
			);
			const emitted = outputItems(detail, 'Quotes Due Soon');
			expect(emitted).toEqual([
				expect.objectContaining({
					event: 'quotesDueSoon',
					tenderId: tender.id,
					quotesDueAt: redated.quotesDueAt,
					daysLeft,
					previousQuotesDueAt: null,
				}),
			]);

			const mail = await env.smtp.waitFor(
				(message) => message.subject.startsWith('Quotes close') && message.body.includes(tender.id),
				30_000,
			);
			expect(mail.subject).toBe(
				`Quotes close in ${daysLeft} day${daysLeft === 1 ? '' : 's'}: Roofing <b>& Cladding</b> (${String(emitted[0].projectName)})`,
			);
			expect(mail.body).toContain('Roofing &lt;b&gt;&amp; Cladding&lt;/b&gt;');
			expect(mail.body).not.toContain('<b>& Cladding');

			// Later polls must not remind of the same date again. Every active trigger workflow's
			// polls count here (three poll once a minute), so nine take about three minutes.
			const [after] = await env.executionsAfterPolls([workflowId], redatedAt, 9, 5 * ONE_POLL_MS);
			expect(after).toHaveLength(1);
		},
		12 * 60_000,
	);

	test("neither the client secret nor any issued token is in n8n's database, files or logs", async () => {
		expect(env.tokenRecorder.tokens.length).toBeGreaterThanOrEqual(1);
		await env.stopN8n();

		const files = env
			.filesIn(env.n8n.userFolder)
			.map((file) => file.slice(env.n8n.userFolder.length));
		expect(files).toEqual(expect.arrayContaining(['/.n8n/database.sqlite', '/n8n-console.log']));
		expect(files.some((file) => file.startsWith('/.n8n/logs/'))).toBe(true);
		expect(env.secretsFoundOnDisk()).toEqual([]);
	});
});
