/**
 * A sandbox, the credential pointed at it, and the trigger run by the poll harness, on a clock the
 * test moves (`useVirtualTime({ dateOnly: true })` from ./clock), so the trigger's days, the
 * transport's token expiry and rate budget, and the sandbox's own clock all move together.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { API_RATE_LIMIT } from '../../../nodes/SupplierMatchedProjects/transport/rate-budget';
import type { RuntimeOptions } from '../../../nodes/SupplierMatchedProjects/runtime';
import { SANDBOX_FIXTURES, startSandbox, type SandboxOptions } from '../../../sandbox';
import { advanceTime, useVirtualTime } from './clock';
import {
	CREDENTIAL_TYPE,
	n8nProcess,
	type CredentialFields,
	type N8nProcess,
	type PollHarness,
} from '../harness';

export type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

export { DAY_MS, MINUTE_MS } from './clock';
export { CREDENTIAL_TYPE };
export const { companyId } = SANDBOX_FIXTURES;
export { SANDBOX_FIXTURES };

export interface PollWorld {
	/** The n8n process the trigger runs in, with the credential pointed at the sandbox. */
	process: N8nProcess;
	sandbox: Sandbox;
	/** Another n8n process (a restart, or another main instance), its credential on the sandbox. */
	newProcess(): N8nProcess;
	/** Points the credential at the sandbox again, with these fields changed. */
	useCredential(fields?: Partial<CredentialFields>): void;
	trigger(parameters?: INodeParameters, timezone?: string): PollHarness;
	/** The trigger, activated: its baseline recorded. */
	activeTrigger(parameters?: INodeParameters, timezone?: string): Promise<PollHarness>;
	stop(): Promise<void>;
}

/** Worlds not yet stopped, so a test that starts another in place of its own leaves none running. */
const running = new Set<PollWorld>();

/**
 * Starts a sandbox (no generated projects unless asked: tests open the tenders they reason about)
 * in a fresh n8n process: no token or rate budget left by an earlier test. Start the clock first.
 */
export async function startPollWorld(
	options: SandboxOptions = {},
	rateBudget?: RuntimeOptions['rateBudget'],
): Promise<PollWorld> {
	const sandbox = await startSandbox({ port: 0, projects: 0, ...options });
	const credential = { authUrl: sandbox.url, baseUrl: sandbox.url, ...SANDBOX_FIXTURES.client };
	const proc = n8nProcess({
		retryPolicy: { baseDelayMs: 1, maxDelayMs: 5 },
		credential,
		rateBudget,
	});
	const world: PollWorld = {
		process: proc,
		sandbox,
		newProcess: () => n8nProcess({ credential }),
		useCredential: (fields = {}) =>
			proc.credentials.setCredentials(CREDENTIAL_TYPE, { ...credential, ...fields }),
		trigger: (parameters = {}, timezone = 'UTC') =>
			proc.poll({ companyId, ...parameters }, timezone),
		activeTrigger: async (parameters, timezone) => {
			const trigger = world.trigger(parameters, timezone);
			await trigger.activate();
			return trigger;
		},
		stop: async () => {
			running.delete(world);
			await sandbox.stop();
		},
	};
	running.add(world);
	return world;
}

/**
 * Gives each test of the file (or describe block) a fresh world on a clock it moves, handed to
 * `set` before the test, and stops it after.
 */
export function freshPollWorldEachTest(
	set: (world: PollWorld) => void,
	options: SandboxOptions = {},
): void {
	beforeEach(async () => {
		useVirtualTime({ dateOnly: true });
		// The date moves only when the test moves it: a wait for the rate limit moves it that far,
		// and a burst as large as the limit leaves the window the budget these tests meet.
		set(
			await startPollWorld(options, {
				burst: API_RATE_LIMIT,
				sleep: async (ms) => advanceTime(ms),
			}),
		);
	});
	afterEach(async () => {
		await Promise.all([...running].map(async (world) => await world.stop()));
		jest.useRealTimers();
	});
}

export function jsonOf(items: INodeExecutionData[] | null | undefined): IDataObject[] {
	return (items ?? []).map((item) => item.json);
}

/** Tender ids of emitted items, whatever the output: tender items or project items. */
export function emittedTenderIds(items: INodeExecutionData[]): string[] {
	return items.flatMap(({ json }) => {
		if (typeof json.tenderId === 'string') return [json.tenderId];
		if (typeof json.id === 'string') return [json.id];
		const tenders = Array.isArray(json.tenders) ? (json.tenders as IDataObject[]) : [];
		return tenders.map((tender) => String(tender.id));
	});
}
