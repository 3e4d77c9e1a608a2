/**
 * A sandbox, the credential pointed at it, and the trigger run by the poll harness, on a clock the
 * test moves (`useVirtualTime({ dateOnly: true })` from ./clock), so the trigger's days, the
 * transport's token expiry and rate budget, and the sandbox's own clock all move together.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { RetryPolicy } from '../../nodes/SupplierMatchedProjects/transport/retry';
import { SANDBOX_FIXTURES, startSandbox, type SandboxOptions } from '../../sandbox';
import {
	n8nProcess,
	type N8nProcess,
	type PollHarness,
	type TestCredentialsHelper,
} from './harness';

export type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

export { DAY_MS, MINUTE_MS } from './clock';
export const CREDENTIAL_TYPE = 'supplierMatchedProjectsApi';
export const { companyId } = SANDBOX_FIXTURES;
export { SANDBOX_FIXTURES };

export interface PollWorld {
	/** The n8n process the trigger runs in, with the credential pointed at the sandbox. */
	process: N8nProcess;
	sandbox: Sandbox;
	credentials: TestCredentialsHelper;
	trigger(parameters?: INodeParameters, timezone?: string): PollHarness;
	stop(): Promise<void>;
}

/**
 * Starts a sandbox (no generated projects unless asked: tests open the tenders they reason about)
 * and forgets tokens and rate budget left by an earlier test. Start the clock first.
 */
export async function startPollWorld(
	options: SandboxOptions = {},
	retryPolicy: Partial<RetryPolicy> = {},
): Promise<PollWorld> {
	const sandbox = await startSandbox({ port: 0, projects: 0, ...options });
	const proc = n8nProcess({
		retryPolicy: { baseDelayMs: 1, maxDelayMs: 5, ...retryPolicy },
		credential: { authUrl: sandbox.url, baseUrl: sandbox.url, ...SANDBOX_FIXTURES.client },
	});
	return {
		process: proc,
		sandbox,
		credentials: proc.credentials,
		trigger: (parameters = {}, timezone = 'UTC') =>
			proc.poll({ companyId, ...parameters }, timezone),
		stop: async () => {
			await sandbox.stop();
		},
	};
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
