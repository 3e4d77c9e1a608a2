import { REFRESH, mapProblems, readReadme } from '../support/test-map';

/**
 * The README's map from each product file to the tests that run it, against the imports: a new
 * test, a moved one or a new import must show in the table, or this fails saying where.
 */

const readme = readReadme();

function problemsOf(text: string): string {
	return mapProblems(text).join('\n');
}

/** @returns the README with the first line that contains `needle` replaced */
function edited(needle: string, replace: (line: string) => string): string {
	const lines = readme.split('\n');
	const index = lines.findIndex((line) => line.includes(needle));
	expect(index).toBeGreaterThan(-1);
	lines[index] = replace(lines[index]);
	return lines.join('\n');
}

describe("README.md's test map", () => {
	it('names, for every product file, the tests that run it, and every test somewhere', () => {
		const problems = problemsOf(readme);

		expect(problems ? `${problems}\nOr write the map anew: ${REFRESH}` : '').toBe('');
	});

	it('fails, naming the file and its tests, when a row is missing', () => {
		const problems = problemsOf(edited('| `trigger/overlap.ts` |', () => ''));

		expect(problems).toContain('`trigger/overlap.ts` has no row: add one');
		expect(problems).toContain('`unit/trigger-overlap` is in no row');
	});

	it('fails when a row names a test that does not exist', () => {
		const problems = problemsOf(
			edited('| `trigger/diff.ts` |', (line) =>
				line.replace('`unit/trigger-diff`', '`unit/trigger-dif`'),
			),
		);

		expect(problems).toContain('Row `trigger/diff.ts`: `unit/trigger-dif` names no test file');
		expect(problems).toContain('Row `trigger/diff.ts`: add `unit/trigger-diff` to "Without n8n"');
	});

	it('fails when a row names a test that never loads the file', () => {
		const problems = problemsOf(
			edited('| `trigger/overlap.ts` |', (line) =>
				line.replace('`unit/trigger-overlap`', '`unit/trigger-overlap`, `unit/paging`'),
			),
		);

		expect(problems).toContain(
			'Row `trigger/overlap.ts`: remove `unit/paging`: it never loads this file',
		);
	});

	it('fails when a test is in the wrong column, or a node row is left out', () => {
		const moved = edited('| `trigger/output.ts` |', (line) =>
			line.replace(
				'`unit/trigger-due-soon`, `unit/trigger-output` |  |',
				'`unit/trigger-due-soon` | `unit/trigger-output` |',
			),
		);
		const unhooked = edited('| `trigger/output.ts` |', (line) =>
			line.replace('| Trigger |', '|  |'),
		);

		expect(problemsOf(moved)).toContain('move `unit/trigger-output` to "Without n8n"');
		expect(problemsOf(unhooked)).toContain('should read Trigger');
	});
});
