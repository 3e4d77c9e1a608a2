/**
 * The one harness that runs the package in n8n's real engine, in-process. A test takes an n8n
 * process as far as the package can tell (a runtime of its own: tokens, rate budget, turns, retry
 * policy, the trigger's notes; and the classes n8n would construct, handed it), with "the
 * database" of its credentials, and runs the node, the trigger or the tool in it. Its parts:
 * engine.ts (workflows, the credentials helper), credential-test.ts, tool.ts, poll.ts.
 */
import type {
	ICredentialDataDecryptedObject,
	INodeCredentialTestResult,
	INodeExecutionData,
	INodeParameters,
} from 'n8n-workflow';

import { SupplierMatchedProjectsApi } from '../../../credentials/SupplierMatchedProjectsApi.credentials';
import {
	SupplierRuntime,
	type RuntimeOptions,
} from '../../../nodes/SupplierMatchedProjects/runtime';
import { SupplierMatchedProjects } from '../../../nodes/SupplierMatchedProjects/SupplierMatchedProjects.node';
import { SupplierMatchedProjectsTrigger } from '../../../nodes/SupplierMatchedProjects/SupplierMatchedProjectsTrigger.node';
import { CREDENTIAL_TYPE } from '../../../nodes/SupplierMatchedProjects/transport';
import { testCredential } from './credential-test';
import { runNode, TestCredentialsHelper, type NodeRun } from './engine';
import { PollHarness, type PollHarnessOptions } from './poll';
import { callAsTool, type ToolCall } from './tool';

export { CREDENTIAL_TYPE };
export { testCredential } from './credential-test';
export * from './engine';
export { PollHarness, type PollOutcome } from './poll';
export { callAsTool, type ToolCall } from './tool';

export interface CredentialFields {
	authUrl: string;
	baseUrl: string;
	clientId: string;
	clientSecret: string;
	scope?: string;
}

export interface ProcessOptions {
	/** What "the database" holds for the package's credential; nothing when left out. */
	credential?: CredentialFields | ICredentialDataDecryptedObject;
	retryPolicy?: RuntimeOptions['retryPolicy'];
	/** For tests not about pacing: the rate budget's burst, and its sleep on a test's own clock. */
	rateBudget?: RuntimeOptions['rateBudget'];
}

/** Retries that wait milliseconds, not seconds, for tests of failures: three attempts, 1 s a request. */
export const SHORT_WAITS: NonNullable<RuntimeOptions['retryPolicy']> = {
	maxAttempts: 3,
	baseDelayMs: 5,
	maxDelayMs: 20,
	maxTotalWaitMs: 10_000,
	requestTimeoutMs: 1_000,
};

export interface RunOptions {
	items?: INodeExecutionData[];
	continueOnFail?: boolean;
}

/** One n8n process with one credential, and the package's nodes run in it. */
export class N8nProcess {
	readonly runtime: SupplierRuntime;

	readonly node: SupplierMatchedProjects;

	readonly trigger: SupplierMatchedProjectsTrigger;

	readonly credential: SupplierMatchedProjectsApi;

	/** "The database" of this process's credentials. */
	readonly credentials: TestCredentialsHelper;

	constructor(options: ProcessOptions = {}, shared?: N8nProcess) {
		const { retryPolicy, rateBudget } = options;
		this.runtime = shared?.runtime ?? new SupplierRuntime({ retryPolicy, rateBudget });
		this.node = shared?.node ?? new SupplierMatchedProjects(this.runtime);
		this.trigger = shared?.trigger ?? new SupplierMatchedProjectsTrigger(this.runtime);
		this.credential = shared?.credential ?? new SupplierMatchedProjectsApi(this.runtime);
		this.credentials = new TestCredentialsHelper([this.credential]);
		if (options.credential !== undefined) {
			this.credentials.setCredentials(CREDENTIAL_TYPE, { ...options.credential });
		}
	}

	/** Another credential in this same process: tokens, rate budget and turns are shared. */
	withCredential(credential: ProcessOptions['credential']): N8nProcess {
		return new N8nProcess({ credential }, this);
	}

	async run(parameters: INodeParameters, options: RunOptions = {}): Promise<NodeRun> {
		return await runNode({
			nodeType: this.node,
			parameters,
			credentialsHelper: this.credentials,
			...options,
		});
	}

	/** Get Many with every result unless the parameters say otherwise. */
	async getMany(parameters: INodeParameters, options: RunOptions = {}): Promise<NodeRun> {
		return await this.run(
			{ resource: 'matchedProject', operation: 'getAll', returnAll: true, ...parameters },
			options,
		);
	}

	/** The trigger in an active workflow, polled as n8n's poller or its durable scheduler does. */
	poll(
		parameters: INodeParameters,
		timezone?: string,
		scheduler?: PollHarnessOptions['scheduler'],
	): PollHarness {
		return new PollHarness({
			nodeType: this.trigger,
			parameters,
			credentialsHelper: this.credentials,
			timezone,
			scheduler,
		});
	}

	/** The main node as an agent's tool, called once with `args`. */
	async tool(
		parameters: INodeParameters,
		args: Record<string, unknown>,
		options: { name?: string } = {},
	): Promise<ToolCall> {
		return await callAsTool({
			nodeType: this.node,
			parameters,
			credentialsHelper: this.credentials,
			args,
			...options,
		});
	}

	/** The credential's Test button, with these settings. */
	async testCredential(data: ICredentialDataDecryptedObject): Promise<INodeCredentialTestResult> {
		return await testCredential(this.credentials, CREDENTIAL_TYPE, data);
	}
}

/** A fresh n8n process: no token yet, an unspent rate budget. */
export function n8nProcess(options: ProcessOptions = {}): N8nProcess {
	return new N8nProcess(options);
}
