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
	// test/tooling/openapi validates the file as an OpenAPI 3.1 document.
	cachedDocument ??= /** @type {Record<string, unknown>} */ (
		parse(readFileSync(OPENAPI_PATH, 'utf8'))
	);
	return structuredClone(cachedDocument);
}

module.exports = { loadOpenApiDocument };
