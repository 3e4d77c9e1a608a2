import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as matchedProject from './actions/matchedProject/MatchedProject.resource';
import { router } from './actions/router';

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

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
