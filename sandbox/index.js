// @ts-check
'use strict';

const http = require('node:http');
const https = require('node:https');
const { Auth } = require('./auth');
const { createClock } = require('./clock');
const { createControlRouter } = require('./control');
const { createCursorCodec } = require('./cursor');
const { createFaults } = require('./faults');
const { createRawEntries } = require('./raw-entries');
const { DEFAULT_CLIENTS, DEFAULT_COMPANIES, SANDBOX_FIXTURES } = require('./fixtures');
const { wholeNumber } = require('./errors');
const { createRandom, deriveSeed } = require('./random');
const { createRateLimiter } = require('./rate-limit');
const { createRequestListener } = require('./server');
const { Store } = require('./store');
const { createSandboxCertificate, tlsVersionOf } = require('./tls');

/** @typedef {import('./fixtures').SandboxClient} SandboxClient */
/** @typedef {import('./fixtures').SandboxCompany} SandboxCompany */
/** @typedef {import('./server').RequestLogEntry} RequestLogEntry */
/** @typedef {import('./tls').TlsVersion} TlsVersion */
/** @typedef {import('./types').Project} Project */
/** @typedef {ReturnType<typeof sandboxApi>} Sandbox */

/**
 * Each option's meaning and default: sandbox/README.md, "startSandbox(options)".
 * @typedef {object} SandboxOptions
 * @property {number} [port]
 * @property {number} [seed]
 * @property {number} [projects]
 * @property {import('./data').PartyCounts} [partyCounts]
 * @property {number} [tokenTtlSeconds]
 * @property {import('./rate-limit').RateLimit | false} [rateLimit]
 * @property {number} [cacheSeconds]
 * @property {number} [windowDays]
 * @property {Date | string | number} [now]
 * @property {SandboxClient[]} [clients]
 * @property {SandboxCompany[]} [companies]
 * @property {{ tlsVersion?: import('./tls').TlsVersion }} [https]
 */

const MAX_LOGGED_REQUESTS = 100_000;

/** @param {unknown} value @param {string} name @param {number} min @param {number} max */
const option = (value, name, min, max) => wholeNumber(value, `startSandbox: ${name}`, min, max);

/**
 * @template {object} T
 * @param {readonly T[]} defaults
 * @param {T[] | undefined} extra
 * @param {(item: T) => string} key
 */
function mergeById(defaults, extra, key) {
	/** @type {Map<string, T>} */
	const merged = new Map(defaults.map((item) => [key(item), item]));
	for (const item of extra ?? []) merged.set(key(item), item);
	return [...merged.values()];
}

/**
 * The sandbox's data and clock, without a server: what startSandbox serves. Synchronous, for
 * tests that only need the projects an account would list.
 * @param {Pick<SandboxOptions, 'seed' | 'projects' | 'partyCounts' | 'windowDays' | 'now' | 'companies'>} [options]
 */
function createSandboxData(options = {}) {
	const seed = option(options.seed ?? 1, 'seed', 0, 2 ** 32 - 1);
	const projectCount = option(options.projects ?? 60, 'projects', 0, 1_000_000);
	const windowDays = option(options.windowDays ?? 60, 'windowDays', 0, 3650);
	const partyCounts = { ...options.partyCounts };
	for (const [kind, count] of Object.entries(partyCounts)) {
		option(count, `partyCounts.${kind}`, 0, 8);
	}
	const companies = mergeById(DEFAULT_COMPANIES, options.companies, (company) => company.companyId);
	const clock = createClock(options.now);
	const store = new Store({
		dataRandom: createRandom(deriveSeed(seed, 'data')),
		controlRandom: createRandom(deriveSeed(seed, 'control')),
		clock,
		projectCount,
		windowDays,
		companies,
		partyCounts,
	});
	return { seed, clock, store };
}

/** startSandbox's server options, checked, with their defaults. @param {SandboxOptions} options */
function serverSettings(options) {
	const port = option(options.port ?? 0, 'port', 0, 65535);
	const ttl = option(options.tokenTtlSeconds ?? 3600, 'tokenTtlSeconds', 1, 86_400 * 365);
	const cacheSeconds = options.cacheSeconds ?? 5;
	if (typeof cacheSeconds !== 'number' || !(cacheSeconds >= 0)) {
		throw new Error(
			`startSandbox: cacheSeconds must be a number of seconds, 0 or more (got ${JSON.stringify(cacheSeconds)})`,
		);
	}
	const rateLimit = options.rateLimit ?? { requests: 100, windowSeconds: 300 };
	if (rateLimit !== false) {
		option(rateLimit.requests, 'rateLimit.requests', 1, 1_000_000);
		option(rateLimit.windowSeconds, 'rateLimit.windowSeconds', 1, 86_400);
	}
	const clients = mergeById(DEFAULT_CLIENTS, options.clients, (client) => client.clientId);
	const tlsVersion =
		options.https === undefined ? undefined : tlsVersionOf(options.https.tlsVersion);
	return { port, tokenTtlSeconds: ttl, cacheSeconds, rateLimit, clients, tlsVersion };
}

/** Timers that stop() cuts short, so a stopped sandbox leaves none behind. */
function createDelays() {
	/** @type {Set<() => void>} */
	const pending = new Set();
	/** @param {number} ms */
	const delay = (ms) =>
		new Promise((resolve) => {
			const finish = () => {
				clearTimeout(timer);
				pending.delete(finish);
				resolve(undefined);
			};
			const timer = setTimeout(finish, ms);
			pending.add(finish);
		});
	return { delay, cancelAll: () => pending.forEach((finish) => finish()) };
}

function createRequestLog() {
	/** @type {RequestLogEntry[]} */
	let entries = [];
	return {
		/** @param {RequestLogEntry} entry */
		add(entry) {
			entries.push(entry);
			// Long soak or bench runs must not grow the log without bound; keep the newest entries.
			if (entries.length > MAX_LOGGED_REQUESTS)
				entries.splice(0, entries.length - MAX_LOGGED_REQUESTS);
		},
		list: () => entries.map((entry) => ({ ...entry })),
		reset() {
			entries = [];
		},
	};
}

/**
 * @typedef {Pick<import('./server').ServerContext, 'clock' | 'auth' | 'faults' | 'rawEntries' | 'cache'>
 *   & { store: Store, seed: number, requestLog: ReturnType<typeof createRequestLog>, settings: { latencyMs: number } }} SandboxParts
 */

/**
 * The control functions over the sandbox's parts; url, port, stop and (over HTTPS)
 * setTlsVersion are set once the server listens.
 * @param {SandboxParts} parts
 * @param {string | undefined} certificate PEM that an HTTPS sandbox serves, for a client's `ca`
 */
function sandboxApi(parts, certificate) {
	const { seed, clock, store, auth, faults, rawEntries, requestLog, cache, settings } = parts;
	return {
		url: '',
		certificate,
		port: 0,
		seed,
		fixtures: SANDBOX_FIXTURES,
		stop: async () => {},
		clock: { now: clock.now, advance: clock.advance },
		/** @type {(options?: import('./store').OpenTenderOptions) => import('./types').SandboxTender} */
		openTender: (tenderOptions) => store.openTender(tenderOptions),
		openTenderWithId: store.openTenderWithId.bind(store),
		closeTender: store.closeTender.bind(store),
		updateTender: store.updateTender.bind(store),
		redateTender: store.redateTender.bind(store),
		addTenderUnderBuilder: store.addTenderUnderBuilder.bind(store),
		getTender: store.getTender.bind(store),
		listOpen: store.listOpen.bind(store),
		history: store.history.bind(store),
		counts: store.counts.bind(store),
		revokeTokens: auth.revokeTokens.bind(auth),
		tokensIssued: auth.tokensIssued.bind(auth),
		requests: requestLog.list,
		resetRequests: requestLog.reset,
		injectFault: faults.inject,
		setFaultRates: faults.setRates,
		clearFaults: faults.clear,
		faultsInjected: faults.injected,
		/** @param {number} ms added to every API request */
		setLatency: (ms) => {
			settings.latencyMs = wholeNumber(ms, 'setLatency(ms)', 0, 600_000);
		},
		clearCache: () => cache.clear(),
		// A cached first page would hide the change until it expires.
		/** @param {string} companyId @param {{ entry: unknown, at?: number }} request */
		addRawEntry: (companyId, request) => {
			const count = rawEntries.add(companyId, request);
			cache.clear();
			return count;
		},
		/** @param {string} companyId */
		clearRawEntries: (companyId) => {
			rawEntries.clear(companyId);
			cache.clear();
		},
		/** @type {(version: TlsVersion | undefined) => void} */
		setTlsVersion: () => {
			throw new Error(
				'setTlsVersion: this sandbox serves plain HTTP; start it with the https option',
			);
		},
	};
}

/** @param {{ cert: string, key: string }} certificate @param {TlsVersion | undefined} version */
const tlsOptions = ({ cert, key }, version) => ({
	cert,
	key,
	minVersion: version ?? 'TLSv1.2',
	maxVersion: version ?? 'TLSv1.3',
});

/** @param {http.Server} server @param {number} port @returns {Promise<number>} the port */
async function listen(server, port) {
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () => {
			server.off('error', reject);
			resolve(undefined);
		});
	});
	return /** @type {import('node:net').AddressInfo} */ (server.address()).port;
}

/**
 * Starts the local Supplier Matched-Projects API on a loopback port.
 * @param {SandboxOptions} [options]
 * @returns {Promise<Sandbox>}
 */
async function startSandbox(options = {}) {
	const { port, tokenTtlSeconds, cacheSeconds, rateLimit, clients, tlsVersion } =
		serverSettings(options);
	const { seed, clock, store } = createSandboxData(options);
	const certificate = options.https === undefined ? undefined : await createSandboxCertificate();
	store.warm();
	const auth = new Auth({ clients, clock, tokenTtlSeconds });
	const faults = createFaults();
	const rawEntries = createRawEntries();
	const requestLog = createRequestLog();
	/** @type {SandboxParts['cache']} */
	const cache = new Map();
	const settings = { latencyMs: 0 };
	const delays = createDelays();
	const parts = { seed, clock, store, auth, faults, rawEntries, requestLog, cache, settings };
	const sandbox = sandboxApi(parts, certificate?.cert);
	const listener = createRequestListener({
		...parts,
		orderings: store.orderings,
		limiter: createRateLimiter(rateLimit, clock),
		cursors: createCursorCodec(),
		cacheSeconds,
		latencyMs: () => settings.latencyMs,
		delay: delays.delay,
		log: requestLog.add,
		url: () => sandbox.url,
		control: createControlRouter(sandbox),
	});
	const server =
		certificate === undefined
			? http.createServer(listener)
			: https.createServer(tlsOptions(certificate, tlsVersion), listener);
	sandbox.port = await listen(server, port);
	sandbox.url = `${certificate === undefined ? 'http' : 'https'}://127.0.0.1:${sandbox.port}`;
	if (certificate !== undefined && server instanceof https.Server) {
		sandbox.setTlsVersion = (version) =>
			server.setSecureContext(tlsOptions(certificate, tlsVersionOf(version)));
	}
	/** @type {Promise<void> | undefined} */
	let stopping;
	sandbox.stop = () => {
		stopping ??= new Promise((resolve) => {
			server.close(() => resolve());
			server.closeAllConnections();
			delays.cancelAll();
		});
		return stopping;
	};
	return sandbox;
}

module.exports = { startSandbox, createSandboxData, SANDBOX_FIXTURES };
