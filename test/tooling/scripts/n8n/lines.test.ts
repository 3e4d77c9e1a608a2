import { compareVersions, workflowsForImport } from '../../../../scripts/n8n/lines';
import { supportedN8nVersions } from '../../../../scripts/n8n/install';

/** What scripts/n8n/lines.js says differs between the n8n versions the real-n8n suites run. */

describe('the n8n versions the real-n8n suites run', () => {
	test('are the oldest of each supported line, one in between and the newest, oldest first', () => {
		expect(supportedN8nVersions()).toEqual(['1.123.81', '2.0.3', '2.30.8', '2.40.7', '2.41.1']);
	});

	test('compare part by part, not as text', () => {
		expect(compareVersions('2.0.3', '1.123.81')).toBeGreaterThan(0);
		expect(compareVersions('2.30.8', '2.4.0')).toBeGreaterThan(0);
		expect(compareVersions('2.40.7', '2.40.7')).toBe(0);
	});
});

describe('workflows as each n8n imports them', () => {
	const workflows = [
		{ id: 'a', nodes: [] },
		{ id: 'b', nodes: [], versionId: 'kept' },
	];

	test('n8n 2.0 gets a versionId on each workflow that has none, and keeps one given', () => {
		const imported = workflowsForImport('2.0.3', workflows) as { id: string; versionId: string }[];

		expect(imported.map((workflow) => workflow.id)).toEqual(['a', 'b']);
		expect(imported[0].versionId).toMatch(/^[0-9a-f-]{36}$/);
		expect(imported[1].versionId).toBe('kept');
	});

	test.each(['1.123.81', '2.30.8', '2.40.7', '2.41.1'])(
		'n8n %s gets them as they are',
		(version) => {
			expect(workflowsForImport(version, workflows)).toBe(workflows);
		},
	);
});
