// @ts-check
'use strict';

/**
 * A TCP proxy on loopback that makes a loopback connection behave like one across a network with
 * a given round-trip time, and counts what crosses it. Every chunk is held for half the RTT in
 * each direction. A new connection also holds the client's first bytes until one RTT after the
 * accept: loopback completes the TCP handshake at once, where a network makes the client wait a
 * round trip (SYN, SYN-ACK) before it can send. So a TCP connect, each TLS handshake flight and each
 * request cost what they cost on a network, and nothing else is changed (no bandwidth limit, no
 * loss). Counted at the proxy, not inferred: connections accepted, TLS ClientHello messages in the
 * client's bytes (one per handshake, full or resumed) and the bytes each way.
 */

const net = require('node:net');

const { createClientHelloCounter } = require('./tls-records');

/**
 * @typedef {object} ProxyCounts
 * @property {number} connections TCP connections the clients opened
 * @property {number} clientHellos TLS handshakes the clients started
 * @property {number} bytesUp client to server
 * @property {number} bytesDown server to client
 */

/**
 * @typedef {object} LatencyProxy
 * @property {string} host
 * @property {number} port
 * @property {() => ProxyCounts} counts since the last reset
 * @property {() => void} reset
 * @property {(rttMs: number) => void} setRtt applies to chunks that arrive from then on
 * @property {() => Promise<void>} stop closes the listener and every connection
 */

/** What one direction of a connection still has to deliver: chunks, or the end of the stream. */
/** @typedef {{ at: number, chunk: Buffer | null }} Pending */

/**
 * Delivers chunks to `to` in order, each no earlier than its `at`.
 * @param {net.Socket} to
 * @param {Set<NodeJS.Timeout>} timers every live timer of the proxy, so stop() can clear them
 */
function createDelayLine(to, timers) {
	/** @type {Pending[]} */
	const queue = [];
	/** @type {NodeJS.Timeout | undefined} */
	let timer;

	const drain = () => {
		if (timer !== undefined) timers.delete(timer);
		timer = undefined;
		const now = performance.now();
		// Bounded: each pass removes a queued entry or stops.
		while (queue.length > 0 && queue[0].at <= now) {
			const { chunk } = /** @type {Pending} */ (queue.shift());
			if (to.destroyed) {
				queue.length = 0;
				return;
			}
			if (chunk === null) to.end();
			else to.write(chunk);
		}
		if (queue.length > 0) schedule();
	};
	const schedule = () => {
		timer = setTimeout(drain, Math.max(0, queue[0].at - performance.now()));
		timers.add(timer);
	};
	return {
		/** @param {Pending} pending */
		push(pending) {
			queue.push(pending);
			if (timer === undefined) schedule();
		},
		clear() {
			queue.length = 0;
			if (timer !== undefined) {
				clearTimeout(timer);
				timers.delete(timer);
				timer = undefined;
			}
		},
	};
}

/** @param {number} rttMs */
function checkedRtt(rttMs) {
	if (!Number.isInteger(rttMs) || rttMs < 0 || rttMs > 10_000) {
		throw new Error(`the RTT must be a whole number of ms from 0 to 10000 (got ${rttMs})`);
	}
	return rttMs;
}

/**
 * Connects a client to the target through delay lines, counting what crosses.
 * @param {net.Socket} client
 * @param {{ target: { host: string, port: number }, rttMs: () => number, counts: ProxyCounts, sockets: Set<net.Socket>, timers: Set<NodeJS.Timeout> }} proxy
 */
function relay(client, { target, rttMs, counts, sockets, timers }) {
	counts.connections++;
	const acceptedAt = performance.now();
	const server = net.connect({ host: target.host, port: target.port, allowHalfOpen: true });
	for (const socket of [client, server]) {
		socket.setNoDelay(true);
		sockets.add(socket);
		socket.once('close', () => sockets.delete(socket));
	}
	const up = createDelayLine(server, timers);
	const down = createDelayLine(client, timers);
	const countHello = createClientHelloCounter(() => counts.clientHellos++);
	// The client's bytes leave no earlier than one RTT after the accept (the TCP handshake).
	const upAt = () => Math.max(performance.now(), acceptedAt + rttMs()) + rttMs() / 2;
	const downAt = () => performance.now() + rttMs() / 2;

	client.on('data', (/** @type {Buffer} */ chunk) => {
		counts.bytesUp += chunk.length;
		countHello(chunk);
		up.push({ at: upAt(), chunk });
	});
	client.on('end', () => up.push({ at: upAt(), chunk: null }));
	server.on('data', (/** @type {Buffer} */ chunk) => {
		counts.bytesDown += chunk.length;
		down.push({ at: downAt(), chunk });
	});
	server.on('end', () => down.push({ at: downAt(), chunk: null }));
	// A side that closed without a FIN (destroyed) still ends the other side's stream.
	client.on('close', () => up.push({ at: upAt(), chunk: null }));
	server.on('close', () => down.push({ at: downAt(), chunk: null }));
	// A reset or failure on either side ends both at once; data still queued is dropped, as a reset does.
	const abort = () => {
		up.clear();
		down.clear();
		client.destroy();
		server.destroy();
	};
	client.on('error', abort);
	server.on('error', abort);
}

const NO_COUNTS = Object.freeze({ connections: 0, clientHellos: 0, bytesUp: 0, bytesDown: 0 });

/**
 * @param {{ target: { host: string, port: number }, rttMs: number }} options
 * @returns {Promise<LatencyProxy>}
 */
async function startLatencyProxy(options) {
	const { target } = options;
	if (!['127.0.0.1', '::1', 'localhost'].includes(target.host)) {
		throw new Error(`the latency proxy forwards to loopback only (got ${target.host})`);
	}
	let rttMs = checkedRtt(options.rttMs);
	/** @type {ProxyCounts} */
	const counts = { ...NO_COUNTS };
	/** @type {Set<net.Socket>} */
	const sockets = new Set();
	/** @type {Set<NodeJS.Timeout>} */
	const timers = new Set();
	const proxy = { target, rttMs: () => rttMs, counts, sockets, timers };

	const listener = net.createServer({ allowHalfOpen: true }, (client) => relay(client, proxy));
	await new Promise((resolve, reject) => {
		listener.once('error', reject);
		listener.listen(0, '127.0.0.1', () => {
			listener.off('error', reject);
			resolve(undefined);
		});
	});
	const address = /** @type {net.AddressInfo} */ (listener.address());
	return {
		host: '127.0.0.1',
		port: address.port,
		counts: () => ({ ...counts }),
		reset: () => {
			Object.assign(counts, NO_COUNTS);
		},
		setRtt: (ms) => {
			rttMs = checkedRtt(ms);
		},
		stop: () =>
			new Promise((resolve) => {
				for (const timer of timers) clearTimeout(timer);
				timers.clear();
				for (const socket of sockets) socket.destroy();
				listener.close(() => resolve());
			}),
	};
}

module.exports = { startLatencyProxy };
