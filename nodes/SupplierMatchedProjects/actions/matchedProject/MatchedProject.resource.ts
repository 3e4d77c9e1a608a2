import type { INodeProperties } from 'n8n-workflow';

import * as getAll from './getAll.operation';

export { getAll };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['matchedProject'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				description: "Get the projects with open tenders that match the supplier's keywords",
				action: 'Get many matched projects',
			},
		],
		default: 'getAll',
	},
	...getAll.description,
];
