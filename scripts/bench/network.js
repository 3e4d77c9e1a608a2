// @ts-check
'use strict';

/**
 * The network view: every client walks the pages over HTTPS through the latency proxy, at RTT 20
 * and 100 ms, TLS 1.3 and 1.2, 10 and 100 pages. The sandbox and the proxy stay in this process;
 * the clients run in a worker whose NODE_EXTRA_CA_CERTS names the sandbox's certificate, as an
 * n8n user makes n8n trust a private one, verification on. What a walk cost is counted where it
 * happened: connections and TLS handshakes at the proxy, requests in the sandbox's log.
 */

const { writeTrustFiles } = require('../../sandbox/tls');
const { pagesFor, MAX_PAGE_SIZE } = require('./floors');
const { startLatencyProxy } = require('./latency-proxy');
const { countRequests, startWalkSandbox } = require('./sandbox');
const { fixed } = require('./tables');
const { startWorker } = require('./worker');

/** @typedef {import('../../sandbox/tls').TlsVersion} TlsVersion */
/** @typedef {'keepAlive' | 'perRequest' | 'recipe' | 'ours'} ClientKey */
/** @typedef {{ wallMs: number, connections: number, handshakes: number, requests: number, roundTrips: number }} NetworkWalk */
/** @typedef {{ tlsVersion: TlsVersion, rttMs: number, pages: number, floorMs: number, walks: Record<ClientKey, NetworkWalk> }} NetworkRow */

const RTTS_MS = [20, 100];
const TLS_VERSIONS = /** @type {const} */ (['TLSv1.3', 'TLSv1.2']);
const PROJECTS = [1_000, 10_000];
/** @type {Record<ClientKey, string>} */
const CLIENTS = {
	keepAlive: 'plain client, keep-alive',
	perRequest: 'plain client, new connection per request',
	recipe: 'recipe (HTTP Request + OAuth2)',
	ours: 'ours',
};
const PROBE_REQUESTS = 5;

const CLIENT_KEYS = /** @type {ClientKey[]} */ (Object.keys(CLIENTS));

/**
 * Round trips a walk waited for: one per TCP connection, one (TLS 1.3) or two (TLS 1.2) per full
 * handshake (no client here resumes a session), one per request.
 * @param {{ connections: number, handshakes: number, requests: number }} counted
 * @param {TlsVersion} tlsVersion
 */
function roundTrips({ connections, handshakes, requests }, tlsVersion) {
	return connections + handshakes * (tlsVersion === 'TLSv1.2' ? 2 : 1) + requests;
}

/** @typedef {{ bench: import('./sandbox').BenchSandbox, proxy: Awaited<ReturnType<typeof startLatencyProxy>>, pages: number }} Setup */

/**
 * A walk of a client through the setup's proxy, counted afresh.
 * @param {Awaited<ReturnType<typeof startWorker>>} worker
 * @param {Setup} setup
 * @param {ClientKey} key
 */
async function walk(worker, { bench, proxy }, key) {
	bench.sandbox.resetRequests();
	proxy.reset();
	const target = { ...bench.target, url: `https://${proxy.host}:${proxy.port}` };
	/** @type {number} */
	const wallMs = await worker.run({ kind: 'walk', key, target, projects: bench.projects });
	return { wallMs, ...countRequests(bench.sandbox), ...proxy.counts() };
}

/**
 * @param {Awaited<ReturnType<typeof startWorker>>} worker
 * @param {Setup} setup
 * @param {TlsVersion} tlsVersion
 */
async function measureSetup(worker, setup, tlsVersion) {
	const walks = /** @type {Record<ClientKey, NetworkWalk>} */ ({});
	for (const key of CLIENT_KEYS) {
		const { wallMs, results, tokens, failed, connections, clientHellos } = await walk(
			worker,
			setup,
			key,
		);
		if (results !== setup.pages || tokens !== 0 || failed > 0) {
			throw new Error(
				`${key} sent ${results} page and ${tokens} token requests (${failed} failed) in a warm walk of ${setup.pages} pages`,
			);
		}
		const counted = { connections, handshakes: clientHellos, requests: results };
		walks[key] = { wallMs, ...counted, roundTrips: roundTrips(counted, tlsVersion) };
	}
	return walks;
}

/** @param {(line: string) => void} progress */
async function measureNetwork(progress) {
	/** @type {Setup[]} */
	const setups = [];
	let worker;
	let trust;
	try {
		for (const projects of PROJECTS) {
			progress(`  HTTPS sandbox with ${fixed(projects)} projects behind a latency proxy`);
			const bench = await startWalkSandbox(projects, true);
			const target = { host: '127.0.0.1', port: bench.sandbox.port };
			const proxy = await startLatencyProxy({ target, rttMs: 0 });
			setups.push({ bench, proxy, pages: pagesFor(projects, MAX_PAGE_SIZE) });
		}
		trust = writeTrustFiles(setups.map(({ bench }) => bench.sandbox.certificate).join('\n'));
		worker = await startWorker(__filename, {
			env: { ...process.env, NODE_EXTRA_CA_CERTS: trust.bundleFile },
		});
		// Untimed walks without latency give every client its token and fill the sandbox's cache.
		for (const setup of setups) for (const key of CLIENT_KEYS) await walk(worker, setup, key);
		/** @type {NetworkRow[]} */
		const rows = [];
		for (const tlsVersion of TLS_VERSIONS) {
			for (const rttMs of RTTS_MS) {
				for (const setup of setups) {
					progress(`  ${tlsVersion}, RTT ${rttMs} ms, ${setup.pages} pages`);
					setup.bench.sandbox.setTlsVersion(tlsVersion);
					setup.proxy.setRtt(rttMs);
					const walks = await measureSetup(worker, setup, tlsVersion);
					setup.proxy.setRtt(0);
					rows.push({ tlsVersion, rttMs, pages: setup.pages, floorMs: setup.pages * rttMs, walks });
				}
			}
		}
		// Whether agentOptions keep a connection for n8n's request helper: counted, not read.
		const [{ bench, proxy }] = setups;
		bench.sandbox.setTlsVersion(undefined);
		proxy.reset();
		const url = `https://${proxy.host}:${proxy.port}/swagger/doc`;
		await worker.run({ kind: 'probe', url, requests: PROBE_REQUESTS });
		const { connections, clientHellos: handshakes } = proxy.counts();
		return { rows, agentOptionsProbe: { requests: PROBE_REQUESTS, connections, handshakes } };
	} finally {
		await worker?.stop();
		trust?.remove();
		for (const { bench, proxy } of setups) {
			await proxy.stop();
			await bench.sandbox.stop();
		}
	}
}

/**
 * The agent options probe's count, in one line.
 * @param {{ agentOptionsProbe: { requests: number, connections: number, handshakes: number } }} network
 */
function probeLine({ agentOptionsProbe: probe }) {
	return `n8n's request helper with agentOptions { keepAlive: true, maxSockets: 1 } in one execution: ${probe.requests} requests opened ${probe.connections} connections with ${probe.handshakes} TLS handshakes (counted at the proxy). Method: docs/benchmarks.md.`;
}

/**
 * @param {{ rows: NetworkRow[] }} network
 * @returns {import('./tables').Section[]}
 */
function networkSections({ rows }) {
	/**
	 * @param {string[]} first the columns before the clients'
	 * @param {(walk: NetworkWalk, row: NetworkRow) => string} cell
	 */
	const table = (first, cell) => ({
		headers: ['TLS', 'RTT', 'pages', ...first, ...Object.values(CLIENTS)],
		rows: rows.map((row) => [
			row.tlsVersion.replace('TLSv', 'TLS '),
			`${row.rttMs} ms`,
			String(row.pages),
			...(first.length > 0 ? [`${fixed(row.floorMs)} ms`] : []),
			...CLIENT_KEYS.map((key) => cell(row.walks[key], row)),
		]),
	});
	return [
		{
			title:
				'Wall time of a full walk over HTTPS through the latency proxy (× floor = pages × RTT), warm token',
			...table(['floor'], (walk, row) => {
				return `${fixed(walk.wallMs)} ms (${fixed(walk.wallMs / row.floorMs, 2)}×)`;
			}),
		},
		{
			title:
				'Round trips per page, counted: connections and TLS handshakes at the proxy, requests at the sandbox (waited: wall ÷ RTT ÷ pages)',
			...table([], (walk, row) => {
				const perPage = (/** @type {number} */ value) => fixed(value / row.pages, 2);
				return `${perPage(walk.roundTrips)} (${walk.connections} conn, ${walk.handshakes} TLS; waited ${perPage(walk.wallMs / row.rttMs)})`;
			}),
		},
	];
}

/** @type {Map<string, import('./clients').Client>} */
const made = new Map();

/**
 * The worker's jobs. A walk answers its wall time; one client per key and target, so tokens stay
 * warm between walks.
 */
const networkJobs = {
	/** @param {{ key: ClientKey, target: import('./clients').Target, projects: number }} job */
	walk: async ({ key, target, projects }) => {
		const clients = require('./clients');
		const { n8nBase } = await require('./runtime').installRuntime();
		const id = `${key} ${target.url}`;
		const client =
			made.get(id) ??
			(key === 'ours'
				? clients.ourNode(target)
				: key === 'recipe'
					? clients.recipe(target, n8nBase())
					: clients.plainClient(target, { name: key, pageSize: MAX_PAGE_SIZE, connection: key }));
		made.set(id, client);
		const { wallMs } = await clients.timedWalk(client, projects);
		return wallMs;
	},
	/** @param {{ url: string, requests: number }} job */
	probe: ({ url, requests }) => requestsWithKeepAliveAgentOptions(url, requests),
};

/**
 * A one-node workflow whose node sends `requests` GETs in a row through this.helpers.httpRequest
 * with agentOptions { keepAlive: true, maxSockets: 1 }, the only connection options
 * IHttpRequestOptions takes; the proxy in front of `url` counts the connections.
 * @param {string} url
 * @param {number} requests
 */
async function requestsWithKeepAliveAgentOptions(url, requests) {
	const { TestCredentialsHelper, runNode } = require('./clients');
	/** @type {import('n8n-workflow').INodeType} */
	const nodeType = {
		description: {
			displayName: 'Agent options probe',
			name: 'agentOptionsProbe',
			group: ['transform'],
			version: 1,
			description: 'Sends requests through the helper with keep-alive agent options',
			defaults: { name: 'Agent options probe' },
			inputs: ['main'],
			outputs: ['main'],
			properties: [],
		},
		async execute() {
			for (let index = 0; index < requests; index++) {
				const agentOptions = { keepAlive: true, maxSockets: 1 };
				await this.helpers.httpRequest({ url, json: true, agentOptions });
			}
			return [[{ json: {} }]];
		},
	};
	const credentialsHelper = new TestCredentialsHelper([]);
	const run = await runNode({ nodeType, parameters: {}, credentialsHelper });
	if (run.error !== undefined)
		throw new Error(`the agent options probe failed: ${run.error.message}`);
}

module.exports = {
	measureNetwork,
	networkSections,
	probeLine,
	roundTrips,
	workerJobs: networkJobs,
};
