// @ts-check
'use strict';

/**
 * The clients' side of the network bench, in a process of its own, started by network.js with
 * NODE_EXTRA_CA_CERTS naming a file that holds the sandbox's certificate (after the authorities
 * its parent already trusted): the way an n8n user makes n8n trust a private certificate, with
 * verification on. It walks on request and answers over IPC; the parent keeps the sandbox and
 * the latency proxy, and counts.
 *
 * Messages in: { key, target, projects } walks every page with that client (one client object per
 * key and target, so tokens stay warm between walks); { probe, url, requests } runs agent-probe.js.
 * Out: { ok: true, wallMs } or { ok: false, error }.
 */

const { installRuntime } = require('./runtime');

/** @typedef {import('./clients').Target} Target */
/** @typedef {import('./clients').Client} Client */
/** @typedef {import('n8n-workflow').IVersionedNodeType} IVersionedNodeType */
/** @typedef {import('n8n-workflow').ICredentialType} ICredentialType */
/** @typedef {'keepAlive' | 'perRequest' | 'recipe' | 'ours'} NetworkClientKey */
/** @typedef {{ key: NetworkClientKey, target: Target, projects: number }} WalkJob */
/** @typedef {{ probe: 'agentOptionsKeepAlive', url: string, requests: number }} ProbeJob */
/** @typedef {{ ok: true, wallMs: number } | { ok: false, error: string }} WalkAnswer */

async function main() {
	const runtime = await installRuntime();
	const clients = /** @type {typeof import('./clients')} */ (require('./clients'));
	const { plainHttpsClient } = require('./https-clients');
	const { HttpRequest } = /** @type {{ HttpRequest: new () => IVersionedNodeType }} */ (
		runtime.requireFromN8n('n8n-nodes-base/dist/nodes/HttpRequest/HttpRequest.node.js')
	);
	const { OAuth2Api } = /** @type {{ OAuth2Api: new () => ICredentialType }} */ (
		runtime.requireFromN8n('n8n-nodes-base/dist/credentials/OAuth2Api.credentials.js')
	);
	const n8nBase = { httpRequestNode: new HttpRequest(), oauth2Credential: new OAuth2Api() };
	/** @type {Map<string, Client>} */
	const made = new Map();
	/**
	 * @param {NetworkClientKey} key
	 * @param {Target} target
	 * @returns {Client}
	 */
	const clientFor = (key, target) => {
		const id = `${key} ${target.url} ${target.companyId}`;
		let client = made.get(id);
		if (client === undefined) {
			if (key === 'ours') client = clients.ourNode(target);
			else if (key === 'recipe') client = clients.recipe(target, n8nBase);
			else client = plainHttpsClient(target, { name: key, keepAlive: key === 'keepAlive' });
			made.set(id, client);
		}
		return client;
	};

	const { requestsWithKeepAliveAgentOptions } = require('./agent-probe');
	/** @param {unknown} error */
	const failed = (error) => ({
		ok: false,
		error: error instanceof Error ? error.message : String(error),
	});

	process.on('message', (/** @type {WalkJob | ProbeJob} */ job) => {
		if ('probe' in job) {
			const start = performance.now();
			requestsWithKeepAliveAgentOptions(job.url, job.requests).then(
				() => process.send?.({ ok: true, wallMs: performance.now() - start }),
				(/** @type {unknown} */ error) => process.send?.(failed(error)),
			);
			return;
		}
		const client = clientFor(job.key, job.target);
		client.freshBudget();
		const start = performance.now();
		client.walk().then(
			(result) => {
				const wallMs = performance.now() - start;
				const delivered = result.projects();
				/** @type {WalkAnswer} */
				const answer =
					delivered === job.projects
						? { ok: true, wallMs }
						: { ok: false, error: `${job.key} delivered ${delivered} of ${job.projects} projects` };
				process.send?.(answer);
			},
			(/** @type {unknown} */ error) =>
				process.send?.({
					ok: false,
					error: `${job.key}: ${error instanceof Error ? error.message : String(error)}`,
				}),
		);
	});
	process.on('disconnect', () => {
		for (const client of made.values()) client.forget();
	});
	process.send?.({ ready: true });
}

main().catch((/** @type {unknown} */ error) => {
	process.send?.({ ok: false, error: error instanceof Error ? error.message : String(error) });
	process.exitCode = 1;
});
