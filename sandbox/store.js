// @ts-check
'use strict';

const { dayToIso, isoToDay } = require('./clock');
const { SandboxNotFoundError } = require('./errors');
const {
	BUILDERS,
	TRADE_PACKAGES,
	generateProject,
	generateProjects,
	tenderIdFor,
	tenderWords,
	words,
} = require('./data');

/** @typedef {import('./random').Random} Random */
/** @typedef {import('./clock').SandboxClock} SandboxClock */
/** @typedef {import('./fixtures').SandboxCompany} SandboxCompany */
/** @typedef {import('./types').Party} Party */
/** @typedef {import('./types').Project} Project */
/** @typedef {import('./types').Tender} Tender */
/** @typedef {import('./types').TenderStatus} TenderStatus */
/** @typedef {import('./types').TenderType} TenderType */
/** @typedef {import('./types').ProjectStatus} ProjectStatus */
/** @typedef {import('./types').StoredProject} StoredProject */
/** @typedef {import('./types').StoredTender} StoredTender */
/** @typedef {import('./types').SandboxTender} SandboxTender */
/** @typedef {import('./cursor').CursorPosition} CursorPosition */

/**
 * @typedef {object} Company
 * @property {string} companyId
 * @property {string[]} keywords
 * @property {string[][]} keywordWords each keyword split into words
 * @property {WeakMap<readonly string[], string[]>} matchesByWords matches remembered per shared word list
 */

/**
 * @typedef {object} HistoryEvent
 * @property {string} at sandbox time, ISO 8601
 * @property {'opened' | 'changed' | 'closed'} type
 * @property {string} tenderId
 * @property {string} projectId
 * @property {Record<string, { from: unknown, to: unknown }>} [changes] what changed, in API terms
 */

/**
 * Fields a test may set on a tender, in the API's words.
 * @typedef {object} TenderFields
 * @property {string} [name]
 * @property {TenderType} [type]
 * @property {Party | string} [builder] a Party, or a builder's name (a known builder's website is filled in)
 * @property {string | null} [tenderOpenAt] YYYY-MM-DD
 * @property {string | null} [quotesDueAt] YYYY-MM-DD
 */

/**
 * @typedef {TenderFields & { status?: TenderStatus }} TenderPatch
 */

/**
 * @typedef {TenderFields & { projectId?: string, companyId?: string }} OpenTenderOptions
 */

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

const TENDER_TYPES = /** @type {const} */ (['Tender', 'Procurement']);
const TENDER_STATUSES = /** @type {const} */ (['Open', 'Closed', 'Awarded']);
const PROJECT_STATUSES = /** @type {const} */ (['Active', 'Closed']);
const PATCHABLE = ['name', 'type', 'builder', 'quotesDueAt', 'status', 'tenderOpenAt'];
// Past this many unapplied changes a full rebuild is cheaper than patching entry by entry.
const PATCH_LIMIT = 500;

/**
 * @param {{ dueKey: number, projectId: string }} a
 * @param {{ dueKey: number, projectId: string }} b
 * @returns {number}
 */
function compareKeys(a, b) {
	if (a.dueKey !== b.dueKey) return a.dueKey < b.dueKey ? -1 : 1;
	if (a.projectId === b.projectId) return 0;
	return a.projectId < b.projectId ? -1 : 1;
}

/**
 * Index of the first entry strictly after `key` (or at/after it with `inclusive`).
 * @param {IndexEntry[]} entries
 * @param {{ dueKey: number, projectId: string }} key
 * @param {boolean} inclusive
 * @returns {number}
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

/**
 * @param {unknown} value
 * @param {string} field
 * @returns {number | null}
 */
function parseDateField(value, field) {
	if (value === null) return null;
	const day = typeof value === 'string' ? isoToDay(value) : undefined;
	if (day === undefined) {
		throw new Error(
			`${field} must be a calendar date as YYYY-MM-DD, or null (got ${JSON.stringify(value)})`,
		);
	}
	return day;
}

/**
 * @template {string} T
 * @param {unknown} value
 * @param {readonly T[]} allowed
 * @param {string} field
 * @returns {T}
 */
function parseEnumField(value, allowed, field) {
	if (!allowed.includes(/** @type {T} */ (value))) {
		throw new Error(`${field} must be one of ${allowed.join(', ')} (got ${JSON.stringify(value)})`);
	}
	return /** @type {T} */ (value);
}

/**
 * @param {unknown} value
 * @returns {Party}
 */
function parseBuilder(value) {
	if (typeof value === 'string' && value.trim() !== '') {
		return (
			BUILDERS.find((builder) => builder.name === value) ??
			Object.freeze({ name: value, website: null })
		);
	}
	if (typeof value === 'object' && value !== null) {
		const { name, website } = /** @type {Record<string, unknown>} */ (value);
		const websiteOk =
			website === null || (typeof website === 'string' && website.startsWith('https://'));
		if (typeof name === 'string' && name.trim() !== '' && websiteOk) {
			return Object.freeze({ name, website: /** @type {string | null} */ (website) });
		}
	}
	throw new Error(
		`builder must be a builder's name or { name, website } with website an https:// URL or null (got ${JSON.stringify(value)})`,
	);
}

/**
 * @param {unknown} value
 * @returns {string}
 */
function parseName(value) {
	if (typeof value !== 'string' || value.trim() === '') {
		throw new Error(`name must be a non-empty string (got ${JSON.stringify(value)})`);
	}
	return value;
}

/**
 * @param {Record<string, unknown>} fields
 * @param {readonly string[]} allowed
 * @param {string} what
 */
function rejectUnknownFields(fields, allowed, what) {
	const unknown = Object.keys(fields).filter((field) => !allowed.includes(field));
	if (unknown.length > 0) {
		throw new Error(`${what} does not take ${unknown.join(', ')}; it takes ${allowed.join(', ')}`);
	}
}

/**
 * @param {StoredTender} tender
 * @returns {SandboxTender}
 */
function toSandboxTender(tender) {
	return {
		id: tender.id,
		name: tender.name,
		type: tender.type,
		builder: tender.builder,
		tenderOpenAt: tender.openDay === null ? null : dayToIso(tender.openDay),
		quotesDueAt: tender.dueDay === null ? null : dayToIso(tender.dueDay),
		status: tender.status,
		projectId: tender.projectId,
	};
}

/**
 * @param {IndexEntry} entry
 * @returns {Project}
 */
function toApiProject(entry) {
	const { project } = entry;
	return {
		projectId: project.projectId,
		projectName: project.projectName,
		address: project.address,
		category: project.category,
		budget: project.budget,
		status: project.status,
		consultants: project.consultants,
		tenders: entry.tenders.map(({ tender, matchedKeywords }) => {
			const { projectId, ...apiTender } = toSandboxTender(tender);
			return { ...apiTender, matchedKeywords };
		}),
		tenderingSubcontractors: project.tenderingSubcontractors,
		url: project.url,
	};
}

/**
 * The sandbox's data: projects and tenders, each company's ordering, and the change history.
 * @param {object} options
 * @param {Random} options.dataRandom generates the seeded data set
 * @param {Random} options.controlRandom fills in defaults for tenders opened by control functions
 * @param {SandboxClock} options.clock
 * @param {number} options.projectCount
 * @param {number} options.windowDays
 * @param {import('./data').PartyCounts} [options.partyCounts] parties on every project, generated or opened
 * @param {readonly SandboxCompany[]} options.companies
 * @param {string} options.defaultCompanyId used by openTender when no companyId is given
 */
function createStore({
	dataRandom,
	controlRandom,
	clock,
	projectCount,
	windowDays,
	companies,
	defaultCompanyId,
	partyCounts,
}) {
	const generated = generateProjects(dataRandom, {
		count: projectCount,
		today: clock.today(),
		windowDays,
		partyCounts,
	});
	/** @type {Map<string, StoredProject>} */
	const projects = new Map(generated.projects.map((project) => [project.projectId, project]));
	/** @type {Map<string, StoredTender>} */
	const tenders = new Map();
	for (const project of generated.projects) {
		for (const tender of project.tenders) tenders.set(tender.id, tender);
	}
	let lastProjectSequence = projectCount;
	let lastTenderSequence = generated.tenderCount;

	/** @type {Map<string, Company>} */
	const companyById = new Map(
		companies.map((company) => [
			company.companyId,
			{
				companyId: company.companyId,
				keywords: company.keywords.slice(),
				keywordWords: company.keywords.map((keyword) => words(keyword)),
				matchesByWords: new WeakMap(),
			},
		]),
	);
	/** Append-only log of changed project ids; each company index remembers how far it has applied it. */
	/** @type {string[]} */
	const changedProjects = [];
	/** @type {Map<string, CompanyIndex>} */
	const indexes = new Map();
	/** @type {HistoryEvent[]} */
	const events = [];

	/**
	 * @param {string} companyId
	 */
	function companyOf(companyId) {
		const company = companyById.get(companyId);
		if (!company) {
			throw new SandboxNotFoundError(
				`unknown company ${JSON.stringify(companyId)}; known: ${[...companyById.keys()].join(', ')}`,
			);
		}
		return company;
	}

	/**
	 * A keyword matches when every word of it is among the tender's name and type words.
	 * @param {Company} company
	 * @param {readonly string[]} tenderWordList
	 * @returns {string[]}
	 */
	function matchedKeywords(company, tenderWordList) {
		const known = company.matchesByWords.get(tenderWordList);
		if (known) return known;
		const matched = company.keywords.filter(
			(_, index) =>
				company.keywordWords[index].length > 0 &&
				company.keywordWords[index].every((word) => tenderWordList.includes(word)),
		);
		company.matchesByWords.set(tenderWordList, matched);
		return matched;
	}

	/**
	 * @param {StoredTender} tender
	 * @param {number} today
	 */
	function isOpen(tender, today) {
		return (
			tender.status === 'Open' &&
			(tender.openDay === null || tender.openDay <= today) &&
			(tender.dueDay === null || (tender.dueDay >= today && tender.dueDay <= today + windowDays))
		);
	}

	/**
	 * @param {Company} company
	 * @param {StoredProject} project
	 * @param {number} today
	 * @returns {IndexEntry | undefined}
	 */
	function entryFor(company, project, today) {
		/** @type {IndexEntry['tenders']} */
		const visible = [];
		for (const tender of project.tenders) {
			if (!isOpen(tender, today)) continue;
			const matched = matchedKeywords(company, tender.words);
			if (matched.length > 0) visible.push({ tender, matchedKeywords: matched });
		}
		if (visible.length === 0) return undefined;
		const dueOf = (/** @type {StoredTender} */ tender) => tender.dueDay ?? Infinity;
		visible.sort(
			(a, b) => dueOf(a.tender) - dueOf(b.tender) || (a.tender.id < b.tender.id ? -1 : 1),
		);
		return {
			dueKey: dueOf(visible[0].tender),
			projectId: project.projectId,
			project,
			tenders: visible,
		};
	}

	/**
	 * @param {string} companyId
	 * @returns {CompanyIndex}
	 */
	function indexOf(companyId) {
		const company = companyOf(companyId);
		const today = clock.today();
		const current = indexes.get(companyId);
		if (current && current.day === today && changedProjects.length - current.seen <= PATCH_LIMIT) {
			for (const projectId of new Set(changedProjects.slice(current.seen))) {
				const previous = current.byProject.get(projectId);
				if (previous) {
					current.entries.splice(searchAfter(current.entries, previous, true), 1);
					current.byProject.delete(projectId);
				}
				const project = projects.get(projectId);
				const next = project && entryFor(company, project, today);
				if (next) {
					current.entries.splice(searchAfter(current.entries, next, true), 0, next);
					current.byProject.set(projectId, next);
				}
			}
			current.seen = changedProjects.length;
			return current;
		}
		/** @type {IndexEntry[]} */
		const entries = [];
		for (const project of projects.values()) {
			const entry = entryFor(company, project, today);
			if (entry) entries.push(entry);
		}
		entries.sort(compareKeys);
		const rebuilt = {
			day: today,
			seen: changedProjects.length,
			entries,
			byProject: new Map(entries.map((entry) => [entry.projectId, entry])),
		};
		indexes.set(companyId, rebuilt);
		return rebuilt;
	}

	/**
	 * @param {StoredTender} tender
	 * @param {HistoryEvent['type']} type
	 * @param {HistoryEvent['changes']} [changes]
	 */
	function record(tender, type, changes) {
		changedProjects.push(tender.projectId);
		/** @type {HistoryEvent} */
		const event = {
			at: new Date(clock.now()).toISOString(),
			type,
			tenderId: tender.id,
			projectId: tender.projectId,
		};
		if (changes) event.changes = changes;
		events.push(event);
	}

	/**
	 * @param {string} tenderId
	 * @returns {StoredTender}
	 */
	function tenderOf(tenderId) {
		const tender = tenders.get(tenderId);
		if (!tender) throw new SandboxNotFoundError(`unknown tender ${JSON.stringify(tenderId)}`);
		return tender;
	}

	/**
	 * @param {string} projectId
	 * @returns {StoredProject}
	 */
	function projectOf(projectId) {
		const project = projects.get(projectId);
		if (!project) throw new SandboxNotFoundError(`unknown project ${JSON.stringify(projectId)}`);
		return project;
	}

	/**
	 * A trade package carrying one of the company's keywords, so the new tender matches it.
	 * @param {Company} company
	 * @returns {string}
	 */
	function matchingName(company) {
		const candidates = TRADE_PACKAGES.filter(
			(name) => matchedKeywords(company, tenderWords(name, 'Tender')).length > 0,
		);
		if (candidates.length > 0) return controlRandom.pick(candidates);
		const keyword = company.keywords.find((_, index) => company.keywordWords[index].length > 0);
		if (keyword === undefined) {
			throw new Error(
				`company ${company.companyId} has no keywords, so no tender can match it; open the tender for another company`,
			);
		}
		return `${keyword.charAt(0).toUpperCase()}${keyword.slice(1)} package`;
	}

	/**
	 * @param {OpenTenderOptions} options
	 * @param {string} [id] the caller's id instead of the next in sequence (openTenderWithId)
	 * @returns {SandboxTender}
	 */
	function openTender(options = {}, id = undefined) {
		rejectUnknownFields(
			options,
			['projectId', 'companyId', 'name', 'type', 'builder', 'tenderOpenAt', 'quotesDueAt'],
			'openTender',
		);
		const company = companyOf(options.companyId ?? defaultCompanyId);
		const today = clock.today();
		const name = options.name === undefined ? matchingName(company) : parseName(options.name);
		const type =
			options.type === undefined ? 'Tender' : parseEnumField(options.type, TENDER_TYPES, 'type');
		const builder =
			options.builder === undefined ? controlRandom.pick(BUILDERS) : parseBuilder(options.builder);
		const openDay =
			options.tenderOpenAt === undefined
				? today
				: parseDateField(options.tenderOpenAt, 'tenderOpenAt');
		const dueDay =
			options.quotesDueAt === undefined
				? today + controlRandom.int(1, windowDays)
				: parseDateField(options.quotesDueAt, 'quotesDueAt');
		const nameWords = tenderWords(name, type);
		if (matchedKeywords(company, nameWords).length === 0) {
			throw new Error(
				`a tender named ${JSON.stringify(name)} (${type}) matches none of ${company.companyId}'s keywords (${company.keywords.join(', ') || 'none'}); use a name containing one`,
			);
		}
		const project =
			options.projectId === undefined
				? generateProject(controlRandom, ++lastProjectSequence, partyCounts)
				: projectOf(options.projectId);
		if (options.projectId === undefined) projects.set(project.projectId, project);
		/** @type {StoredTender} */
		const tender = {
			id: id ?? tenderIdFor(++lastTenderSequence),
			projectId: project.projectId,
			name,
			type,
			builder,
			openDay,
			dueDay,
			status: 'Open',
			words: nameWords,
		};
		project.tenders.push(tender);
		tenders.set(tender.id, tender);
		record(tender, 'opened');
		return toSandboxTender(tender);
	}

	/**
	 * openTender with an id of the caller's choice: any non-empty string not in use, such as
	 * `__proto__` or `constructor`, to try the ids a real API may send.
	 * @param {string} id
	 * @param {OpenTenderOptions} options
	 * @returns {SandboxTender}
	 */
	function openTenderWithId(id, options = {}) {
		if (typeof id !== 'string' || id === '') {
			throw new Error(`openTenderWithId needs a non-empty string id (got ${JSON.stringify(id)})`);
		}
		if (tenders.has(id)) throw new Error(`a tender with id ${JSON.stringify(id)} exists already`);
		return openTender(options, id);
	}

	/**
	 * @param {string} tenderId
	 * @param {TenderPatch} patch
	 * @returns {SandboxTender}
	 */
	function updateTender(tenderId, patch) {
		const tender = tenderOf(tenderId);
		if (typeof patch !== 'object' || patch === null)
			throw new Error('updateTender needs a patch object');
		rejectUnknownFields(patch, PATCHABLE, 'updateTender');
		const before = toSandboxTender(tender);
		const next = { ...tender };
		if (patch.name !== undefined) next.name = parseName(patch.name);
		if (patch.type !== undefined) next.type = parseEnumField(patch.type, TENDER_TYPES, 'type');
		if (patch.builder !== undefined) next.builder = parseBuilder(patch.builder);
		if (patch.status !== undefined)
			next.status = parseEnumField(patch.status, TENDER_STATUSES, 'status');
		if (patch.quotesDueAt !== undefined)
			next.dueDay = parseDateField(patch.quotesDueAt, 'quotesDueAt');
		if (patch.tenderOpenAt !== undefined)
			next.openDay = parseDateField(patch.tenderOpenAt, 'tenderOpenAt');
		next.words = tenderWords(next.name, next.type);
		const after = toSandboxTender(next);
		/** @type {Record<string, { from: unknown, to: unknown }>} */
		const changes = {};
		for (const field of /** @type {Array<keyof SandboxTender>} */ (PATCHABLE)) {
			if (JSON.stringify(before[field]) !== JSON.stringify(after[field])) {
				changes[field] = { from: before[field], to: after[field] };
			}
		}
		if (Object.keys(changes).length === 0) return before;
		Object.assign(tender, next);
		const type =
			before.status === 'Open' && after.status !== 'Open'
				? 'closed'
				: before.status !== 'Open' && after.status === 'Open'
					? 'opened'
					: 'changed';
		record(tender, type, changes);
		return after;
	}

	return {
		openTender,
		openTenderWithId,
		updateTender,
		/**
		 * @param {string} tenderId
		 * @param {TenderStatus} [status]
		 * @returns {SandboxTender}
		 */
		closeTender(tenderId, status = 'Closed') {
			const tender = tenderOf(tenderId);
			if (status === 'Open')
				throw new Error('closeTender takes Closed or Awarded; use updateTender to reopen');
			parseEnumField(status, TENDER_STATUSES, 'status');
			if (tender.status !== 'Open') {
				throw new Error(
					`tender ${tenderId} is already ${tender.status}; only an Open tender can be closed`,
				);
			}
			return updateTender(tenderId, { status });
		},
		/**
		 * Moves a tender's quotes due date to `dueInDays` after the sandbox's today (0: today,
		 * negative: past due), so a client on another clock can bring it into or out of a window.
		 * @param {string} tenderId
		 * @param {number} dueInDays
		 * @returns {SandboxTender}
		 */
		redateTender(tenderId, dueInDays) {
			if (typeof dueInDays !== 'number' || !Number.isInteger(dueInDays)) {
				throw new Error(
					`redateTender: dueInDays must be a whole number of days (got ${JSON.stringify(dueInDays)})`,
				);
			}
			return updateTender(tenderId, { quotesDueAt: dayToIso(clock.today() + dueInDays) });
		},
		/**
		 * @param {string} projectId
		 * @param {Party | string} builder
		 * @param {Omit<OpenTenderOptions, 'projectId' | 'builder'>} [fields]
		 * @returns {SandboxTender}
		 */
		addTenderUnderBuilder(projectId, builder, fields = {}) {
			projectOf(projectId);
			return openTender({ ...fields, projectId, builder: parseBuilder(builder) });
		},
		/**
		 * @param {string} projectId
		 * @param {ProjectStatus} status
		 */
		setProjectStatus(projectId, status) {
			const project = projectOf(projectId);
			project.status = parseEnumField(status, PROJECT_STATUSES, 'status');
			changedProjects.push(projectId);
		},
		/**
		 * @param {string} tenderId
		 * @returns {SandboxTender}
		 */
		getTender: (tenderId) => toSandboxTender(tenderOf(tenderId)),
		/**
		 * The ground truth: exactly what a complete walk for the company returns now, in order.
		 * @param {string} companyId
		 * @returns {Project[]}
		 */
		listOpen: (companyId) => indexOf(companyId).entries.map(toApiProject),
		/**
		 * One page of a company's ordering after `after` (from the start when undefined).
		 * @param {string} companyId
		 * @param {CursorPosition | undefined} after
		 * @param {number} limit
		 * @returns {{ projects: Project[], last: CursorPosition | undefined, hasNextPage: boolean }}
		 */
		page(companyId, after, limit) {
			const { entries } = indexOf(companyId);
			const start =
				after === undefined
					? 0
					: searchAfter(
							entries,
							{ dueKey: after.dueDay ?? Infinity, projectId: after.projectId },
							false,
						);
			const slice = entries.slice(start, start + limit);
			const lastEntry = slice[slice.length - 1];
			return {
				projects: slice.map(toApiProject),
				last:
					lastEntry === undefined
						? undefined
						: {
								companyId,
								dueDay: lastEntry.dueKey === Infinity ? null : lastEntry.dueKey,
								projectId: lastEntry.projectId,
							},
				hasNextPage: start + limit < entries.length,
			};
		},
		/** @param {string} companyId */
		hasCompany: (companyId) => companyById.has(companyId),
		history: () => events.map((event) => structuredClone(event)),
		counts: () => ({ projects: projects.size, tenders: tenders.size }),
		/** Builds every company's ordering ahead of the first request, so the first page is fast too. */
		warm() {
			for (const companyId of companyById.keys()) indexOf(companyId);
		},
	};
}

/** @typedef {ReturnType<typeof createStore>} Store */

module.exports = { createStore, toApiProject };
