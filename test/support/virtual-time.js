// @ts-check
'use strict';

/**
 * Minutes of rate-limit windows in seconds of test: `Date` and `setTimeout` are faked (so the
 * transport's sleeps, its rate budget and the sandbox's clock move together), while sockets stay
 * real. Whenever the loopback traffic has settled, time jumps to the next timer that is due.
 */

const { setTimeout: realDelay } = require('node:timers/promises');

/** Real milliseconds without a new request before time may jump. */
const SETTLE_MS = 4;

/** @param {Date | string | number} start */
function useVirtualTime(start) {
	jest.useFakeTimers({
		now: new Date(start),
		doNotFake: [
			'hrtime',
			'nextTick',
			'performance',
			'queueMicrotask',
			'setImmediate',
			'clearImmediate',
		],
	});
}

/**
 * Runs until `work` settles: waits for real I/O to go quiet (judged by `activity`, a number that
 * grows with every request the server has answered), then fires the next fake timer.
 * @template T
 * @param {Promise<T>} work
 * @param {() => number} activity
 * @returns {Promise<T>}
 */
async function runInVirtualTime(work, activity) {
	let settled = false;
	const watched = work.finally(() => {
		settled = true;
	});
	while (!settled) {
		let seen = activity();
		for (let quiet = 0; quiet < 2 && !settled; ) {
			await realDelay(SETTLE_MS);
			const now = activity();
			quiet = now === seen ? quiet + 1 : 0;
			seen = now;
		}
		if (!settled && jest.getTimerCount() > 0) jest.advanceTimersToNextTimer();
	}
	return await watched;
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

module.exports = { useVirtualTime, runInVirtualTime, after };
