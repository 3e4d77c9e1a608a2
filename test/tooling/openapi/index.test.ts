import { loadOpenApiDocument } from '../../../openapi';
import { createOpenApiValidator, validateOpenApiDocuments } from '../../support/contract/openapi';
import {
	project as fixtureProject,
	tender as fixtureTender,
} from '../../support/engine/n8n-fixtures';

type JsonObject = Record<string, unknown>;

const RESULTS_PATH = '/api/supplier/v1/companies/{companyId}/speci-finder/results';

function at(node: unknown, ...keys: string[]): JsonObject {
	let current = node;
	for (const key of keys) {
		current = (current as JsonObject)[key];
	}
	if (typeof current !== 'object' || current === null) {
		throw new Error(`nothing at ${keys.join(' > ')}`);
	}
	return current as JsonObject;
}

// Invalid values on purpose: the schemas are what is tested.
const tender = (overrides: JsonObject = {}) => fixtureTender(overrides as never);
const project = (overrides: JsonObject = {}) => fixtureProject(overrides as never);

describe('openapi/openapi.yaml', () => {
	const document = loadOpenApiDocument();
	const validator = createOpenApiValidator(document);
	const errorsOf = (schemaName: string, value: unknown) =>
		validator.schemaErrors(validator.componentSchema(schemaName), value);

	const breakages: Array<[string, (copy: JsonObject) => void]> = [
		['info has no title', (copy) => delete at(copy, 'info').title],
		[
			'a parameter is sent "in: body" (OpenAPI 2 style)',
			(copy) => {
				const parameters = at(copy, 'paths', RESULTS_PATH, 'get').parameters as JsonObject[];
				parameters[0].in = 'body';
			},
		],
		[
			'a $ref points at a schema that does not exist',
			(copy) => {
				at(copy, 'components', 'schemas', 'ResultsPage', 'properties')._metadata = {
					$ref: '#/components/schemas/PageMetadataTypo',
				};
			},
		],
		[
			'a response key is not a status code',
			(copy) => {
				const responses = at(copy, 'paths', RESULTS_PATH, 'get', 'responses');
				responses.oops = responses['200'];
			},
		],
		[
			'it claims OpenAPI 3.0, which has no type arrays for nullability',
			(copy) => {
				copy.openapi = '3.0.3';
			},
		],
	];

	/** The description, then each broken copy, validated together in one child process. */
	let validations: ReturnType<typeof validateOpenApiDocuments>;
	beforeAll(() => {
		const broken = breakages.map(([, breakIt]) => {
			const copy = loadOpenApiDocument();
			breakIt(copy);
			return copy;
		});
		validations = validateOpenApiDocuments([document, ...broken]);
		// Each test awaits its own; a failure to validate at all fails each of them.
		validations.catch(() => undefined);
	});

	it('is a valid OpenAPI 3.1 description', async () => {
		const [result] = await validations;

		expect(result).toEqual({ valid: true, version: '3.1', errors: null });
	});

	it.each(breakages.map(([breakage], index) => [breakage, index + 1] as const))(
		'fails validation when %s',
		async (_breakage, index) => {
			const result = (await validations)[index];

			expect(result.valid).toBe(false);
		},
	);

	it('names its component schemas as the package imports them', () => {
		expect(Object.keys(at(document, 'components', 'schemas')).sort()).toEqual(
			[
				'Budget',
				'ErrorBody',
				'OAuthErrorBody',
				'PageMetadata',
				'Party',
				'Project',
				'ResultsPage',
				'Tender',
				'TokenResponse',
			].sort(),
		);
	});

	it('requires the OAuth token and the client id header together on the results endpoint', () => {
		const results = at(document, 'paths', RESULTS_PATH, 'get');

		expect(results.security).toEqual([
			{ speciFinderOAuth: ['speci-finder/read'], serviceClientId: [] },
		]);
		expect(at(document, 'components', 'securitySchemes', 'serviceClientId')).toMatchObject({
			type: 'apiKey',
			in: 'header',
			name: 'x-service-client-id',
		});
		expect(
			at(
				document,
				'components',
				'securitySchemes',
				'speciFinderOAuth',
				'flows',
				'clientCredentials',
			),
		).toMatchObject({
			tokenUrl: expect.stringMatching(/\/oauth2\/token$/),
			scopes: { 'speci-finder/read': expect.any(String) },
		});
		expect(at(document, 'paths', '/oauth2/token', 'post').security).toEqual([]);
		expect(at(document, 'paths', '/swagger/doc', 'get').security).toEqual([]);
	});

	describe('limit query parameter', () => {
		const parameters = at(document, 'paths', RESULTS_PATH, 'get').parameters as JsonObject[];
		const limit = parameters.find((parameter) => parameter.name === 'limit') as JsonObject;

		it('defaults to 25', () => {
			expect(at(limit, 'schema').default).toBe(25);
		});

		it.each([1, 25, 100])('accepts %s', (value) => {
			expect(validator.schemaErrors(limit.schema, value)).toEqual([]);
		});

		it.each([0, 101, 2.5, 'ten'])('rejects %s', (value) => {
			expect(validator.schemaErrors(limit.schema, value)).not.toEqual([]);
		});
	});

	describe('schemas', () => {
		it('accept a complete results page', () => {
			const page = { data: [project()], _metadata: { nextCursor: 'b3BhcXVl', hasNextPage: true } };

			expect(errorsOf('ResultsPage', page)).toEqual([]);
		});

		it('accept an empty last page (no keywords configured, or nothing matches)', () => {
			const page = { data: [], _metadata: { nextCursor: null, hasNextPage: false } };

			expect(errorsOf('ResultsPage', page)).toEqual([]);
		});

		it('accept every field the spec allows to be null', () => {
			const nullable = project({
				budget: null,
				consultants: [{ name: 'QS Partners', website: null }],
				tenders: [tender({ tenderOpenAt: null, quotesDueAt: null })],
			});

			expect(errorsOf('Project', nullable)).toEqual([]);
			expect(errorsOf('Budget', { low: 2000000, high: null })).toEqual([]);
		});

		it('accept fields the API adds within a version', () => {
			const withNewFields = project({
				region: 'NSW',
				tenders: [tender({ packageCode: 'E-1' })],
				budget: { low: 1, high: 2, currency: 'AUD' },
			});

			expect(errorsOf('Project', withNewFields)).toEqual([]);
			expect(
				errorsOf('ResultsPage', {
					data: [],
					_metadata: { nextCursor: null, hasNextPage: false, total: 0 },
					links: {},
				}),
			).toEqual([]);
		});

		it.each<[string, string, unknown]>([
			['a project without tenders', 'Project', project({ tenders: [] })],
			['an unknown project status', 'Project', project({ status: 'Pending' })],
			['a project without a budget field', 'Project', { ...project(), budget: undefined }],
			['a project url that is not a URI', 'Project', project({ url: 'not a link' })],
			['an unknown tender type', 'Tender', tender({ type: 'Quote' })],
			['an unknown tender status', 'Tender', tender({ status: 'Pending' })],
			[
				'a quotesDueAt that is not a calendar date',
				'Tender',
				tender({ quotesDueAt: '2025-02-30' }),
			],
			['a tenderOpenAt with a time', 'Tender', tender({ tenderOpenAt: '2025-01-10T09:00:00Z' })],
			['a tender without a builder', 'Tender', { ...tender(), builder: undefined }],
			['a party without a website field', 'Party', { name: 'Acme' }],
			['a budget with a null low bound', 'Budget', { low: null, high: 10 }],
			[
				'hasNextPage true without a cursor',
				'PageMetadata',
				{ nextCursor: null, hasNextPage: true },
			],
			['a cursor on the last page', 'PageMetadata', { nextCursor: 'abc', hasNextPage: false }],
			[
				'a token without expires_in',
				'TokenResponse',
				{ access_token: 'a.b.c', token_type: 'Bearer' },
			],
			['a MAC token', 'TokenResponse', { access_token: 'a', token_type: 'mac', expires_in: 3600 }],
			['an error without a message', 'ErrorBody', { code: 'FETCH_FAILED' }],
			['an OAuth error outside RFC 6749', 'OAuthErrorBody', { error: 'access_denied' }],
		])('reject %s', (_case, schemaName, value) => {
			expect(errorsOf(schemaName, JSON.parse(JSON.stringify(value)))).not.toEqual([]);
		});

		it('accept a token in any case of "Bearer"', () => {
			for (const tokenType of ['Bearer', 'bearer']) {
				const token = { access_token: 'a.b.c', token_type: tokenType, expires_in: 3600 };
				expect(errorsOf('TokenResponse', token)).toEqual([]);
			}
		});
	});

	it('has examples that conform to their own schemas', () => {
		const problems: string[] = [];
		let checked = 0;
		const visit = (node: unknown, where: string) => {
			if (Array.isArray(node)) {
				node.forEach((child, index) => visit(child, `${where}/${index}`));
				return;
			}
			if (typeof node !== 'object' || node === null) {
				return;
			}
			const object = node as JsonObject;
			if (object.schema !== undefined && typeof object.examples === 'object') {
				for (const [name, example] of Object.entries(object.examples as JsonObject)) {
					const value = (example as JsonObject).value;
					checked++;
					for (const problem of validator.schemaErrors(object.schema, value)) {
						problems.push(`${where}/examples/${name}: ${problem}`);
					}
				}
			}
			if (Array.isArray(object.examples) && typeof object.type === 'string') {
				for (const value of object.examples) {
					checked++;
					for (const problem of validator.schemaErrors(object, value)) {
						problems.push(`${where}/examples: ${problem}`);
					}
				}
			}
			for (const [key, child] of Object.entries(object)) {
				visit(child, `${where}/${key}`);
			}
		};
		visit(document, '#');

		expect(checked).toBeGreaterThanOrEqual(8);
		expect(problems).toEqual([]);
	});

	it('declares Retry-After on 429 as whole seconds', () => {
		const retryAfter = at(
			document,
			'components',
			'responses',
			'RateLimited',
			'headers',
			'Retry-After',
		);

		expect(at(document, 'paths', RESULTS_PATH, 'get', 'responses', '429').$ref).toBe(
			'#/components/responses/RateLimited',
		);
		expect(validator.schemaErrors(retryAfter.schema, 30)).toEqual([]);
		expect(validator.schemaErrors(retryAfter.schema, 1.5)).not.toEqual([]);
	});
	// Cases the sandbox never sends; test/contract/ sends the others (undeclared status, HTML,
	// truncated JSON) and a conforming answer for every declared response.
	describe('response check used by the contract test', () => {
		const json = { 'content-type': 'application/json; charset=utf-8' };
		const results = (status: number, headers: Record<string, string>, body: unknown) =>
			validator.checkResponse({
				pathTemplate: RESULTS_PATH,
				method: 'get',
				status,
				headers,
				body: JSON.stringify(body),
			});

		it.each<[string, number, Record<string, string>, unknown]>([
			['a body that breaks the schema', 200, json, { data: [{ projectId: 'P-1' }] }],
			[
				'an error code the status does not declare',
				400,
				json,
				{ code: 'Unauthorised', message: 'x' },
			],
			[
				'a Retry-After that is not whole seconds',
				429,
				{ ...json, 'retry-after': 'soon' },
				{ code: 'RATE_LIMITED', message: 'slow down' },
			],
		])('rejects %s', (_case, status, headers, body) => {
			const check = results(status, headers, body);

			expect(check.declared).toBeUndefined();
			expect(check.errors).not.toEqual([]);
		});
	});
});
