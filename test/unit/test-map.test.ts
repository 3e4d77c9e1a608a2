import { REFRESH, readFixture, readMapPage, staleRows } from '../support/test-map';

/**
 * docs/development.md's map from each product file to the tests that run it, against the imports: a new
 * test, a moved one or a new import must show in the table. The first test reads the real map;
 * the others try the checker on a made-up repository (fixtures/test-map-graph.json, its map
 * fixtures/test-map.md), so that a stale map fails the first alone.
 */

it("docs/development.md's test map names, for every product file, the tests that run it, and every test somewhere", () => {
	expect(staleRows(readMapPage()).join('\n')).toBe('');
});

describe('the test map checker, on a made-up repository', () => {
	const { text, graph } = readFixture();

	/** @returns the fixture's map with the first line that contains `needle` replaced */
	function edited(needle: string, replace: (line: string) => string): string {
		const lines = text.split('\n');
		const index = lines.findIndex((line) => line.includes(needle));
		expect(index).toBeGreaterThan(-1);
		lines[index] = replace(lines[index]);
		return lines.join('\n');
	}

	const rowOf = (file: string) =>
		text.split('\n').find((line) => line.startsWith(`| \`${file}\` |`));

	it('finds the map as it draws it', () => {
		expect(staleRows(text, graph)).toEqual([]);
	});

	it("names in a helper's row the tests that reach it, but not those that reach it only through a node", () => {
		// engine/trigger imports trigger/diff.ts itself; engine/node only loads the nodes.
		expect(rowOf('helpers/filters.ts')).toBe(
			'| `helpers/filters.ts` | `unit/filters`, `unit/trigger-diff` |  |  |  |',
		);
		expect(rowOf('trigger/diff.ts')).toBe(
			'| `trigger/diff.ts` | `unit/trigger-diff` | `engine/trigger` |  |  |',
		);
	});

	it('says why a file that n8n meets needs the engine lane: the n8n interface it names', () => {
		expect(rowOf('transport/token.ts')).toBe(
			'| `transport/token.ts` | `unit/token` |  |  | `IHttpRequestHelper` |',
		);
	});

	it('fails, giving the row to add and the command that writes it, when a row is missing', () => {
		const problems = staleRows(
			edited('| `trigger/diff.ts` |', () => ''),
			graph,
		);

		expect(problems[0]).toContain(REFRESH);
		expect(problems.slice(1)).toEqual([`add:    ${rowOf('trigger/diff.ts')}`]);
	});

	it.each([
		['a test that does not exist', '`unit/trigger-diff` |', '`unit/trigger-dif` |'],
		['a test that never loads the file', '`unit/trigger-diff` |', '`unit/filters` |'],
		['no reason where n8n meets the file', '`IHttpRequestHelper` |', ' |'],
	])('fails on a row that names %s, giving it and the row the imports give', (_, from, to) => {
		const file = from.includes('IHttp') ? 'transport/token.ts' : 'trigger/diff.ts';
		const row = rowOf(file) ?? '';
		const problems = staleRows(
			edited(`| \`${file}\` |`, (line) => line.replace(from, to)),
			graph,
		);

		expect(problems[0]).toContain(REFRESH);
		expect(problems.slice(1)).toEqual([`remove: ${row.replace(from, to)}`, `add:    ${row}`]);
	});

	it('says where the markers go when they are missing', () => {
		expect(staleRows(text.replace('<!-- test-map:start -->', ''), graph)).toEqual([
			expect.stringContaining('needs the markers'),
		]);
	});
});
