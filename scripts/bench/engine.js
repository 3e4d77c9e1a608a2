// @ts-check
'use strict';

/**
 * Runs one node through the engine harness (test/support/engine.ts) under any node type name
 * (n8n-nodes-base's HTTP Request node must run as "n8n-nodes-base.httpRequest"), with a credentials
 * helper that keeps OAuth2 tokens as n8n does. Load it only after runtime.installRuntime(), so
 * n8n-core is the real n8n install's copy.
 */

const { UserError } = require('n8n-workflow');

const { TestCredentialsHelper, runNode } = require('../../test/support/engine.ts');

/** @typedef {import('n8n-workflow').ICredentialDataDecryptedObject} ICredentialDataDecryptedObject */
/** @typedef {import('n8n-workflow').ICredentialType} ICredentialType */
/** @typedef {import('n8n-workflow').INodeParameters} INodeParameters */
/** @typedef {import('n8n-workflow').INodeType} INodeType */
/** @typedef {import('n8n-workflow').IVersionedNodeType} IVersionedNodeType */
/** @typedef {import('n8n-workflow').INodeCredentialsDetails} INodeCredentialsDetails */
/** @typedef {import('n8n-workflow').IWorkflowExecuteAdditionalData} IWorkflowExecuteAdditionalData */

/**
 * The engine harness's credentials helper, plus what packages/cli's CredentialsHelper does for
 * OAuth2: decrypted data keeps `oauthTokenData` (it is not a declared property, so applying the
 * defaults would drop it), and updateCredentialsOauthTokenData saves the token into the stored
 * credential, so the next execution reads it back as real n8n does from its database.
 */
class BenchCredentialsHelper extends TestCredentialsHelper {
	/** @param {ICredentialType[]} credentialTypes */
	constructor(credentialTypes) {
		super(credentialTypes);
		/** @type {Map<string, ICredentialDataDecryptedObject>} */
		this.benchStored = new Map();
		/** How often n8n saved an OAuth token into the credential. */
		this.oauthTokenSaves = 0;
	}

	/**
	 * @param {string} type
	 * @param {ICredentialDataDecryptedObject} data
	 */
	setCredentials(type, data) {
		super.setCredentials(type, data);
		this.benchStored.set(type, { ...data });
	}

	/**
	 * @param {IWorkflowExecuteAdditionalData} additionalData
	 * @param {INodeCredentialsDetails} nodeCredentials
	 * @param {string} type
	 * @returns {Promise<ICredentialDataDecryptedObject>}
	 */
	async getDecrypted(additionalData, nodeCredentials, type) {
		const decrypted = await super.getDecrypted(additionalData, nodeCredentials, type);
		const tokenData = this.benchStored.get(type)?.oauthTokenData;
		if (tokenData !== undefined) decrypted.oauthTokenData = structuredClone(tokenData);
		return decrypted;
	}

	/**
	 * @param {INodeCredentialsDetails} nodeCredentials
	 * @param {string} type
	 * @param {ICredentialDataDecryptedObject} data
	 * @returns {Promise<void>}
	 */
	async updateCredentialsOauthTokenData(nodeCredentials, type, data) {
		await super.updateCredentialsOauthTokenData(nodeCredentials, type, data);
		const stored = this.benchStored.get(type);
		if (stored === undefined) throw new UserError(`No credential of type "${type}" was set`);
		this.oauthTokenSaves++;
		this.setCredentials(type, { ...stored, oauthTokenData: structuredClone(data.oauthTokenData) });
	}
}

/**
 * Runs one node of any type as a manual execution, fed with one empty item.
 * @param {object} options
 * @param {string} options.typeName as a workflow stores it, e.g. "n8n-nodes-base.httpRequest"
 * @param {INodeType | IVersionedNodeType} options.nodeType
 * @param {number} options.typeVersion
 * @param {INodeParameters} options.parameters
 * @param {Record<string, string>} options.credentials credential type -> the one credential of it
 * @param {import('../../test/support/engine').TestCredentialsHelper} options.credentialsHelper
 * @returns {Promise<import('../../test/support/engine').NodeRun>}
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

module.exports = { BenchCredentialsHelper, runSingleNode };
