// @ts-check
'use strict';

/**
 * A TCP proxy on loopback that makes a loopback connection behave like one across a network with
 * a given round-trip time, and counts what crosses it. Every chunk is held for half the RTT in
 * each direction, and a new connection's first bytes until one RTT after the accept: loopback
 * completes the TCP handshake at once, where a network makes the client wait a round trip before
 * it can send. Nothing else is changed (no bandwidth limit, no loss). Counted, not inferred:
 * connections accepted, TLS ClientHello messages in the client's bytes, and the bytes each way.
 */

const net = require('node:net');

const { createClientHelloCounter } = require('./tls-records');

/** @typedef {{ connections: number, clientHellos: number, bytesUp: number, bytesDown: number }} ProxyCounts */

/**
 * Delivers chunks to `to` in order, each no earlier than its time; null ends the stream.
 * @param {net.Socket} to
 * @param {Set<NodeJS.Timeout>} timers every live timer of the proxy, for stop()
 */
function delayLine(to, timers) {
	/** @type {{ at: number, chunk: Buffer | null }[]} */
	const queue = [];
	/** @type {NodeJS.Timeout | undefined} */
	let timer;
	const clear = () => {
		if (timer !== undefined) timers.delete(timer);
		clearTimeout(timer);
		timer = undefined;
	};
	const schedule = () => {
		timer = setTimeout(drain, Math.max(0, queue[0].at - performance.now()));
		timers.add(timer);
	};
	const drain = () => {
		clear();
		while (queue.length > 0 && queue[0].at <= performance.now() && !to.destroyed) {
			const { chunk } = /** @type {{ chunk: Buffer | null }} */ (queue.shift());
			if (chunk === null) to.end();
			else to.write(chunk);
		}
		if (to.destroyed) queue.length = 0;
		if (queue.length > 0) schedule();
	};
	return {
		/** @param {number} at @param {Buffer | null} chunk */
		push(at, chunk) {
			queue.push({ at, chunk });
			if (timer === undefined) schedule();
		},
		clear() {
			queue.length = 0;
			clear();
		},
	};
}

/**
 * Connects a client to the target through delay lines, counting what crosses.
 * @param {net.Socket} client
 * @param {{ target: { host: string, port: number }, rttMs: () => number, counts: ProxyCounts, sockets: Set<net.Socket>, timers: Set<NodeJS.Timeout> }} proxy
 */
function relay(client, { target, rttMs, counts, sockets, timers }) {
	counts.connections++;
	const acceptedAt = performance.now();
	const server = net.connect({ ...target, allowHalfOpen: true });
	for (const socket of [client, server]) {
		socket.setNoDelay(true);
		sockets.add(socket);
		socket.once('close', () => sockets.delete(socket));
	}
	const up = delayLine(server, timers);
	const down = delayLine(client, timers);
	const countHello = createClientHelloCounter(() => counts.clientHellos++);
	const upAt = () => Math.max(performance.now(), acceptedAt + rttMs()) + rttMs() / 2;
	const downAt = () => performance.now() + rttMs() / 2;

	client.on('data', (/** @type {Buffer} */ chunk) => {
		counts.bytesUp += chunk.length;
		countHello(chunk);
		up.push(upAt(), chunk);
	});
	server.on('data', (/** @type {Buffer} */ chunk) => {
		counts.bytesDown += chunk.length;
		down.push(downAt(), chunk);
	});
	// A side that ended, or closed without a FIN, ends the other side's stream.
	for (const event of ['end', 'close']) {
		client.on(event, () => up.push(upAt(), null));
		server.on(event, () => down.push(downAt(), null));
	}
	// A reset or failure on either side ends both at once, dropping what is queued, as a reset does.
	const abort = () => {
		up.clear();
		down.clear();
		client.destroy();
		server.destroy();
	};
	client.on('error', abort);
	server.on('error', abort);
}

/** @param {{ target: { host: string, port: number }, rttMs: number }} options */
async function startLatencyProxy({ target, rttMs }) {
	if (!['127.0.0.1', '::1', 'localhost'].includes(target.host)) {
		throw new Error(`the latency proxy forwards to loopback only (got ${target.host})`);
	}
	let rtt = rttMs;
	const none = () => ({ connections: 0, clientHellos: 0, bytesUp: 0, bytesDown: 0 });
	const counts = none();
	/** @type {Set<net.Socket>} */
	const sockets = new Set();
	/** @type {Set<NodeJS.Timeout>} */
	const timers = new Set();
	const proxy = { target, rttMs: () => rtt, counts, sockets, timers };
	const listener = net.createServer({ allowHalfOpen: true }, (client) => relay(client, proxy));
	await new Promise((resolve, reject) => {
		listener.once('error', reject);
		listener.listen(0, '127.0.0.1', () => resolve(undefined));
	});
	return {
		host: '127.0.0.1',
		port: /** @type {net.AddressInfo} */ (listener.address()).port,
		counts: () => ({ ...counts }),
		reset: () => Object.assign(counts, none()),
		/** @param {number} ms for the chunks that arrive from then on */
		setRtt: (ms) => (rtt = ms),
		/** @returns {Promise<void>} once the listener and every connection are closed */
		stop: () =>
			new Promise((resolve) => {
				for (const timer of timers) clearTimeout(timer);
				for (const socket of sockets) socket.destroy();
				listener.close(() => resolve());
			}),
	};
}

module.exports = { startLatencyProxy };
