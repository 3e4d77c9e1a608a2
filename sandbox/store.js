// @ts-check
'use strict';

const { dayToIso } = require('./clock');
const { SandboxNotFoundError } = require('./errors');
const { BUILDERS, generateProject, generateProjects, tenderIdFor, tenderWords } = require('./data');
const { Orderings } = require('./ordering');
const {
	PROJECT_STATUSES,
	TENDER_STATUSES,
	TENDER_TYPES,
	eventType,
	parseBuilder,
	parseDateField,
	parseEnumField,
	parseName,
	patchedTender,
	rejectUnknownFields,
	toSandboxTender,
} = require('./tender-fields');

/** @typedef {import('./random').Random} Random */
/** @typedef {import('./clock').SandboxClock} SandboxClock */
/** @typedef {import('./fixtures').SandboxCompany} SandboxCompany */
/** @typedef {import('./company').Company} Company */
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

const OPEN_FIELDS = [
	'projectId',
	'companyId',
	'name',
	'type',
	'builder',
	'tenderOpenAt',
	'quotesDueAt',
];

/**
 * @typedef {object} StoreOptions
 * @property {Random} dataRandom generates the seeded data set
 * @property {Random} controlRandom fills in defaults for tenders opened by control functions
 * @property {SandboxClock} clock
 * @property {number} projectCount
 * @property {number} windowDays
 * @property {import('./data').PartyCounts} [partyCounts] parties on every project, generated or opened
 * @property {readonly SandboxCompany[]} companies
 * @property {string} defaultCompanyId used by openTender when no companyId is given
 */

/** The sandbox's data: projects and tenders, each company's ordering, and the change history. */
class Store {
	/** @param {StoreOptions} options */
	constructor(options) {
		const { dataRandom, clock, projectCount, windowDays, partyCounts } = options;
		this.options = options;
		const generated = generateProjects(dataRandom, {
			count: projectCount,
			today: clock.today(),
			windowDays,
			partyCounts,
		});
		/** @type {Map<string, StoredProject>} */
		this.projects = new Map(generated.projects.map((project) => [project.projectId, project]));
		/** @type {Map<string, StoredTender>} */
		this.tenders = new Map();
		for (const project of generated.projects) {
			for (const tender of project.tenders) this.tenders.set(tender.id, tender);
		}
		this.lastProjectSequence = projectCount;
		this.lastTenderSequence = generated.tenderCount;
		const { companies } = options;
		this.orderings = new Orderings({ companies, projects: this.projects, clock, windowDays });
		/** @type {HistoryEvent[]} */
		this.events = [];
	}

	/**
	 * @param {StoredTender} tender
	 * @param {HistoryEvent['type']} type
	 * @param {HistoryEvent['changes']} [changes]
	 */
	record(tender, type, changes) {
		this.orderings.changed(tender.projectId);
		/** @type {HistoryEvent} */
		const event = {
			at: new Date(this.options.clock.now()).toISOString(),
			type,
			tenderId: tender.id,
			projectId: tender.projectId,
		};
		if (changes) event.changes = changes;
		this.events.push(event);
	}

	/**
	 * @param {string} tenderId
	 * @returns {StoredTender}
	 */
	tenderOf(tenderId) {
		const tender = this.tenders.get(tenderId);
		if (!tender) throw new SandboxNotFoundError(`unknown tender ${JSON.stringify(tenderId)}`);
		return tender;
	}

	/**
	 * @param {string} projectId
	 * @returns {StoredProject}
	 */
	projectOf(projectId) {
		const project = this.projects.get(projectId);
		if (!project) throw new SandboxNotFoundError(`unknown project ${JSON.stringify(projectId)}`);
		return project;
	}

	/**
	 * A new tender's fields as given, or defaults that match the company; in this order, so the
	 * same seed opens the same tenders.
	 * @param {Company} company
	 * @param {OpenTenderOptions} options
	 */
	newTenderFields(company, options) {
		const { clock, controlRandom, windowDays } = this.options;
		const today = clock.today();
		const name =
			options.name === undefined ? company.matchingName(controlRandom) : parseName(options.name);
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
		const words = tenderWords(name, type);
		if (company.matches(words).length === 0) {
			throw new Error(
				`a tender named ${JSON.stringify(name)} (${type}) matches none of ${company.companyId}'s keywords (${company.keywords.join(', ') || 'none'}); use a name containing one`,
			);
		}
		return { name, type, builder, openDay, dueDay, words };
	}

	/**
	 * @param {OpenTenderOptions} options
	 * @param {string} [id] the caller's id instead of the next in sequence (openTenderWithId)
	 * @returns {SandboxTender}
	 */
	openTender(options = {}, id = undefined) {
		rejectUnknownFields(options, OPEN_FIELDS, 'openTender');
		const company = this.orderings.company(options.companyId ?? this.options.defaultCompanyId);
		const { words, ...fields } = this.newTenderFields(company, options);
		let project;
		if (options.projectId === undefined) {
			const sequence = ++this.lastProjectSequence;
			project = generateProject(this.options.controlRandom, sequence, this.options.partyCounts);
			this.projects.set(project.projectId, project);
		} else project = this.projectOf(options.projectId);
		/** @type {StoredTender} */
		const tender = {
			id: id ?? tenderIdFor(++this.lastTenderSequence),
			projectId: project.projectId,
			...fields,
			status: 'Open',
			words,
		};
		project.tenders.push(tender);
		this.tenders.set(tender.id, tender);
		this.record(tender, 'opened');
		return toSandboxTender(tender);
	}

	/**
	 * openTender with an id of the caller's choice: any non-empty string not in use, such as
	 * `__proto__` or `constructor`, to try the ids a real API may send.
	 * @param {string} id
	 * @param {OpenTenderOptions} options
	 * @returns {SandboxTender}
	 */
	openTenderWithId(id, options = {}) {
		if (typeof id !== 'string' || id === '') {
			throw new Error(`openTenderWithId needs a non-empty string id (got ${JSON.stringify(id)})`);
		}
		if (this.tenders.has(id))
			throw new Error(`a tender with id ${JSON.stringify(id)} exists already`);
		return this.openTender(options, id);
	}

	/**
	 * @param {string} tenderId
	 * @param {TenderPatch} patch
	 * @returns {SandboxTender}
	 */
	updateTender(tenderId, patch) {
		const tender = this.tenderOf(tenderId);
		const { next, before, after, changes } = patchedTender(tender, patch);
		if (Object.keys(changes).length === 0) return before;
		Object.assign(tender, next);
		this.record(tender, eventType(before, after), changes);
		return after;
	}

	/**
	 * @param {string} tenderId
	 * @param {TenderStatus} [status]
	 * @returns {SandboxTender}
	 */
	closeTender(tenderId, status = 'Closed') {
		const tender = this.tenderOf(tenderId);
		if (status === 'Open')
			throw new Error('closeTender takes Closed or Awarded; use updateTender to reopen');
		parseEnumField(status, TENDER_STATUSES, 'status');
		if (tender.status !== 'Open') {
			throw new Error(
				`tender ${tenderId} is already ${tender.status}; only an Open tender can be closed`,
			);
		}
		return this.updateTender(tenderId, { status });
	}

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
		const quotesDueAt = dayToIso(this.options.clock.today() + dueInDays);
		return this.updateTender(tenderId, { quotesDueAt });
	}

	/**
	 * @param {string} projectId
	 * @param {Party | string} builder
	 * @param {Omit<OpenTenderOptions, 'projectId' | 'builder'>} [fields]
	 * @returns {SandboxTender}
	 */
	addTenderUnderBuilder(projectId, builder, fields = {}) {
		this.projectOf(projectId);
		return this.openTender({ ...fields, projectId, builder: parseBuilder(builder) });
	}

	/**
	 * @param {string} projectId
	 * @param {ProjectStatus} status
	 */
	setProjectStatus(projectId, status) {
		const project = this.projectOf(projectId);
		project.status = parseEnumField(status, PROJECT_STATUSES, 'status');
		this.orderings.changed(projectId);
	}

	/**
	 * @param {string} tenderId
	 * @returns {SandboxTender}
	 */
	getTender(tenderId) {
		return toSandboxTender(this.tenderOf(tenderId));
	}

	/**
	 * The ground truth: exactly what a complete walk for the company returns now, in order.
	 * @param {string} companyId
	 * @returns {Project[]}
	 */
	listOpen(companyId) {
		return this.orderings.list(companyId);
	}

	/**
	 * One page of a company's ordering after `after` (from the start when undefined).
	 * @param {string} companyId
	 * @param {CursorPosition | undefined} after
	 * @param {number} limit
	 */
	page(companyId, after, limit) {
		return this.orderings.page(companyId, after, limit);
	}

	/** @param {string} companyId */
	hasCompany(companyId) {
		return this.orderings.companyById.has(companyId);
	}

	history() {
		return this.events.map((event) => structuredClone(event));
	}

	counts() {
		return { projects: this.projects.size, tenders: this.tenders.size };
	}

	/** Builds every company's ordering ahead of the first request, so the first page is fast too. */
	warm() {
		for (const companyId of this.orderings.companyById.keys()) this.orderings.of(companyId);
	}
}

module.exports = { Store };
