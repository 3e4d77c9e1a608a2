// @ts-check
'use strict';

const { dayToIso } = require('./clock');
const { oneOf, rejectUnknownFields, SandboxNotFoundError } = require('./errors');
const { generateProject, generateProjects, tenderIdFor } = require('./data');
const { SANDBOX_FIXTURES } = require('./fixtures');
const { Orderings } = require('./ordering');
const tenderFields = require('./tender-fields');

/** @typedef {import('./random').Random} Random */
/** @typedef {import('./types').Party} Party */
/** @typedef {import('./types').TenderStatus} TenderStatus */
/** @typedef {import('./types').StoredTender} StoredTender */

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
 * @property {import('./types').TenderType} [type]
 * @property {Party | string} [builder] a Party, or a builder's name (a known builder's website is filled in)
 * @property {string | null} [tenderOpenAt] YYYY-MM-DD
 * @property {string | null} [quotesDueAt] YYYY-MM-DD
 */

/** @typedef {TenderFields & { status?: TenderStatus }} TenderPatch */

/** @typedef {TenderFields & { projectId?: string, companyId?: string }} OpenTenderOptions */

/**
 * @typedef {object} StoreOptions
 * @property {Random} dataRandom generates the seeded data set
 * @property {Random} controlRandom fills in defaults for tenders opened by control functions
 * @property {import('./clock').SandboxClock} clock
 * @property {number} projectCount
 * @property {number} windowDays
 * @property {import('./data').PartyCounts} [partyCounts] parties on every project, generated or opened
 * @property {readonly import('./fixtures').SandboxCompany[]} companies
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
		/** @type {Map<string, import('./types').StoredProject>} */
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
		const at = new Date(this.options.clock.now()).toISOString();
		const { id: tenderId, projectId } = tender;
		this.events.push({ at, type, tenderId, projectId, ...(changes && { changes }) });
	}

	/** @param {string} tenderId */
	tenderOf(tenderId) {
		const tender = this.tenders.get(tenderId);
		if (!tender) throw new SandboxNotFoundError(`unknown tender ${JSON.stringify(tenderId)}`);
		return tender;
	}

	/** @param {string} projectId */
	projectOf(projectId) {
		const project = this.projects.get(projectId);
		if (!project) throw new SandboxNotFoundError(`unknown project ${JSON.stringify(projectId)}`);
		return project;
	}

	/**
	 * @param {OpenTenderOptions} options
	 * @param {string} [id] the caller's id instead of the next in sequence (openTenderWithId)
	 */
	openTender(options = {}, id = undefined) {
		rejectUnknownFields(options, tenderFields.OPEN_FIELDS, 'openTender');
		const company = this.orderings.company(options.companyId ?? SANDBOX_FIXTURES.companyId);
		const { words, ...given } = tenderFields.newTenderFields(company, options, this.options);
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
			...given,
			status: 'Open',
			words,
		};
		project.tenders.push(tender);
		this.tenders.set(tender.id, tender);
		this.record(tender, 'opened');
		return tenderFields.toSandboxTender(tender);
	}

	/**
	 * openTender with an id of the caller's choice: any non-empty string not in use, such as
	 * `__proto__` or `constructor`, to try the ids a real API may send.
	 * @param {string} id
	 * @param {OpenTenderOptions} options
	 */
	openTenderWithId(id, options = {}) {
		if (typeof id !== 'string' || id === '') {
			throw new Error(`openTenderWithId needs a non-empty string id (got ${JSON.stringify(id)})`);
		}
		if (this.tenders.has(id))
			throw new Error(`a tender with id ${JSON.stringify(id)} exists already`);
		return this.openTender(options, id);
	}

	/** @param {string} tenderId @param {TenderPatch} patch */
	updateTender(tenderId, patch) {
		const tender = this.tenderOf(tenderId);
		const { next, before, after, changes } = tenderFields.patchedTender(tender, patch);
		if (Object.keys(changes).length === 0) return before;
		Object.assign(tender, next);
		this.record(tender, tenderFields.eventType(before, after), changes);
		return after;
	}

	/** @param {string} tenderId @param {TenderStatus} [status] */
	closeTender(tenderId, status = 'Closed') {
		const tender = this.tenderOf(tenderId);
		if (status === 'Open')
			throw new Error('closeTender takes Closed or Awarded; use updateTender to reopen');
		oneOf(status, tenderFields.TENDER_STATUSES, 'status');
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
	 */
	addTenderUnderBuilder(projectId, builder, fields = {}) {
		this.projectOf(projectId);
		return this.openTender({ ...fields, projectId, builder: tenderFields.parseBuilder(builder) });
	}

	/** @param {string} tenderId */
	getTender(tenderId) {
		return tenderFields.toSandboxTender(this.tenderOf(tenderId));
	}

	/**
	 * The ground truth: exactly what a complete walk for the company returns now, in order.
	 * @param {string} companyId
	 */
	listOpen(companyId) {
		return this.orderings.list(companyId);
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
