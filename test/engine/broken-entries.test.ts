import type { INodeParameters } from 'n8n-workflow';

import type { Project } from '../../nodes/SupplierMatchedProjects/api/types';
import { n8nProcess, type N8nProcess } from '../support/harness';
import { page, project, tender } from '../support/engine/n8n-fixtures';
import {
	COMPANY,
	CREDENTIAL,
	RESULTS,
	getResults,
	tokenOnce,
	useNock,
} from '../support/engine/nock-api';
import { emittedTenderIds } from '../support/engine/poll-world';
import { captureLogs } from '../support/reliability/logs';
import { parseToolAnswer } from '../support/engine/tool-answer';

let proc: N8nProcess;

/** The project the broken entry stands for once the API sends it readable. */
function mended(): Project {
	return project({ projectId: 'p-broken', tenders: [tender({ id: 't-mended' })] });
}

/**
 * One broken shape, as it stands second on page 1: every shape takes the same way through n8n, and
 * each shape's words are in test/unit/.../projects/entries.test.ts. It still holds the tender
 * `mended` lists, so announcing it later proves it was not remembered.
 */
const broken = () => ({ ...mended(), tenders: { 0: mended().tenders[0] } });

/** The warning the broken entry gets. */
const warning = `project "p-broken"'s tenders is an object, not a list (entry 2 of page 1, data[1])`;

/** A page holding exactly these entries, broken ones included. */
const rawPage = (data: unknown[], nextCursor?: string) => page(data as Project[], nextCursor);

const PARAMETERS: INodeParameters = {
	resource: 'matchedProject',
	operation: 'getAll',
	companyId: COMPANY,
};

let logs: ReturnType<typeof captureLogs>;

beforeEach(() => {
	proc = n8nProcess({ credential: CREDENTIAL });
	logs = captureLogs();
});
useNock();

/** The two readable projects beside the broken entry. */
const clean = () => [
	project({ projectId: 'p-a', tenders: [tender({ id: 't-a' })] }),
	project({ projectId: 'p-b', tenders: [tender({ id: 't-b' })] }),
];

describe('a broken entry (tenders as an object) beside clean ones', () => {
	it('Get Many returns the clean projects, logs where the broken one was, and hints at it', async () => {
		const token = tokenOnce();
		const [a, b] = clean();
		const results = getResults({ limit: 50 }).reply(200, rawPage([a, broken(), b]));
		const result = await proc.run(PARAMETERS);
		expect(result.error).toBeUndefined();
		expect(result.items?.map((item) => item.json)).toEqual([a, b]);
		expect(logs.filter((entry) => entry.level === 'warn').map((entry) => entry.message)).toEqual([
			`Supplier Matched Projects "Supplier Matched Projects" left out an unreadable entry: ${warning}`,
		]);
		const hints = result.run.data.resultData.runData['Supplier Matched Projects'][0].hints;
		expect(hints).toEqual([
			{
				message: `1 entry the API sent could not be read and was left out: ${warning}. The other results are complete.`,
				type: 'warning',
				location: 'outputPane',
			},
		]);
		expect(token.isDone()).toBe(true);
		expect(results.isDone()).toBe(true);
	});

	it('the AI tool answers with the clean projects and its summary counts the unreadable entry', async () => {
		const token = tokenOnce();
		const results = getResults({ limit: 20 }).reply(
			200,
			rawPage([clean()[0], broken(), clean()[1]]),
		);
		const call = await proc.tool(PARAMETERS, {}, { name: 'Matched Projects' });
		expect(call.error).toBeUndefined();
		const answer = parseToolAnswer(call.answer ?? 'null');
		expect(answer.returned).toBe(2);
		expect(answer.summary).toContain(
			'1 entry the API sent was unreadable and left out; calling again returns the same until the service fixes its data.',
		);
		expect(token.isDone()).toBe(true);
		expect(results.isDone()).toBe(true);
	});

	it("the trigger announces the clean new tenders in the same poll, and the entry's own once it mends", async () => {
		const [a, b] = clean();
		const token = tokenOnce();
		const results = getResults()
			// The baseline: one clean project and the broken entry.
			.reply(200, rawPage([a, broken()]))
			// Two clean new tenders beside the entry that stays broken, twice.
			.get(RESULTS)
			.query(true)
			.times(2)
			.reply(200, rawPage([a, broken(), b]))
			// The entry can be read now: its tender is new to the trigger, twice.
			.get(RESULTS)
			.query(true)
			.times(2)
			.reply(200, rawPage([a, mended(), b]));
		const harness = proc.poll({ companyId: COMPANY });
		expect(await harness.activate()).toEqual({ kind: 'nothing' });
		const beside = await harness.poll();
		expect(beside.kind === 'emitted' && emittedTenderIds(beside.items)).toEqual(['t-b']);
		expect(await harness.poll()).toEqual({ kind: 'nothing' });
		const readable = await harness.poll();
		expect(readable.kind === 'emitted' && emittedTenderIds(readable.items)).toEqual(['t-mended']);
		expect(await harness.poll()).toEqual({ kind: 'nothing' });
		const warnings = harness.logs.filter((entry) => entry.level === 'warn');
		// One warning for each of the three polls that met the entry broken, none after.
		expect(warnings.map((entry) => entry.message)).toEqual(
			Array(3).fill(
				`Supplier Matched Projects Trigger "Supplier Matched Projects Trigger" left out an unreadable entry: ${warning}. The poll went on with the rest; its new tenders are announced once a poll can read it.`,
			),
		);
		expect(harness.errors).toEqual([]);
		expect(token.isDone()).toBe(true);
		expect(results.isDone()).toBe(true);
	});
});

describe('where a broken entry stood, and a body that is no page', () => {
	it('names the page a broken entry was on when the walk has several', async () => {
		const token = tokenOnce();
		const clean = [project({ projectId: 'p-a' }), project({ projectId: 'p-b' })];
		const results = getResults({ limit: 100 })
			.reply(200, rawPage([clean[0]], 'c1'))
			.get(RESULTS)
			.query({ limit: 100, cursor: 'c1' })
			.reply(200, rawPage([{ ...project({ projectId: 'P-17' }), tenders: 2 }, clean[1]]));
		const result = await proc.run({ ...PARAMETERS, returnAll: true });
		expect(result.items?.map((item) => item.json)).toEqual(clean);
		expect(logs.filter((entry) => entry.level === 'warn').map((entry) => entry.message)).toEqual([
			`Supplier Matched Projects "Supplier Matched Projects" left out an unreadable entry: project "P-17"'s tenders is a number, not a list (entry 1 of page 2, data[0])`,
		]);
		expect(token.isDone()).toBe(true);
		expect(results.isDone()).toBe(true);
	});

	it('tells the AI tool that a web page is for the owner to fix, not to call again', async () => {
		const token = tokenOnce();
		const results = getResults().reply(200, '<html>sign in</html>');
		const call = await proc.tool(PARAMETERS, {}, { name: 'Matched Projects' });
		expect(call.error).toContain(
			"The credential's Base URL answered with something that is not a page of results (HTTP 200).",
		);
		expect(token.isDone()).toBe(true);
		expect(results.isDone()).toBe(true);
	});
});

describe('a tenders list holding entries that are not tenders', () => {
	/** A project whose tenders list also holds something that is not a tender. */
	function oddProject(...ids: string[]): Project {
		const tenders = [null, ...ids.map((id) => tender({ id, type: 'Tender' })), 'x'];
		return project({ projectId: 'p1', tenders: tenders as unknown as Project['tenders'] });
	}

	it.each([
		['without filters', {}],
		['with a tender filter', { tenderTypes: ['Tender'] }],
	])(
		'is read past %s: the test event, the baseline and later polls see the real tenders',
		async (_, filters) => {
			const token = tokenOnce();
			const results = getResults()
				.times(2)
				.reply(200, page([oddProject('t1')]))
				.get(RESULTS)
				.query(true)
				.reply(200, page([oddProject('t1', 't2')]));
			const harness = proc.poll({ companyId: COMPANY, filters });
			expect(emittedTenderIds((await harness.fetchTestEvent()) ?? [])).toEqual(['t1']);
			expect(await harness.activate()).toEqual({ kind: 'nothing' });
			const outcome = await harness.poll();
			expect(outcome.kind === 'emitted' && emittedTenderIds(outcome.items)).toEqual(['t2']);
			expect(token.isDone()).toBe(true);
			expect(results.isDone()).toBe(true);
		},
	);
});
