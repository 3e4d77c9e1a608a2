// @ts-check
'use strict';

const { oneOf, rejectUnknownFields, wholeNumber } = require('./errors');
const { createRandom } = require('./random');

/** @typedef {import('./random').Random} Random */

/**
 * What can go wrong between a client and the API (sandbox/README.md, "Fault kinds", says what a
 * client gets for each).
 * @typedef {'serverError' | 'fetchFailed' | 'rateLimited' | 'latencySpike' | 'drop' | 'malformedJson' | 'html'} FaultKind
 */

/** @typedef {'results' | 'token'} FaultTarget */

/** @typedef {{ kind: FaultKind, status: number, ms: number, retryAfterSeconds: number }} Fault */

/** @typedef {{ status?: number, ms?: number, retryAfterSeconds?: number }} FaultOptions */

/**
 * Defaults: times 1, on 'results', ms 2000, retryAfterSeconds 1, status per kind.
 * @typedef {{ kind: FaultKind, times?: number, on?: FaultTarget } & FaultOptions} FaultRequest
 */

/**
 * @typedef {Partial<Record<FaultKind, number>> & {
 *   latencySpikeMs?: number,
 *   retryAfterSeconds?: number,
 *   on?: FaultTarget,
 * }} FaultRates
 */

/** @type {Record<FaultKind, number>} */
const DEFAULT_STATUS = {
	serverError: 500,
	fetchFailed: 502,
	rateLimited: 429,
	latencySpike: 200,
	drop: 200,
	malformedJson: 200,
	html: 502,
};

const FAULT_KINDS = /** @type {readonly FaultKind[]} */ (Object.keys(DEFAULT_STATUS));
const REQUEST_FIELDS = ['kind', 'times', 'on', 'status', 'ms', 'retryAfterSeconds'];

/** @param {unknown} kind */
const faultKind = (kind) => oneOf(kind, FAULT_KINDS, 'fault kind');

/** @param {unknown} on @returns {FaultTarget} */
const faultTarget = (on) => oneOf(on, /** @type {const} */ (['results', 'token']), 'on');

/** @param {FaultKind} kind @param {FaultOptions} options */
function buildFault(kind, { status, ms, retryAfterSeconds }) {
	const ownStatus = kind !== 'rateLimited' && kind !== 'latencySpike' && kind !== 'drop';
	if (status !== undefined && !ownStatus) throw new Error(`a ${kind} fault does not take a status`);
	return {
		kind,
		status: status === undefined ? DEFAULT_STATUS[kind] : wholeNumber(status, 'status', 200, 599),
		ms: ms === undefined ? 2000 : wholeNumber(ms, 'ms', 0, 600_000),
		retryAfterSeconds:
			retryAfterSeconds === undefined
				? 1
				: wholeNumber(retryAfterSeconds, 'retryAfterSeconds', 0, 86_400),
	};
}

/**
 * @typedef {{ rates: Array<[FaultKind, number]>, on: FaultTarget, latencySpikeMs?: number, retryAfterSeconds?: number, random: Random }} RandomFaults
 */

/** @param {FaultRequest} request */
function queuedFault(request) {
	if (typeof request !== 'object' || request === null)
		throw new Error('injectFault needs { kind, ... }');
	rejectUnknownFields(request, REQUEST_FIELDS, 'injectFault');
	const { kind, times = 1, on = 'results', ...options } = request;
	return {
		fault: buildFault(faultKind(kind), options),
		on: faultTarget(on),
		remaining: wholeNumber(times, 'times', 1, 1_000_000),
	};
}

/** @param {FaultRates | null} rates null (or {}) turns random faults off @param {number} rngSeed */
function randomFaults(rates, rngSeed) {
	if (rates === null || Object.keys(rates).length === 0) return undefined;
	const { latencySpikeMs, retryAfterSeconds, on = 'results', ...byKind } = rates;
	/** @type {Array<[FaultKind, number]>} */
	const entries = Object.entries(byKind).map(([kind, rate]) => {
		if (typeof rate !== 'number' || !(rate >= 0 && rate <= 1)) {
			throw new Error(
				`the rate of ${kind} must be a probability from 0 to 1 (got ${JSON.stringify(rate)})`,
			);
		}
		return [faultKind(kind), rate];
	});
	const total = entries.reduce((sum, [, rate]) => sum + rate, 0);
	if (total > 1) throw new Error(`fault rates add up to ${total}; they must add up to at most 1`);
	buildFault('latencySpike', { ms: latencySpikeMs, retryAfterSeconds });
	const random = createRandom(wholeNumber(rngSeed, 'rngSeed', 0, 2 ** 32 - 1));
	return { rates: entries, on: faultTarget(on), latencySpikeMs, retryAfterSeconds, random };
}

/** @param {RandomFaults} random */
function rollFault(random) {
	let roll = random.random.next();
	for (const [kind, rate] of random.rates) {
		if (roll < rate) {
			const { latencySpikeMs: ms, retryAfterSeconds } = random;
			return buildFault(kind, { ms, retryAfterSeconds });
		}
		roll -= rate;
	}
	return undefined;
}

/**
 * One-shot queued faults (deterministic, for focused tests) and random fault rates (seeded, for
 * soak tests). A queued fault wins over the rates.
 */
function createFaults() {
	/** @type {Array<ReturnType<typeof queuedFault>>} */
	let queue = [];
	/** @type {RandomFaults | undefined} */
	let random;
	const injected = /** @type {Record<FaultKind, number>} */ (
		Object.fromEntries(FAULT_KINDS.map((kind) => [kind, 0]))
	);

	return {
		/** @param {FaultRequest} request */
		inject(request) {
			queue.push(queuedFault(request));
		},
		/**
		 * @param {FaultRates | null} rates null (or {}) turns random faults off
		 * @param {number} [rngSeed]
		 */
		setRates(rates, rngSeed = 1) {
			random = randomFaults(rates, rngSeed);
		},
		/**
		 * The fault for the request that just arrived, if any; counts it.
		 * @param {FaultTarget} target
		 */
		next(target) {
			const queued = queue.find((entry) => entry.on === target && entry.remaining > 0);
			if (queued) {
				queued.remaining--;
				queue = queue.filter((entry) => entry.remaining > 0);
			}
			let fault = queued?.fault;
			if (!queued && random?.on === target) fault = rollFault(random);
			if (fault) injected[fault.kind]++;
			return fault;
		},
		clear() {
			queue = [];
			random = undefined;
		},
		/** @returns {Record<FaultKind, number>} */
		injected: () => ({ ...injected }),
	};
}

/** @typedef {ReturnType<typeof createFaults>} Faults */

module.exports = { createFaults };
