/**
 * Runs a polling trigger the way n8n's active-workflow manager does, in-process: n8n-core's real
 * PollContext and PollTriggerExecutor, and the cli's rules for static data. The workflow's static
 * data is written to "the database" (`saved`) only where the cli writes it: after an activation
 * (its first poll included) and when a poll emits. A restart reloads what was saved; whatever
 * non-emitting polls changed in memory is gone.
 */
import { PollContext } from 'n8n-core';
import type {
	IDataObject,
	Logger,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	WorkflowActivateMode,
} from 'n8n-workflow';
import { UserError, Workflow } from 'n8n-workflow';

import {
	createAdditionalData,
	createNodeTypes,
	createTestNode,
	type TestCredentialsHelper,
} from './engine';
import { pollTriggerExecutor } from './poll-executor';

export interface PollHarnessOptions {
	nodeType: INodeType;
	parameters: INodeParameters;
	credentialsHelper: TestCredentialsHelper;
	/** Workflow timezone. */
	timezone?: string;
}

/** What one poll led to, as the cli sees it. */
export type LogLevel = 'error' | 'warn' | 'info' | 'debug';

export type PollOutcome =
	| { kind: 'emitted'; items: INodeExecutionData[] }
	| { kind: 'nothing' }
	| { kind: 'error'; error: Error };

const EVERY_MINUTE: INodeParameters = { item: [{ mode: 'everyMinute' }] };

function copy<T>(value: T): T {
	return JSON.parse(JSON.stringify(value)) as T;
}

interface Activation {
	workflow: Workflow;
	execute: (testingTrigger?: boolean) => Promise<PollOutcome>;
}

export class PollHarness {
	/** The workflow's static data as the database holds it. */
	saved: IDataObject = {};

	/** How many times the cli would have written the static data. */
	saves = 0;

	/** Every emit, in order. */
	readonly emits: INodeExecutionData[][] = [];

	/** Every error a scheduled poll reported (an error execution in n8n). */
	readonly errors: Error[] = [];

	/** What the node logged (n8n's log file), instead of the console. */
	readonly logs: Array<{ level: LogLevel; message: string }> = [];

	/**
	 * When set, every authenticated request of a scheduled poll is handed over through it, so a
	 * test decides when each answer reaches the trigger (fast-check's scheduler orders them).
	 */
	requestGate: (<T>(answer: Promise<T>) => Promise<T>) | undefined;

	private readonly node: INode;

	private active: Activation | undefined;

	constructor(private readonly options: PollHarnessOptions) {
		this.node = createTestNode(options.nodeType, {
			pollTimes: EVERY_MINUTE,
			...options.parameters,
		});
	}

	/** The key of this node's static data inside the workflow's. */
	get nodeKey(): string {
		return `node:${this.node.name}`;
	}

	/** This node's static data as the database holds it. */
	savedNodeData(): IDataObject {
		return (this.saved[this.nodeKey] as IDataObject | undefined) ?? {};
	}

	/** Overwrites this node's static data in the database, as an earlier run of n8n left it. */
	setSavedNodeData(data: IDataObject): void {
		this.saved = { ...this.saved, [this.nodeKey]: copy(data) };
	}

	/** Replaces node parameters, as editing an active workflow does; takes effect at the next activation. */
	setParameters(parameters: INodeParameters): void {
		this.node.parameters = { pollTimes: EVERY_MINUTE, ...parameters };
	}

	private createWorkflow(staticData: IDataObject): Workflow {
		return new Workflow({
			id: 'poll-workflow',
			name: 'Poll workflow',
			nodes: [this.node],
			connections: {},
			active: true,
			nodeTypes: createNodeTypes([this.options.nodeType]),
			staticData,
			settings: this.options.timezone ? { timezone: this.options.timezone } : {},
		});
	}

	/** Sends what the node logs to `logs`. */
	private captureLogs(context: PollContext): PollContext {
		const record = (level: LogLevel) => (message: string) => {
			this.logs.push({ level, message });
		};
		const logger: Logger = {
			error: record('error'),
			warn: record('warn'),
			info: record('info'),
			debug: record('debug'),
		};
		Object.defineProperty(context, 'logger', { value: logger });
		return context;
	}

	/** Passes the context's authenticated requests through `requestGate` while one is set. */
	private gateRequests(context: PollContext): PollContext {
		const helpers = context.helpers;
		const send = helpers.httpRequestWithAuthentication;
		const gate = () => this.requestGate;
		helpers.httpRequestWithAuthentication = async function (
			this: ThisParameterType<typeof send>,
			...args: Parameters<typeof send>
		) {
			const answer = send.apply(this, args);
			return await (gate()?.(answer) ?? answer);
		} as typeof send;
		return context;
	}

	/** The cli's WorkflowStaticDataService.saveStaticData: writes only what changed. */
	private save(workflow: Workflow): void {
		if (workflow.staticData.__dataChanged !== true) return;
		this.saved = copy(workflow.staticData);
		workflow.staticData.__dataChanged = false;
		this.saves++;
	}

	/**
	 * Activates the workflow from what the database holds: n8n polls once (an error fails the
	 * activation and is thrown here), then saves the static data. `init` is a restart.
	 */
	async activate(activation: WorkflowActivateMode = 'activate'): Promise<PollOutcome> {
		this.active = undefined;
		const workflow = this.createWorkflow(copy(this.saved));
		let outcome: PollOutcome = { kind: 'nothing' };
		const pollFunctions = this.gateRequests(
			this.captureLogs(
				new PollContext(
					workflow,
					this.node,
					createAdditionalData(this.options.credentialsHelper),
					'trigger',
					activation,
					(data) => {
						// The cli saves the static data first, then starts the execution.
						this.save(workflow);
						this.emits.push(data[0]);
						outcome = { kind: 'emitted', items: data[0] };
					},
					(error) => {
						this.errors.push(error);
						outcome = { kind: 'error', error };
					},
				),
			),
		);
		const executor = pollTriggerExecutor().create(workflow, this.node, pollFunctions, () => true);
		const execute = async (testingTrigger = false): Promise<PollOutcome> => {
			outcome = { kind: 'nothing' };
			await executor(testingTrigger);
			return outcome;
		};
		const first = await execute(true);
		this.save(workflow);
		this.active = { workflow, execute };
		return first;
	}

	/** n8n restarts: memory is lost, the workflow is activated again from the database. */
	async restart(): Promise<PollOutcome> {
		this.active = undefined;
		return await this.activate('init');
	}

	/** One scheduled poll of the active workflow. */
	async poll(): Promise<PollOutcome> {
		const current = this.active;
		if (current === undefined) throw new UserError('Activate the workflow before polling it');
		return await current.execute();
	}

	/** This node's static data as the active workflow holds it in memory. */
	memory(): IDataObject {
		const current = this.active;
		if (current === undefined) throw new UserError('The workflow is not active');
		return copy((current.workflow.staticData[this.nodeKey] as IDataObject | undefined) ?? {});
	}

	/**
	 * "Fetch Test Event" in the editor, as WorkflowExecute runs a poll node in manual mode: a
	 * PollContext in manual mode over a copy of the workflow; errors are thrown.
	 */
	async fetchTestEvent(): Promise<INodeExecutionData[] | null> {
		const workflow = this.createWorkflow(copy(this.saved));
		const context = this.captureLogs(
			new PollContext(
				workflow,
				this.node,
				createAdditionalData(this.options.credentialsHelper),
				'manual',
				'manual',
			),
		);
		const poll = this.options.nodeType.poll;
		if (poll === undefined) throw new UserError('The node type has no poll method');
		const data = await poll.call(context);
		if (workflow.staticData.__dataChanged === true) {
			throw new UserError('A manual poll changed the static data');
		}
		return data === null ? null : data[0];
	}
}
