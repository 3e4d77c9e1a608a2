// @ts-check
'use strict';

const { TRADE_PACKAGES, tenderWords, words } = require('./data');

/** A company's keywords and which tenders they match. */
class Company {
	/** @param {import('./fixtures').SandboxCompany} company */
	constructor(company) {
		this.companyId = company.companyId;
		this.keywords = company.keywords.slice();
		this.keywordWords = company.keywords.map((keyword) => words(keyword));
		/** @type {WeakMap<readonly string[], string[]>} matches remembered per shared word list */
		this.matchesByWords = new WeakMap();
	}

	/**
	 * A keyword matches when every word of it is among the tender's name and type words.
	 * @param {readonly string[]} tenderWordList
	 */
	matches(tenderWordList) {
		const known = this.matchesByWords.get(tenderWordList);
		if (known) return known;
		const matched = this.keywords.filter(
			(_, index) =>
				this.keywordWords[index].length > 0 &&
				this.keywordWords[index].every((word) => tenderWordList.includes(word)),
		);
		this.matchesByWords.set(tenderWordList, matched);
		return matched;
	}

	/**
	 * A trade package carrying one of the company's keywords, so a new tender matches it.
	 * @param {import('./random').Random} random
	 */
	matchingName(random) {
		const candidates = TRADE_PACKAGES.filter(
			(name) => this.matches(tenderWords(name, 'Tender')).length > 0,
		);
		if (candidates.length > 0) return random.pick(candidates);
		const keyword = this.keywords.find((_, index) => this.keywordWords[index].length > 0);
		if (keyword === undefined) {
			throw new Error(
				`company ${this.companyId} has no keywords, so no tender can match it; open the tender for another company`,
			);
		}
		return `${keyword.charAt(0).toUpperCase()}${keyword.slice(1)} package`;
	}
}

module.exports = { Company };
