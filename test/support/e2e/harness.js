// @ts-check
'use strict';

/**
 * The worlds of the real-n8n suites but the queue's: each a real n8n (the version SMP_N8N_VERSION
 * picks) with the packed package, started by launchWorld (stack.js) with what its suite runs. The
 * .ts tests cannot use Node APIs (community-node lint), so the process and file work is here.
 */

const fs = require('node:fs');
const path = require('node:path');

const { SANDBOX_FIXTURES } = require('../../../sandbox');
const { outputItems } = require('../../../scripts/n8n/client');
const examples = require('../../../scripts/n8n/examples');
const { selectedN8nVersion } = require('../../../scripts/n8n/install');
const { featuresOf } = require('../../../scripts/n8n/lines');
const { startAgentAccountSandbox, AGENT_ACCOUNT } = require('./agent-account');
const stack = require('./stack');
const { getManyWorkflow, mcpServerWorkflow, publicChat, triggerWorkflow } = require('./workflows');

/** @typedef {import('./stack').Logger} Logger */

/** The e2e and compatibility suites' workflows, beside the examples. */
const WORKFLOWS = Object.freeze({
	listProjects: { id: 'smpE2eListProjects', path: 'e2e-projects' },
	listProjectsNone: { id: 'smpE2eListProjectsNone', path: 'e2e-projects-none' },
	apiError: { id: 'smpE2eApiError', path: 'e2e-refused' },
	trigger: { id: 'smpE2eTrigger', node: 'New Matching Tender' },
	mcp: { id: 'smpE2eMcp', path: 'smp-e2e-projects' },
	/** Each event's trigger with two Poll Times that fall due at the same second. */
	twoSchedules: [
		{ id: 'smpE2eTwoSchedulesNew', trigger: 'New Tender', parameters: { event: 'newTender' } },
		{
			id: 'smpE2eTwoSchedulesDueSoon',
			trigger: 'Quotes Due Soon',
			parameters: { event: 'quotesDueSoon', daysBeforeQuotesDue: 3 },
		},
	],
});

/** The examples' credential, and the same with a wrong secret and with allowed domains "None". */
const CREDENTIALS = Object.freeze({
	credential: { id: 'smpExampleCredential', name: 'Supplier Matched Projects account' },
	wrongSecret: { id: 'smpE2eWrongSecret', name: 'Supplier Matched Projects (wrong secret)' },
	// What the editor of some n8n versions stores on a new credential.
	noneAllowed: { id: 'smpE2eNone', name: 'Supplier Matched Projects (allowed domains: None)' },
});

/** Get Many for each case, the trigger, the node as an MCP tool, and the two schedules. */
function e2eWorkflows() {
	const { credential, noneAllowed } = CREDENTIALS;
	const { companyId, unregisteredCompanyId } = SANDBOX_FIXTURES;
	const { listProjects, listProjectsNone, apiError, trigger, mcp, twoSchedules } = WORKFLOWS;
	const getMany = [
		{ ...listProjects, companyId, credential },
		{ ...listProjectsNone, companyId, credential: noneAllowed },
		{ ...apiError, companyId: unregisteredCompanyId, credential },
	].map((workflow) => getManyWorkflow({ ...workflow, name: `e2e: ${workflow.path}` }));
	const sameSecond = ['0 * * * * *', '0 */1 * * * *'].map((cron) => ({
		mode: 'custom',
		cronExpression: cron,
	}));
	return [
		...getMany,
		triggerWorkflow({ ...trigger, name: 'e2e: new matching tenders', credential }),
		mcpServerWorkflow({ ...mcp, name: 'e2e: matched projects as an MCP tool', credential }),
		...twoSchedules.map(({ id, trigger: node, parameters }) =>
			triggerWorkflow({
				id,
				name: `e2e: ${node} with two Poll Times at the same second`,
				node,
				credential,
				pollTimes: sameSecond,
				parameters: { ...parameters, simplify: false },
			}),
		),
	];
}

/**
 * The e2e and compatibility suites' n8n, on a sandbox of 400 projects (a walk of several pages)
 * behind a token recorder: the examples and the suites' workflows.
 * @param {Logger} logger
 * @param {{ extraEnv?: NodeJS.ProcessEnv, ownSandbox?: { credentialId: string, projects: number }, workflows?: unknown[] }} [options]
 *   ownSandbox: a second sandbox, with a credential of that id, whose requests, faults and
 *   latency stay apart; workflows: imported beside the suites' own
 */
function startE2e(logger, options = {}) {
	return stack.startStack(logger, async (cleanups) => {
		const { sandbox, tokenRecorder } = await stack.startRecordedSandbox(cleanups, {
			projects: 400,
		});
		const own = options.ownSandbox;
		const ownSandbox = own && (await stack.startNoonSandbox(cleanups, { projects: own.projects }));
		const [example] = examples.credentialsFor({ authUrl: tokenRecorder.url, baseUrl: sandbox.url });
		/** @param {{ id: string, name: string }} named @param {Record<string, unknown>} data */
		const variant = (named, data) => ({ ...example, ...named, data: { ...example.data, ...data } });
		const credentials = [
			variant(CREDENTIALS.wrongSecret, { clientSecret: 'not-the-issued-secret' }),
			variant(CREDENTIALS.noneAllowed, { allowedHttpRequestDomains: 'none' }),
		];
		if (own && ownSandbox) {
			const [ownCredential] = examples.credentialsFor({ baseUrl: ownSandbox.url });
			const named = { id: own.credentialId, name: 'Supplier Matched Projects (own sandbox)' };
			credentials.push({ ...ownCredential, ...named });
		}
		const world = await stack.launchWorld(cleanups, logger, {
			name: 'e2e',
			sandbox,
			tokenRecorder,
			extraEnv: options.extraEnv,
			credentials,
			workflows: (filesDir) => [
				...examples.loadExamples({ filesDir }),
				...e2eWorkflows(),
				...(options.workflows ?? []),
			],
		});
		return {
			...world,
			tokenRecorder,
			ownSandbox,
			exampleIds: examples.EXAMPLE_IDS,
			workflows: WORKFLOWS,
			credentials: CREDENTIALS,
		};
	});
}

/** @typedef {Awaited<ReturnType<typeof startE2e>>} E2eEnvironment */

/** The example files, in the order loadExamples reads them. */
const EXAMPLE_FILES = fs
	.readdirSync(examples.EXAMPLES_DIR)
	.filter((name) => name.endsWith('.json'))
	.sort();

/**
 * The MCP builder suite's n8n: its own MCP server switched on by the environment (as an
 * administrator does headless), no workflows (the model builds them), and an MCP session with the
 * key from /rest/mcp/api-key, which n8n shows whole only the first time.
 * @param {Logger} logger
 */
function startMcpBuilderE2e(logger) {
	const version = selectedN8nVersion();
	if (!featuresOf(version).mcpBuilder) {
		throw new Error(
			`n8n ${version} has no MCP builder tools (n8n 2.30 and later have them): run this suite with SMP_N8N_VERSION set to one of those`,
		);
	}
	return stack.startStack(logger, async (cleanups) => {
		const { sandbox, tokenRecorder } = await stack.startRecordedSandbox(cleanups, {
			projects: 60,
		});
		const world = await stack.launchWorld(cleanups, logger, {
			name: 'mcp',
			sandbox,
			tokenRecorder,
			logLevel: 'info',
			extraEnv: { N8N_MCP_MANAGED_BY_ENV: 'true', N8N_MCP_ACCESS_ENABLED: 'true' },
		});
		/** @type {{ apiKey?: string }} */
		const { apiKey } = await world.client.rest('GET', '/mcp/api-key');
		if (typeof apiKey !== 'string' || apiKey.includes('*')) {
			throw new Error(`GET /rest/mcp/api-key gave no usable key: ${apiKey}`);
		}
		const mcp = await stack.connectMcp(`${world.n8n.baseUrl}/mcp-server/http`, 'smp-e2e-mcp', {
			Authorization: `Bearer ${apiKey}`,
		});
		cleanups.push(() => mcp.close());
		return { ...world, mcp, exampleAsCode: exampleAsCode(world) };
	});
}

/** @typedef {Awaited<ReturnType<typeof startMcpBuilderE2e>>} McpBuilderEnvironment */

/**
 * Each example as n8n's own Workflow SDK (the install's) writes it in code, which its MCP server
 * reads back; the AI Agent example's chat made public, so that a test can chat with it.
 * @param {{ filesDir: string, packageName: string, n8n: { runtime: { n8nHome: string } } }} world
 * @returns {(file: string) => { name: string, code: string, polls: string | undefined }}
 *   polls: the package's trigger, in a workflow that starts with it
 */
function exampleAsCode({ filesDir, packageName, n8n }) {
	const sdk = path.join(n8n.runtime.n8nHome, 'node_modules', '@n8n', 'workflow-sdk');
	/** @type {{ generateWorkflowCode: (workflow: unknown) => string }} */
	const { generateWorkflowCode } = require(sdk);
	const loaded = examples.loadExamples({ filesDir });
	return (file) => {
		const workflow = loaded[EXAMPLE_FILES.indexOf(file)];
		publicChat(workflow);
		const trigger = `${packageName}.supplierMatchedProjectsTrigger`;
		const polls = workflow.nodes.find((node) => node.type === trigger)?.name;
		return { name: workflow.name, code: generateWorkflowCode(workflow), polls };
	};
}

/** The AI suite's workflows: an agent on a webhook, two MCP servers with the node as their tool. */
const AI_WORKFLOWS = Object.freeze({
	mcp: { id: 'smpAiMcpServer', path: 'smp-projects' },
	// The same tool answering the API's full projects, to compare sizes in one run.
	mcpRaw: { id: 'smpAiMcpRawProjects', path: 'smp-projects-raw', parameters: { answer: 'raw' } },
	agent: { id: 'smpAiAgent', path: 'smp-ai-agent' },
	example: { id: 'smpExampleTenderAssistant', file: 'ai-agent-tender-assistant.json' },
});

/**
 * The AI suite's n8n, its workflows and the AI Agent example published, their OpenAI Chat Model
 * talking to the scripted model, on a sandbox holding agent-account.js's account.
 * @param {Logger} logger
 */
function startAiE2e(logger) {
	return stack.startStack(logger, async (cleanups) => {
		const sandbox = await startAgentAccountSandbox();
		cleanups.push(() => sandbox.stop());
		const example = JSON.parse(
			fs.readFileSync(path.join(examples.EXAMPLES_DIR, AI_WORKFLOWS.example.file), 'utf8'),
		);
		const chatId = String(publicChat(example));
		const { credential } = CREDENTIALS;
		const world = await stack.launchWorld(cleanups, logger, {
			name: 'ai',
			sandbox,
			workflows: () => [
				...examples.workflowsIn(path.resolve(__dirname, '..', '..', 'e2e', 'ai-workflows')),
				...[
					{ ...AI_WORKFLOWS.mcp, name: 'e2e AI: matched projects as MCP tools' },
					{ ...AI_WORKFLOWS.mcpRaw, name: 'e2e AI: full API projects as an MCP tool' },
				].map((workflow) => mcpServerWorkflow({ ...workflow, credential })),
				example,
			],
			activate: Object.values(AI_WORKFLOWS).map((workflow) => workflow.id),
		});
		return {
			...world,
			workflows: AI_WORKFLOWS,
			account: AGENT_ACCOUNT,
			/** @param {string} question asked of the suite's agent, through its webhook */
			askAgent: (question) =>
				world.client.callWebhook(`${AI_WORKFLOWS.agent.path}?${new URLSearchParams({ question })}`),
			/** @param {string} message @param {string} sessionId to the AI Agent example's chat */
			chatWithExample: (message, sessionId) => world.chat(chatId, message, sessionId),
		};
	});
}

/** @typedef {Awaited<ReturnType<typeof startAiE2e>>} AiEnvironment */

module.exports = {
	startE2e,
	startMcpBuilderE2e,
	startAiE2e,
	outputItems,
	EXAMPLE_FILES,
};
