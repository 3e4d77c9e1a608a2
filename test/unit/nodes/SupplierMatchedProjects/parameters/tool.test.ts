import type { IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	COMPACT_FIELDS,
	readToolParameters,
	withoutUnsetValues,
} from '../../../../../nodes/SupplierMatchedProjects/parameters/tool';
import { parseFilters } from '../../../../../nodes/SupplierMatchedProjects/parameters/filters';

const node = { name: 'Supplier Matched Projects', type: 'testTool' } as INode;

function read(parameters: Record<string, unknown>) {
	const all: Record<string, unknown> = { companyId: 'company-1', ...parameters };
	const context = {
		getNode: () => node,
		getNodeParameter: (name: string, _itemIndex: number, fallback?: unknown) =>
			name in all ? all[name] : fallback,
	} as unknown as IExecuteFunctions;
	return readToolParameters(context, 1);
}

function refusalOf(parameters: Record<string, unknown>): NodeOperationError {
	try {
		read(parameters);
	} catch (error) {
		expect(error).toBeInstanceOf(NodeOperationError);
		return error as NodeOperationError;
	}
	throw new Error('the read did not refuse');
}

describe("the tool's parameters", () => {
	it('reads the defaults', () => {
		expect(read({})).toEqual({
			companyId: 'company-1',
			asked: 20,
			limit: 20,
			answer: 'compact',
			fields: COMPACT_FIELDS,
			fixedFilters: {},
			modelFilters: {},
		});
	});

	it('lowers a Max Projects above the most one call returns, and reads it given as text', () => {
		expect(read({ maxProjects: 500 })).toMatchObject({ asked: 500, limit: 100 });
		expect(read({ maxProjects: '5' })).toMatchObject({ asked: 5, limit: 5 });
	});

	it('reads the fields chosen and the filters of both sets', () => {
		expect(
			read({
				answer: 'fields',
				answerFields: ['projectName'],
				filters: { categories: 'Civic' },
				modelFilters: { locations: 'NSW', budgetAtLeast: 0 },
			}),
		).toMatchObject({
			fields: ['projectName'],
			fixedFilters: { categories: ['Civic'] },
			modelFilters: { locations: ['NSW'] },
		});
	});

	it.each([
		[
			{ maxProjects: 'ten' },
			'Max Projects (limit) must be a whole number of projects from 1 to 100 (got "ten")',
		],
		[
			{ modelFilters: { quotesDueWithinDays: 'soon' } },
			'Quotes Due Within (Days) filter: enter a whole number of days from 0 to 3650 (ten years) (got "soon")',
		],
	])('tells the model what to correct for %j', (parameters, message) => {
		const error = refusalOf(parameters);
		expect(error.message).toBe(message);
		expect(error.description).toMatch(/came from the tool call/);
		expect(error.context.itemIndex).toBe(1);
	});

	it.each([
		[
			{ answer: 'short' },
			'Answer must be "compact", "fields" or "raw" (got "short"); open the tool and choose an answer from its list',
		],
		[
			{ answer: 'fields', answerFields: [] },
			'Answer is Selected Fields but no field is chosen: open the tool and choose Fields, or set Answer to Compact',
		],
	])("refuses the tool's own settings %j", (parameters, message) => {
		expect(refusalOf(parameters).message).toBe(message);
	});
});

describe('model filters', () => {
	it('treat what the model left at its default, empty or 0, as no filter', () => {
		const raw = {
			locations: '',
			categories: '  ',
			budgetAtLeast: 0,
			budgetAtMost: 0,
			quotesDueWithinDays: 0,
			builders: 'Acme',
		};
		expect(parseFilters(withoutUnsetValues(raw))).toEqual({ builders: ['Acme'] });
	});
});
