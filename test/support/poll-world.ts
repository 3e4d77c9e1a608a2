/**
 * A sandbox, the credential pointed at it, and the trigger run by the poll harness, on a clock the
 * test moves (`useVirtualTime({ dateOnly: true })` from ./clock), so the trigger's days, the
 * transport's token expiry and rate budget, and the sandbox's own clock all move together.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { SupplierMatchedProjectsApi } from '../../credentials/SupplierMatchedProjectsApi.credentials';
import { SupplierMatchedProjectsTrigger } from '../../nodes/SupplierMatchedProjects/SupplierMatchedProjectsTrigger.node';
import { overrideRetryPolicy } from '../../nodes/SupplierMatchedProjects/transport';
import { apiRateBudget } from '../../nodes/SupplierMatchedProjects/transport/budget';
import { forgetAllTokens } from '../../nodes/SupplierMatchedProjects/transport/token';
import { SANDBOX_FIXTURES, startSandbox, type SandboxOptions } from '../../sandbox';
import { TestCredentialsHelper } from './engine';
import { PollHarness } from './poll-harness';

export type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

export { DAY_MS, MINUTE_MS } from './clock';
export const CREDENTIAL_TYPE = 'supplierMatchedProjectsApi';
export const { companyId } = SANDBOX_FIXTURES;
export { SANDBOX_FIXTURES };

export interface PollWorld {
	sandbox: Sandbox;
	credentials: TestCredentialsHelper;
	trigger(parameters?: INodeParameters, timezone?: string): PollHarness;
	stop(): Promise<void>;
}

/**
 * Starts a sandbox (no generated projects unless asked: tests open the tenders they reason about)
 * and forgets tokens and rate budget left by an earlier test. Start the clock first.
 */
export async function startPollWorld(options: SandboxOptions = {}): Promise<PollWorld> {
	forgetAllTokens();
	apiRateBudget.reset();
	const restorePolicy = overrideRetryPolicy({ baseDelayMs: 1, maxDelayMs: 5 });
	const sandbox = await startSandbox({ port: 0, projects: 0, ...options });
	const credentials = new TestCredentialsHelper([new SupplierMatchedProjectsApi()]);
	credentials.setCredentials(CREDENTIAL_TYPE, {
		authUrl: sandbox.url,
		baseUrl: sandbox.url,
		clientId: SANDBOX_FIXTURES.client.clientId,
		clientSecret: SANDBOX_FIXTURES.client.clientSecret,
	});
	return {
		sandbox,
		credentials,
		trigger: (parameters = {}, timezone = 'UTC') =>
			new PollHarness({
				nodeType: new SupplierMatchedProjectsTrigger(),
				parameters: { companyId, ...parameters },
				credentialsHelper: credentials,
				timezone,
			}),
		stop: async () => {
			restorePolicy();
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
