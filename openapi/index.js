// @ts-check
'use strict';

const { readFileSync } = require('node:fs');
const path = require('node:path');
const { parse } = require('yaml');

const OPENAPI_PATH = path.join(__dirname, 'openapi.yaml');

/** @type {Record<string, unknown> | undefined} */
let cachedDocument;

/**
 * The parsed OpenAPI 3.1 description. Parsed once per process; callers get a deep copy so one
 * caller rewriting `servers` (the sandbox does) cannot change what the next caller sees.
 * @returns {Record<string, unknown>}
 */
function loadOpenApiDocument() {
	if (cachedDocument === undefined) {
		/** @type {unknown} */
		const parsed = parse(readFileSync(OPENAPI_PATH, 'utf8'));
		if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
			throw new Error(
				`${OPENAPI_PATH} does not hold an OpenAPI document (expected a YAML mapping)`,
			);
		}
		cachedDocument = /** @type {Record<string, unknown>} */ (parsed);
	}
	return structuredClone(cachedDocument);
}

module.exports = { loadOpenApiDocument, OPENAPI_PATH };
