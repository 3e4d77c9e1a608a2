import type { IDataObject } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { SupplierMatchedProjects } from '../../nodes/SupplierMatchedProjects/SupplierMatchedProjects.node';
import { loadExamples } from '../../scripts/n8n/examples';
import { createNodeTypes, createTestNode } from '../support/harness';

/** Every expression parameter of the examples that builds HTML, as [workflow, node, parameter, value]. */
const markupExpressions = loadExamples({ filesDir: '/unused' }).flatMap((workflow) =>
	workflow.nodes.flatMap((node) =>
		Object.entries(node.parameters)
			.filter(
				(entry): entry is [string, string] =>
					typeof entry[1] === 'string' && entry[1].startsWith('=') && /<[a-z]/i.test(entry[1]),
			)
			.map(([parameter, value]) => [workflow.name, node.name, parameter, value] as const),
	),
);

const hostile = `Café & "Bakery" <script>alert('x')</script>`;

/** A simplified tender row, as the Aggregate node hands them to the email node. */
function tenderRow(text: string, projectUrl: string) {
	return {
		tenderId: text,
		tenderName: text,
		tenderType: text,
		builderName: text,
		quotesDueAt: text,
		matchedKeywords: text,
		projectName: text,
		projectUrl,
	};
}

/**
 * The input item each kind of example sees: the digests aggregate rows under `tenders`, the reminder
 * emails one row per item. Both shapes in one item, so every expression finds the fields it reads.
 */
function input(row: ReturnType<typeof tenderRow>): IDataObject {
	return { ...row, daysLeft: 2, tenders: [row] };
}

/** Resolves an expression with n8n's own expression engine, with `json` as the node's input item. */
function render(expression: string, json: IDataObject): string {
	const nodeType = new SupplierMatchedProjects();
	const node = createTestNode(nodeType, {});
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: createNodeTypes([nodeType]),
	});
	const result = workflow.expression.resolveSimpleParameterValue(
		expression,
		{},
		null,
		0,
		0,
		node.name,
		[{ json }],
		'manual',
		{},
	);
	if (typeof result !== 'string')
		throw new Error(`Expected a string, got ${JSON.stringify(result)}`);
	return result;
}

test('the examples build HTML in at least the two email digests', () => {
	expect(new Set(markupExpressions.map(([workflow]) => workflow)).size).toBeGreaterThanOrEqual(2);
});

describe.each(markupExpressions)(
	'%s, node "%s", parameter %s',
	(_file, _node, _parameter, expression) => {
		test('escapes API text, so names with <, & and quotes stay text', () => {
			const html = render(expression, input(tenderRow(hostile, `https://app.example/p?a=1&b="2"`)));
			expect(html).not.toContain('<script>');
			expect(html).not.toContain('Café & ');
			expect(html).toContain(
				`Café &amp; &quot;Bakery&quot; &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;`,
			);
			expect(html).toContain('href="https://app.example/p?a=1&amp;b=&quot;2&quot;"');
		});

		test('links only http(s) addresses', () => {
			const html = render(expression, input(tenderRow('Roofing', 'javascript:alert(1)')));
			expect(html).not.toContain('javascript:');
			expect(html).toContain('Roofing');
			for (const [, href] of html.matchAll(/href="([^"]*)"/g))
				expect(href).toMatch(/^(https?:|#$)/);
		});

		test('renders ordinary names unchanged', () => {
			const html = render(
				expression,
				input(tenderRow('Structural steel', 'https://app.example/projects/p-1')),
			);
			expect(html).toContain('<b>Structural steel</b>');
			expect(html).toContain('<a href="https://app.example/projects/p-1">Structural steel</a>');
		});
	},
);
