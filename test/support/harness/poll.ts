/**
 * Runs a polling trigger the way n8n's active-workflow manager does, in-process: n8n-core's real
 * PollContext and PollTriggerExecutor, and the cli's rules for static data. The workflow's static
 * data is written to "the database" (`saved`) only where the cli writes it: after an activation
 * (its first poll included) and when a poll emits. A restart reloads what was saved; whatever
 * non-emitting polls changed in memory is gone.
 *
 * With `scheduler: 'durable'`, as n8n 2.41 runs a poll under its durable scheduler in full
 * (trigger-execution-context.factory, poll-trigger-task-handler): the node's state is a durable
 * cursor (`cursor`), made from the static data when the activation poll starts and committed
 * only after a scheduled poll, with its emit or alone; each scheduled poll reads it afresh, has
 * a budget of 36 s, and is abandoned at 45 s (its outcome dropped). A restart polls nothing.
 */
import { PollContext, runPollInStagingScope } from 'n8n-core';
import type {
	IDataObject,
	Logger,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	WorkflowActivateMode,
} from 'n8n-workflow';
import { sleep, UserError, Workflow } from 'n8n-workflow';

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
	timezone?: string;
	/** How n8n schedules the polls: its in-memory poller (default) or its durable scheduler. */
	scheduler?: 'legacy' | 'durable';
}

/** n8n 2.41's durable scheduler with its defaults: the poll budget, and the timeout that abandons a poll. */
const DURABLE_POLL_BUDGET_MS = 36_000;
const DURABLE_POLL_TIMEOUT_MS = 45_000;

type LogLevel = 'error' | 'warn' | 'info' | 'debug';

/** What one poll led to, as the cli sees it. */
export type PollOutcome =
	| { kind: 'emitted'; items: INodeExecutionData[] }
	| { kind: 'nothing' }
	| { kind: 'error'; error: Error }
	| { kind: 'abandoned' };

const EVERY_MINUTE: INodeParameters = { item: [{ mode: 'everyMinute' }] };

let workflows = 0;

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

	readonly emits: INodeExecutionData[][] = [];

	/** Every error a scheduled poll reported (an error execution in n8n). */
	readonly errors: Error[] = [];

	/** Under the durable scheduler: the node's durable cursor, as the database holds it. */
	cursor: IDataObject | undefined;

	/** Under the durable scheduler: polls abandoned at the timeout. */
	abandoned = 0;

	/** What the node logged (n8n's log file), instead of the console. */
	readonly logs: Array<{ level: LogLevel; message: string }> = [];

	/**
	 * When set, every authenticated request of a scheduled poll is handed over through it, so a
	 * test decides when each answer reaches the trigger (fast-check's scheduler orders them).
	 */
	requestGate: (<T>(answer: Promise<T>) => Promise<T>) | undefined;

	private readonly node: INode;

	/** Each harness is a workflow of its own, as each trigger is in n8n. */
	private readonly workflowId = `poll-workflow-${++workflows}`;

	private active: Activation | undefined;

	constructor(private options: PollHarnessOptions) {
		this.node = createTestNode(options.nodeType, {
			pollTimes: EVERY_MINUTE,
			...options.parameters,
		});
	}

	/** The key of this node's static data inside the workflow's. */
	get nodeKey(): string {
		return `node:${this.node.name}`;
	}

	private get durable(): boolean {
		return this.options.scheduler === 'durable';
	}

	/** This node's static data as the database holds it (the durable cursor, once made). */
	savedNodeData(): IDataObject {
		if (this.durable && this.cursor !== undefined) return this.cursor;
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
			id: this.workflowId,
			name: 'Poll workflow',
			nodes: [this.node],
			connections: {},
			active: true,
			nodeTypes: createNodeTypes([this.options.nodeType]),
			staticData,
			settings: this.options.timezone ? { timezone: this.options.timezone } : {},
		});
	}

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

	/** The cli's poll context: it saves the static data, then starts the emit's execution. */
	private legacyContext(
		workflow: Workflow,
		activation: WorkflowActivateMode,
		onOutcome: (outcome: PollOutcome) => void,
	): PollContext {
		const context = new PollContext(
			workflow,
			this.node,
			createAdditionalData(this.options.credentialsHelper),
			'trigger',
			activation,
			(data) => {
				this.save(workflow);
				this.emits.push(data[0]);
				onOutcome({ kind: 'emitted', items: data[0] });
			},
			(error) => {
				this.errors.push(error);
				onOutcome({ kind: 'error', error });
			},
		);
		return this.gateRequests(this.captureLogs(context));
	}

	/**
	 * Activates the workflow from what the database holds: n8n polls once (an error fails the
	 * activation and is thrown here), then saves the static data. `init` is a restart. Under the
	 * durable scheduler that poll commits its cursor only if it emits.
	 */
	async activate(activation: WorkflowActivateMode = 'activate'): Promise<PollOutcome> {
		this.active = undefined;
		const workflow = this.createWorkflow(copy(this.saved));
		let outcome: PollOutcome = { kind: 'nothing' };
		const onOutcome = (next: PollOutcome) => {
			outcome = next;
		};
		const context = this.durable
			? this.durableContext(workflow, activation, false, onOutcome).context
			: this.legacyContext(workflow, activation, onOutcome);
		const executor = pollTriggerExecutor().create(workflow, this.node, context, () => true);
		const execute = async (testingTrigger = false): Promise<PollOutcome> => {
			outcome = { kind: 'nothing' };
			await executor(testingTrigger);
			return outcome;
		};
		const first = await execute(true);
		this.save(workflow);
		this.active = { workflow, execute: this.durable ? this.scheduledPoll : execute };
		return first;
	}

	/**
	 * n8n is killed and started again as a new process: the trigger runs on that process's classes
	 * (a runtime of its own), with the database as it was.
	 */
	async restartIn(process: {
		trigger: INodeType;
		credentials: TestCredentialsHelper;
	}): Promise<PollOutcome> {
		this.options = {
			...this.options,
			nodeType: process.trigger,
			credentialsHelper: process.credentials,
		};
		return await this.restart();
	}

	/**
	 * n8n restarts: memory is lost, the workflow is activated again from the database. The durable
	 * scheduler finds the trigger's jobs in place and polls nothing until the next one falls due.
	 */
	async restart(): Promise<PollOutcome> {
		this.active = undefined;
		if (this.durable && this.cursor !== undefined) {
			this.active = {
				workflow: this.createWorkflow(copy(this.saved)),
				execute: this.scheduledPoll,
			};
			return { kind: 'nothing' };
		}
		return await this.activate('init');
	}

	async poll(): Promise<PollOutcome> {
		const current = this.active;
		if (current === undefined) throw new UserError('Activate the workflow before polling it');
		return await current.execute();
	}

	/**
	 * A poll context as n8n 2.41's factory makes one under durable cursors: the node's static data
	 * is a copy of the cursor (made from the workflow's static data the first time), committed with
	 * the emit or, after a quiet scheduled poll, alone; `fenced` polls (scheduled ones) have the
	 * budget, and one that lost its lease commits nothing.
	 */
	private durableContext(
		workflow: Workflow,
		activation: WorkflowActivateMode,
		fenced: boolean,
		onOutcome: (outcome: PollOutcome) => void,
	): { context: PollContext; loseLease: () => void } {
		let staged: { snapshot: IDataObject; seed: string } | undefined;
		let leased = true;
		const takeStaged = (): IDataObject | undefined => {
			if (staged === undefined || JSON.stringify(staged.snapshot) === staged.seed) return undefined;
			staged.seed = JSON.stringify(staged.snapshot);
			return copy(staged.snapshot);
		};
		const context = new PollContext(
			workflow,
			this.node,
			createAdditionalData(this.options.credentialsHelper),
			'trigger',
			activation,
			(data) => {
				const cursor = takeStaged();
				if (!leased) return;
				if (cursor !== undefined) this.cursor = cursor;
				this.emits.push(data[0]);
				onOutcome({ kind: 'emitted', items: data[0] });
			},
			(error) => {
				this.errors.push(error);
				onOutcome({ kind: 'error', error });
			},
			async () => {
				const cursor = takeStaged();
				if (cursor !== undefined && leased) this.cursor = cursor;
			},
			async (poll) => {
				this.cursor ??= copy((workflow.staticData[this.nodeKey] as IDataObject | undefined) ?? {});
				staged = { snapshot: copy(this.cursor), seed: JSON.stringify(this.cursor) };
				return await poll();
			},
			() => {
				if (staged === undefined) throw new UserError('Static data read outside a poll');
				return staged.snapshot;
			},
			fenced ? () => DURABLE_POLL_BUDGET_MS : undefined,
		);
		return {
			context: this.gateRequests(this.captureLogs(context)),
			loseLease: () => {
				leased = false;
			},
		};
	}

	/** A scheduled poll as the durable scheduler's task runs it: read afresh, raced against the timeout. */
	private readonly scheduledPoll = async (): Promise<PollOutcome> => {
		const workflow = this.createWorkflow(copy(this.saved));
		let outcome: PollOutcome = { kind: 'nothing' };
		const { context, loseLease } = this.durableContext(workflow, 'update', true, (next) => {
			outcome = next;
		});
		const poll = this.options.nodeType.poll;
		if (poll === undefined) throw new UserError('The node type has no poll method');
		await runPollInStagingScope(context, async () => {
			const timedOut: unique symbol = Symbol('timed out');
			const polled = poll.call(context);
			polled.catch(() => {});
			const stopTimer = new AbortController();
			let result: INodeExecutionData[][] | null | typeof timedOut;
			try {
				result = await Promise.race([
					polled,
					sleep(DURABLE_POLL_TIMEOUT_MS, stopTimer.signal).then(
						(): typeof timedOut => timedOut,
						(): typeof timedOut => timedOut,
					),
				]);
			} catch (error) {
				context.__emitError(error as Error);
				return;
			} finally {
				stopTimer.abort();
			}
			if (result === timedOut) {
				loseLease();
				this.abandoned++;
				outcome = { kind: 'abandoned' };
				return;
			}
			if (result !== null) context.__emit(result);
			else await context.__commitCursor?.();
		});
		return outcome;
	};

	/** This node's static data as the active workflow holds it in memory. */
	memory(): IDataObject {
		if (this.durable) return copy(this.cursor ?? {});
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
