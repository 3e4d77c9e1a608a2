import type { ICredentialDataDecryptedObject, INodeType, INodeTypeDescription } from 'n8n-workflow';

import {
	compilePackage,
	N8N_WORKFLOW_LINES,
	n8nWorkflowReads,
	removeDir,
} from '../../../support/release/n8n-lines';
import { project, workflowNode } from '../../../support/engine/n8n-fixtures';

/**
 * The compiled package against n8n-workflow as each supported n8n line ships it (exact-pinned npm
 * aliases): n8n loads its own n8n-workflow, and a value it lacks is `undefined` at run time, so a
 * new import of a recent helper must fail here, not in a user's n8n.
 */

/** Values some lines lack or shape differently, read only through transport/n8n-features. */
const DETECTED = ['TIMED_CAUSES', 'getCredentialAllowedDomains'];
const DIR = 'nodes/SupplierMatchedProjects';
const FEATURES_FILE = `${DIR}/transport/n8n-features.js`;
const NODES = { getMany: 'SupplierMatchedProjects', trigger: 'SupplierMatchedProjectsTrigger' };

type Features = typeof import('../../../../nodes/SupplierMatchedProjects/transport/n8n-features');
type Description = INodeTypeDescription & {
	usableAsTool?: { replacements?: Record<string, unknown> };
};

let compiled: string;
let reads: Record<string, string[]>;
let otherBindings: Record<string, string[]>;

beforeAll(() => {
	compiled = compilePackage();
	({ reads, otherBindings } = n8nWorkflowReads(compiled));
}, 120_000);

afterAll(() => removeDir(compiled));

/**
 * Requires compiled files with `n8n-workflow` resolving to the given line's module (with
 * `overrides` in place of its values), and records every property they read of it.
 */
function loadAgainst<T>(
	moduleName: string,
	load: () => T,
	overrides: Record<string, unknown> = {},
): { loaded: T; readNames: Set<string> } {
	const real = { ...jest.requireActual<Record<string, unknown>>(moduleName), ...overrides };
	const readNames = new Set<string>();
	const module = new Proxy(real, {
		get(target, property, receiver) {
			if (typeof property === 'string' && property !== '__esModule') readNames.add(property);
			return Reflect.get(target, property, receiver) as unknown;
		},
	});
	let loaded: T | undefined;
	jest.isolateModules(() => {
		jest.doMock('n8n-workflow', () => module);
		loaded = load();
	});
	return { loaded: loaded as T, readNames };
}

function compiledFile<T extends object>(file: string): T {
	return jest.requireActual<T>(`${compiled}/${file}`);
}

/** Both node classes and the credential's, compiled, against the given line. */
function loadPackage(moduleName: string) {
	const nodeClass = (name: string) =>
		compiledFile<Record<string, new () => INodeType>>(`${DIR}/${name}.node.js`)[name];
	return loadAgainst(moduleName, () => ({
		getMany: nodeClass(NODES.getMany),
		trigger: nodeClass(NODES.trigger),
		credential: compiledFile<Record<string, new () => { name: string }>>(
			'credentials/SupplierMatchedProjectsApi.credentials.js',
		).SupplierMatchedProjectsApi,
	}));
}

function descriptionOf(which: keyof typeof NODES): Description {
	return new (loadPackage('n8n-workflow').loaded[which])().description as Description;
}

const node = workflowNode(
	'node-1',
	'Matched Projects',
	'n8n-nodes-supplier-matched-projects.supplierMatchedProjects',
);

function allowedDomains(features: Features, credentialData: ICredentialDataDecryptedObject) {
	return features.credentialAllowedDomains({
		node,
		credentialData,
		credentialOwnedSurface: true,
		nodeEndpointUrl: 'https://api.supplier.example/base',
	});
}

const restricted = { allowedHttpRequestDomains: 'domains', allowedDomains: 'other.example' };
/** The list as the lines that add the node's own host apply it. */
const withApi = 'api.supplier.example, other.example';
const expected = {
	// n8n 1.123: a positional helper that adds the node's own host to a list.
	'n8n-workflow-1.120': { shape: 'positional', listWithoutApi: withApi },
	// n8n 2.0 to 2.19: no helper; n8n applies no list to a node's own request.
	'n8n-workflow-2.0': { shape: 'absent', listWithoutApi: undefined },
	// n8n 2.20: a positional helper that returns the list as written.
	'n8n-workflow-2.20': { shape: 'positional', listWithoutApi: 'other.example' },
	'n8n-workflow': { shape: 'ownedSurface', listWithoutApi: withApi },
	'n8n-workflow-2.41': { shape: 'ownedSurface', listWithoutApi: withApi },
} as const;

describe('what the compiled package takes from n8n-workflow', () => {
	test('every module binds n8n-workflow by name, but transport/n8n-features, which detects', () => {
		expect(Object.keys(otherBindings)).toEqual([FEATURES_FILE]);
		// The scan finds what the sources import, so it can fail when one is added.
		expect(Object.keys(reads)).toEqual(
			expect.arrayContaining(['NodeApiError', 'NodeOperationError', 'NodeConnectionTypes']),
		);
		for (const name of DETECTED) expect(reads[name]).toBeUndefined();
	});

	describe.each(N8N_WORKFLOW_LINES)('n8n $n8n (its $module)', ({ module: moduleName }) => {
		const line = () => jest.requireActual<Record<string, unknown>>(moduleName);
		const features = () =>
			loadAgainst(moduleName, () => compiledFile<Features>(FEATURES_FILE)).loaded;
		const want = expected[moduleName as keyof typeof expected];

		test('exports every value the package reads at run time', () => {
			const missing = Object.keys(reads)
				.filter((name) => line()[name] === undefined)
				.map((name) => `${name} (read in ${reads[name].join(', ')})`);

			expect(missing).toEqual([]);
		});

		test('loads both nodes and the credential, reading only what it has or detects, and resolves the parameters, hints and codex in place, as n8n does when a node is added', () => {
			const { NodeHelpers } = jest.requireActual<typeof import('n8n-workflow')>(moduleName);
			const { loaded, readNames } = loadPackage(moduleName);

			expect(new loaded.credential().name).toBe('supplierMatchedProjectsApi');
			for (const [which, name] of [
				['getMany', 'supplierMatchedProjects'],
				['trigger', 'supplierMatchedProjectsTrigger'],
			] as const) {
				const description = new loaded[which]().description as Description;
				const parameters = NodeHelpers.getNodeParameters(
					description.properties,
					{},
					true,
					false,
					workflowNode('node-1', 'Node', `n8n-nodes-supplier-matched-projects.${name}`),
					description,
				);

				expect(description.name).toBe(name);
				expect(description.builderHint?.searchHint).toEqual(expect.any(String));
				expect(description.codex?.alias).toEqual(
					expect.arrayContaining(['Tenders', 'Bids', 'RFQ']),
				);
				expect(parameters).toEqual(
					expect.objectContaining({ companyId: '', output: expect.any(String) }),
				);
			}
			const absent = [...readNames].filter((name) => line()[name] === undefined);
			expect(absent.filter((name) => !DETECTED.includes(name))).toEqual([]);
		});

		test('detects the shape of the allowed-domains helper, and applies a "Specific Domains" list as the line does', () => {
			expect(features().ALLOWED_DOMAINS_SHAPE).toBe(want.shape);
			expect(allowedDomains(features(), restricted)).toBe(want.listWithoutApi);
		});

		// "None" must not block the node's own API; "All" sets no list.
		test.each(['none', 'all'])('a credential set to "%s" sets no list', (setting) => {
			expect(allowedDomains(features(), { allowedHttpRequestDomains: setting })).toBeUndefined();
		});

		test('the failure causes a wait can help are those n8n 2.40 names', () => {
			const newest = jest.requireActual<{ TIMED_CAUSES: readonly string[] }>('n8n-workflow');

			expect([...features().TIMED_CAUSES].sort()).toEqual([...newest.TIMED_CAUSES].sort());
		});
	});
});

test('transport/n8n-features calls a helper shaped as n8n 2.21 to 2.39 ship it without the option it lacks, and "None" does not reach it', () => {
	// That line's helper, by its behaviour: options without credentialOwnedSurface, "None" throwing.
	const calls: unknown[] = [];
	const helper = (options: { credentialData: ICredentialDataDecryptedObject }) => {
		calls.push(options);
		const { credentialData } = options;
		if (credentialData.allowedHttpRequestDomains === 'none') {
			throw new Error('This credential is configured to prevent use within an HTTP Request node');
		}
		return credentialData.allowedHttpRequestDomains === 'domains'
			? (credentialData.allowedDomains as string)
			: undefined;
	};
	const detected = loadAgainst('n8n-workflow', () => compiledFile<Features>(FEATURES_FILE), {
		getCredentialAllowedDomains: helper,
	}).loaded;
	calls.length = 0;

	expect(detected.ALLOWED_DOMAINS_SHAPE).toBe('options');
	expect(allowedDomains(detected, { allowedHttpRequestDomains: 'none' })).toBeUndefined();
	expect(calls).toEqual([]);
	expect(allowedDomains(detected, restricted)).toBe('other.example');
	expect(calls).toEqual([{ node, credentialData: restricted }]);
});

describe("the nodes' builder hints and search aliases (issue 33)", () => {
	/** Every string under a `builderHint` key, anywhere in the description. */
	function builderHintTexts(value: unknown, inHint = false): string[] {
		if (typeof value === 'string') return inHint ? [value] : [];
		if (Array.isArray(value)) return value.flatMap((entry) => builderHintTexts(entry, inHint));
		if (typeof value !== 'object' || value === null) return [];
		return Object.entries(value).flatMap(([key, entry]) =>
			builderHintTexts(entry, inHint || key === 'builderHint'),
		);
	}

	test('no builder hint carries a wire-format expression or a connection name (no-builder-hint-leakage)', () => {
		const texts = (['getMany', 'trigger'] as const).flatMap((which) =>
			builderHintTexts(descriptionOf(which)),
		);

		expect(texts.length).toBeGreaterThan(10);
		expect(texts.filter((text) => /={{|\bai_[a-zA-Z]+\b/.test(text))).toEqual([]);
	});

	test("each node's codex is its .node.json file's, and the tool copy adds its own words to the node's", () => {
		for (const which of ['getMany', 'trigger'] as const) {
			const file = jest.requireActual<Record<string, unknown>>(
				`${compiled}/${DIR}/${NODES[which]}.node.json`,
			);
			const { categories, alias, resources } = file;

			expect(descriptionOf(which).codex).toEqual({ categories, alias, resources });
		}
		const getMany = descriptionOf('getMany');
		const toolCodex = getMany.usableAsTool?.replacements?.codex as { alias: string[] };
		expect(toolCodex.alias.slice(0, getMany.codex?.alias?.length)).toEqual(getMany.codex?.alias);
		expect(toolCodex.alias.length).toBeGreaterThan(getMany.codex?.alias?.length ?? 0);
	});

	test("the output hints name exactly the columns of a simplified tender row, the trigger's too", () => {
		const items = compiledFile<{ shapeItems: (projects: unknown[], options: object) => object[] }>(
			`${DIR}/projects/items.js`,
		);
		const [row] = items.shapeItems([project()], { output: 'tenders', simplify: true });
		const columnsIn = (which: keyof typeof NODES) => {
			const output = descriptionOf(which).properties.find((property) => property.name === 'output');
			const hint = output?.builderHint?.propertyHint ?? '';
			const last = 'tenderingSubcontractors';
			return hint.slice(hint.indexOf('tenderId'), hint.indexOf(last) + last.length).split(', ');
		};

		expect(columnsIn('getMany')).toEqual(Object.keys(row));
		expect(columnsIn('trigger')).toEqual(Object.keys(row));
	});
});
