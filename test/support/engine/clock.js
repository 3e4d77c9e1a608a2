// @ts-check
'use strict';

/**
 * The one clock of the tests that fake time. `Date` and the timers are faked, sockets stay real:
 * the transport's sleeps, rate budget and tokens and the sandbox's clock move together, and
 * runInVirtualTime jumps to the next timer once the traffic has settled. With `dateOnly`, timers
 * stay real and the test moves `Date` itself.
 */

const diagnostics = require('node:diagnostics_channel');
const { setTimeout: realDelay } = require('node:timers/promises');

const MINUTE_MS = 60_000;
const DAY_MS = 1440 * MINUTE_MS;

/** A fixed start, so dates do not depend on the day the tests run. */
const START = '2030-03-10T09:00:00.000Z';

/** Real milliseconds without traffic, twice over, before time may jump. */
const SETTLE_MS = 4;

/** @param {{ start?: Date | string | number, dateOnly?: boolean }} [options] */
function useVirtualTime({ start = START, dateOnly = false } = {}) {
	jest.useFakeTimers({
		now: new Date(start),
		// The event loop's own turns stay real: real sockets depend on them.
		doNotFake: [
			'hrtime',
			'nextTick',
			'performance',
			'queueMicrotask',
			'setImmediate',
			'clearImmediate',
			...(dateOnly
				? /** @type {const} */ (['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'])
				: []),
		],
	});
}

/** Moves `Date` on by `ms` without firing timers. @param {number} ms */
function advanceTime(ms) {
	jest.setSystemTime(Date.now() + ms);
}

/** YYYY-MM-DD, `days` from now (UTC). @param {number} [days] */
function isoDay(days = 0) {
	return new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10);
}

/**
 * HTTP requests in flight in this process, at the client and at the (in-process) server. Time may
 * jump only while every request in flight is held by the server (a latency it adds on a fake
 * timer): a request on its way there or back would see its timeout, a fake timer too, fire first.
 * A server still reading a body, or forwarding the request on, counts as holding it: on a loaded
 * machine such a request can see its timeout fire (tests of the scripted server's forwarding,
 * secrets.test.ts, stay on real time for that).
 */
const traffic = { client: 0, server: 0, events: 0 };

/** @typedef {import('node:events').EventEmitter} Emitter */

/**
 * @param {'client' | 'server'} side
 * @returns {(message: unknown) => void} counts the request the channel announces until it closes
 */
function counter(side) {
	return (message) => {
		const { request, response } = /** @type {{ request: Emitter, response?: Emitter }} */ (message);
		traffic[side]++;
		traffic.events++;
		(response ?? request).once('close', () => {
			traffic[side]--;
			traffic.events++;
		});
	};
}

/** @type {Array<[string, (message: unknown) => void]>} */
const CHANNELS = [
	['http.client.request.start', counter('client')],
	['http.server.request.start', counter('server')],
];

/**
 * Runs `start()` until its promise settles: whenever no request is on its way and none started
 * or ended for a few real milliseconds, fires the next fake timer.
 * @template T
 * @param {() => Promise<T>} start
 * @returns {Promise<T>}
 */
async function runInVirtualTime(start) {
	for (const [name, count] of CHANNELS) diagnostics.subscribe(name, count);
	let settled = false;
	try {
		const watched = start();
		// Watched from the start, so that a rejection is handled while time runs; the caller gets it.
		const settle = () => {
			settled = true;
		};
		watched.then(settle, settle);
		while (!settled) {
			await untilQuiet(() => settled);
			if (!settled && jest.getTimerCount() > 0) jest.advanceTimersToNextTimer();
		}
		return await watched;
	} finally {
		for (const [name, count] of CHANNELS) diagnostics.unsubscribe(name, count);
	}
}

/** @param {() => boolean} settled */
async function untilQuiet(settled) {
	let seen = traffic.events;
	for (let quiet = 0; quiet < 2 && !settled(); ) {
		await realDelay(SETTLE_MS);
		quiet = traffic.events === seen && traffic.client === traffic.server ? quiet + 1 : 0;
		seen = traffic.events;
	}
}

/**
 * Starts `start` after `ms` of virtual time (tests may not touch timers themselves).
 * @template T
 * @param {number} ms
 * @param {() => Promise<T>} start
 * @returns {Promise<T>}
 */
async function after(ms, start) {
	await new Promise((resolve) => setTimeout(resolve, ms));
	return await start();
}

module.exports = {
	DAY_MS,
	MINUTE_MS,
	START,
	useVirtualTime,
	advanceTime,
	isoDay,
	runInVirtualTime,
	after,
};
