/**
 * Hostile waits, through n8n's real engine: a 429 whose Retry-After is a day or a date in 2100,
 * and a walk whose turn on the credential does not come. Get Many runs against a scripted loopback
 * server. For Retry-After only `Date` is faked and moved between runs (timers stay real, so no
 * request timeout can fire early); the turn runs in real time.
 * Before, one such 429 locked the credential in the process until a restart, and a queued walk
 * waited for its turn without end.
 */
import { sleep } from 'n8n-workflow';

import { advanceTime, useVirtualTime } from '../support/engine/clock';
import { n8nProcess, type N8nProcess, type NodeRun } from '../support/harness';
import { project, tender } from '../support/engine/n8n-fixtures';
import { captureLogs } from '../support/reliability/logs';
import {
	startScriptedServer,
	type ScriptedReply,
	type ScriptedRequest,
	type ScriptedServer,
} from '../support/reliability/server';

let proc: N8nProcess;

const companyId = 'company-1';
const FIVE_MINUTES_MS = 300_000;
/** Retry-After's pause plus the spread of up to one slot (3 s) that keeps processes apart. */
const PAST_THE_PAUSE_MS = FIVE_MINUTES_MS + 3001;

const BUDGET_MESSAGE =
	/^This credential has used its 100 requests per 5 minutes, counted by the API across every n8n process that uses it; the next one is allowed in 30[0-3] s$/;

const data = [project({ projectId: 'p-1', tenders: [tender({ id: 't-1' })] })];
const page: ScriptedReply = { json: { data, _metadata: { nextCursor: null, hasNextPage: false } } };
const token: ScriptedReply = {
	json: { access_token: 'scripted-token-for-waits', token_type: 'Bearer', expires_in: 3600 },
};

let server: ScriptedServer;

beforeAll(async () => {
	captureLogs();
	server = await startScriptedServer();
});

afterAll(async () => {
	await server.stop();
});

beforeEach(() => {
	proc = n8nProcess();
	server.requests.length = 0;
});

afterEach(() => {
	jest.useRealTimers();
});

/** Results answered in turn by `replies`, then with the page; tokens always granted. */
function answerResults(...replies: ScriptedReply[]): void {
	let index = 0;
	server.handle((request: ScriptedRequest) => {
		if (request.path.startsWith('/oauth2/token')) return token;
		const reply = replies[index] ?? page;
		index++;
		return reply;
	});
}

function resultsRequests(): number {
	return server.requests.filter((request) => request.path.includes('/speci-finder/results')).length;
}

async function run(): Promise<NodeRun> {
	const credential = {
		authUrl: server.url,
		baseUrl: server.url,
		clientId: 'scripted-client',
		clientSecret: 'scripted-secret',
	};
	return await proc.withCredential(credential).getMany({ companyId });
}

const refused = (retryAfter: string): ScriptedReply => ({
	status: 429,
	headers: { 'retry-after': retryAfter },
	json: { code: 'RATE_LIMITED', message: 'Too many requests.' },
});

describe('a Retry-After longer than the API window', () => {
	it.each([
		['86400 seconds', '86400'],
		['a date in 2100', 'Fri, 01 Jan 2100 00:00:00 GMT'],
	])(
		'%s: waits 5 minutes at most, then one probe request goes and the credential works',
		async (_name, retryAfter) => {
			useVirtualTime({ dateOnly: true });
			answerResults(refused(retryAfter));
			const first = await run();
			expect(first.error?.message).toMatch(BUDGET_MESSAGE);
			expect(resultsRequests()).toBe(1);

			// 100 s on, the rest of the pause (about 200 s) is longer than a run waits: nothing is sent.
			advanceTime(100_000);
			const early = await run();
			expect(early.error?.message).toMatch(/counted by the API .* allowed in 20[0-3] s$/);
			expect(resultsRequests()).toBe(1);

			advanceTime(PAST_THE_PAUSE_MS - 100_000);
			const second = await run();
			expect(second.error).toBeUndefined();
			expect(second.items?.map((item) => item.json)).toEqual(data);
			// The probe is the only request after the pause.
			expect(resultsRequests()).toBe(2);
		},
	);
});

describe('the wait for a turn on the credential', () => {
	it('is bounded: a walk queued behind a slow one stops with the queue message, sends nothing, and leaves the queue clean', async () => {
		proc = n8nProcess({ retryPolicy: { maxTotalWaitMs: 300 } });
		// The first walk's page takes 1.5 s to come: it holds the turn that long.
		answerResults({ ...page, delayMs: 1500 });
		const slow = run();
		// Let the slow walk take its turn before the second asks.
		while (resultsRequests() === 0) await sleep(5);
		const queued = await run();
		expect(queued.error?.message).toBe(
			'Walks through the results on this credential are queued: this run waited 1 s for its turn behind another and stopped rather than wait longer',
		);
		expect((queued.error as { description?: string }).description).toMatch(
			/take turns, so that its rate limit .* Run the workflow again when the others are done, run fewer workflows with this credential at the same time, or set a Limit/,
		);
		expect(resultsRequests()).toBe(1);

		const first = await slow;
		expect(first.error).toBeUndefined();
		expect(first.items?.map((item) => item.json)).toEqual(data);
		expect(proc.runtime.walkTurns.queued(JSON.stringify([server.url, 'scripted-client']))).toBe(0);

		// Nothing is left holding the turn: the next walk runs at once.
		answerResults();
		const next = await run();
		expect(next.error).toBeUndefined();
		expect(resultsRequests()).toBe(2);
	});
});
