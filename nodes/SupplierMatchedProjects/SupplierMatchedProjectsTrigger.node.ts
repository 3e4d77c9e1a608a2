import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import {
	codexOf,
	companyIdProperty,
	filtersProperty,
	outputProperty,
	simplifyProperty,
} from './descriptions';
import { MAX_DAYS } from './projects/bounds';
import { readTriggerParameters } from './parameters/trigger';
import { packageRuntime, type SupplierRuntime } from './runtime';
import { pollTrigger } from './trigger/poll';
import codexFile from './SupplierMatchedProjectsTrigger.node.json';

export class SupplierMatchedProjectsTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Supplier Matched Projects Trigger',
		name: 'supplierMatchedProjectsTrigger',
		icon: {
			light: 'file:supplierMatchedProjects.svg',
			dark: 'file:supplierMatchedProjects.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle:
			'={{$parameter["event"] === "newOrUpdatedTender" ? "New or updated tender" : $parameter["event"] === "quotesDueSoon" ? "Quotes due soon" : "New tender"}}',
		description:
			"Starts a workflow when a new construction tender, bid or RFQ matches a supplier's keywords, when a tender changes, or when its quotes are due soon",
		defaults: {
			name: 'Supplier Matched Projects Trigger',
		},
		codex: codexOf(codexFile),
		builderHint: {
			searchHint:
				"Starts a workflow when something happens to a supplier company's matched construction tenders (bids, RFQs, procurement): a new tender opens (event newTender), a known tender changes its quotes due date, status, name, type or builder (newOrUpdatedTender), or its quotes come due within a number of days (quotesDueSoon). It polls, announces each tender once, and by default only records what is open on its first poll. Usually followed by Gmail, Send Email or Slack for an alert, or Google Sheets or HubSpot to record each tender. For a daily list of every open tender use a Schedule Trigger and the Supplier Matched Projects node instead.",
			relatedNodes: [
				{ nodeType: 'n8n-nodes-base.gmail', relationHint: 'Emails an alert for each new tender' },
				{ nodeType: 'n8n-nodes-base.emailSend', relationHint: 'Emails an alert over SMTP' },
				{ nodeType: 'n8n-nodes-base.slack', relationHint: 'Posts new tenders to a channel' },
				{
					nodeType: 'n8n-nodes-base.googleSheets',
					relationHint: 'Appends a row per new tender (output tenders, simplify on)',
				},
				{
					nodeType: 'n8n-nodes-base.hubspot',
					relationHint: 'Creates a deal or task for the sales team per tender',
				},
				{
					nodeType: 'n8n-nodes-base.aggregate',
					relationHint: 'Puts all tenders of one poll into one message',
				},
				{
					nodeType: 'n8n-nodes-supplier-matched-projects.supplierMatchedProjects',
					relationHint: 'Lists every open tender, for a scheduled digest instead of alerts',
				},
			],
		},
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'supplierMatchedProjectsApi',
				required: true,
			},
		],
		properties: [
			companyIdProperty,
			{
				displayName: 'Event',
				name: 'event',
				type: 'options',
				description: 'What starts the workflow',
				builderHint: {
					propertyHint:
						"newTender: a tender opens that matches the keywords; each item has event 'newTender'. newOrUpdatedTender: also when a known tender changes; those items have event 'updatedTender' and changes ({ field: { from, to } }; simplified: changedFields and previousQuotesDueAt, previousTenderStatus, previousTenderName, previousTenderType, previousBuilderName). quotesDueSoon: an open tender's quotes due date comes within daysBeforeQuotesDue days, once per tender and date; items have event 'quotesDueSoon', daysLeft and previousQuotesDueAt (the earlier date, when the builder moved it).",
				},
				options: [
					{
						name: 'New Tender',
						value: 'newTender',
						description: "A tender opens that matches the supplier's keywords",
					},
					{
						name: 'New or Updated Tender',
						value: 'newOrUpdatedTender',
						description:
							'Also when a known tender changes its quotes due date, status, name, type or builder; the item says what changed, from what to what',
					},
					{
						name: 'Quotes Due Soon',
						value: 'quotesDueSoon',
						description:
							"An open tender's quotes due date comes within the days set below, once per tender and due date",
					},
				],
				default: 'newTender',
			},
			{
				displayName: 'Days Before Quotes Due',
				name: 'daysBeforeQuotesDue',
				type: 'number',
				typeOptions: { minValue: 0, maxValue: MAX_DAYS, numberPrecision: 0 },
				default: 3,
				description:
					"How many days before quotes close to announce a tender, in the workflow's time zone; 0 announces it on the day they close",
				displayOptions: { show: { event: ['quotesDueSoon'] } },
			},
			{
				...outputProperty,
				builderHint: {
					propertyHint:
						"For alerts use output 'tenders' with simplify true: one flat item per announced tender with event, then the columns of the Supplier Matched Projects node's simplified tender rows (tenderId, tenderName, tenderType, tenderStatus, tenderOpenAt, quotesDueAt, builderName, builderWebsite, matchedKeywords, projectId, projectName, projectAddress, projectCategory, projectStatus, projectBudgetLow, projectBudgetHigh, projectUrl, consultants, tenderingSubcontractors), then the event's own fields (see event). Output 'projects' gives one item per project, carrying only its announced tenders.",
				},
				options: [
					{
						name: 'Projects',
						value: 'projects',
						description: 'One item per project, carrying only its new or updated tenders',
					},
					{
						name: 'Tenders',
						value: 'tenders',
						description: "One item per tender, with its project's fields under project",
					},
				],
				default: 'tenders',
			},
			simplifyProperty,
			filtersProperty,
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Emit Open Tenders on First Run',
						name: 'emitOpenOnFirstRun',
						type: 'boolean',
						default: false,
						description:
							'Whether the first poll after activation emits the tenders open now (for Quotes Due Soon: those already due within the days set), once. Off: it only records them and waits for new ones.',
					},
				],
			},
		],
	};

	poll: (this: IPollFunctions) => Promise<INodeExecutionData[][] | null>;

	constructor(runtime: SupplierRuntime = packageRuntime) {
		this.poll = async function (this: IPollFunctions) {
			return await pollTrigger(this, runtime, readTriggerParameters(this));
		};
	}
}
