// @ts-check
'use strict';

/**
 * Runs one node as a whole workflow with n8n-core's real WorkflowExecute, like
 * test/support/engine.ts's runNode, but for any node type name (n8n-nodes-base's HTTP Request node
 * must run as "n8n-nodes-base.httpRequest": n8n-core grants that name full access to credentials).
 * Load it only after runtime.installRuntime(), so n8n-core is the real n8n install's copy.
 */

const { ExecutionLifecycleHooks, WorkflowExecute } = require('n8n-core');
const { createRunExecutionData, NodeHelpers, UserError, Workflow } = require('n8n-workflow');

const { requireTypeScript } = require('./runtime');

const { TestCredentialsHelper, createAdditionalData } =
	/** @type {typeof import('../../test/support/engine')} */ (
		requireTypeScript('test/support/engine.ts')
	);

/** @typedef {import('n8n-workflow').ICredentialDataDecryptedObject} ICredentialDataDecryptedObject */
/** @typedef {import('n8n-workflow').ICredentialType} ICredentialType */
/** @typedef {import('n8n-workflow').INode} INode */
/** @typedef {import('n8n-workflow').INodeExecutionData} INodeExecutionData */
/** @typedef {import('n8n-workflow').INodeParameters} INodeParameters */
/** @typedef {import('n8n-workflow').INodeType} INodeType */
/** @typedef {import('n8n-workflow').INodeTypes} INodeTypes */
/** @typedef {import('n8n-workflow').IVersionedNodeType} IVersionedNodeType */
/** @typedef {import('n8n-workflow').IRun} IRun */
/** @typedef {import('n8n-workflow').ExecutionError} ExecutionError */
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
 * @param {string} typeName
 * @param {INodeType | IVersionedNodeType} nodeType
 * @returns {INodeTypes}
 */
function singleNodeTypes(typeName, nodeType) {
	/** @param {string} name */
	const get = (name) => {
		if (name !== typeName) throw new UserError(`Unknown node type "${name}"`);
		return nodeType;
	};
	return {
		getByName: (name) => get(name),
		getByNameAndVersion: (name, version) => NodeHelpers.getVersionedNodeType(get(name), version),
		getKnownTypes: () => ({}),
	};
}

/**
 * @typedef {object} SingleNodeRun
 * @property {INodeExecutionData[] | undefined} items the node's first output
 * @property {ExecutionError | undefined} error
 * @property {IRun} run
 */

/**
 * Runs one node, fed with one empty item, as a manual execution.
 * @param {object} options
 * @param {string} options.typeName as a workflow stores it, e.g. "n8n-nodes-base.httpRequest"
 * @param {INodeType | IVersionedNodeType} options.nodeType
 * @param {number} options.typeVersion
 * @param {INodeParameters} options.parameters
 * @param {Record<string, string>} options.credentials credential type -> the one credential of it
 * @param {import('../../test/support/engine').TestCredentialsHelper} options.credentialsHelper
 * @returns {Promise<SingleNodeRun>}
 */
async function runSingleNode(options) {
	/** @type {INode} */
	const node = {
		id: 'bench-node',
		name: 'Bench node',
		type: options.typeName,
		typeVersion: options.typeVersion,
		position: [0, 0],
		parameters: options.parameters,
		credentials: Object.fromEntries(
			Object.entries(options.credentials).map(([type, id]) => [type, { id, name: type }]),
		),
	};
	const workflow = new Workflow({
		id: 'bench-workflow',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: singleNodeTypes(options.typeName, options.nodeType),
		settings: {},
	});
	const hooks = new ExecutionLifecycleHooks('manual', 'bench-execution', {
		id: 'bench-workflow',
		name: 'Bench workflow',
		active: false,
		activeVersionId: null,
		isArchived: false,
		nodes: [node],
		connections: {},
		createdAt: new Date(),
		updatedAt: new Date(),
	});
	/** @type {(run: IRun) => void} */
	let finish = () => undefined;
	/** @type {Promise<IRun>} */
	const finished = new Promise((resolve) => {
		finish = resolve;
	});
	hooks.addHandler('workflowExecuteAfter', (run) => finish(run));
	const execution = new WorkflowExecute(
		createAdditionalData(options.credentialsHelper, hooks),
		'manual',
		createRunExecutionData({
			executionData: {
				nodeExecutionStack: [{ node, data: { main: [[{ json: {} }]] }, source: null }],
			},
		}),
	);
	await execution.processRunExecutionData(workflow);
	const run = await finished;
	const taskData = run.data.resultData.runData[node.name]?.[0];
	return {
		items: taskData?.data?.main?.[0] ?? undefined,
		error: taskData?.error ?? run.data.resultData.error,
		run,
	};
}

module.exports = { BenchCredentialsHelper, runSingleNode };
