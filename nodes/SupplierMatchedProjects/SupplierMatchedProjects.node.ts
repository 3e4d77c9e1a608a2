import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as matchedProject from './actions/matchedProject/MatchedProject.resource';
import { router } from './actions/router';
import { codexOf } from './descriptions';
import { TOOL_ALIASES } from './descriptions/tool';
import { packageRuntime, type SupplierRuntime } from './runtime';
import codexFile from './SupplierMatchedProjects.node.json';

const codex = codexOf(codexFile);

export class SupplierMatchedProjects implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Supplier Matched Projects',
		name: 'supplierMatchedProjects',
		icon: {
			light: 'file:supplierMatchedProjects.svg',
			dark: 'file:supplierMatchedProjects.dark.svg',
		},
		group: ['input'],
		version: 1,
		subtitle:
			'={{$parameter["operation"] === "getAll" ? "Get many matched projects" : $parameter["operation"]}}',
		description:
			"List the open construction tenders, bids and RFQs that match a supplier's keywords, with their builders and quotes due dates",
		defaults: {
			name: 'Supplier Matched Projects',
		},
		codex,
		builderHint: {
			searchHint:
				"Lists a supplier company's open construction tenders (bids, RFQs, procurement) that match its keywords, soonest quotes due first: for a list, report or digest of what is open now. For a daily digest put a Schedule Trigger before it, then an Aggregate node and Gmail, Send Email or Slack; or write one row per tender to Google Sheets or HubSpot. To act on each tender as it opens or as its quotes come due, use Supplier Matched Projects Trigger; an AI Agent uses Supplier Matched Projects Tool.",
			relatedNodes: [
				{
					nodeType: 'n8n-nodes-base.scheduleTrigger',
					relationHint: 'Runs it every morning for a daily digest of open tenders',
				},
				{
					nodeType: 'n8n-nodes-base.aggregate',
					relationHint: 'Collects the tender items into one list, for one digest message',
				},
				{ nodeType: 'n8n-nodes-base.gmail', relationHint: 'Emails the digest' },
				{ nodeType: 'n8n-nodes-base.emailSend', relationHint: 'Emails the digest over SMTP' },
				{ nodeType: 'n8n-nodes-base.slack', relationHint: 'Posts the digest to a channel' },
				{
					nodeType: 'n8n-nodes-base.googleSheets',
					relationHint: 'Appends one row per tender (output tenders, simplify on)',
				},
				{
					nodeType: 'n8n-nodes-base.hubspot',
					relationHint: 'Records tenders for the sales team, as deals or tasks',
				},
				{
					nodeType: 'n8n-nodes-supplier-matched-projects.supplierMatchedProjectsTrigger',
					relationHint: 'Announces each new tender, or quotes coming due, instead of listing all',
				},
			],
		},
		usableAsTool: {
			replacements: {
				description:
					"Lets an AI agent look up open construction tenders, bids and RFQs that match a supplier's keywords",
				codex: { ...codex, alias: [...codexFile.alias, ...TOOL_ALIASES] },
				builderHint: {
					searchHint:
						"A tool for an AI Agent: looks up a supplier's open construction tenders (bids, RFQs, procurement) that match its keywords, filtered by location, category, builder, budget or days until quotes are due, and answers a compact summary. Set Company ID; the model fills Max Projects and its filters itself. For a scheduled list use Supplier Matched Projects, for alerts Supplier Matched Projects Trigger.",
					relatedNodes: [
						{
							nodeType: '@n8n/n8n-nodes-langchain.agent',
							relationHint: 'The AI Agent that calls it as one of its tools',
						},
					],
				},
			},
		},
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'supplierMatchedProjectsApi',
				required: true,
			},
		],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'Matched Project',
						value: 'matchedProject',
					},
				],
				default: 'matchedProject',
			},
			...matchedProject.description,
		],
	};

	execute: (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>;

	constructor(runtime: SupplierRuntime = packageRuntime) {
		this.execute = async function (this: IExecuteFunctions) {
			return await router(this, runtime);
		};
	}
}
