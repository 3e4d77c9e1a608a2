// @ts-check
'use strict';

/**
 * Deterministic, realistic-looking sandbox data. Everything is derived from the seeded Random,
 * so the same seed, size, start day and window produce the same projects.
 */

/** @typedef {import('./random').Random} Random */
/** @typedef {import('./types').Budget} Budget */
/** @typedef {import('./types').StoredProject} StoredProject */
/** @typedef {import('./types').StoredTender} StoredTender */

/** Trade packages; several carry the fixture companies' keywords, most do not. */
const TRADE_PACKAGES = [
	'Plumbing & Drainage',
	'Plumbing Fixtures Supply',
	'Electrical Services',
	'Electrical & Data Cabling',
	'Roofing & Cladding',
	'Metal Roofing Supply',
	'Concrete Supply',
	'Precast Concrete Panels',
	'HVAC / Mechanical Services',
	'Joinery & Cabinetry',
	'Glazing & Aluminium Windows',
	'Flooring (Vinyl & Carpet)',
	'Tiling & Waterproofing',
	'Landscaping',
	'Fire Protection (Sprinklers)',
	'Scaffolding',
	'Structural Steel',
	'Painting & Decorating',
	'Plasterboard & Ceilings',
	'Demolition',
	'Timber Framing',
	'Insulation',
	'Lifts',
	'Security & Access Control',
	'Kitchen Fit-out',
	'Doors & Hardware',
	'Earthworks',
	'Signage',
	'Bathroom Fit-out',
	'Façade Cleaning & Maintenance',
];

/** @type {ReadonlyArray<{ name: string, category: string }>} */
const BUILDINGS = [
	{ name: 'Medical Centre', category: 'Health' },
	{ name: 'Primary School Classroom Block', category: 'Education' },
	{ name: 'Library Refurbishment', category: 'Civic' },
	{ name: 'Townhouses (12 units)', category: 'Residential' },
	{ name: 'Apartments Stage 2', category: 'Residential' },
	{ name: 'Aquatic Centre', category: 'Recreation' },
	{ name: 'Warehouse & Offices', category: 'Industrial' },
	{ name: 'Retirement Village', category: 'Aged Care' },
	{ name: 'Marae Wharekai Upgrade', category: 'Community' },
	{ name: 'Fire Station', category: 'Civic' },
	{ name: 'Supermarket', category: 'Retail' },
	{ name: 'Childcare Centre', category: 'Education' },
	{ name: 'Hotel Extension', category: 'Hospitality' },
	{ name: 'Café & Bakery Fit-out', category: 'Hospitality' },
	{ name: 'Brewery Expansion', category: 'Industrial' },
	{ name: 'Community Hall', category: 'Community' },
	{ name: 'Police Station Seismic Upgrade', category: 'Civic' },
	{ name: 'Distribution Centre', category: 'Industrial' },
	{ name: 'Surf Life Saving Club', category: 'Recreation' },
	{ name: 'Office Tower Refurbishment', category: 'Commercial' },
	{ name: 'Shopping Centre Food Court', category: 'Retail' },
	{ name: 'Mixed-Use Development', category: 'Mixed Use' },
];

/** @type {ReadonlyArray<{ suburb: string, region: string, postcode: string, country: string }>} */
const PLACES = [
	{ suburb: 'Ōtāhuhu', region: 'Auckland', postcode: '1062', country: 'New Zealand' },
	{ suburb: 'Māngere', region: 'Auckland', postcode: '2022', country: 'New Zealand' },
	{ suburb: 'Ōrewa', region: 'Auckland', postcode: '0931', country: 'New Zealand' },
	{ suburb: 'Whangārei', region: 'Northland', postcode: '0110', country: 'New Zealand' },
	{ suburb: 'Taupō', region: 'Waikato', postcode: '3330', country: 'New Zealand' },
	{ suburb: 'Te Awamutu', region: 'Waikato', postcode: '3800', country: 'New Zealand' },
	{ suburb: 'Pāpāmoa', region: 'Bay of Plenty', postcode: '3118', country: 'New Zealand' },
	{ suburb: 'Ōhope', region: 'Bay of Plenty', postcode: '3121', country: 'New Zealand' },
	{ suburb: 'Paekākāriki', region: 'Wellington', postcode: '5034', country: 'New Zealand' },
	{ suburb: 'Te Aro', region: 'Wellington', postcode: '6011', country: 'New Zealand' },
	{ suburb: 'Frankton', region: 'Otago', postcode: '9300', country: 'New Zealand' },
	{ suburb: 'Parramatta', region: 'NSW', postcode: '2150', country: 'Australia' },
	{ suburb: 'Wollongong', region: 'NSW', postcode: '2500', country: 'Australia' },
	{ suburb: 'Geelong', region: 'VIC', postcode: '3220', country: 'Australia' },
	{ suburb: 'Fremantle', region: 'WA', postcode: '6160', country: 'Australia' },
	{ suburb: 'Townsville', region: 'QLD', postcode: '4810', country: 'Australia' },
	{ suburb: 'Coolangatta', region: 'QLD', postcode: '4225', country: 'Australia' },
	{ suburb: 'Battery Point', region: 'TAS', postcode: '7004', country: 'Australia' },
];

const STREETS = [
	'Queen Street',
	'Great South Road',
	'Kāinga Road',
	'George Street',
	'Church Street',
	'Beach Road',
	'Hōhepa Place',
	'Rue Bérénice',
	'Station Road',
	'Te Rapa Road',
	'Harbour Esplanade',
	'Kōwhai Avenue',
];

const BUILDER_NAMES = [
	'Kōwhai Construction Ltd',
	'Southern Cross Builders',
	'Tōtara Projects',
	'Harbourside Constructions',
	'Ironbark Building Group',
	'Müller & Söhne Builders',
	'Pōhutukawa Developments',
	'Coastal Commercial Builders',
	'Ridgeline Construction',
	'Bâtiment Pacific Pty Ltd',
	'Greenstone Build Co',
	'Summit Civil & Building',
	'Wairua Construction',
	'Bluegum Builders',
];

const CONSULTANT_NAMES = [
	'Rākau Architects',
	'Studio Émile Design',
	'Stratum Structural Engineers',
	'Ngā Wai Hydraulic Consultants',
	'Meridian Quantity Surveyors',
	'Fjord & Kauri Landscape Architects',
	'Beacon Fire Engineering',
	'Lumen Electrical Engineers',
	'Tāwhiri Acoustics',
	'Blueprint Project Management',
];

const SUBCONTRACTOR_NAMES = [
	'Flowright Plumbing',
	'Sparkz Electrical',
	'Topnotch Roofing',
	'Solid Ground Concrete',
	'Aerotherm HVAC',
	'Grain & Co Joinery',
	'ClearView Glazing',
	'Floorcraft',
	'Tile & Stone Co',
	'Ōtaki Landscaping',
	'Sentinel Fire Protection',
	'SkyHigh Scaffolding',
	'Steelform Fabrication',
	'Brushstroke Painters',
	'Ceiling Masters',
	'Wrecking Crew Demolition',
	'Framewerk Timber',
	'Warmhaus Insulation',
	'Liftech Elevators',
	'Guardian Security Systems',
	'Crème Kitchens',
	'Portal Doors & Hardware',
	'Earthmove Civil',
	'Signcraft',
	'Bathology',
	'Façade Care',
];

/** @param {string} name */
function slug(name) {
	return name
		.normalize('NFD')
		.replace(/[\u0300-\u036f]/g, '')
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-|-$/g, '');
}

/**
 * Parties are shared between projects and frozen, so one project's change can never leak into
 * another's.
 * @param {readonly string[]} names
 * @param {number} withoutWebsiteEvery every n-th party has no website on file
 */
function parties(names, withoutWebsiteEvery) {
	return names.map((name, index) =>
		Object.freeze({
			name,
			website:
				index % withoutWebsiteEvery === withoutWebsiteEvery - 1
					? null
					: `https://${slug(name)}.example`,
		}),
	);
}

const BUILDERS = parties(BUILDER_NAMES, 5);
const CONSULTANTS = parties(CONSULTANT_NAMES, 4);
const SUBCONTRACTORS = parties(SUBCONTRACTOR_NAMES, 3);

/** @type {ReadonlyArray<Budget>} */
const BUDGET_BANDS = [
	{ low: 0, high: 50_000 },
	{ low: 50_000, high: 250_000 },
	{ low: 250_000, high: 1_000_000 },
	{ low: 1_000_000, high: 5_000_000 },
	{ low: 5_000_000, high: 20_000_000 },
	{ low: 20_000_000, high: null },
];

/**
 * Lower-cased words of a text, accents kept (so "Façade" stays "façade"), for keyword matching.
 * @param {string} text
 */
function words(text) {
	return (
		text
			.normalize('NFC')
			.toLowerCase()
			.match(/[\p{L}\p{N}]+/gu) ?? []
	);
}

/** @type {Map<string, readonly string[]>} */
const wordsByTender = new Map();

/**
 * The words a tender is matched on. Tenders share a handful of names, so the lists are shared
 * too (frozen): 100,000 projects start fast and a company's matches can be remembered per list.
 * @param {string} name
 * @param {string} type
 */
function tenderWords(name, type) {
	const key = `${name}\n${type}`;
	let found = wordsByTender.get(key);
	if (!found) {
		found = Object.freeze([...new Set([...words(name), ...words(type)])]);
		if (wordsByTender.size < 10_000) wordsByTender.set(key, found);
	}
	return found;
}

/** @param {number} sequence */
const tenderIdFor = (sequence) => `tdr-${String(sequence).padStart(7, '0')}`;

/**
 * @typedef {object} PartyCounts fixed numbers of parties on every project (default: random)
 * @property {number} [consultants]
 * @property {number} [subcontractors]
 */

/**
 * @param {Random} random @param {number} sequence @param {PartyCounts} [partyCounts]
 * @returns {StoredProject}
 */
function generateProject(random, sequence, partyCounts = {}) {
	const building = random.pick(BUILDINGS);
	const place = random.pick(PLACES);
	const projectId = `prj-${String(sequence).padStart(6, '0')}`;
	return {
		projectId,
		projectName: `${place.suburb} ${building.name}`,
		address: `${random.int(1, 480)} ${random.pick(STREETS)}, ${place.suburb}, ${place.region} ${place.postcode}, ${place.country}`,
		category: building.category,
		budget: random.next() < 0.15 ? null : { ...random.pick(BUDGET_BANDS) },
		status: random.chance(0.1) ? 'Closed' : 'Active',
		consultants:
			partyCounts.consultants !== undefined
				? random.sample(CONSULTANTS, partyCounts.consultants)
				: random.chance(0.3)
					? []
					: random.sample(CONSULTANTS, random.int(1, 3)),
		// Here, where the API sends it: toApiProject keeps the keys' order.
		tenders: [],
		tenderingSubcontractors: random.sample(
			SUBCONTRACTORS,
			partyCounts.subcontractors ?? random.int(0, 5),
		),
		url: `https://app.supplier-matched-projects.invalid/projects/${projectId}`,
	};
}

/**
 * @param {Random} random
 * @param {number} today whole days since the epoch
 * @param {number} windowDays
 * @returns {{ dueDay: number | null, status: StoredTender['status'] }}
 */
function dueDateAndStatus(random, today, windowDays) {
	const roll = random.next();
	if (roll < 0.08) return { dueDay: null, status: random.chance(0.9) ? 'Open' : 'Closed' };
	if (roll < 0.22) {
		// Past due: mostly closed or awarded, a few left Open by a builder who never closed them.
		const status = random.pick(/** @type {const} */ (['Closed', 'Awarded', 'Awarded', 'Open']));
		return { dueDay: today - random.int(1, 30), status };
	}
	const status = random.chance(0.85) ? 'Open' : random.chance(0.5) ? 'Closed' : 'Awarded';
	if (roll < 0.8) return { dueDay: today + random.int(0, windowDays), status };
	return { dueDay: today + windowDays + random.int(1, 120), status };
}

/**
 * Generates the seeded data set: `count` projects, each with 1 to 5 tenders from 1 to 3 builders.
 * @param {Random} random
 * @param {{ count: number, today: number, windowDays: number, partyCounts?: PartyCounts }} options
 */
function generateProjects(random, { count, today, windowDays, partyCounts }) {
	/** @type {StoredProject[]} */
	const projects = [];
	let tenderCount = 0;
	for (let sequence = 1; sequence <= count; sequence++) {
		const project = generateProject(random, sequence, partyCounts);
		const builders = random.sample(BUILDERS, random.int(1, 3));
		const names = random.sample(TRADE_PACKAGES, random.int(1, 5));
		for (const name of names) {
			tenderCount++;
			const type = random.chance(0.75) ? 'Tender' : 'Procurement';
			const { dueDay, status } = dueDateAndStatus(random, today, windowDays);
			project.tenders.push({
				id: tenderIdFor(tenderCount),
				projectId: project.projectId,
				name,
				type,
				builder: random.pick(builders),
				openDay: random.chance(0.05) ? null : today - random.int(0, 45),
				dueDay,
				status,
				words: tenderWords(name, type),
			});
		}
		projects.push(project);
	}
	return { projects, tenderCount };
}

module.exports = {
	BUILDERS,
	TRADE_PACKAGES,
	generateProject,
	generateProjects,
	tenderIdFor,
	tenderWords,
	words,
};
