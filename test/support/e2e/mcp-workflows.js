// @ts-check
'use strict';

/**
 * The example workflows of examples/, each as a model writes it in n8n's Workflow SDK after
 * reading get_node_types and the SDK reference: the same nodes and connections, with expressions
 * a model writes rather than the examples' hand-made HTML. Credentials are `newCredential(...)`,
 * which n8n's create_workflow_from_code fills in with the user's credential of that type.
 */

const PACKAGE = 'n8n-nodes-supplier-matched-projects';

const IMPORT =
	"import { workflow, node, trigger, newCredential, languageModel, memory, tool, expr } from '@n8n/workflow-sdk';";

/**
 * @typedef {object} ShapeOptions
 * @property {string} companyId
 * @property {string} filesDir where the spreadsheet shape writes
 */

/** The package's credential, as a model names it. */
const supplierCredential = () =>
	"credentials: { supplierMatchedProjectsApi: newCredential('Supplier Matched Projects account') }";

/**
 * The package's trigger polling every minute for one event, one simplified item per tender.
 * @param {string} variable
 * @param {string} name
 * @param {string} companyId
 * @param {string} eventParameters e.g. `event: 'newTender'`
 */
function supplierTrigger(variable, name, companyId, eventParameters) {
	return `const ${variable} = trigger({
  type: '${PACKAGE}.supplierMatchedProjectsTrigger',
  version: 1,
  config: {
    name: '${name}',
    parameters: {
      pollTimes: { item: [{ mode: 'everyMinute' }] },
      companyId: '${companyId}',
      ${eventParameters},
      output: 'tenders',
      simplify: true
    },
    ${supplierCredential()}
  }
});`;
}

/**
 * Send Email through the SMTP credential.
 * @param {string} variable
 * @param {string} name
 * @param {string} subject an expression's text
 * @param {string} html an expression's text
 */
function sendEmail(variable, name, subject, html) {
	return `const ${variable} = node({
  type: 'n8n-nodes-base.emailSend',
  version: 2.1,
  config: {
    name: '${name}',
    parameters: {
      fromEmail: 'tenders@example.com',
      toEmail: 'you@example.com',
      subject: expr('${subject}'),
      emailFormat: 'html',
      html: expr('${html}')
    },
    credentials: { smtp: newCredential('SMTP account') }
  }
});`;
}

/** All items in one, as a list under `tenders`. */
const collectTenders = `const collectTenders = node({
  type: 'n8n-nodes-base.aggregate',
  version: 1,
  config: {
    name: 'Collect Tenders',
    parameters: { aggregate: 'aggregateAllItemData', destinationFieldName: 'tenders', options: {} }
  }
});`;

/** The list's tenders in a mail body: each tender's ID and name. */
const TENDER_LINES = '{{ $json.tenders.map(t => t.tenderId + ": " + t.tenderName).join("<br>") }}';

/**
 * The shapes, by the example file whose shape each has; `polls` names the package's trigger in
 * those that start with it.
 * @type {Record<string, (options: ShapeOptions) => { name: string, code: string, polls?: string }>}
 */
const SDK_SHAPES = {
	'new-tenders-email-digest.json': ({ companyId }) => ({
		name: 'MCP: new matching tenders by email',
		polls: 'New Matching Tender',
		code: [
			IMPORT,
			supplierTrigger('newTender', 'New Matching Tender', companyId, "event: 'newTender'"),
			collectTenders,
			sendEmail(
				'sendDigest',
				'Send Digest',
				'{{ $json.tenders.length }} new matching tenders',
				TENDER_LINES,
			),
			"export default workflow('mcp-new-tenders-email', 'MCP: new matching tenders by email')\n  .add(newTender)\n  .to(collectTenders)\n  .to(sendDigest);",
		].join('\n\n'),
	}),
	'new-tenders-to-spreadsheet.json': ({ companyId, filesDir }) => ({
		name: 'MCP: new matching tenders to a spreadsheet',
		polls: 'New Matching Tender',
		code: [
			IMPORT,
			supplierTrigger('newTender', 'New Matching Tender', companyId, "event: 'newTender'"),
			`const toSpreadsheet = node({
  type: 'n8n-nodes-base.convertToFile',
  version: 1.1,
  config: {
    name: 'One Row per Tender',
    parameters: {
      operation: 'xlsx',
      options: { fileName: expr('mcp-tenders-{{ $now.toMillis() }}.xlsx'), headerRow: true, sheetName: 'New tenders' }
    }
  }
});`,
			`const saveSpreadsheet = node({
  type: 'n8n-nodes-base.readWriteFile',
  version: 1.1,
  config: {
    name: 'Save Spreadsheet',
    parameters: {
      operation: 'write',
      fileName: expr('${filesDir}/{{ $binary.data.fileName }}'),
      dataPropertyName: 'data',
      options: {}
    }
  }
});`,
			"export default workflow('mcp-new-tenders-sheet', 'MCP: new matching tenders to a spreadsheet')\n  .add(newTender)\n  .to(toSpreadsheet)\n  .to(saveSpreadsheet);",
		].join('\n\n'),
	}),
	'quotes-due-soon-reminder.json': ({ companyId }) => ({
		name: 'MCP: reminder before quotes close',
		polls: 'Quotes Due Soon',
		code: [
			IMPORT,
			supplierTrigger(
				'quotesDueSoon',
				'Quotes Due Soon',
				companyId,
				"event: 'quotesDueSoon',\n      daysBeforeQuotesDue: 3",
			),
			sendEmail(
				'sendReminder',
				'Send Reminder',
				'Quotes close in {{ $json.daysLeft }} days: {{ $json.tenderName }}',
				'Quotes for {{ $json.tenderName }} ({{ $json.tenderId }}) on {{ $json.projectName }} are due {{ $json.quotesDueAt }}.',
			),
			"export default workflow('mcp-quotes-due-soon', 'MCP: reminder before quotes close')\n  .add(quotesDueSoon)\n  .to(sendReminder);",
		].join('\n\n'),
	}),
	'daily-open-tenders-digest.json': ({ companyId }) => ({
		name: 'MCP: daily digest of open tenders',
		code: [
			IMPORT,
			`const everyMorning = trigger({
  type: 'n8n-nodes-base.scheduleTrigger',
  version: 1.2,
  config: { name: 'Every Morning', parameters: { rule: { interval: [{ field: 'days', triggerAtHour: 7 }] } } }
});`,
			`const openTenders = node({
  type: '${PACKAGE}.supplierMatchedProjects',
  version: 1,
  config: {
    name: 'All Open Tenders',
    parameters: {
      resource: 'matchedProject',
      operation: 'getAll',
      companyId: '${companyId}',
      returnAll: true,
      output: 'tenders',
      simplify: true
    },
    ${supplierCredential()}
  }
});`,
			collectTenders,
			sendEmail(
				'sendDigest',
				'Send Digest',
				'{{ $json.tenders.length }} open tenders match your keywords',
				TENDER_LINES,
			),
			"export default workflow('mcp-daily-digest', 'MCP: daily digest of open tenders')\n  .add(everyMorning)\n  .to(openTenders)\n  .to(collectTenders)\n  .to(sendDigest);",
		].join('\n\n'),
	}),
	'ai-agent-tender-assistant.json': ({ companyId }) => ({
		name: 'MCP: AI agent that answers questions about tenders',
		code: [
			IMPORT,
			`const chatMessage = trigger({
  type: '@n8n/n8n-nodes-langchain.chatTrigger',
  version: 1.1,
  config: { name: 'When Chat Message Received', parameters: { public: true, mode: 'webhook', options: {} } }
});`,
			`const chatModel = languageModel({
  type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
  version: 1.3,
  config: {
    name: 'OpenAI Chat Model',
    parameters: { model: { __rl: true, mode: 'list', value: 'gpt-5-mini' }, options: {} },
    credentials: { openAiApi: newCredential('OpenAI account') }
  }
});`,
			`const chatMemory = memory({
  type: '@n8n/n8n-nodes-langchain.memoryBufferWindow',
  version: 1.3,
  config: { name: 'Simple Memory', parameters: {} }
});`,
			`const matchedProjects = tool({
  type: '${PACKAGE}.supplierMatchedProjectsTool',
  version: 1,
  config: {
    name: 'Matched Projects',
    parameters: { companyId: '${companyId}' },
    ${supplierCredential()}
  }
});`,
			`const assistant = node({
  type: '@n8n/n8n-nodes-langchain.agent',
  version: 3,
  config: {
    name: 'Tender Assistant',
    parameters: { options: { systemMessage: 'Answer questions about open tenders with the Matched Projects tool.' } },
    subnodes: { model: chatModel, memory: chatMemory, tools: [matchedProjects] }
  }
});`,
			"export default workflow('mcp-tender-assistant', 'MCP: AI agent that answers questions about tenders')\n  .add(chatMessage)\n  .to(assistant);",
		].join('\n\n'),
	}),
};

module.exports = { SDK_SHAPES };
