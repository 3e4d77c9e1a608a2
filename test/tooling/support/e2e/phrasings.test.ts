import { sublimeSearch } from '@n8n/utils/search/sublime-search';

import { SupplierMatchedProjects } from '../../../../nodes/SupplierMatchedProjects/SupplierMatchedProjects.node';
import { SupplierMatchedProjectsTrigger } from '../../../../nodes/SupplierMatchedProjects/SupplierMatchedProjectsTrigger.node';
import phrasingsFile from '../../../support/e2e/phrasings.json';

/**
 * The editor's node panels show the two nodes as one entry: n8n folds a trigger into the node
 * whose type name is the trigger's without "Trigger" (editor-ui's generateMergedNodesAndActions),
 * and searches that entry by the regular node's display name and aliases only, the whole query
 * at once (its searchNodes). So every phrasing a user types into either panel must match Get
 * Many's codex. Checked here with n8n's own fuzzy search in seconds; the browser suite checks
 * the real panels, with every other node competing.
 */

const getMany = new SupplierMatchedProjects().description;
const trigger = new SupplierMatchedProjectsTrigger().description;

/** The panel's search keys and weights (editor-ui's searchNodes, @n8n/utils' DEFAULT_KEYS). */
const PANEL_KEYS = [
	{ key: 'displayName', weight: 1.3 },
	{ key: 'codex.alias', weight: 1 },
];

/** As editor-ui's removeTrailingTrigger: "tender trig" searches for "tender". */
function withoutTrailingTrigger(query: string): string {
	const words = query.split(' ');
	const last = words[words.length - 1].toLowerCase();
	return words.length > 1 && 'trigger'.startsWith(last) ? words.slice(0, -1).join(' ') : query;
}

test("the trigger folds into Get Many's entry, whose codex the panels search", () => {
	expect(trigger.name.replace('Trigger', '')).toBe(getMany.name);
	expect(trigger.group).toContain('trigger');
	expect(getMany.group).not.toContain('trigger');
});

describe.each(['trigger', 'getMany'])('%s phrasings', (node) => {
	const phrases = phrasingsFile.phrasings
		.filter((entry) => entry.node === node)
		.map((entry) => entry.phrase);

	test.each(phrases)('"%s" matches the entry', (phrase) => {
		const query = withoutTrailingTrigger(phrase).toLowerCase();

		expect(sublimeSearch(query, [getMany], PANEL_KEYS)).toHaveLength(1);
	});
});

test("the trigger's own aliases are not searched, so they alone would not find the entry", () => {
	const newTenders = sublimeSearch(
		'new tenders',
		[{ ...getMany, codex: trigger.codex }],
		PANEL_KEYS,
	);

	expect(newTenders).toHaveLength(0);
});
