import { N8nClient } from '../../../../scripts/n8n/client';
import { REPO_ROOT } from '../../../../scripts/n8n/package';

type Execution = {
	id: string;
	workflowId: string;
	status: string;
	mode: string;
	startedAt: string;
	stoppedAt: string | null;
};

const LIMIT_MAX = 100;

/** `count` executions of one workflow, newest first; the newest `running` are still running. */
function executions(count: number, running: number): Execution[] {
	return Array.from({ length: count }, (_, index) => {
		const id = count - index;
		const isRunning = index < running;
		return {
			id: String(id),
			workflowId: 'wf',
			status: isRunning ? 'running' : 'success',
			mode: 'trigger',
			startedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, id)).toISOString(),
			stoppedAt: isRunning ? null : new Date(Date.UTC(2026, 0, 1, 0, 1, id)).toISOString(),
		};
	});
}

/**
 * GET /rest/executions as n8n answers it (read in its dist/executions): running executions on top,
 * then at most `limit` finished ones. 2.41 adds `nextCursor` (null on the last page) and takes it
 * back as `cursor`, after which it lists finished ones only; 2.40 has no cursor and takes
 * `lastId`, applying it to both parts.
 */
function fakeN8n(all: Execution[], version: '2.40' | '2.41') {
	const requests: URLSearchParams[] = [];
	const answer = (route: string) => {
		const query = new URL(route, 'http://n8n.invalid').searchParams;
		requests.push(query);
		const limit = Number(query.get('limit') ?? 20);
		if (!(limit >= 1 && limit <= LIMIT_MAX)) throw new Error(`limit ${limit} refused`);
		if (version === '2.41' && query.has('lastId')) throw new Error('2.41 refuses lastId');
		const cursor = query.get('cursor');
		const before =
			version === '2.41'
				? cursor === null
					? Infinity
					: Number(JSON.parse(Buffer.from(cursor, 'base64url').toString()).id)
				: Number(query.get('lastId') ?? Infinity);
		const isRunning = (execution: Execution) => execution.status === 'running';
		const finished = all
			.filter((execution) => !isRunning(execution) && Number(execution.id) < before)
			.slice(0, limit);
		const current =
			version === '2.41' && cursor !== null
				? []
				: all.filter((execution) => isRunning(execution) && Number(execution.id) < before);
		const last = finished[finished.length - 1];
		const nextCursor =
			finished.length < limit || last === undefined
				? null
				: Buffer.from(JSON.stringify({ id: last.id })).toString('base64url');
		return {
			results: [...current, ...finished],
			count: all.length,
			...(version === '2.41' ? { nextCursor } : {}),
		};
	};
	return { requests, answer };
}

function clientOf(server: ReturnType<typeof fakeN8n>) {
	// The client reads n8n's execution data with n8n's own `flatted`; this repository has a copy.
	const client = new N8nClient('http://n8n.invalid', { n8nHome: REPO_ROOT });
	jest
		.spyOn(client, 'rest')
		.mockImplementation(async (method: string, route: string) => server.answer(route));
	return client;
}

describe.each(['2.40', '2.41'] as const)(
	'N8nClient against n8n %s: executions past one page',
	(version) => {
		it('lists every execution once, newest first, over three pages', async () => {
			const all = executions(250, 2);
			const server = fakeN8n(all, version);
			const listed = await clientOf(server).listExecutions('wf');
			expect(listed.map((execution) => execution.id)).toEqual(all.map((execution) => execution.id));
			expect(server.requests).toHaveLength(3);
			expect(server.requests.every((query) => query.get('limit') === '100')).toBe(true);
			expect(JSON.parse(server.requests[0].get('filter') ?? '{}')).toEqual({ workflowId: 'wf' });
		});

		it('waits for more than 100 finished executions instead of throwing', async () => {
			const server = fakeN8n(executions(150, 1), version);
			const finished = await clientOf(server).waitForExecutions('wf', 149, 1_000);
			expect(finished).toHaveLength(149);
			expect(finished.every((execution) => execution.status === 'success')).toBe(true);
		});
	},
);
