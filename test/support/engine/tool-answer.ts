/**
 * What the tool answers a model, as the contract of issue 19 states it: written once for the
 * tests that run the tool in n8n's engine (test/engine/tool.test.ts) and in real n8n
 * (test/e2e/ai-tool.test.ts), and spelled out rather than taken from the node, so they catch a
 * change to it.
 */

/** One item, so a one-element array once n8n hands the output items' json to the model. */
export interface ToolAnswer {
	summary: string;
	returned: number;
	moreMatch: boolean | null;
	/** One phrase per filter in effect. */
	filtersApplied: string[];
	projects: Array<Record<string, unknown> & { projectId: string }>;
}

/** A compact project's keys, in order. */
export const COMPACT_PROJECT_KEYS = [
	'projectId',
	'projectName',
	'address',
	'category',
	'budget',
	'status',
	'url',
	'tenders',
];

/** A compact project's tenders' keys, in order. */
export const COMPACT_TENDER_KEYS = [
	'tenderName',
	'builder',
	'quotesDueAt',
	'daysLeft',
	'tenderStatus',
	'matchedKeywords',
];

/** The fields a model may fill in, sorted: the limit and every filter, none of them required. */
export const MODEL_FILLED_KEYS = [
	'budgetAtLeast',
	'budgetAtMost',
	'builder',
	'category',
	'limit',
	'location',
	'matchedKeywords',
	'projectIds',
	'quotesDueWithinDays',
];

/** The answer in the text a model receives: n8n's JSON of the one output item's json. */
export function parseToolAnswer(text: string): ToolAnswer {
	const items = JSON.parse(text) as ToolAnswer[];
	expect(items).toHaveLength(1);
	return items[0];
}

/** A compact answer's projects and tenders carry exactly the compact keys, in order. */
export function expectCompactKeys(answer: ToolAnswer): void {
	for (const project of answer.projects) {
		expect(Object.keys(project)).toEqual(COMPACT_PROJECT_KEYS);
		for (const tender of project.tenders as Array<Record<string, unknown>>) {
			expect(Object.keys(tender)).toEqual(COMPACT_TENDER_KEYS);
		}
	}
}
