/** Get Many run as a tool: `execute` gives the tool's answer the execution's day and the item. */
import type { IExecuteFunctions, IN8nHttpFullResponse } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { execute } from '../../../../../../nodes/SupplierMatchedProjects/actions/matchedProject/getAll.operation';
import { SupplierRuntime } from '../../../../../../nodes/SupplierMatchedProjects/runtime';
import { page, project, tender, workflowNode } from '../../../../../support/engine/n8n-fixtures';

const node = workflowNode('n', 'Projects Tool', 'n8n-nodes-supplier-matched-projects.smpTool');

function toolContext(answer: IN8nHttpFullResponse) {
	return {
		getNode: () => node,
		getNodeParameter: (name: string, _itemIndex: number, fallback?: unknown) =>
			name === 'companyId' ? 'company-1' : fallback,
		getCredentials: async () => ({
			authUrl: 'https://auth.test',
			baseUrl: 'https://api.test',
			clientId: 'client-1',
			clientSecret: 'secret',
			scope: 'speci-finder/read',
		}),
		logger: { warn: () => undefined },
		helpers: { httpRequestWithAuthentication: async () => answer },
	} as unknown as IExecuteFunctions;
}

describe('Get Many as a tool', () => {
	it('counts days left from the day the execution gives', async () => {
		const listed = page([project({ tenders: [tender({ quotesDueAt: '2026-12-01' })] })]);
		const context = toolContext({ statusCode: 200, headers: {}, body: listed });
		const [answer] = await execute(context, new SupplierRuntime(), 0, '2026-11-25');
		expect(answer).toMatchObject({ projects: [{ tenders: [{ daysLeft: 6 }] }] });
	});

	it('names the input item whose call failed', async () => {
		const context = toolContext({ statusCode: 404, headers: {}, body: {} });
		const failure = execute(context, new SupplierRuntime(), 2, '2026-11-25');
		await expect(failure).rejects.toBeInstanceOf(NodeOperationError);
		await expect(failure).rejects.toMatchObject({ context: { itemIndex: 2 } });
	});
});
