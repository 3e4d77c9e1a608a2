/**
 * The credential's Test button, as packages/cli's CredentialsTester runs a credential's `test`
 * request: defaults applied, a temporary NoOp node routing the request through RoutingNode
 * (and so through preAuthentication and authenticate), then the same rules and fallbacks.
 */
import { ExecuteContext, RoutingNode } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialTestRequest,
	IDataObject,
	INode,
	INodeCredentialTestResult,
	INodeExecutionData,
	INodeType,
} from 'n8n-workflow';
import { createRunExecutionData, Workflow } from 'n8n-workflow';

import { createAdditionalData, createNodeTypes, type TestCredentialsHelper } from './engine';

/**
 * The tester's temporary NoOp node (the name the credentials helper knows a test by), whose one
 * property routes the credential's test request.
 */
function temporaryNode(type: string, testRequest: ICredentialTestRequest) {
	const node: INode = {
		id: 'temp',
		parameters: {},
		name: 'Temp-Node',
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		position: [0, 0],
		credentials: { [type]: { id: 'credential-under-test', name: 'Credential under test' } },
	};
	const nodeType: INodeType = {
		description: {
			displayName: 'No Operation, do nothing',
			name: node.type,
			group: ['organization'],
			version: 1,
			description: 'No Operation',
			defaults: { name: 'No Operation, do nothing' },
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: type, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					routing: { request: testRequest.request },
					default: '',
				},
			],
		},
	};
	return { node, nodeType };
}

async function sendTestRequest(
	credentialsHelper: TestCredentialsHelper,
	credentials: ICredentialsDecrypted,
	testRequest: ICredentialTestRequest,
): Promise<INodeExecutionData[][] | null | undefined> {
	const { node, nodeType } = temporaryNode(credentials.type, testRequest);
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: createNodeTypes([nodeType]),
	});
	const executeFunctions = new ExecuteContext(
		workflow,
		node,
		createAdditionalData(credentialsHelper),
		'internal',
		createRunExecutionData({ resultData: { runData: {} } }),
		0,
		[],
		{ main: [[{ json: {} }]] },
		{ node, data: {}, source: null },
		[],
	);
	return await new RoutingNode(executeFunctions, nodeType, credentials).runNode();
}

/** The tester's verdict on a test request that threw. */
function failureOf(error: unknown, testRequest: ICredentialTestRequest): INodeCredentialTestResult {
	const cause = (
		error as { cause?: { response?: { status: number; statusText?: string }; code?: string } }
	).cause;
	if (cause?.response) {
		const statusCode = cause.response.status;
		for (const rule of testRequest.rules ?? []) {
			if (rule.type === 'responseCode' && rule.properties.value === statusCode) {
				return { status: 'Error', message: rule.properties.message };
			}
		}
		if (statusCode < 199 || statusCode > 299) {
			return {
				status: 'Error',
				message: cause.response.statusText || `Received HTTP status code: ${statusCode}`,
			};
		}
	} else if (cause?.code) {
		return { status: 'Error', message: cause.code };
	}
	return { status: 'Error', message: String((error as Error).message) };
}

export async function testCredential(
	credentialsHelper: TestCredentialsHelper,
	type: string,
	data: ICredentialDataDecryptedObject,
): Promise<INodeCredentialTestResult> {
	const testRequest = credentialsHelper.getCredentialType(type).test;
	if (testRequest === undefined) return { status: 'Error', message: 'No testing function found' };
	const credentials: ICredentialsDecrypted = {
		id: 'credential-under-test',
		name: 'Credential under test',
		type,
		data: credentialsHelper.withDefaults(type, data),
	};
	let response: INodeExecutionData[][] | null | undefined;
	try {
		response = await sendTestRequest(credentialsHelper, credentials, testRequest);
	} catch (error) {
		return failureOf(error, testRequest);
	}
	for (const rule of testRequest.rules ?? []) {
		if (rule.type === 'responseSuccessBody') {
			const responseData = response?.[0]?.[0]?.json as IDataObject | undefined;
			if (responseData?.[rule.properties.key] === rule.properties.value) {
				return { status: 'Error', message: rule.properties.message };
			}
		}
	}
	return { status: 'OK', message: 'Connection successful!' };
}
