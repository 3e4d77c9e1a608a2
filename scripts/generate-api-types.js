// @ts-check
'use strict';

const { writeFileSync } = require('node:fs');
const path = require('node:path');
const { loadOpenApiDocument } = require('../openapi');

const REPO_ROOT = path.join(__dirname, '..');
const API_TYPES_PATH = path.join(REPO_ROOT, 'nodes/SupplierMatchedProjects/api/types.generated.ts');
const REGENERATE_COMMAND = 'npm run generate:api-types';

const HEADER = `/**
 * Generated from openapi/openapi.yaml by \`${REGENERATE_COMMAND}\` (openapi-typescript).
 * Do not edit by hand: change openapi/openapi.yaml and regenerate.
 */

`;

/**
 * The TypeScript types of the OpenAPI description, formatted with the repository's Prettier
 * settings so that formatting the tree never makes the committed file look stale.
 * @returns {Promise<string>}
 */
async function generateApiTypes() {
	// Required here rather than at the top so tests can import this module's constants without
	// loading Prettier, whose CommonJS entry starts an ES module import jest cannot serve.
	const { default: openapiTS, astToString } = require('openapi-typescript');
	const prettier = require('prettier');
	// openapi-typescript validates the document itself (through Redocly) before transforming it.
	const document = /** @type {import('openapi-typescript').OpenAPI3} */ (
		/** @type {unknown} */ (loadOpenApiDocument())
	);
	const nodes = await openapiTS(document, {
		// `unknown` rather than `Record<string, never>` for free-form objects, which would reject
		// every property the API adds within a version.
		emptyObjectsUnknown: true,
		silent: true,
	});
	const prettierConfig = await prettier.resolveConfig(API_TYPES_PATH);
	return await prettier.format(HEADER + astToString(nodes), {
		...prettierConfig,
		filepath: API_TYPES_PATH,
	});
}

/** @param {string[]} args */
async function main(args) {
	const types = await generateApiTypes();
	if (args.includes('--stdout')) {
		process.stdout.write(types);
		return;
	}
	writeFileSync(API_TYPES_PATH, types);
	process.stdout.write(`wrote ${path.relative(REPO_ROOT, API_TYPES_PATH)}\n`);
}

if (require.main === module) {
	main(process.argv.slice(2)).catch((error) => {
		process.stderr.write(
			`generate-api-types: ${error instanceof Error ? error.message : String(error)}\n`,
		);
		process.exitCode = 1;
	});
}

module.exports = { API_TYPES_PATH, REGENERATE_COMMAND };
