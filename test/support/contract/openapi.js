// @ts-check
'use strict';

const { execFile } = require('node:child_process');
const { readFileSync } = require('node:fs');
const path = require('node:path');
const { promisify } = require('node:util');
const { default: Ajv2020 } = require('ajv/dist/2020');
const { default: addFormats } = require('ajv-formats');
const { API_TYPES_PATH, REGENERATE_COMMAND } = require('../../../scripts/generate-api-types');

const REPO_ROOT = path.join(__dirname, '..', '..', '..');
const SCHEMAS_ID = 'urn:supplier-matched-projects:openapi:schemas';
/** The generated types file, relative to the repository root, for messages. */
const API_TYPES_FILE = path.relative(REPO_ROOT, API_TYPES_PATH);
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * @typedef {Record<string, unknown>} JsonObject
 * @typedef {{ valid: boolean, version: string, errors: unknown }} DocumentValidation
 * @typedef {{ pathTemplate: string, method: string, status: string, variant?: string }} DeclaredResponse
 * @typedef {{ pathTemplate: string, method: string, status: number }} ObservedCall
 * @typedef {ObservedCall & { headers: Record<string, string>, body: string }} ObservedResponse
 * @typedef {{ declared: DeclaredResponse | undefined, errors: string[] }} ResponseCheck
 */

/**
 * Runs a Node script in a child process: the OpenAPI validator and Prettier are ES modules,
 * which jest's CommonJS runtime cannot load.
 * @param {string[]} args
 * @param {string} [input]
 * @returns {Promise<string>} its stdout; a failure's message holds its stderr
 */
function runNode(args, input) {
	const running = promisify(execFile)(process.execPath, args, { cwd: REPO_ROOT });
	running.child.stdin?.end(input ?? '');
	return running.then(({ stdout }) => stdout);
}

const VALIDATOR_SCRIPT = `
import { Validator } from '@seriousme/openapi-schema-validator';
let input = '';
for await (const chunk of process.stdin) input += chunk;
const results = [];
for (const document of JSON.parse(input)) {
	const validator = new Validator();
	const result = await validator.validate(document);
	results.push({ valid: result.valid, version: validator.version, errors: result.errors ?? null });
}
process.stdout.write(JSON.stringify(results));
`;

/**
 * Validates documents with @seriousme/openapi-schema-validator (the OpenAPI JSON schemas of the
 * version each declares, plus a check that every local $ref resolves), each with a validator of
 * its own, in one child process: starting one takes longer than a validation.
 * @param {unknown[]} documents
 * @returns {Promise<DocumentValidation[]>} in the same order
 */
async function validateOpenApiDocuments(documents) {
	const output = await runNode(
		['--input-type=module', '--eval', VALIDATOR_SCRIPT],
		JSON.stringify(documents),
	);
	return /** @type {DocumentValidation[]} */ (JSON.parse(output));
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

/** @param {unknown} value @returns {value is JsonObject} */
function isObject(value) {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Follows Reference Objects (`{ $ref: '#/…' }`) outside schemas, such as a response that refers to
 * components/responses.
 * @param {JsonObject} document @param {unknown} node @returns {JsonObject}
 */
function dereference(document, node) {
	/** @type {unknown} */
	let current = node;
	while (isObject(current) && typeof current.$ref === 'string') {
		/** @type {unknown} */
		let target = document;
		for (const key of current.$ref.slice(2).split('/'))
			target = isObject(target) ? target[key.replace(/~1/g, '/')] : undefined;
		current = target;
	}
	if (!isObject(current)) throw new Error('expected an object in the OpenAPI description');
	return current;
}

/**
 * Schemas refer to each other as `#/components/schemas/Name`; ajv sees the component schemas as
 * `$defs` of one registered schema, so point those references there.
 * @param {unknown} schema
 * @returns {unknown}
 */
const rebaseRefs = (schema) =>
	JSON.parse(
		JSON.stringify(schema).replaceAll(
			'"$ref":"#/components/schemas/',
			`"$ref":"${SCHEMAS_ID}#/$defs/`,
		),
	);

/**
 * An error body's discriminating field: `code` for ErrorBody, `error` for OAuthErrorBody.
 * @param {unknown} value @returns {string | undefined}
 */
function errorCodeOf(value) {
	const code = isObject(value) ? (value.code ?? value.error) : undefined;
	return typeof code === 'string' ? code : undefined;
}

/**
 * Error codes a media type declares through its named examples (one example per code), or
 * undefined when its examples are not error bodies.
 * @param {JsonObject} mediaType
 * @returns {string[] | undefined}
 */
function declaredErrorCodes(mediaType) {
	if (!isObject(mediaType.examples)) return undefined;
	const codes = Object.values(mediaType.examples).map((example) =>
		isObject(example) ? errorCodeOf(example.value) : undefined,
	);
	return codes.every((code) => code !== undefined) ? /** @type {string[]} */ (codes) : undefined;
}

/**
 * Header values arrive as text; schema types say how to read them.
 * @param {string} value @param {JsonObject} schema @returns {unknown}
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
 */
class OpenApiValidator {
	/** @param {JsonObject} document */
	constructor(document) {
		this.document = document;
		this.ajv = new Ajv2020({ allErrors: true, strict: true });
		addFormats(this.ajv);
		// Keywords and formats of the OpenAPI 3.1 base dialect that JSON Schema itself lacks.
		for (const keyword of ['discriminator', 'xml', 'externalDocs', 'example']) {
			this.ajv.addKeyword({ keyword });
		}
		this.ajv.addFormat('password', true);
		const components = isObject(document.components) ? document.components : {};
		this.ajv.addSchema({ $id: SCHEMAS_ID, $defs: rebaseRefs(components.schemas ?? {}) });
		/** @type {Map<unknown, import('ajv').ValidateFunction>} */
		this.compiled = new Map();
	}

	/**
	 * @param {unknown} schema a schema object taken from the document
	 * @param {unknown} value
	 * @returns {string[]} what is wrong with value; empty when it conforms
	 */
	schemaErrors(schema, value) {
		let validate = this.compiled.get(schema);
		if (validate === undefined) {
			validate = this.ajv.compile(/** @type {import('ajv').AnySchema} */ (rebaseRefs(schema)));
			this.compiled.set(schema, validate);
		}
		if (validate(value)) return [];
		return (validate.errors ?? []).map(
			(error) => `${error.instancePath || '(root)'} ${error.message ?? 'is invalid'}`,
		);
	}

	/** @param {string} name @returns {JsonObject} */
	componentSchema(name) {
		return dereference(this.document, { $ref: `#/components/schemas/${name}` });
	}

	/** @returns {DeclaredResponse[]} every (operation, status, error code) the document declares */
	declaredResponses() {
		const document = this.document;
		/** @type {DeclaredResponse[]} */
		const declared = [];
		for (const [pathTemplate, pathItem] of Object.entries(dereference(document, document.paths))) {
			for (const method of HTTP_METHODS) {
				const operation = isObject(pathItem) ? pathItem[method] : undefined;
				if (!isObject(operation)) continue;
				for (const [status, node] of Object.entries(dereference(document, operation.responses))) {
					const { content } = dereference(document, node);
					// The error codes its media types declare through their examples, each once.
					const variants = new Set(
						Object.values(isObject(content) ? content : {}).flatMap(
							(mediaType) => (isObject(mediaType) && declaredErrorCodes(mediaType)) || [],
						),
					);
					if (variants.size === 0) declared.push({ pathTemplate, method, status });
					for (const variant of variants) declared.push({ pathTemplate, method, status, variant });
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
	checkResponse(observed) {
		const { pathTemplate, method, status } = observed;
		const found = this.declaredResponse(observed);
		if (typeof found === 'string') return { declared: undefined, errors: [found] };
		const where = `${method.toUpperCase()} ${pathTemplate} -> ${status}`;
		const errors = this.headerErrors(found, observed.headers).map((error) => `${where}: ${error}`);
		const body = this.bodyCheck(found, observed);
		errors.push(...body.errors.map((error) => `${where}: ${error}`));
		return {
			declared:
				errors.length === 0
					? { pathTemplate, method, status: String(status), variant: body.variant }
					: undefined,
			errors,
		};
	}

	/**
	 * @param {ObservedCall} observed
	 * @returns {JsonObject | string} the Response Object declared for its status, or why there is none
	 */
	declaredResponse({ pathTemplate, method, status }) {
		const pathItem = dereference(this.document, this.document.paths)[pathTemplate];
		const operation = isObject(pathItem) ? pathItem[method] : undefined;
		if (!isObject(operation))
			return `${method.toUpperCase()} ${pathTemplate} is not in the document`;
		const responses = dereference(this.document, operation.responses);
		if (!(String(status) in responses)) {
			const declared = Object.keys(responses).join(', ');
			return `${method.toUpperCase()} ${pathTemplate} -> ${status}: status not declared (declared: ${declared})`;
		}
		return dereference(this.document, responses[String(status)]);
	}

	/** @param {JsonObject} response @param {ObservedResponse['headers']} observed */
	headerErrors(response, observed) {
		/** @type {string[]} */
		const errors = [];
		const headers = isObject(response.headers) ? response.headers : {};
		for (const [name, headerNode] of Object.entries(headers)) {
			const header = dereference(this.document, headerNode);
			const value = observed[name.toLowerCase()];
			if (value === undefined) {
				if (header.required === true) errors.push(`required header ${name} missing`);
				continue;
			}
			const schema = isObject(header.schema) ? header.schema : {};
			for (const problem of this.schemaErrors(schema, coerceHeader(value, schema))) {
				errors.push(`header ${name}=${JSON.stringify(value)}: ${problem}`);
			}
		}
		return errors;
	}

	/**
	 * Content type, body schema and, for error bodies, the declared error codes.
	 * @param {JsonObject} response @param {ObservedResponse} observed
	 * @returns {{ errors: string[], variant?: string }}
	 */
	bodyCheck(response, observed) {
		if (!isObject(response.content)) {
			return { errors: observed.body.length > 0 ? ['body sent where none is declared'] : [] };
		}
		const contentType = (observed.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
		const mediaType = response.content[contentType];
		if (!isObject(mediaType)) {
			const declared = Object.keys(response.content).join(', ');
			return {
				errors: [
					`content type ${JSON.stringify(contentType)} not declared (declared: ${declared})`,
				],
			};
		}
		/** @type {unknown} */
		let body;
		try {
			body = JSON.parse(observed.body);
		} catch {
			return { errors: [`body is not JSON: ${JSON.stringify(observed.body.slice(0, 80))}`] };
		}
		const errors = this.schemaErrors(mediaType.schema, body).map((problem) => `body ${problem}`);
		const codes = declaredErrorCodes(mediaType);
		if (codes === undefined) return { errors };
		const variant = errorCodeOf(body);
		if (variant === undefined || !codes.includes(variant)) {
			errors.push(`error code ${JSON.stringify(variant)} not among ${codes.join(', ')}`);
		}
		return { errors, variant };
	}
}

/** @param {JsonObject} document */
const createOpenApiValidator = (document) => new OpenApiValidator(document);

module.exports = {
	API_TYPES_FILE,
	REGENERATE_COMMAND,
	createOpenApiValidator,
	readCommittedApiTypes,
	regenerateApiTypes,
	validateOpenApiDocuments,
};
