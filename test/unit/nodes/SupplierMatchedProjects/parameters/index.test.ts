import type { IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	LIMIT_REASON,
	readGetManyParameters,
} from '../../../../../nodes/SupplierMatchedProjects/parameters';
import { MAX_LIMIT } from '../../../../../nodes/SupplierMatchedProjects/projects/bounds';
import { MAX_PAGE_SIZE } from '../../../../../nodes/SupplierMatchedProjects/transport/pages';
import { API_RATE_LIMIT } from '../../../../../nodes/SupplierMatchedProjects/transport/rate-budget';

const node = { name: 'Supplier Matched Projects', type: 'test' } as INode;

/** Get Many's parameters read for item 3: those set, else the fallback the read asks for. */
function read(parameters: Record<string, unknown>) {
	const all: Record<string, unknown> = { companyId: 'company-1', ...parameters };
	const context = {
		getNode: () => node,
		getNodeParameter: (name: string, _itemIndex: number, fallback?: unknown) =>
			name in all ? all[name] : fallback,
	} as unknown as IExecuteFunctions;
	return readGetManyParameters(context, 3);
}

describe("Get Many's parameters", () => {
	it('reads the defaults', () => {
		expect(read({})).toEqual({
			companyId: 'company-1',
			limit: 50,
			output: 'projects',
			simplify: false,
			filters: {},
		});
	});

	// With Return All on no Limit is read, so a stale one (0 here) cannot fail the run.
	it.each([
		[true, 5, Infinity],
		['yes', 5, Infinity],
		['on', 0, Infinity],
		[false, 5, 5],
		['no', 5, 5],
	])('reads Return All %j as its words say (Limit %j gives %s)', (returnAll, limit, read_) => {
		expect(read({ returnAll, limit }).limit).toBe(read_);
	});

	it('reads Simplify and a Limit given as text, and the filters', () => {
		expect(
			read({ limit: '10', simplify: 'yes', output: 'tenders', filters: { categories: 'Civic' } }),
		).toEqual({
			companyId: 'company-1',
			limit: 10,
			output: 'tenders',
			simplify: true,
			filters: { categories: ['Civic'] },
		});
	});

	it.each([
		[{ returnAll: 'maybe' }, 'Return All must be true or false (got "maybe")'],
		[{ simplify: 'sometimes' }, 'Simplify must be true or false (got "sometimes")'],
		[
			{ limit: 'ten' },
			'Limit must be a whole number from 1 to 10,000 (got "ten"); turn on Return All to get every result',
		],
		[{ output: 'rows' }, 'Output must be "projects" or "tenders" (got "rows")'],
		[{ filters: 'Civic' }, 'Filters must be a set of fields (got "Civic")'],
		[
			{ filters: { locations: 'NSW,,VIC' } },
			'Location filter: "NSW,,VIC" has an empty entry; remove the extra comma or enter words or postcodes between the commas',
		],
		[
			{ companyId: '   \t ' },
			"Company ID is empty: enter the supplier company's ID, or an expression that gives one",
		],
		[
			{ companyId: '.' },
			'Company ID "." cannot be sent to the API: enter the supplier company\'s ID',
		],
		[
			{ companyId: '..' },
			'Company ID ".." cannot be sent to the API: enter the supplier company\'s ID',
		],
		[
			{ companyId: 12345 },
			'Company ID must be text, but the expression gave the number 12345: make the expression give the ID as text, e.g. {{ String(...) }}',
		],
	])('refuses %j for the item it reads', (parameters, message) => {
		expect(() => read(parameters)).toThrow(NodeOperationError);
		expect(() => read(parameters)).toThrow(
			expect.objectContaining({ message, context: expect.objectContaining({ itemIndex: 3 }) }),
		);
	});

	it("says why Limit stops where it does in the transport's own numbers", () => {
		expect(MAX_LIMIT / MAX_PAGE_SIZE).toBe(API_RATE_LIMIT);
		expect(LIMIT_REASON).toBe(
			"10,000 projects are 100 pages of 100: the 100 requests the API's rate limit allows a credential in 5 minutes.",
		);
	});
});
