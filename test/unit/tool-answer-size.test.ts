/**
 * The size targets, measured on its 237-project account as the sandbox's generator builds
 * it (scripts/tool-answer-size/account.js). `node scripts/tool-answer-size.js` prints the figures.
 */
import { DEFAULT_TOOL_LIMIT } from '../../nodes/SupplierMatchedProjects/descriptions/tool';
import * as helpers from '../../nodes/SupplierMatchedProjects/helpers/tool-answer';

import { realisticAccount } from '../../scripts/tool-answer-size/account';
import { measureAnswers } from '../../scripts/tool-answer-size/measure';

const today = '2026-11-25';

it('the account is the one the issue measured: 237 projects, 1-3 tenders, 2 consultants, 2 subcontractors', () => {
	const account = realisticAccount({ today });
	expect(account).toHaveLength(237);
	for (const project of account) {
		expect(project.tenders.length).toBeGreaterThanOrEqual(1);
		expect(project.tenders.length).toBeLessThanOrEqual(3);
		expect(project.consultants).toHaveLength(2);
		expect(project.tenderingSubcontractors).toHaveLength(2);
	}
});

it('the default answer stays within 16,000 characters and five projects within 4,000', () => {
	const figures = measureAnswers(helpers, realisticAccount({ today }), {
		defaultLimit: DEFAULT_TOOL_LIMIT,
		today,
	});
	expect(figures.compact.default).toBeLessThanOrEqual(16_000);
	expect(figures.compact.five).toBeLessThanOrEqual(4_000);
	// What n8n gave a model before: 50 raw projects, well over the target.
	expect(figures.before.fifty).toBeGreaterThan(16_000);
	expect(figures.perProject.compact).toBeLessThan(figures.perProject.raw);
});
