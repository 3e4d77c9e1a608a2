import { startSandbox, SANDBOX_FIXTURES } from '../../sandbox';
import type { SandboxOptions } from '../../sandbox';
import { createSandboxClient } from '../support/sandbox/client';
import type { Project } from '../../nodes/SupplierMatchedProjects/api/types';

export type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
export type SandboxClient = ReturnType<typeof createSandboxClient>;

export const DAY_MS = 86_400_000;

/** A fixed start so dates in assertions do not depend on the day the tests run. */
export const START = '2030-03-10T09:00:00.000Z';

export interface Harness {
	sandbox: Sandbox;
	client: SandboxClient;
	token: string;
}

/** Starts a sandbox on an ephemeral port with a fixture-client token ready. */
export async function openHarness(options: SandboxOptions = {}): Promise<Harness> {
	const sandbox = await startSandbox({ port: 0, now: START, ...options });
	const client = createSandboxClient(sandbox.url);
	const token = await client.token();
	return { sandbox, client, token };
}

/** Runs `use` on a harness of its own, stopped afterwards whatever happens. */
export async function withHarness(
	options: SandboxOptions,
	use: (harness: Harness) => Promise<void>,
): Promise<void> {
	const harness = await openHarness(options);
	try {
		await use(harness);
	} finally {
		await harness.sandbox.stop();
	}
}

/**
 * A harness opened before all of the calling block's tests (or before each) and stopped after;
 * its fields are filled in by the time a test runs.
 */
export function harnessFor(options: SandboxOptions = {}, per: 'all' | 'each' = 'all'): Harness {
	const harness = {} as Harness;
	(per === 'each' ? beforeEach : beforeAll)(async () => {
		Object.assign(harness, await openHarness(options));
	});
	(per === 'each' ? afterEach : afterAll)(async () => {
		await harness.sandbox.stop();
	});
	return harness;
}

/** YYYY-MM-DD of the sandbox's today plus `days`. */
export function sandboxDay(sandbox: Sandbox, days = 0): string {
	return new Date(sandbox.clock.now() + days * DAY_MS).toISOString().slice(0, 10);
}

/** The documented sort key of a project: earliest quotesDueAt (no date last), then projectId. */
export function sortKey(project: Project): string {
	const dates = project.tenders
		.map((tender) => tender.quotesDueAt)
		.filter((date): date is string => date !== null)
		.sort();
	return `${dates[0] ?? '~'}|${project.projectId}`;
}

export function ids(projects: Project[]): string[] {
	return projects.map((project) => project.projectId);
}

export { SANDBOX_FIXTURES };
