import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	booleanOf,
	numberOf,
	readBoolean,
	readCollection,
	readOption,
	readWholeNumber,
	wholeNumberIn,
	type ReadAt,
} from '../../../../../nodes/SupplierMatchedProjects/parameters/readers';

const node = { name: 'Supplier Matched Projects', type: 'test' } as INode;
const at: ReadAt = { node, itemIndex: 2 };

/** What a reader threw, for its message, item and description. */
function refusalOf(read: () => unknown): NodeOperationError {
	try {
		read();
	} catch (error) {
		expect(error).toBeInstanceOf(NodeOperationError);
		return error as NodeOperationError;
	}
	throw new Error('the reader did not refuse');
}

describe('booleans', () => {
	it.each([
		...[true, ' TRUE ', 'yes', 'on', '1', 1].map((value) => [value, true]),
		...[false, 'False', ' No ', 'OFF', '0', 0].map((value) => [value, false]),
	])('reads %j as %j', (value, read) => {
		expect(booleanOf(value)).toBe(read);
		expect(readBoolean(at, 'Return All', value)).toBe(read);
	});

	it.each(['maybe', '', ' ', 'y', 'n', 'nope', '2', 2, -1, null, undefined, [], {}, 'true false'])(
		'refuses %j, never reading it as true for not being empty',
		(value) => {
			expect(booleanOf(value)).toBeUndefined();
			const error = refusalOf(() => readBoolean(at, 'Return All', value));
			expect(error.message).toBe(
				`Return All must be true or false (got ${JSON.stringify(value) ?? 'undefined'})`,
			);
			expect(error.context.itemIndex).toBe(2);
			expect(error.description).toMatch(/true or false/);
		},
	);
});

describe('whole numbers', () => {
	const range = { min: 1, max: 10_000 };

	it.each([
		...[5, 1, 10_000].map((value) => [value, value]),
		...['10', ' 10 ', '10.0'].map((text) => [text, 10]),
	])('reads %j as %j', (value, read) => {
		expect(wholeNumberIn(value, range)).toBe(read);
		expect(readWholeNumber(at, 'Limit', value, range)).toBe(read);
	});

	it.each([
		'ten',
		'1e3',
		'0x10',
		'$5',
		'1,000',
		'',
		' ',
		'10 projects',
		null,
		undefined,
		true,
		[5],
	])('reads %j as no number at all', (value) => {
		expect(numberOf(value)).toBeUndefined();
	});

	it.each([
		[0, '0'],
		[10_001, '10001'],
		[2.5, '2.5'],
		[Number.NaN, 'NaN'],
		['ten', '"ten"'],
		['2.5', '"2.5"'],
		['-3', '"-3"'],
		[null, 'null'],
		[true, 'true'],
	])('refuses %j, naming the parameter and the range', (value, got) => {
		const error = refusalOf(() =>
			readWholeNumber(at, 'Limit', value, range, {
				fix: 'turn on Return All to get every result',
				description: 'Why the range.',
			}),
		);
		expect(error.message).toBe(
			`Limit must be a whole number from 1 to 10,000 (got ${got}); turn on Return All to get every result`,
		);
		expect(error.description).toBe('Why the range.');
		expect(error.context.itemIndex).toBe(2);
	});

	it('names the unit and writes the top of the range as asked', () => {
		const error = refusalOf(() =>
			readWholeNumber({ node }, 'Days Before Quotes Due', '-1', {
				min: 0,
				max: 3650,
				unit: 'days',
				maxText: '3650 (ten years)',
			}),
		);
		expect(error.message).toBe(
			'Days Before Quotes Due must be a whole number of days from 0 to 3650 (ten years) (got "-1")',
		);
		expect(error.context.itemIndex).toBeUndefined();
	});
});

describe('options', () => {
	const modes = ['projects', 'tenders'] as const;

	it('reads an option exactly as the panel stores it', () => {
		expect(readOption(at, 'Output', 'tenders', modes)).toBe('tenders');
	});

	it.each([
		['Tenders', '"Tenders"'],
		[' tenders', '" tenders"'],
		[true, 'true'],
		[undefined, 'undefined'],
	])('refuses %j, listing the options', (value, got) => {
		const error = refusalOf(() => readOption(at, 'Output', value, modes));
		expect(error.message).toBe(`Output must be "projects" or "tenders" (got ${got})`);
	});
});

describe('collections', () => {
	it('reads the fields set, and unset as none', () => {
		expect(readCollection(at, 'Filters', { categories: 'Civic' })).toEqual({ categories: 'Civic' });
		expect(readCollection(at, 'Filters', undefined)).toEqual({});
		expect(readCollection(at, 'Filters', null)).toEqual({});
	});

	it.each([
		['Civic', '"Civic"'],
		[['Civic'], '["Civic"]'],
		[3, '3'],
	])('refuses %j instead of reading it as no filter', (value, got) => {
		const error = refusalOf(() => readCollection(at, 'Filters', value));
		expect(error.message).toBe(`Filters must be a set of fields (got ${got})`);
	});
});
