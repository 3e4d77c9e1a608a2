import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as matchedProject from './actions/matchedProject/MatchedProject.resource';
import { router } from './actions/router';
import { packageRuntime, type SupplierRuntime } from './runtime';

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
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: "Read the open tenders of projects that match a supplier company's keywords",
		defaults: {
			name: 'Supplier Matched Projects',
		},
		usableAsTool: true,
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
