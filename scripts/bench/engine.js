// @ts-check
'use strict';

/**
 * Runs one node through the engine harness (test/support/harness/engine.ts, the one module of
 * test/ that scripts/ uses) under any node type name: n8n-nodes-base's HTTP Request node must run
 * as "n8n-nodes-base.httpRequest". Its credentials helper keeps OAuth2 tokens as n8n does. Load it
 * only after runtime.installRuntime(), which builds the harness beside the real n8n install.
 */

const { ENGINE_HARNESS, fromBuild } = require('./runtime');

/** @type {typeof import('../../test/support/harness/engine')} */
const { TestCredentialsHelper, runNode } = fromBuild(ENGINE_HARNESS.replace(/\.ts$/, ''));

/** @typedef {import('n8n-workflow').INodeParameters} INodeParameters */
/** @typedef {import('n8n-workflow').INodeType} INodeType */
/** @typedef {import('n8n-workflow').IVersionedNodeType} IVersionedNodeType */

/**
 * Runs one node of any type as a manual execution, fed with one empty item.
 * @param {object} options
 * @param {string} options.typeName as a workflow stores it, e.g. "n8n-nodes-base.httpRequest"
 * @param {INodeType | IVersionedNodeType} options.nodeType
 * @param {number} options.typeVersion
 * @param {INodeParameters} options.parameters
 * @param {Record<string, string>} options.credentials credential type -> the one credential of it
 * @param {import('../../test/support/harness/engine').TestCredentialsHelper} options.credentialsHelper
 * @returns {Promise<import('../../test/support/harness/engine').NodeRun>}
 */
function runSingleNode(options) {
	return runNode({
		nodeType: options.nodeType,
		parameters: options.parameters,
		credentialsHelper: options.credentialsHelper,
		name: 'Bench node',
		stored: {
			type: options.typeName,
			typeVersion: options.typeVersion,
			credentials: Object.fromEntries(
				Object.entries(options.credentials).map(([type, id]) => [type, { id, name: type }]),
			),
		},
	});
}

module.exports = { BenchCredentialsHelper: TestCredentialsHelper, runSingleNode };
