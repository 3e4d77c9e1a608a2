import {
	API_TYPES_FILE,
	REGENERATE_COMMAND,
	readCommittedApiTypes,
	regenerateApiTypes,
} from '../../support/contract/openapi';

function staleness(committed: string, regenerated: string): string {
	if (committed === regenerated) return '';
	const committedLines = committed.split('\n');
	const regeneratedLines = regenerated.split('\n');
	let line = 0;
	while (committedLines[line] === regeneratedLines[line]) line++;
	return [
		`${API_TYPES_FILE} does not match openapi/openapi.yaml.`,
		`Fix: run \`${REGENERATE_COMMAND}\` and commit the result.`,
		`First difference at line ${line + 1}:`,
		`  committed:   ${JSON.stringify(committedLines[line] ?? '(end of file)')}`,
		`  regenerated: ${JSON.stringify(regeneratedLines[line] ?? '(end of file)')}`,
	].join('\n');
}

describe('api/types.generated.ts', () => {
	it('is what openapi-typescript generates from openapi/openapi.yaml now', async () => {
		const regenerated = await regenerateApiTypes();

		expect(regenerated).toContain('export interface components');
		expect(staleness(readCommittedApiTypes(), regenerated)).toBe('');
	});

	it('names the fix command when the committed file differs', () => {
		const message = staleness('export type A = 1;\n', 'export type A = 2;\n');

		expect(message).toContain(REGENERATE_COMMAND);
		expect(message).toContain('line 1');
	});
});
