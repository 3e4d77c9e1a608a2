import { REFRESH, readReadme, staleRows } from '../support/test-map';

/**
 * The README's map from each product file to the tests that run it, against the imports: a new
 * test, a moved one or a new import must show in the table, or this fails naming the rows.
 */

const readme = readReadme();

/** @returns the README with the first line that contains `needle` replaced */
function edited(needle: string, replace: (line: string) => string): string {
	const lines = readme.split('\n');
	const index = lines.findIndex((line) => line.includes(needle));
	expect(index).toBeGreaterThan(-1);
	lines[index] = replace(lines[index]);
	return lines.join('\n');
}

describe("docs/development.md's test map", () => {
	it('names, for every product file, the tests that run it, and every test somewhere', () => {
		expect(staleRows(readme).join('\n')).toBe('');
	});

	it('fails, giving the row to add and the command that writes it, when a row is missing', () => {
		const problems = staleRows(edited('| `trigger/overlap.ts` |', () => ''));

		expect(problems[0]).toContain(REFRESH);
		expect(problems.slice(1)).toEqual([
			expect.stringMatching(/^add: +\| `trigger\/overlap\.ts` \|.*`unit\/trigger-overlap`/),
		]);
	});

	it.each([
		['a test that does not exist', '`unit/trigger-diff`', '`unit/trigger-dif`'],
		[
			'a test that never loads the file',
			'`unit/trigger-diff`',
			'`unit/trigger-diff`, `unit/paging`',
		],
		['no hub where the Trigger imports the file', '| Trigger |', '|  |'],
	])('fails on a row that names %s, giving it and the row the imports give', (_, from, to) => {
		const row = readme.split('\n').find((line) => line.startsWith('| `trigger/diff.ts` |'));
		const problems = staleRows(edited('| `trigger/diff.ts` |', (line) => line.replace(from, to)));

		expect(problems.slice(1)).toEqual([`remove: ${row?.replace(from, to)}`, `add:    ${row}`]);
	});

	it('says where the markers go when they are missing', () => {
		expect(staleRows(readme.replace('<!-- test-map:start -->', ''))).toEqual([
			expect.stringContaining(`docs/development.md needs the markers`),
		]);
	});
});
