// @ts-check
'use strict';

/**
 * A small seeded pseudo-random generator (mulberry32). The sandbox's data and its random faults
 * must repeat exactly for a given seed, which Math.random cannot promise.
 * @typedef {object} Random
 * @property {() => number} next Uniform in [0, 1).
 * @property {(min: number, max: number) => number} int Integer in [min, max], both inclusive.
 * @property {<T>(items: readonly T[]) => T} pick
 * @property {(probability: number) => boolean} chance
 * @property {<T>(items: readonly T[], count: number) => T[]} sample Distinct items, in random order.
 */

/** @param {number} seed @returns {Random} */
function createRandom(seed) {
	let state = seed >>> 0;
	const next = () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
	/** @type {Random['int']} */
	const int = (min, max) => min + Math.floor(next() * (max - min + 1));
	return {
		next,
		int,
		pick: (items) => items[int(0, items.length - 1)],
		chance: (probability) => next() < probability,
		sample: (items, count) => {
			const pool = items.slice();
			const picked = [];
			while (picked.length < count && pool.length > 0) {
				picked.push(pool.splice(int(0, pool.length - 1), 1)[0]);
			}
			return picked;
		},
	};
}

/**
 * Derives an independent stream from a seed, so that (for example) the random faults of a soak
 * run do not shift when more projects are generated.
 * @param {number} seed
 * @param {string} purpose
 */
function deriveSeed(seed, purpose) {
	let hash = (seed ^ 0x9e3779b9) >>> 0;
	for (let index = 0; index < purpose.length; index++) {
		hash = Math.imul(hash ^ purpose.charCodeAt(index), 0x01000193) >>> 0;
	}
	return hash;
}

module.exports = { createRandom, deriveSeed };
