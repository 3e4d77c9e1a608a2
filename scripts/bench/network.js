// @ts-check
'use strict';

/**
 * The network view of the bench: every client walks the pages over HTTPS through the latency
 * proxy, at RTT 20 and 100 ms, TLS 1.3 and 1.2, 10 and 100 pages. The sandbox and the proxy stay
 * in this process; the clients run in network-worker.js, which trusts the sandbox's certificate
 * through NODE_EXTRA_CA_CERTS. What each walk cost is counted where it happened: connections and
 * TLS handshakes at the proxy, page and token requests in the sandbox's log.
 */

const { writeTrustFiles } = require('../../sandbox/tls');
const { startLatencyProxy } = require('./latency-proxy');
const { fixed } = require('./tables');
const { countRequests, startBenchSandbox } = require('./sandbox');
const { pagesFor, MAX_PAGE_SIZE } = require('./floors');
const { startWorker } = require('./worker');

/** @typedef {import('./network-worker').NetworkClientKey} NetworkClientKey */
/** @typedef {import('../../sandbox/tls').TlsVersion} TlsVersion */

const RTTS_MS = [20, 100];
const TLS_VERSIONS = /** @type {const} */ (['TLSv1.3', 'TLSv1.2']);
const PROJECTS = [1_000, 10_000];
/** @type {NetworkClientKey[]} */
const CLIENTS = ['keepAlive', 'perRequest', 'recipe', 'ours'];
/** Requests of the agent options probe. */
const PROBE_REQUESTS = 5;
const CLIENT_NAMES = /** @type {Record<NetworkClientKey, string>} */ ({
	keepAlive: 'plain client, keep-alive',
	perRequest: 'plain client, new connection per request',
	recipe: 'recipe (HTTP Request + OAuth2)',
	ours: 'ours',
});
/** Round trips a full handshake takes before the client may send its request. */
const HANDSHAKE_ROUND_TRIPS = /** @type {Record<TlsVersion, number>} */ ({
	'TLSv1.3': 1,
	'TLSv1.2': 2,
});

/**
 * Round trips a walk waited for, from what was counted: one per new TCP connection, one or two
 * per full TLS handshake (no client here resumes a session), one per request.
 * @param {{ connections: number, handshakes: number, requests: number }} counted
 * @param {TlsVersion} tlsVersion
 */
function roundTrips({ connections, handshakes, requests }, tlsVersion) {
	return connections + handshakes * HANDSHAKE_ROUND_TRIPS[tlsVersion] + requests;
}

/**
 * @typedef {object} NetworkWalk
 * @property {NetworkClientKey} client
 * @property {number} wallMs
 * @property {number} connections TCP connections accepted by the proxy
 * @property {number} handshakes ClientHello messages seen by the proxy
 * @property {number} requests page and token requests the sandbox logged
 * @property {number} roundTrips connections + handshakes × round trips per handshake + requests
 */

/**
 * @typedef {object} NetworkRow
 * @property {TlsVersion} tlsVersion
 * @property {number} rttMs
 * @property {number} pages
 * @property {number} floorMs pages × RTT
 * @property {NetworkWalk[]} walks
 */

/** @typedef {{ bench: import('./sandbox').BenchSandbox, proxy: import('./latency-proxy').LatencyProxy, pages: number }} Setup */
/** @typedef {Awaited<ReturnType<typeof startWorker>>} Worker */

/**
 * One walk of a client through the setup's proxy, counted afresh.
 * @param {Worker} worker
 * @param {Setup} setup
 * @param {NetworkClientKey} client
 */
async function walk(worker, { bench, proxy }, client) {
	bench.sandbox.resetRequests();
	proxy.reset();
	/** @type {number} */
	const wallMs = await worker.run({
		key: client,
		target: {
			url: `https://${proxy.host}:${proxy.port}`,
			companyId: bench.companyId,
			client: bench.client,
		},
		projects: bench.projects,
	});
	return { wallMs, counts: proxy.counts(), requests: countRequests(bench.sandbox) };
}

/**
 * @param {Worker} worker
 * @param {Setup} setup
 * @param {(line: string) => void} progress
 * @returns {Promise<NetworkRow[]>} one row per TLS version and RTT
 */
async function measureSetup(worker, setup, progress) {
	/** @type {NetworkRow[]} */
	const rows = [];
	// Untimed walks without latency give every client its token and fill the sandbox's cache.
	for (const client of CLIENTS) await walk(worker, setup, client);
	for (const tlsVersion of TLS_VERSIONS) {
		setup.bench.sandbox.setTlsVersion(tlsVersion);
		for (const rttMs of RTTS_MS) {
			progress(`  ${tlsVersion}, RTT ${rttMs} ms, ${setup.pages} pages`);
			setup.proxy.setRtt(rttMs);
			/** @type {NetworkWalk[]} */
			const walks = [];
			for (const client of CLIENTS) {
				const { wallMs, counts, requests } = await walk(worker, setup, client);
				if (requests.results !== setup.pages || requests.tokens !== 0 || requests.failed > 0) {
					throw new Error(
						`${client} sent ${requests.results} page and ${requests.tokens} token requests (${requests.failed} failed) in a warm walk of ${setup.pages} pages`,
					);
				}
				const counted = {
					connections: counts.connections,
					handshakes: counts.clientHellos,
					requests: requests.results + requests.tokens,
				};
				walks.push({ client, wallMs, ...counted, roundTrips: roundTrips(counted, tlsVersion) });
			}
			setup.proxy.setRtt(0);
			rows.push({ tlsVersion, rttMs, pages: setup.pages, floorMs: setup.pages * rttMs, walks });
		}
	}
	return rows;
}

/**
 * Whether agentOptions can keep a connection for n8n's helper: counted, not read from the source.
 * @param {Worker} worker
 * @param {Setup} setup
 */
async function probeAgentOptions(worker, { bench, proxy }) {
	bench.sandbox.setTlsVersion(undefined);
	proxy.setRtt(0);
	proxy.reset();
	await worker.run({
		probe: 'agentOptionsKeepAlive',
		url: `https://${proxy.host}:${proxy.port}/swagger/doc`,
		requests: PROBE_REQUESTS,
	});
	return {
		requests: PROBE_REQUESTS,
		connections: proxy.counts().connections,
		handshakes: proxy.counts().clientHellos,
	};
}

/**
 * @param {{ progress: (line: string) => void }} options
 * @returns {Promise<{ rows: NetworkRow[], agentOptionsProbe: { requests: number, connections: number, handshakes: number } }>}
 */
async function measureNetwork({ progress }) {
	/** @type {Setup[]} */
	const setups = [];
	/** @type {ReturnType<typeof writeTrustFiles> | undefined} */
	let trust;
	/** @type {Worker | undefined} */
	let worker;
	try {
		for (const projects of PROJECTS) {
			progress(`  HTTPS sandbox with ${fixed(projects)} projects behind a latency proxy`);
			const bench = await startBenchSandbox({ projects, https: true });
			const proxy = await startLatencyProxy({
				target: { host: '127.0.0.1', port: bench.sandbox.port },
				rttMs: 0,
			});
			setups.push({ bench, proxy, pages: pagesFor(projects, MAX_PAGE_SIZE) });
		}
		trust = writeTrustFiles(setups.map(({ bench }) => bench.sandbox.certificate ?? '').join('\n'));
		worker = await startWorker('network-worker.js', {
			env: { ...process.env, NODE_EXTRA_CA_CERTS: trust.bundleFile },
		});
		/** @type {NetworkRow[]} */
		const rows = [];
		// One setup after the other: our node's client starts with a fresh token cache for the whole
		// process, so a second setup's client would drop the first one's token.
		for (const setup of setups) rows.push(...(await measureSetup(worker, setup, progress)));
		const agentOptionsProbe = await probeAgentOptions(worker, setups[0]);
		rows.sort(
			(a, b) =>
				TLS_VERSIONS.indexOf(a.tlsVersion) - TLS_VERSIONS.indexOf(b.tlsVersion) ||
				a.rttMs - b.rttMs ||
				a.pages - b.pages,
		);
		return { rows, agentOptionsProbe };
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
 * What the agent options probe counted, in one line.
 * @param {{ agentOptionsProbe: { requests: number, connections: number, handshakes: number } }} network
 */
function probeLine({ agentOptionsProbe: probe }) {
	return `n8n's request helper with agentOptions { keepAlive: true, maxSockets: 1 } in one execution: ${probe.requests} requests opened ${probe.connections} connections with ${probe.handshakes} TLS handshakes (counted at the proxy). Method: docs/benchmarks.md.`;
}

/**
 * @param {{ rows: NetworkRow[] }} network
 * @returns {Array<{ title: string, headers: string[], rows: string[][] }>}
 */
function networkSections(network) {
	/** @param {NetworkRow} row */
	const label = (row) => [
		row.tlsVersion.replace('TLSv', 'TLS '),
		`${row.rttMs} ms`,
		String(row.pages),
	];
	/**
	 * @param {NetworkRow} row
	 * @param {NetworkClientKey} key
	 */
	const walkOf = (row, key) => {
		const found = row.walks.find((entry) => entry.client === key);
		if (found === undefined) throw new Error(`no ${key} walk in the network results`);
		return found;
	};
	return [
		{
			title:
				'Wall time of a full walk over HTTPS through the latency proxy (× floor = pages × RTT), warm token',
			headers: ['TLS', 'RTT', 'pages', 'floor', ...CLIENTS.map((key) => CLIENT_NAMES[key])],
			rows: network.rows.map((row) => [
				...label(row),
				`${fixed(row.floorMs)} ms`,
				...CLIENTS.map((key) => {
					const walk = walkOf(row, key);
					return `${fixed(walk.wallMs)} ms (${fixed(walk.wallMs / row.floorMs, 2)}×)`;
				}),
			]),
		},
		{
			title:
				'Round trips per page, counted: connections and TLS handshakes at the proxy, requests at the sandbox (waited: wall ÷ RTT ÷ pages)',
			headers: ['TLS', 'RTT', 'pages', ...CLIENTS.map((key) => CLIENT_NAMES[key])],
			rows: network.rows.map((row) => [
				...label(row),
				...CLIENTS.map((key) => {
					const walk = walkOf(row, key);
					return `${fixed(walk.roundTrips / row.pages, 2)} (${walk.connections} conn, ${walk.handshakes} TLS; waited ${fixed(walk.wallMs / row.rttMs / row.pages, 2)})`;
				}),
			]),
		},
		{
			title: 'Ours against the recipe: round trips per page (counted) and wall time',
			headers: ['TLS', 'RTT', 'pages', 'ours', 'recipe', 'ours − recipe', 'ours ÷ recipe, wall'],
			rows: network.rows.map((row) => {
				const [ours, recipe] = [walkOf(row, 'ours'), walkOf(row, 'recipe')];
				const [oursPerPage, recipePerPage] = [ours, recipe].map(
					(walk) => walk.roundTrips / row.pages,
				);
				return [
					...label(row),
					fixed(oursPerPage, 2),
					fixed(recipePerPage, 2),
					`${oursPerPage - recipePerPage > 0 ? '+' : ''}${fixed(oursPerPage - recipePerPage, 2)}`,
					`${fixed(ours.wallMs / recipe.wallMs, 2)}×`,
				];
			}),
		},
	];
}

module.exports = { measureNetwork, networkSections, probeLine, roundTrips };
