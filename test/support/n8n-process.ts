/**
 * One n8n process as far as the package can tell: the node, the credential, the transport (with
 * its token cache, rate budget and turns) and n8n's engine loaded in a module registry of their
 * own, so several of these in one test share nothing but the API they call, like main and
 * workers in queue mode.
 */
import type { INodeParameters } from 'n8n-workflow';
import type { NodeRun } from './engine';
import type { CredentialFields } from './reliability';

export interface N8nProcess {
	name: string;
	/** Get Many through n8n's real engine, on this process's own credential helper. */
	getMany: (parameters: INodeParameters) => Promise<NodeRun>;
}

/** Loads one process; load several one after the other, as each takes the module registry. */
export async function loadN8nProcess(
	name: string,
	credential: CredentialFields,
): Promise<N8nProcess> {
	let loaded: N8nProcess | undefined;
	await jest.isolateModulesAsync(async () => {
		const { captureLogs } = await import('./reliability-logs');
		const { credentialsHelper, getMany } = await import('./reliability');
		captureLogs();
		const helper = credentialsHelper(credential);
		loaded = { name, getMany: async (parameters) => await getMany(helper, parameters) };
	});
	if (loaded === undefined) throw new Error(`n8n process ${name} did not load`);
	return loaded;
}
