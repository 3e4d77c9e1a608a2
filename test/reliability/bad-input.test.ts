/**
 * Bad input, one case per row: parameters, credential fields, token endpoint answers and results
 * answers (a failure whose exact words test/engine/node.test.ts asserts, and whose secrets
 * test/reliability/secrets.test.ts searches, is not repeated here; nor is a value a pure function
 * of test/unit/ judges, beyond one case for its way through n8n). Each case ends in a clear error
 * that says what was wrong and what to do, or is tolerated where the API specification says a
 * client must tolerate it. The Get Many node runs through n8n's real engine; answers come from
 * the sandbox or, for what the sandbox never sends, from a scripted loopback server.
 */
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { Project } from '../../nodes/SupplierMatchedProjects/api/types';
import { startSandbox } from '../../sandbox';
import {
	n8nProcess,
	SHORT_WAITS,
	type CredentialFields,
	type N8nProcess,
	type NodeRun,
} from '../support/harness';
import { page, project, tender } from '../support/engine/n8n-fixtures';
import { leaksIn, secretForms } from '../support/reliability/secrets';
import {
	closedPort,
	startScriptedServer,
	type ScriptedReply,
	type ScriptedRequest,
	type ScriptedServer,
} from '../support/reliability/server';
import { captureLogs, type LogEntry } from '../support/reliability/logs';
import type { Sandbox } from '../support/engine/poll-world';

let proc: N8nProcess;

interface World {
	sandbox: Sandbox;
	scripted: ScriptedServer;
	refusedPort: number;
}

/** How a case ends: a clear error, or a result that is checked. */
type Outcome =
	| { error: RegExp; fix: RegExp }
	| { tolerated: (items: INodeExecutionData[], world: World) => void };

interface Case {
	name: string;
	/** The credential: the sandbox's fixture client unless the case scripts the server. */
	credentials?: (world: World) => Partial<CredentialFields>;
	/** `{ companyId }` when left out. */
	parameters?: INodeParameters;
	/** When given, the scripted server answers (token and results) instead of the sandbox. */
	script?: { results?: Responder; token?: Responder };
	outcome: Outcome;
	/** What the requests that reached a server must show. */
	requests?: (requests: ScriptedRequest[] | ReturnType<Sandbox['requests']>) => void;
}

type Responder = (request: ScriptedRequest, index: number) => ScriptedReply;

const SCRIPTED_TOKEN = 'scripted-token-for-bad-input-cases';
const goodToken: Responder = () => ({
	json: { access_token: SCRIPTED_TOKEN, token_type: 'Bearer', expires_in: 3600 },
});

const pageOf = (data: Project[]): ScriptedReply => ({ json: page(data) });

/** Tolerated: the items are the projects with these ids, in this order. */
function projectsWith(...ids: string[]): Outcome {
	return { tolerated: (items) => expect(items.map((item) => item.json.projectId)).toEqual(ids) };
}

const companyId = 'company-1';

const cases: Case[] = [
	// ---- parameters ----
	// What a parameter check refuses by itself is settled in test/unit/.../parameters/; here, what
	// needs n8n's expressions or a server.
	{
		name: 'the largest limit returns everything, in pages the API accepts',
		parameters: { companyId, returnAll: false, limit: 10_000 },
		outcome: {
			tolerated: (items, world) => {
				expect(items).toHaveLength(world.sandbox.listOpen(companyId).length);
				const limits = world.sandbox
					.requests()
					.filter((entry) => entry.path.includes('/speci-finder/results'))
					.map((entry) => Number(entry.query.limit));
				expect(limits.every((limit) => limit >= 1 && limit <= 100)).toBe(true);
			},
		},
	},
	{
		name: 'a limit from an expression that gives nothing',
		parameters: { companyId, returnAll: false, limit: '={{ null }}' },
		outcome: { error: /Limit|number/i, fix: /number|Return All/i },
	},
	{
		// n8n itself refuses to start a workflow whose required parameter is empty.
		name: 'an empty company id',
		parameters: { companyId: '' },
		outcome: { error: /Parameter "Company ID" is required/, fix: /Company ID/ },
	},
	{
		name: 'a company id with slashes stays one path segment',
		parameters: { companyId: '../company-1' },
		outcome: { error: /refused access to company "\.\.\/company-1"/, fix: /Check the Company ID/ },
		requests: (requests) => {
			expect(requests.map((entry) => entry.path)).toContain(
				'/api/supplier/v1/companies/..%2Fcompany-1/speci-finder/results',
			);
		},
	},
	{
		name: 'a base URL that already ends in /api/supplier/v1',
		credentials: ({ sandbox }) => ({ baseUrl: `${sandbox.url}/api/supplier/v1` }),
		outcome: {
			error: /No Supplier Matched-Projects API answered at .*HTTP 404/,
			fix: /without \/api\/supplier\/v1/,
		},
	},
	{
		name: 'a base URL where nothing listens',
		credentials: ({ refusedPort }) => ({ baseUrl: `http://127.0.0.1:${refusedPort}` }),
		outcome: {
			error: /Could not reach the API at .*connection was refused/,
			fix: /Check the credential's Base URL/,
		},
	},

	// ---- credentials ----
	{
		name: 'an empty client secret',
		credentials: () => ({ clientSecret: '' }),
		outcome: {
			error: /Client Secret is empty/,
			fix: /enter the client secret the operator issued/,
		},
	},
	{
		name: 'a token response without expires_in is used for the documented hour',
		script: {
			token: () => ({ json: { access_token: SCRIPTED_TOKEN, token_type: 'Bearer' } }),
			results: () => pageOf([project({ projectId: 'p-1' })]),
		},
		outcome: projectsWith('p-1'),
	},

	// ---- responses ----
	{
		name: "a proxy's HTML 502, every time",
		script: {
			results: () => ({
				status: 502,
				headers: { 'content-type': 'text/html' },
				text: '<html><body><h1>502 Bad Gateway</h1></body></html>',
			}),
		},
		outcome: {
			error: /The API failed on its side after 3 attempts \(HTTP 502\)/,
			fix: /temporary failure .* Run the workflow again later/,
		},
	},
	{
		name: "a proxy's HTML 502 once, then the page",
		script: {
			results: (_request, index) =>
				index === 0
					? { status: 502, headers: { 'content-type': 'text/html' }, text: '<html>502</html>' }
					: pageOf([project({ projectId: 'after-502' })]),
		},
		outcome: projectsWith('after-502'),
	},
	{
		name: 'an empty 200 answer',
		script: { results: () => ({ headers: { 'content-type': 'application/json' }, text: '' }) },
		outcome: {
			error: /answered, but not with a page of matched projects/,
			fix: /The answer was empty\. Check the credential's Base URL/,
		},
	},
	{
		name: 'a connection dropped mid-body, every time',
		script: { results: () => ({ ...pageOf([project()]), drop: true }) },
		outcome: {
			error: /Could not reach the API at .*closed unexpectedly/,
			fix: /run the workflow again later/,
		},
	},
	{
		name: 'a connection dropped mid-body once, then the page',
		script: {
			results: (_request, index) =>
				index === 0
					? { ...pageOf([project({ projectId: 'cut' })]), drop: true }
					: pageOf([project({ projectId: 'after-drop' })]),
		},
		outcome: projectsWith('after-drop'),
	},
	{
		name: 'a token revoked between the first and the second page',
		credentials: ({ sandbox }) => ({ ...sandbox.fixtures.client }),
		script: (() => {
			let revoked = false;
			return {
				token: () => ({ forward: world.sandbox.url }),
				results: (request: ScriptedRequest) => {
					if (request.query.cursor !== undefined && !revoked) {
						revoked = true;
						world.sandbox.revokeTokens();
					}
					return { forward: world.sandbox.url };
				},
			};
		})(),
		outcome: {
			tolerated: (items, { sandbox }) => {
				expect(items.map((item) => item.json)).toEqual(sandbox.listOpen(companyId));
				expect(sandbox.requests().filter((entry) => entry.status === 401)).toHaveLength(1);
				expect(sandbox.tokensIssued()).toBeGreaterThanOrEqual(2);
			},
		},
	},
	{
		name: 'hasNextPage true with a null cursor',
		script: {
			results: () => ({
				json: { data: [project()], _metadata: { nextCursor: null, hasNextPage: true } },
			}),
		},
		outcome: {
			error: /page 1 is followed by another but sent no cursor/,
			fix: /Run the workflow again later/,
		},
	},
	{
		name: 'an empty data array is a success with no items',
		credentials: ({ sandbox }) => ({ clientId: sandbox.fixtures.client.clientId }),
		parameters: { companyId: 'company-no-matches' },
		outcome: { tolerated: (items) => expect(items).toEqual([]) },
	},
	{
		name: 'a very large page (100 projects of 100 tenders)',
		script: {
			results: () =>
				pageOf(
					Array.from({ length: 100 }, (_, p) =>
						project({
							projectId: `big-${p}`,
							tenders: Array.from({ length: 100 }, (__, t) => tender({ id: `big-${p}-${t}` })),
						}),
					),
				),
		},
		parameters: { companyId, output: 'tenders' },
		outcome: {
			tolerated: (items) => {
				expect(items).toHaveLength(10_000);
				expect(new Set(items.map((item) => item.json.id)).size).toBe(10_000);
			},
		},
	},
];

let world: World;
let logs: LogEntry[];

beforeAll(async () => {
	logs = captureLogs();
	const [sandbox, scripted, refusedPort] = await Promise.all([
		startSandbox({ projects: 300 }),
		startScriptedServer(),
		closedPort(),
	]);
	world = { sandbox, scripted, refusedPort };
});

afterAll(async () => {
	await Promise.all([world.sandbox.stop(), world.scripted.stop()]);
});

beforeEach(() => {
	proc = n8nProcess({ retryPolicy: SHORT_WAITS });
	world.sandbox.resetRequests();
	world.scripted.requests.length = 0;
	logs.length = 0;
});

function credentialsFor(testCase: Case): CredentialFields {
	const { sandbox, scripted } = world;
	const base: CredentialFields =
		testCase.script === undefined
			? { authUrl: sandbox.url, baseUrl: sandbox.url, ...sandbox.fixtures.client }
			: {
					authUrl: scripted.url,
					baseUrl: scripted.url,
					clientId: 'scripted-client',
					clientSecret: 'scripted-secret',
				};
	return { ...base, ...testCase.credentials?.(world) };
}

/** What the user sees: the node's error, or the error n8n raised before the node could run. */
interface Seen {
	run?: NodeRun;
	thrown?: Error;
}

function expectClearError(seen: Seen, outcome: { error: RegExp; fix: RegExp }): void {
	const error = seen.thrown ?? seen.run?.error;
	expect(error).toBeDefined();
	expect(seen.run?.items).toBeUndefined();
	const message = error?.message ?? '';
	const description = (error as { description?: string | null } | undefined)?.description ?? '';
	expect(message).toMatch(outcome.error);
	expect(`${message} ${description}`).toMatch(outcome.fix);
	for (const text of [message, description]) {
		expect(text).not.toMatch(
			/\n\s+at |\bat Object\.|\[object Object\]|Cannot read propert|is not a function|undefined/,
		);
	}
}

test.each(cases.map((testCase) => [testCase.name, testCase] as const))(
	'%s',
	async (_name, testCase) => {
		const credentials = credentialsFor(testCase);
		if (testCase.script !== undefined) {
			const { results = () => pageOf([]), token = goodToken } = testCase.script;
			let resultsIndex = 0;
			world.scripted.handle((request) =>
				request.path.startsWith('/oauth2/token')
					? token(request, 0)
					: results(request, resultsIndex++),
			);
		}
		const seen: Seen = {};
		const getMany = async () =>
			await proc.withCredential(credentials).getMany(testCase.parameters ?? { companyId });
		try {
			seen.run = await getMany();
		} catch (error) {
			seen.thrown = error as Error;
		}
		if ('error' in testCase.outcome) expectClearError(seen, testCase.outcome);
		else {
			expect(seen.thrown).toBeUndefined();
			expect(seen.run?.error).toBeUndefined();
			testCase.outcome.tolerated(seen.run?.items ?? [], world);
		}
		testCase.requests?.(
			testCase.script === undefined ? world.sandbox.requests() : world.scripted.requests,
		);
		const secrets = [
			...secretForms(credentials.clientSecret, credentials.clientId),
			...world.scripted.tokens,
			SCRIPTED_TOKEN,
		];
		const places = {
			items: seen.run?.items,
			error: seen.run?.error ?? seen.thrown,
			runData: seen.run?.run.data,
			logs,
		};
		expect(leaksIn(places, secrets)).toEqual([]);
	},
);

test('the table has at least 17 cases', () => {
	expect(cases.length).toBeGreaterThanOrEqual(17);
});
