// @ts-check
'use strict';

const { spawn } = require('node:child_process');
const { readFileSync } = require('node:fs');
const path = require('node:path');
const { default: Ajv2020 } = require('ajv/dist/2020');
const { default: addFormats } = require('ajv-formats');
const { API_TYPES_PATH, REGENERATE_COMMAND } = require('../../scripts/generate-api-types');

const REPO_ROOT = path.join(__dirname, '..', '..');
const SCHEMAS_ID = 'urn:supplier-matched-projects:openapi:schemas';
/** The generated types file, relative to the repository root, for messages. */
const API_TYPES_FILE = path.relative(REPO_ROOT, API_TYPES_PATH);
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * @typedef {Record<string, unknown>} JsonObject
 * @typedef {{ valid: boolean, version: string, errors: unknown }} DocumentValidation
 * @typedef {{ pathTemplate: string, method: string, status: string, variant?: string }} DeclaredResponse
 * @typedef {{
 *   pathTemplate: string,
 *   method: string,
 *   status: number,
 *   headers: Record<string, string | string[] | undefined>,
 *   body: string,
 * }} ObservedResponse
 * @typedef {{ declared: DeclaredResponse | undefined, errors: string[] }} ResponseCheck
 */

/**
 * Runs a Node script in a child process: the OpenAPI validator and Prettier are ES modules,
 * which jest's CommonJS runtime cannot load.
 * @param {string[]} args
 * @param {string} [input]
 * @returns {Promise<string>}
 */
function runNode(args, input) {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, args, { cwd: REPO_ROOT, stdio: 'pipe' });
		/** @type {Buffer[]} */
		const stdout = [];
		/** @type {Buffer[]} */
		const stderr = [];
		child.stdout.on('data', (chunk) => stdout.push(chunk));
		child.stderr.on('data', (chunk) => stderr.push(chunk));
		child.on('error', reject);
		child.on('close', (code) => {
			if (code === 0) {
				resolve(Buffer.concat(stdout).toString('utf8'));
			} else {
				const detail = Buffer.concat(stderr).toString('utf8').trim();
				reject(new Error(`node ${args.join(' ')} exited with ${code}: ${detail}`));
			}
		});
		child.stdin.end(input ?? '');
	});
}

const VALIDATOR_SCRIPT = `
import { Validator } from '@seriousme/openapi-schema-validator';
let input = '';
for await (const chunk of process.stdin) input += chunk;
const validator = new Validator();
const result = await validator.validate(JSON.parse(input));
process.stdout.write(JSON.stringify({ valid: result.valid, version: validator.version, errors: result.errors ?? null }));
`;

/**
 * Validates a document with @seriousme/openapi-schema-validator (the OpenAPI JSON schemas of
 * the version the document declares, plus a check that every local $ref resolves).
 * @param {unknown} document
 * @returns {Promise<DocumentValidation>}
 */
async function validateOpenApiDocument(document) {
	const output = await runNode(
		['--input-type=module', '--eval', VALIDATOR_SCRIPT],
		JSON.stringify(document),
	);
	return /** @type {DocumentValidation} */ (JSON.parse(output));
}

/** @returns {string} */
function readCommittedApiTypes() {
	return readFileSync(API_TYPES_PATH, 'utf8');
}

/**
 * The types as `npm run generate:api-types` would write them now, generated in memory.
 * @returns {Promise<string>}
 */
function regenerateApiTypes() {
	return runNode([path.join('scripts', 'generate-api-types.js'), '--stdout']);
}

/**
 * @param {unknown} value
 * @returns {value is JsonObject}
 */
function isObject(value) {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * @param {JsonObject} document
 * @param {string} pointer a local reference such as `#/components/responses/DownstreamFailure`
 * @returns {unknown}
 */
function resolvePointer(document, pointer) {
	if (!pointer.startsWith('#/')) {
		throw new Error(`only local references are supported, got ${pointer}`);
	}
	/** @type {unknown} */
	let node = document;
	for (const raw of pointer.slice(2).split('/')) {
		const segment = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
		if (!isObject(node) || !(segment in node)) {
			throw new Error(`${pointer} does not resolve in the OpenAPI description`);
		}
		node = node[segment];
	}
	return node;
}

/**
 * Follows Reference Objects (`{ $ref }`) outside schemas, such as a response that refers to
 * components/responses.
 * @param {JsonObject} document
 * @param {unknown} node
 * @returns {JsonObject}
 */
function dereference(document, node) {
	/** @type {unknown} */
	let current = node;
	const seen = new Set();
	while (isObject(current) && typeof current.$ref === 'string') {
		if (seen.has(current.$ref)) {
			throw new Error(`reference cycle at ${current.$ref}`);
		}
		seen.add(current.$ref);
		current = resolvePointer(document, current.$ref);
	}
	if (!isObject(current)) {
		throw new Error('expected an object in the OpenAPI description');
	}
	return current;
}

const COMPONENT_SCHEMA_REF = '#/components/schemas/';

/**
 * Schemas refer to each other as `#/components/schemas/Name`; ajv sees the component schemas as
 * `$defs` of one registered schema, so point those references there.
 * @param {unknown} schema
 * @returns {unknown}
 */
function rebaseRefs(schema) {
	if (Array.isArray(schema)) {
		return schema.map(rebaseRefs);
	}
	if (!isObject(schema)) {
		return schema;
	}
	/** @type {JsonObject} */
	const copy = {};
	for (const [key, value] of Object.entries(schema)) {
		if (key === '$ref' && typeof value === 'string') {
			if (!value.startsWith(COMPONENT_SCHEMA_REF)) {
				throw new Error(`schema $ref ${value} does not point at #/components/schemas/`);
			}
			copy[key] = `${SCHEMAS_ID}#/$defs/${value.slice(COMPONENT_SCHEMA_REF.length)}`;
		} else {
			copy[key] = rebaseRefs(value);
		}
	}
	return copy;
}

/**
 * An error body's discriminating field: `code` for ErrorBody, `error` for OAuthErrorBody.
 * @param {unknown} value
 * @returns {string | undefined}
 */
function errorCodeOf(value) {
	if (!isObject(value)) {
		return undefined;
	}
	if (typeof value.code === 'string') {
		return value.code;
	}
	if (typeof value.error === 'string') {
		return value.error;
	}
	return undefined;
}

/**
 * Error codes a media type declares through its named examples (one example per code), or
 * undefined when its examples are not error bodies.
 * @param {JsonObject} mediaType
 * @returns {string[] | undefined}
 */
function declaredErrorCodes(mediaType) {
	if (!isObject(mediaType.examples)) {
		return undefined;
	}
	const codes = Object.values(mediaType.examples).map((example) =>
		isObject(example) ? errorCodeOf(example.value) : undefined,
	);
	return codes.every((code) => code !== undefined) ? /** @type {string[]} */ (codes) : undefined;
}

/**
 * Header values arrive as text; schema types say how to read them.
 * @param {string} value
 * @param {JsonObject} schema
 * @returns {unknown}
 */
function coerceHeader(value, schema) {
	if ((schema.type === 'integer' || schema.type === 'number') && /^-?\d+(\.\d+)?$/.test(value)) {
		return Number(value);
	}
	return value;
}

/**
 * JSON Schema 2020-12 validation (ajv + ajv-formats) of values against the schemas of one OpenAPI
 * 3.1 description, with $refs resolved against that description.
 * @param {JsonObject} document
 */
function createOpenApiValidator(document) {
	const ajv = new Ajv2020({ allErrors: true, strict: true });
	addFormats(ajv);
	// Keywords and formats of the OpenAPI 3.1 base dialect that JSON Schema itself lacks.
	for (const keyword of ['discriminator', 'xml', 'externalDocs', 'example']) {
		ajv.addKeyword({ keyword });
	}
	ajv.addFormat('password', true);
	const components = isObject(document.components) ? document.components : {};
	ajv.addSchema({ $id: SCHEMAS_ID, $defs: rebaseRefs(components.schemas ?? {}) });

	/** @type {Map<unknown, import('ajv').ValidateFunction>} */
	const compiled = new Map();

	/**
	 * @param {unknown} schema a schema object taken from the document
	 * @param {unknown} value
	 * @returns {string[]} what is wrong with value; empty when it conforms
	 */
	function schemaErrors(schema, value) {
		let validate = compiled.get(schema);
		if (validate === undefined) {
			validate = ajv.compile(/** @type {import('ajv').AnySchema} */ (rebaseRefs(schema)));
			compiled.set(schema, validate);
		}
		if (validate(value)) {
			return [];
		}
		return (validate.errors ?? []).map(
			(error) => `${error.instancePath || '(root)'} ${error.message ?? 'is invalid'}`,
		);
	}

	/**
	 * @param {string} name
	 * @returns {JsonObject}
	 */
	function componentSchema(name) {
		return dereference(document, { $ref: `#/components/schemas/${name}` });
	}

	/** @returns {DeclaredResponse[]} every (operation, status, error code) the document declares */
	function declaredResponses() {
		/** @type {DeclaredResponse[]} */
		const declared = [];
		for (const [pathTemplate, pathItem] of Object.entries(dereference(document, document.paths))) {
			for (const method of HTTP_METHODS) {
				const operation = isObject(pathItem) ? pathItem[method] : undefined;
				if (!isObject(operation)) {
					continue;
				}
				for (const [status, responseNode] of Object.entries(
					dereference(document, operation.responses),
				)) {
					const response = dereference(document, responseNode);
					const variants = new Set();
					if (isObject(response.content)) {
						for (const mediaType of Object.values(response.content)) {
							for (const code of isObject(mediaType) ? (declaredErrorCodes(mediaType) ?? []) : []) {
								variants.add(code);
							}
						}
					}
					if (variants.size === 0) {
						declared.push({ pathTemplate, method, status });
					}
					for (const variant of variants) {
						declared.push({ pathTemplate, method, status, variant });
					}
				}
			}
		}
		return declared;
	}

	/**
	 * Checks an HTTP response against what the document declares for its operation: status,
	 * declared headers, content type, body schema and, for error bodies, the declared codes.
	 * @param {ObservedResponse} observed
	 * @returns {ResponseCheck}
	 */
	function checkResponse(observed) {
		const { pathTemplate, method, status } = observed;
		const where = `${method.toUpperCase()} ${pathTemplate} -> ${status}`;
		const pathItem = dereference(document, document.paths)[pathTemplate];
		const operation = isObject(pathItem) ? pathItem[method] : undefined;
		if (!isObject(operation)) {
			return {
				declared: undefined,
				errors: [`${method.toUpperCase()} ${pathTemplate} is not in the document`],
			};
		}
		const responses = dereference(document, operation.responses);
		const statusKey = String(status);
		if (!(statusKey in responses)) {
			return {
				declared: undefined,
				errors: [`${where}: status not declared (declared: ${Object.keys(responses).join(', ')})`],
			};
		}
		const response = dereference(document, responses[statusKey]);
		/** @type {string[]} */
		const errors = [];

		const headers = isObject(response.headers) ? response.headers : {};
		for (const [name, headerNode] of Object.entries(headers)) {
			const header = dereference(document, headerNode);
			const raw = observed.headers[name.toLowerCase()];
			const value = Array.isArray(raw) ? raw.join(', ') : raw;
			if (value === undefined) {
				if (header.required === true) {
					errors.push(`${where}: required header ${name} missing`);
				}
				continue;
			}
			const schema = isObject(header.schema) ? header.schema : {};
			for (const problem of schemaErrors(schema, coerceHeader(value, schema))) {
				errors.push(`${where}: header ${name}=${JSON.stringify(value)}: ${problem}`);
			}
		}

		/** @type {string | undefined} */
		let variant;
		const content = isObject(response.content) ? response.content : undefined;
		if (content === undefined) {
			if (observed.body.length > 0) {
				errors.push(`${where}: body sent where none is declared`);
			}
		} else {
			const rawContentType = observed.headers['content-type'];
			const contentType = String(
				Array.isArray(rawContentType) ? rawContentType[0] : (rawContentType ?? ''),
			)
				.split(';')[0]
				.trim()
				.toLowerCase();
			const mediaType = content[contentType];
			if (!isObject(mediaType)) {
				errors.push(
					`${where}: content type ${JSON.stringify(contentType)} not declared (declared: ${Object.keys(content).join(', ')})`,
				);
			} else {
				/** @type {unknown} */
				let body;
				try {
					body = JSON.parse(observed.body);
				} catch {
					errors.push(`${where}: body is not JSON: ${JSON.stringify(observed.body.slice(0, 80))}`);
					return { declared: undefined, errors };
				}
				for (const problem of schemaErrors(mediaType.schema, body)) {
					errors.push(`${where}: body ${problem}`);
				}
				const codes = declaredErrorCodes(mediaType);
				if (codes !== undefined) {
					variant = errorCodeOf(body);
					if (variant === undefined || !codes.includes(variant)) {
						errors.push(
							`${where}: error code ${JSON.stringify(variant)} not among ${codes.join(', ')}`,
						);
					}
				}
			}
		}
		return {
			declared:
				errors.length === 0 ? { pathTemplate, method, status: statusKey, variant } : undefined,
			errors,
		};
	}

	return { schemaErrors, componentSchema, declaredResponses, checkResponse };
}

module.exports = {
	API_TYPES_FILE,
	REGENERATE_COMMAND,
	createOpenApiValidator,
	readCommittedApiTypes,
	regenerateApiTypes,
	validateOpenApiDocument,
};
