import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { PagingError } from '../../nodes/SupplierMatchedProjects/helpers/paging';
import { budgetExhausted, budgetRefusal } from '../../nodes/SupplierMatchedProjects/trigger/budget';
import { passesOnItsOwn } from '../../nodes/SupplierMatchedProjects/trigger/failures';

const node: INode = {
	id: 'trigger',
	name: 'Supplier Matched Projects Trigger',
	type: 'supplierMatchedProjectsTrigger',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

function apiError(options: ConstructorParameters<typeof NodeApiError>[2]): NodeApiError {
	return new NodeApiError(node, { message: 'x' } as JsonObject, { message: 'x', ...options });
}

describe('which failed polls the trigger only logs, and which it reports', () => {
	it.each([
		['an API failing on its side (HTTP 500)', apiError({ httpCode: '500' })],
		['an API failing downstream (HTTP 502)', apiError({ httpCode: '502' })],
		["the API's rate limit (HTTP 429)", apiError({ httpCode: '429' })],
		['a network failure (no HTTP code)', apiError({})],
		[
			'a token issuer failing or out of reach',
			apiError({ failure: { cause: 'temporarily-unavailable' } }),
		],
		['a token issuer throttling', apiError({ failure: { cause: 'rate-limited' } })],
		['paging the service broke', new PagingError('a cursor repeated')],
		[
			"a share of the limit the API's 429s hold this process to",
			budgetRefusal(node, 500, { free: 2, underLimit: 90 }),
		],
		["a walk stopped by the API's count", budgetExhausted(node, 3, 200, 'api')],
	])('passes on its own: %s', (_case, error) => {
		expect(passesOnItsOwn(error)).toBe(true);
	});

	it.each([
		['the API refusing access (HTTP 401)', apiError({ httpCode: '401' })],
		['the API rejecting the request (HTTP 400)', apiError({ httpCode: '400' })],
		['no API at the Base URL (HTTP 404)', apiError({ httpCode: '404' })],
		[
			'a token issuer rejecting the client, scope or address',
			apiError({ failure: { cause: 'credential-invalid' } }),
		],
		[
			'a declared cause that needs the user, whatever the HTTP code says',
			apiError({ httpCode: '503', failure: { cause: 'configuration-invalid' } }),
		],
		['a walk no budget can carry', budgetRefusal(node, 20_000, { free: 100, underLimit: 100 })],
		[
			"a walk this process's own requests leave no room for",
			budgetRefusal(node, 500, { free: 2, underLimit: 2 }),
		],
		["a walk stopped by this process's own count", budgetExhausted(node, 3, 200, 'process')],
		['a parameter to fix', new NodeOperationError(node, 'Company ID is empty')],
		['anything else', new Error('unexpected')],
	])('needs the user: %s', (_case, error) => {
		expect(passesOnItsOwn(error)).toBe(false);
	});
});
