/**
 * Runs nodes with n8n-core's real engine in-process: WorkflowExecute, the real execution contexts
 * and request helpers (so httpRequestWithAuthentication, proxy and allowed-domain handling are
 * n8n's own), with a credentials helper that behaves like packages/cli's CredentialsHelper.
 * The one module of test/ that scripts/ may use (the bench runs its clients through it), so it
 * imports nothing but n8n-core and n8n-workflow.
 */
import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import type {
	ExecutionError,
	IConnections,
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialType,
	IDataObject,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeExecutionData,
	INodeParameters,
	INodeProperties,
	INodeType,
	INodeTypes,
	IRun,
	IRunExecutionData,
	IVersionedNodeType,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import {
	createRunExecutionData,
	getCredentialOwnRequestAllowedDomains,
	ICredentialsHelper,
	injectDomainRestrictionFields,
	NodeHelpers,
	UserError,
	Workflow,
} from 'n8n-workflow';

/** Every time n8n would have written a credential to its database. */
export interface CredentialWrite {
	type: string;
	data: ICredentialDataDecryptedObject;
}

/**
 * Mirrors packages/cli/src/credentials-helper.ts where it matters here: defaults are applied on
 * every decryption (so the expirable property is ''), each decryption returns a fresh object,
 * preAuthentication runs only while the expirable property is empty, expired or under test, its
 * HTTP helper is restricted to the credential's allowed domains, and output that contains the
 * expirable property is merged and written to the database (recorded in `writes`), as is an OAuth2
 * token, which later decryptions return.
 */
export class TestCredentialsHelper extends ICredentialsHelper {
	readonly writes: CredentialWrite[] = [];

	preAuthenticationRuns = 0;

	private readonly types = new Map<string, ICredentialType>();

	private readonly stored = new Map<string, ICredentialDataDecryptedObject>();

	constructor(credentialTypes: ICredentialType[]) {
		super();
		for (const type of credentialTypes) this.types.set(type.name, type);
	}

	/** Sets what "the database" holds for a credential type (one credential per type). */
	setCredentials(type: string, data: ICredentialDataDecryptedObject): void {
		this.stored.set(type, { ...data });
	}

	getCredentialType(name: string): ICredentialType {
		const type = this.types.get(name);
		if (type === undefined) throw new UserError(`Unknown credential type "${name}"`);
		return type;
	}

	getParentTypes(name: string): string[] {
		return this.getCredentialType(name).extends ?? [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		return injectDomainRestrictionFields(this.getCredentialType(type));
	}

	/** Like the cli's applyDefaultsAndOverwrites: a new object with the properties' defaults. */
	withDefaults(type: string, data: ICredentialDataDecryptedObject): ICredentialDataDecryptedObject {
		return NodeHelpers.getNodeParameters(
			this.getCredentialsProperties(type),
			{ ...data } as INodeParameters,
			true,
			false,
			null,
			null,
		) as ICredentialDataDecryptedObject;
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const data = this.stored.get(type);
		if (data === undefined) throw new UserError(`No credential of type "${type}" was set`);
		// OAuth2's token is no declared property, so the defaults drop it; the cli keeps it.
		const { oauthTokenData } = data;
		const decrypted = this.withDefaults(type, data);
		if (oauthTokenData !== undefined) decrypted.oauthTokenData = structuredClone(oauthTokenData);
		return decrypted;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = this.getCredentialType(typeName);
		if (typeof authenticate === 'function') return await authenticate(credentials, requestOptions);
		return requestOptions;
	}

	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const type = this.getCredentialType(typeName);
		const expirable = type.properties.find(
			(property) => property.type === 'hidden' && property.typeOptions?.expirable === true,
		);
		if (expirable === undefined || typeof type.preAuthentication !== 'function') return undefined;
		const isTestingCredentials =
			node?.parameters?.temp === '' && node?.type === 'n8n-nodes-base.noOp';
		if (credentials[expirable.name] !== '' && !credentialsExpired && !isTestingCredentials) {
			return undefined;
		}
		this.preAuthenticationRuns++;
		const restricted: IHttpRequestHelper = {
			helpers: {
				httpRequest: async (requestOptions: IHttpRequestOptions) => {
					const allowedDomains = getCredentialOwnRequestAllowedDomains(credentials);
					if (allowedDomains === undefined)
						return await helpers.helpers.httpRequest(requestOptions);
					if (requestOptions.allowedDomains !== undefined) {
						throw new UserError(
							'This credential restricts requests to specific domains, which cannot be combined with the domains its authentication step asks for.',
						);
					}
					return await helpers.helpers.httpRequest({ ...requestOptions, allowedDomains });
				},
			},
		};
		const output = await type.preAuthentication.call(restricted, credentials);
		if (output[expirable.name] === undefined) return undefined;
		if (node.credentials) {
			this.writes.push({
				type: typeName,
				data: { ...credentials, ...output } as ICredentialDataDecryptedObject,
			});
			return Object.assign(credentials, output);
		}
		return undefined;
	}

	async runPreAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const { preAuthentication } = this.getCredentialType(typeName);
		if (typeof preAuthentication !== 'function') return undefined;
		return (await preAuthentication.call(helpers, credentials)) as ICredentialDataDecryptedObject;
	}

	async getCredentials(): Promise<ICredentials> {
		throw new UserError('The test credentials helper keeps no encrypted credentials');
	}

	async updateCredentials(
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.writes.push({ type, data: { ...data } });
	}

	/** Saves the token into the stored credential, so the next execution reads it back. */
	async updateCredentialsOauthTokenData(
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.writes.push({ type, data: { ...data } });
		const stored = this.stored.get(type);
		if (stored === undefined) throw new UserError(`No credential of type "${type}" was set`);
		this.stored.set(type, { ...stored, oauthTokenData: structuredClone(data.oauthTokenData) });
	}
}

/** A NodeTypes registry holding the given node types under their description names. */
export function createNodeTypes(nodeTypes: INodeType[]): INodeTypes {
	const byName = new Map(nodeTypes.map((type) => [type.description.name, type]));
	const get = (name: string): INodeType => {
		const type = byName.get(name);
		if (type === undefined) throw new UserError(`Unknown node type "${name}"`);
		return type;
	};
	return {
		getByName: (name: string): INodeType | IVersionedNodeType => get(name),
		getByNameAndVersion: (name: string, version?: number): INodeType =>
			NodeHelpers.getVersionedNodeType(get(name), version),
		getKnownTypes: (): IDataObject => ({}),
	};
}

/** What WorkflowExecute and the execution contexts read from the additional data. */
export function createAdditionalData(
	credentialsHelper: ICredentialsHelper,
	hooks?: ExecutionLifecycleHooks,
): IWorkflowExecuteAdditionalData {
	return {
		credentialsHelper,
		hooks,
		currentNodeParameters: undefined,
		currentNodeExecutionIndex: 0,
		executionId: 'test-execution',
		restApiUrl: 'http://127.0.0.1/rest',
		instanceBaseUrl: 'http://127.0.0.1/',
		formBaseUrl: 'http://127.0.0.1/form',
		formWaitingBaseUrl: 'http://127.0.0.1/form-waiting',
		formTestBaseUrl: 'http://127.0.0.1/form-test',
		webhookBaseUrl: 'http://127.0.0.1/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1/webhook-test',
		mcpBaseUrl: 'http://127.0.0.1/mcp',
		mcpTestBaseUrl: 'http://127.0.0.1/mcp-test',
		variables: {},
		userId: 'test-user',
		logAiEvent: () => undefined,
		executeWorkflow: async () => {
			throw new UserError('Sub-workflows are not available in the test engine');
		},
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		startRunnerTask: async () => {
			throw new UserError('Task runners are not available in the test engine');
		},
	} as unknown as IWorkflowExecuteAdditionalData;
}

export interface RunNodeOptions {
	nodeType: INodeType | IVersionedNodeType;
	/**
	 * The node as a workflow stores it, for any node type: its type name (n8n-core grants
	 * n8n-nodes-base's nodes credential access only under "n8n-nodes-base.<name>"), version and
	 * credentials. By default what createTestNode makes of an INodeType.
	 */
	stored?: Pick<INode, 'type' | 'typeVersion' | 'credentials'>;
	parameters: INodeParameters;
	credentialsHelper: TestCredentialsHelper;
	/** The items the node receives; one empty item by default. */
	items?: INodeExecutionData[];
	continueOnFail?: boolean;
}

export interface NodeRun {
	/** The node's first output, or undefined when it failed. */
	items: INodeExecutionData[] | undefined;
	error: ExecutionError | undefined;
	run: IRun;
}

/** The node as n8n stores it in a workflow, referring to a credential of each type it takes. */
export function createTestNode(
	nodeType: INodeType,
	parameters: INodeParameters,
	options: { name?: string; continueOnFail?: boolean } = {},
): INode {
	const version = nodeType.description.version;
	return {
		id: 'node-under-test',
		name: options.name ?? nodeType.description.defaults.name ?? 'Node',
		type: nodeType.description.name,
		typeVersion: Array.isArray(version) ? version[version.length - 1] : version,
		position: [0, 0],
		parameters,
		credentials: Object.fromEntries(
			(nodeType.description.credentials ?? []).map(({ name }) => [
				name,
				{ id: `${name}-id`, name },
			]),
		),
		...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
	};
}

/** Runs one node as the start of a workflow, fed with `items`, and waits for the execution to end. */
export async function runNode(options: RunNodeOptions): Promise<NodeRun> {
	const { nodeType, stored } = options;
	const node: INode = stored
		? {
				id: 'node-under-test',
				name: 'Node',
				position: [0, 0],
				...stored,
				parameters: options.parameters,
			}
		: createTestNode(nodeType as INodeType, options.parameters, options);
	const run = await runWorkflow({
		nodes: [node],
		// A stored node may carry another package's type name: any name resolves to this type.
		nodeTypes: stored
			? {
					getByName: () => nodeType,
					getByNameAndVersion: (_name, version) =>
						NodeHelpers.getVersionedNodeType(nodeType, version),
					getKnownTypes: () => ({}),
				}
			: createNodeTypes([nodeType as INodeType]),
		credentialsHelper: options.credentialsHelper,
		start: node,
		items: options.items,
	});
	const taskData = run.data.resultData.runData[node.name]?.[0];
	return {
		items: taskData?.data?.main?.[0] ?? undefined,
		error: taskData?.error ?? run.data.resultData.error,
		run,
	};
}

/** Runs a workflow from its `start` node, fed with `items`, and waits for the execution to end. */
export async function runWorkflow(options: {
	nodes: INode[];
	connections?: IConnections;
	nodeTypes: INodeType[] | INodeTypes;
	credentialsHelper: TestCredentialsHelper;
	start: INode;
	/** The items the start node receives; one empty item by default. */
	items?: INodeExecutionData[];
}): Promise<IRun> {
	const { nodes } = options;
	const connections = options.connections ?? {};
	const workflow = new Workflow({
		id: 'test-workflow',
		nodes,
		connections,
		active: false,
		nodeTypes: Array.isArray(options.nodeTypes)
			? createNodeTypes(options.nodeTypes)
			: options.nodeTypes,
	});
	const hooks = new ExecutionLifecycleHooks('manual', 'test-execution', {
		id: 'test-workflow',
		name: 'Test workflow',
		active: false,
		activeVersionId: null,
		isArchived: false,
		nodes,
		connections,
		createdAt: new Date(),
		updatedAt: new Date(),
	});
	let finish: (run: IRun) => void = () => undefined;
	const finished = new Promise<IRun>((resolve) => {
		finish = resolve;
	});
	hooks.addHandler('workflowExecuteAfter', (run) => finish(run));
	const additionalData = createAdditionalData(options.credentialsHelper, hooks);
	const runExecutionData: IRunExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [
				{
					node: options.start,
					data: { main: [options.items ?? [{ json: {} }]] },
					source: null,
				},
			],
		},
	});
	const execution = new WorkflowExecute(additionalData, 'manual', runExecutionData);
	await execution.processRunExecutionData(workflow);
	return await finished;
}
