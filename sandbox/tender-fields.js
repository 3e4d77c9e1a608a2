// @ts-check
'use strict';

const { dayToIso, isoToDay } = require('./clock');
const { BUILDERS, tenderWords } = require('./data');
const { oneOf, rejectUnknownFields } = require('./errors');

/** @typedef {import('./types').StoredTender} StoredTender */
/** @typedef {import('./types').SandboxTender} SandboxTender */

/** Checks the fields a control call sets on a tender, in the API's words. */

const TENDER_TYPES = /** @type {const} */ (['Tender', 'Procurement']);
const TENDER_STATUSES = /** @type {const} */ (['Open', 'Closed', 'Awarded']);
const OPEN_FIELDS = [
	'projectId',
	'companyId',
	'name',
	'type',
	'builder',
	'tenderOpenAt',
	'quotesDueAt',
];
const PATCHABLE = ['name', 'type', 'builder', 'quotesDueAt', 'status', 'tenderOpenAt'];

/** @param {unknown} value @param {string} field */
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

/** @param {unknown} value */
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

/** @param {unknown} value */
function parseName(value) {
	if (typeof value !== 'string' || value.trim() === '') {
		throw new Error(`name must be a non-empty string (got ${JSON.stringify(value)})`);
	}
	return value;
}

/** @param {StoredTender} tender */
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
 * A new tender's fields as given, or defaults that match the company; in this order, so the
 * same seed opens the same tenders.
 * @param {import('./company').Company} company
 * @param {import('./store').OpenTenderOptions} options
 * @param {Pick<import('./store').StoreOptions, 'clock' | 'controlRandom' | 'windowDays'>} store
 */
function newTenderFields(company, options, { clock, controlRandom: random, windowDays }) {
	const today = clock.today();
	const name = options.name === undefined ? company.matchingName(random) : parseName(options.name);
	const type = options.type === undefined ? 'Tender' : oneOf(options.type, TENDER_TYPES, 'type');
	const builder =
		options.builder === undefined ? random.pick(BUILDERS) : parseBuilder(options.builder);
	const openDay =
		options.tenderOpenAt === undefined
			? today
			: parseDateField(options.tenderOpenAt, 'tenderOpenAt');
	const dueDay =
		options.quotesDueAt === undefined
			? today + random.int(1, windowDays)
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
 * The tender as the patch would leave it, and what would change in API terms.
 * @param {StoredTender} tender
 * @param {import('./store').TenderPatch} patch
 */
function patchedTender(tender, patch) {
	if (typeof patch !== 'object' || patch === null)
		throw new Error('updateTender needs a patch object');
	rejectUnknownFields(patch, PATCHABLE, 'updateTender');
	const next = { ...tender };
	if (patch.name !== undefined) next.name = parseName(patch.name);
	if (patch.type !== undefined) next.type = oneOf(patch.type, TENDER_TYPES, 'type');
	if (patch.builder !== undefined) next.builder = parseBuilder(patch.builder);
	if (patch.status !== undefined) next.status = oneOf(patch.status, TENDER_STATUSES, 'status');
	if (patch.quotesDueAt !== undefined)
		next.dueDay = parseDateField(patch.quotesDueAt, 'quotesDueAt');
	if (patch.tenderOpenAt !== undefined)
		next.openDay = parseDateField(patch.tenderOpenAt, 'tenderOpenAt');
	next.words = tenderWords(next.name, next.type);
	const before = toSandboxTender(tender);
	const after = toSandboxTender(next);
	/** @type {Record<string, { from: unknown, to: unknown }>} */
	const changes = {};
	for (const field of /** @type {Array<keyof SandboxTender>} */ (PATCHABLE)) {
		if (JSON.stringify(before[field]) !== JSON.stringify(after[field])) {
			changes[field] = { from: before[field], to: after[field] };
		}
	}
	return { next, before, after, changes };
}

/** @param {SandboxTender} before @param {SandboxTender} after */
function eventType(before, after) {
	if (before.status === 'Open' && after.status !== 'Open') return 'closed';
	if (before.status !== 'Open' && after.status === 'Open') return 'opened';
	return 'changed';
}

module.exports = {
	OPEN_FIELDS,
	newTenderFields,
	TENDER_STATUSES,
	eventType,
	parseBuilder,
	patchedTender,
	toSandboxTender,
};
