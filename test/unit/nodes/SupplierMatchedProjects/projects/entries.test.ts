import {
	projectFault,
	readPage,
	skippedSummary,
	tenderFault,
} from '../../../../../nodes/SupplierMatchedProjects/projects/entries';

import { project, tender } from '../../../../support/engine/n8n-fixtures';

const p17 = (tenders: unknown) => ({ ...project({ projectId: 'P-17' }), tenders });

describe('what a broken project entry is', () => {
	it.each([
		['null', null, 'is null, not a project'],
		['a string', 'p-1', 'is a string, not a project'],
		['a number', 17, 'is a number, not a project'],
		['true or false', false, 'is true or false, not a project'],
		['a list', [project()], 'is a list, not a project'],
		['no projectId', { ...project(), projectId: undefined }, 'has no projectId'],
		[
			'a number projectId',
			{ ...project(), projectId: 17 },
			'has a projectId that is a number, not text',
		],
		['null projectId', { ...project(), projectId: null }, 'has a projectId that is null, not text'],
		['tenders as an object', p17({}), `project "P-17"'s tenders is an object, not a list`],
		['tenders as a number', p17(3), `project "P-17"'s tenders is a number, not a list`],
		['tenders as a string', p17('t-1'), `project "P-17"'s tenders is a string, not a list`],
	])('%s', (_name, entry, fault) => {
		expect(projectFault(entry)).toBe(fault);
	});

	it('reads a clean project, an empty tenders list and fields it does not know', () => {
		expect(projectFault(project())).toBeUndefined();
		expect(projectFault({ ...project(), tenders: [] })).toBeUndefined();
		// Missing or null, like any other field: no tenders listed.
		expect(projectFault({ ...project(), tenders: undefined })).toBeUndefined();
		expect(projectFault({ ...project(), tenders: null })).toBeUndefined();
		expect(projectFault({ ...project(), addedLater: { x: 1 } })).toBeUndefined();
		// Other fields are read defensively where they are used; only what identifies and carries
		// tenders decides.
		expect(projectFault({ ...project(), budget: 'big', consultants: 3 })).toBeUndefined();
	});

	it('cuts a long projectId short when it names it', () => {
		const fault = projectFault({ ...project({ projectId: 'x'.repeat(500) }), tenders: 1 });
		expect(fault).toBe(`project "${'x'.repeat(39)}…"'s tenders is a number, not a list`);
	});
});

describe('what a broken tender is', () => {
	it.each([
		['null', null, 'is null, not a tender'],
		['a string', 't-1', 'is a string, not a tender'],
		['a list', [], 'is a list, not a tender'],
		['no id', { ...tender(), id: undefined }, 'has no id'],
		['a number id', { ...tender(), id: 5 }, 'has an id that is a number, not text'],
	])('%s', (_name, entry, fault) => {
		expect(tenderFault(entry)).toBe(fault);
	});

	it('reads a tender with an id, whatever else it lacks', () => {
		expect(tenderFault(tender())).toBeUndefined();
		expect(tenderFault({ id: 't-1' })).toBeUndefined();
	});
});

describe('readPage', () => {
	it('keeps the clean entries in order and says where each broken one stood', () => {
		const a = project({ projectId: 'a' });
		const b = project({ projectId: 'b' });
		const read = readPage([a, null, 'p', b, p17(4)], 2);
		expect(read.projects).toEqual([a, b]);
		expect(read.skipped).toEqual([
			'entry 2 of page 2 (data[1]) is null, not a project',
			'entry 3 of page 2 (data[2]) is a string, not a project',
			`project "P-17"'s tenders is a number, not a list (entry 5 of page 2, data[4])`,
		]);
	});

	it("leaves a clean project's broken tenders out of a copy, and says which", () => {
		const good = tender({ id: 't-good' });
		const entry = { ...project({ projectId: 'P-3' }), tenders: [null, good, 'x', { id: 9 }] };
		const read = readPage([entry], 1);
		expect(read.projects).toEqual([{ ...entry, tenders: [good] }]);
		expect(entry.tenders).toHaveLength(4);
		expect(read.skipped).toEqual([
			`project "P-3"'s tender 1 is null, not a tender (entry 1 of page 1, data[0], tenders[0])`,
			`project "P-3"'s tender 3 is a string, not a tender (entry 1 of page 1, data[0], tenders[2])`,
			`project "P-3"'s tender 4 has an id that is a number, not text (entry 1 of page 1, data[0], tenders[3])`,
		]);
	});

	it('hands a clean project over as it came, one without tenders too', () => {
		const clean = project();
		const bare = { projectId: 'bare', tenders: null };
		const read = readPage([clean, bare], 1);
		expect(read).toEqual({ projects: [clean, bare], skipped: [] });
		expect(read.projects[0]).toBe(clean);
	});

	it('keeps a project all of whose tenders are broken, with none', () => {
		const entry = { ...project(), tenders: [null] };
		expect(readPage([entry], 1).projects).toEqual([{ ...entry, tenders: [] }]);
	});
});

describe('skippedSummary', () => {
	it('counts every entry and names the first three', () => {
		expect(skippedSummary(['a'])).toBe(
			'1 entry the API sent could not be read and was left out: a.',
		);
		expect(skippedSummary(['a', 'b', 'c', 'd', 'e'])).toBe(
			'5 entries the API sent could not be read and were left out: a; b; c; and 2 more.',
		);
	});
});
