// @ts-check
'use strict';

/**
 * The phrasings of phrasings.json put to n8n's own MCP server as a model puts them (search_nodes),
 * and the rank at which each finds the node it should find first. The ranking is n8n's
 * (`@n8n/ai-utilities`, node-catalog): per query word, a fuzzy match on the display name, the type
 * name and the codex aliases, five results at most.
 */

/** @typedef {{ phrase: string, node: string }} Phrasing node: trigger, getMany or tool */

/**
 * @typedef {Phrasing & { nodeType: string, usage: string, rank: number | undefined, results: string[] }} Ranked
 *   nodeType: the type it should find first; usage: `agentTool` or `workflow` (the default);
 *   rank: 1-based, undefined when not among the results; results: the types found, best first
 */

/**
 * Phrasings n8n's ranking cannot put first with any alias, display text or description the
 * package could honestly carry; each says why (scores as n8n 2.41.1 and 2.30.8 compute them).
 * The suite asserts that they are still not first, so that a change in n8n's ranking shows here.
 * `withoutUsage`: only on lines whose search_nodes has no `usage` parameter (2.30.x), where the
 * agent-tool phrasings compete with the package's other two nodes.
 * @type {Record<string, { why: string, withoutUsage?: true }>}
 */
const KNOWN_LIMITS = Object.freeze({
	'tender trigger': {
		why: "n8n Trigger and Form Trigger score 732 and 713 on the word 'trigger' (a display name that starts with 'n8n' or equals the word); an alias scores at most 475, so a community trigger never makes the five results",
	},
	'new RFQ': {
		why: "Hacker News scores 254 on 'new' (its display name holds 'News'); an alias scores at most 235 on 'new' or 'RFQ', three letters each",
	},
	'tender leads': {
		why: "Google Ads scores 419 on 'leads' (its type name n8n-nodes-base.googleAds holds the letters in a row); an alias scores at most 415 on 'tender'",
	},
	'tender lookup': {
		why: "without usage: 'agentTool' the tool competes with the trigger, which must score 415 on 'tender' to come before Open Thesaurus for 'when a tender opens'; the tool can only tie that, and a tie goes to the node n8n loaded first",
		withoutUsage: true,
	},
});

/**
 * The node types one query found, best first: the result blocks of its section of a
 * search_nodes answer, without the related nodes n8n lists after a result.
 * @param {string} answer the whole text of a search_nodes answer
 * @param {string} query
 * @returns {string[]}
 */
function foundFor(answer, query) {
	const section = answer
		.split('\n\n---\n\n')
		.find((part) => part.startsWith(`## ${JSON.stringify(query)}\n`));
	if (section === undefined) throw new Error(`search_nodes answered no section for "${query}"`);
	return [...section.matchAll(/^- (\S+)((?: \[[A-Z]+\])*)$/gm)]
		.filter((match) => !match[2].includes('[RELATED]'))
		.map((match) => match[1]);
}

/**
 * @param {import('./stack').McpSession} mcp a session with n8n's MCP server
 * @param {{ nodes: Record<string, string>, phrasings: Phrasing[] }} list
 * @param {{ usage: boolean }} line whether its search_nodes takes `usage`
 * @returns {Promise<Ranked[]>} in the list's order
 */
async function rankPhrasings(mcp, list, line) {
	/** @param {Phrasing} phrasing */
	const usageOf = (phrasing) => (phrasing.node === 'tool' && line.usage ? 'agentTool' : 'workflow');
	/** @type {Map<string, string>} */
	const answers = new Map();
	for (const usage of new Set(list.phrasings.map(usageOf))) {
		const queries = list.phrasings.filter((phrasing) => usageOf(phrasing) === usage);
		const result = await mcp.callTool('search_nodes', {
			queries: queries.map((phrasing) => phrasing.phrase),
			...(usage === 'agentTool' && { usage }),
		});
		if (result.isError) throw new Error(`search_nodes failed: ${JSON.stringify(result.content)}`);
		answers.set(usage, result.content.map((block) => block.text ?? '').join('\n'));
	}
	return list.phrasings.map((phrasing) => {
		const usage = usageOf(phrasing);
		const results = foundFor(answers.get(usage) ?? '', phrasing.phrase);
		const nodeType = list.nodes[phrasing.node];
		const index = results.indexOf(nodeType);
		return { ...phrasing, nodeType, usage, rank: index < 0 ? undefined : index + 1, results };
	});
}

/**
 * The known limit of a phrasing on this line, if any.
 * @param {string} phrase @param {{ usage: boolean }} line
 */
function knownLimit(phrase, line) {
	const limit = KNOWN_LIMITS[phrase];
	return limit && (!limit.withoutUsage || !line.usage) ? limit : undefined;
}

/**
 * A plain-text table for the CI log: each phrasing's rank, the node it should find and what came
 * first.
 * @param {Ranked[]} ranked @param {string} title
 */
function rankTable(ranked, title) {
	const top = (/** @type {number} */ n) => ranked.filter((row) => (row.rank ?? 6) <= n).length;
	const rows = ranked.map((row) => {
		const first = row.results[0]?.split('.').pop() ?? '(none)';
		return `${String(row.rank ?? '-').padStart(4)}  ${row.phrase} (${row.node}, ${row.usage}); first: ${first}`;
	});
	const summary = `top-1: ${top(1)} of ${ranked.length}; top-3: ${top(3)} of ${ranked.length}`;
	return [title, 'rank  phrasing (should find, usage); first result', ...rows, summary].join('\n');
}

module.exports = { rankPhrasings, knownLimit, rankTable };
