import type { INode, IPollFunctions } from 'n8n-workflow';

import { readTriggerParameters } from '../../../../../nodes/SupplierMatchedProjects/parameters/trigger';

const node = { name: 'Supplier Matched Projects Trigger', type: 'test' } as INode;

function read(parameters: Record<string, unknown>) {
	const all: Record<string, unknown> = { companyId: 'company-1', ...parameters };
	const context = {
		getNode: () => node,
		getNodeParameter: (name: string, fallback?: unknown) => (name in all ? all[name] : fallback),
	} as unknown as IPollFunctions;
	return readTriggerParameters(context);
}

describe("the trigger's parameters", () => {
	it('reads the defaults', () => {
		expect(read({})).toEqual({
			companyId: 'company-1',
			event: 'newTender',
			output: 'tenders',
			simplify: false,
			filters: {},
			daysBeforeQuotesDue: 0,
			emitOpenOnFirstRun: false,
		});
	});

	it.each([
		...[true, 'Yes'].map((value) => [value, true]),
		...[false, 'no', undefined].map((value) => [value, false]),
	])('reads Emit Open Tenders on First Run %j as %j', (emitOpenOnFirstRun, read_) => {
		expect(read({ options: { emitOpenOnFirstRun } }).emitOpenOnFirstRun).toBe(read_);
	});

	it('reads Simplify and Days Before Quotes Due given as text', () => {
		const parameters = read({ event: 'quotesDueSoon', daysBeforeQuotesDue: '7', simplify: 'on' });
		expect(parameters).toMatchObject({ daysBeforeQuotesDue: 7, simplify: true });
	});

	it.each([
		[
			{ options: { emitOpenOnFirstRun: 'maybe' } },
			'Emit Open Tenders on First Run must be true or false (got "maybe")',
		],
		[{ simplify: 'maybe' }, 'Simplify must be true or false (got "maybe")'],
		[
			{ event: 'anyTender' },
			'Event must be "newTender", "newOrUpdatedTender" or "quotesDueSoon" (got "anyTender")',
		],
		...[-1, 1.5, 'three', 3651].map((days): [Record<string, unknown>, string] => [
			{ event: 'quotesDueSoon', daysBeforeQuotesDue: days },
			`Days Before Quotes Due must be a whole number of days from 0 to 3650 (ten years) (got ${JSON.stringify(days)})`,
		]),
		[
			{ companyId: ' ' },
			"Company ID is empty: enter the supplier company's ID, or an expression that gives one",
		],
		[{ options: 'emit' }, 'Options must be a set of fields (got "emit")'],
	])('refuses %j', (parameters, message) => {
		expect(() => read(parameters)).toThrow(message);
	});
});
