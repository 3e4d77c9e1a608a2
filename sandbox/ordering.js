// @ts-check
'use strict';

const { Company } = require('./company');
const { SandboxNotFoundError } = require('./errors');
const { toSandboxTender } = require('./tender-fields');

/** @typedef {import('./types').StoredProject} StoredProject */
/** @typedef {import('./types').StoredTender} StoredTender */

/**
 * One project in one company's ordering, with the tenders that company sees.
 * @typedef {object} IndexEntry
 * @property {number} dueKey earliest open matching quotesDueAt in days; Infinity when none has a date
 * @property {string} projectId
 * @property {StoredProject} project
 * @property {Array<{ tender: StoredTender, matchedKeywords: string[] }>} tenders
 */

/**
 * @typedef {object} CompanyIndex
 * @property {number} day the day the window was computed for; a new day means a full rebuild
 * @property {number} seen how many entries of the change log are already applied
 * @property {IndexEntry[]} entries sorted by (dueKey, projectId)
 * @property {Map<string, IndexEntry>} byProject
 */

// Past this many unapplied changes a full rebuild is cheaper than patching entry by entry.
const PATCH_LIMIT = 500;

/** @typedef {{ dueKey: number, projectId: string }} SortKey */

/** @param {SortKey} a @param {SortKey} b */
function compareKeys(a, b) {
	if (a.dueKey !== b.dueKey) return a.dueKey < b.dueKey ? -1 : 1;
	if (a.projectId === b.projectId) return 0;
	return a.projectId < b.projectId ? -1 : 1;
}

/**
 * Index of the first entry strictly after `key` (or at/after it with `inclusive`).
 * @param {IndexEntry[]} entries @param {SortKey} key @param {boolean} inclusive
 */
function searchAfter(entries, key, inclusive) {
	let low = 0;
	let high = entries.length;
	while (low < high) {
		const middle = (low + high) >>> 1;
		const order = compareKeys(entries[middle], key);
		if (order < 0 || (order === 0 && !inclusive)) low = middle + 1;
		else high = middle;
	}
	return low;
}

/** @param {StoredTender} tender @param {number} today @param {number} windowDays */
function isOpen(tender, today, windowDays) {
	return (
		tender.status === 'Open' &&
		(tender.openDay === null || tender.openDay <= today) &&
		(tender.dueDay === null || (tender.dueDay >= today && tender.dueDay <= today + windowDays))
	);
}

/** @param {StoredTender} tender */
const dueOf = (tender) => tender.dueDay ?? Infinity;

/**
 * @param {Company} company
 * @param {StoredProject} project
 * @param {number} today
 * @param {number} windowDays
 */
function entryFor(company, project, today, windowDays) {
	/** @type {IndexEntry['tenders']} */
	const visible = [];
	for (const tender of project.tenders) {
		if (!isOpen(tender, today, windowDays)) continue;
		const matched = company.matches(tender.words);
		if (matched.length > 0) visible.push({ tender, matchedKeywords: matched });
	}
	if (visible.length === 0) return undefined;
	visible.sort((a, b) => dueOf(a.tender) - dueOf(b.tender) || (a.tender.id < b.tender.id ? -1 : 1));
	return {
		dueKey: dueOf(visible[0].tender),
		projectId: project.projectId,
		project,
		tenders: visible,
	};
}

/**
 * The project as the API sends it (`tenders` keeps its place among the keys).
 * @param {IndexEntry} entry
 */
function toApiProject(entry) {
	return {
		...entry.project,
		tenders: entry.tenders.map(({ tender, matchedKeywords }) => {
			const { projectId, ...apiTender } = toSandboxTender(tender);
			return { ...apiTender, matchedKeywords };
		}),
	};
}

/**
 * Each company's ordering of its matching open projects, kept sorted in memory so a page costs a
 * binary search.
 */
class Orderings {
	/**
	 * @param {object} options
	 * @param {readonly import('./fixtures').SandboxCompany[]} options.companies
	 * @param {Map<string, StoredProject>} options.projects the store's, read as it changes
	 * @param {import('./clock').SandboxClock} options.clock
	 * @param {number} options.windowDays
	 */
	constructor({ companies, projects, clock, windowDays }) {
		this.projects = projects;
		this.clock = clock;
		this.windowDays = windowDays;
		/** @type {Map<string, Company>} */
		this.companyById = new Map(
			companies.map((company) => [company.companyId, new Company(company)]),
		);
		/** Append-only log of changed project ids; each company index remembers how far it has applied it. */
		/** @type {string[]} */
		this.changedProjects = [];
		/** @type {Map<string, CompanyIndex>} */
		this.indexes = new Map();
	}

	/** @param {string} companyId */
	company(companyId) {
		const company = this.companyById.get(companyId);
		if (!company) {
			throw new SandboxNotFoundError(
				`unknown company ${JSON.stringify(companyId)}; known: ${[...this.companyById.keys()].join(', ')}`,
			);
		}
		return company;
	}

	/** @param {string} projectId */
	changed(projectId) {
		this.changedProjects.push(projectId);
	}

	/**
	 * The company's ordering now: patched with the changes since it was last read, or rebuilt when
	 * the day has changed or patching would cost more.
	 * @param {string} companyId
	 */
	of(companyId) {
		const company = this.company(companyId);
		const today = this.clock.today();
		const current = this.indexes.get(companyId);
		const unseen = current ? this.changedProjects.length - current.seen : Infinity;
		if (current && current.day === today && unseen <= PATCH_LIMIT) {
			this.patch(current, company, today);
			return current;
		}
		/** @type {IndexEntry[]} */
		const entries = [];
		for (const project of this.projects.values()) {
			const entry = entryFor(company, project, today, this.windowDays);
			if (entry) entries.push(entry);
		}
		entries.sort(compareKeys);
		const byProject = new Map(entries.map((entry) => [entry.projectId, entry]));
		const rebuilt = { day: today, seen: this.changedProjects.length, entries, byProject };
		this.indexes.set(companyId, rebuilt);
		return rebuilt;
	}

	/** @param {CompanyIndex} index @param {Company} company @param {number} today */
	patch(index, company, today) {
		for (const projectId of new Set(this.changedProjects.slice(index.seen))) {
			const previous = index.byProject.get(projectId);
			if (previous) {
				index.entries.splice(searchAfter(index.entries, previous, true), 1);
				index.byProject.delete(projectId);
			}
			const project = this.projects.get(projectId);
			const next = project && entryFor(company, project, today, this.windowDays);
			if (next) {
				index.entries.splice(searchAfter(index.entries, next, true), 0, next);
				index.byProject.set(projectId, next);
			}
		}
		index.seen = this.changedProjects.length;
	}

	/** @param {string} companyId */
	list(companyId) {
		return this.of(companyId).entries.map(toApiProject);
	}

	/**
	 * One page of a company's ordering after `after` (from the start when undefined).
	 * @param {string} companyId
	 * @param {import('./cursor').CursorPosition | undefined} after
	 * @param {number} limit
	 */
	page(companyId, after, limit) {
		const { entries } = this.of(companyId);
		const afterKey = after && { dueKey: after.dueDay ?? Infinity, projectId: after.projectId };
		const start = afterKey === undefined ? 0 : searchAfter(entries, afterKey, false);
		const slice = entries.slice(start, start + limit);
		const lastEntry = slice[slice.length - 1];
		const last = lastEntry && {
			companyId,
			dueDay: lastEntry.dueKey === Infinity ? null : lastEntry.dueKey,
			projectId: lastEntry.projectId,
		};
		return {
			projects: slice.map(toApiProject),
			last,
			hasNextPage: start + limit < entries.length,
		};
	}
}

module.exports = { Orderings };
