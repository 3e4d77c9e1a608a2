import { createSandboxData } from '../../sandbox';
import { harnessFor, SANDBOX_FIXTURES, sandboxDay } from './harness';

describe('sandbox control functions and the /__sandbox re-date route', () => {
	const harness = harnessFor({ cacheSeconds: 0, rateLimit: false });

	const redate = (tenderId: string, body: string) =>
		harness.client.send('POST', `/__sandbox/tenders/${tenderId}/redate`, {
			headers: { 'content-type': 'application/json' },
			body,
		});
	const listedTenderIds = () =>
		harness.sandbox
			.listOpen(SANDBOX_FIXTURES.companyId)
			.flatMap((project) => project.tenders.map((tender) => tender.id));

	it("opens tenders with ids of the caller's choice, odd ones included, and refuses one in use", () => {
		for (const id of ['__proto__', 'constructor', 'hasOwnProperty']) {
			const tender = harness.sandbox.openTenderWithId(id);
			expect(tender).toMatchObject({ id, status: 'Open' });
			expect(harness.sandbox.getTender(id)).toEqual(tender);
		}
		expect(listedTenderIds()).toEqual(
			expect.arrayContaining(['__proto__', 'constructor', 'hasOwnProperty']),
		);
		expect(() => harness.sandbox.openTenderWithId('constructor')).toThrow(
			'a tender with id "constructor" exists already',
		);
		expect(() => harness.sandbox.openTenderWithId('')).toThrow('needs a non-empty string id');
	});

	it('opens a tender that the next walk returns, and records it in history', async () => {
		const tender = harness.sandbox.openTender({
			quotesDueAt: sandboxDay(harness.sandbox, 3),
			name: 'Roofing Repairs',
		});

		const { projects } = await harness.client.walk({ token: harness.token, limit: 100 });
		const walked = projects.find((project) => project.projectId === tender.projectId);

		expect(tender).toEqual({
			id: expect.stringMatching(/^tdr-/),
			projectId: expect.stringMatching(/^prj-/),
			name: 'Roofing Repairs',
			type: 'Tender',
			builder: { name: expect.any(String), website: expect.anything() },
			tenderOpenAt: sandboxDay(harness.sandbox),
			quotesDueAt: sandboxDay(harness.sandbox, 3),
			status: 'Open',
		});
		const { projectId, ...apiTender } = tender;
		expect(walked?.projectId).toBe(projectId);
		expect(walked?.tenders).toEqual([{ ...apiTender, matchedKeywords: ['roofing'] }]);
		expect(harness.sandbox.history().at(-1)).toEqual({
			at: expect.stringMatching(/^2030-03-10T/),
			type: 'opened',
			tenderId: tender.id,
			projectId: tender.projectId,
		});
		expect(harness.sandbox.getTender(tender.id)).toEqual(tender);
	});

	it('updates, closes (once) and reopens a tender, with the changes in history', () => {
		const tender = harness.sandbox.openTender({ quotesDueAt: sandboxDay(harness.sandbox, 10) });
		const historyBefore = harness.sandbox.history().length;

		const moved = harness.sandbox.updateTender(tender.id, {
			quotesDueAt: sandboxDay(harness.sandbox, 20),
			name: 'Plumbing Stage 2',
		});
		const closed = harness.sandbox.closeTender(tender.id, 'Awarded');
		expect(() => harness.sandbox.closeTender(tender.id)).toThrow(/already Awarded/);
		const reopened = harness.sandbox.updateTender(tender.id, { status: 'Open' });
		const unchanged = harness.sandbox.updateTender(tender.id, { status: 'Open' });

		expect(moved).toMatchObject({
			quotesDueAt: sandboxDay(harness.sandbox, 20),
			name: 'Plumbing Stage 2',
		});
		expect(closed.status).toBe('Awarded');
		expect(reopened.status).toBe('Open');
		expect(unchanged).toEqual(reopened);
		expect(harness.sandbox.history().slice(historyBefore)).toEqual([
			expect.objectContaining({
				type: 'changed',
				tenderId: tender.id,
				changes: {
					name: { from: tender.name, to: 'Plumbing Stage 2' },
					quotesDueAt: {
						from: sandboxDay(harness.sandbox, 10),
						to: sandboxDay(harness.sandbox, 20),
					},
				},
			}),
			expect.objectContaining({
				type: 'closed',
				changes: { status: { from: 'Open', to: 'Awarded' } },
			}),
			expect.objectContaining({
				type: 'opened',
				changes: { status: { from: 'Awarded', to: 'Open' } },
			}),
		]);
	});

	it('re-dates a tender relative to the sandbox day over HTTP, into and out of the listing, unlogged', async () => {
		const tender = harness.sandbox.openTender({ quotesDueAt: sandboxDay(harness.sandbox, 90) });
		expect(listedTenderIds()).not.toContain(tender.id);
		harness.sandbox.resetRequests();

		const soon = await redate(tender.id, JSON.stringify({ dueInDays: 2 }));
		expect(soon.status).toBe(200);
		expect(soon.body).toEqual({ ...tender, quotesDueAt: sandboxDay(harness.sandbox, 2) });
		expect(listedTenderIds()).toContain(tender.id);
		expect(harness.sandbox.requests()).toEqual([]);
		expect(harness.sandbox.history().at(-1)).toMatchObject({
			type: 'changed',
			tenderId: tender.id,
			changes: {
				quotesDueAt: { from: sandboxDay(harness.sandbox, 90), to: sandboxDay(harness.sandbox, 2) },
			},
		});
		const today = harness.sandbox.redateTender(tender.id, 0);
		expect(today.quotesDueAt).toBe(sandboxDay(harness.sandbox));
		const past = harness.sandbox.redateTender(tender.id, -1);
		expect(past.quotesDueAt).toBe(sandboxDay(harness.sandbox, -1));
		expect(listedTenderIds()).not.toContain(tender.id);
	});

	it.each([[1.5], ['2'], [null]])(
		'refuses to re-date by %j days with a message naming dueInDays',
		async (dueInDays) => {
			const tender = harness.sandbox.openTender();
			const response = await redate(tender.id, JSON.stringify({ dueInDays }));
			expect(response.status).toBe(400);
			expect(response.body).toEqual({
				code: 'INVALID_REQUEST',
				message: `redateTender: dueInDays must be a whole number of days (got ${JSON.stringify(dueInDays)})`,
			});
			expect(harness.sandbox.getTender(tender.id)).toEqual(tender);
		},
	);

	const route = '/__sandbox/tenders/tdr-0000001/redate';
	it.each<[string, string, string, string | undefined, number, string, RegExp]>([
		[
			'an unknown tender',
			'POST',
			'/__sandbox/tenders/tdr-nope/redate',
			'{"dueInDays":1}',
			404,
			'NOT_FOUND',
			/unknown tender "tdr-nope"/,
		],
		[
			'an unknown route',
			'GET',
			'/__sandbox/nothing-here',
			undefined,
			404,
			'NOT_FOUND',
			/POST \/__sandbox\/tenders\/:tenderId\/redate/,
		],
		['the wrong method', 'GET', route, undefined, 405, 'METHOD_NOT_ALLOWED', /takes POST/],
		['a body that is not JSON', 'POST', route, '{nope', 400, 'INVALID_JSON', /not valid JSON/],
		[
			'a body that is not an object',
			'POST',
			route,
			'[1, 2]',
			400,
			'INVALID_REQUEST',
			/must be a JSON object/,
		],
	])('answers %s with a clear error', async (_case, method, path, body, status, code, message) => {
		const result = await harness.client.send(method, path, { body });

		expect(result.status).toBe(status);
		expect(result.body).toEqual({ code, message: expect.stringMatching(message) });
	});

	it('records a builder change and a builder given by name', () => {
		const tender = harness.sandbox.openTender({ builder: 'Tōtara Projects' });

		const changed = harness.sandbox.updateTender(tender.id, {
			builder: { name: 'Nuevo Constructores', website: null },
		});

		expect(tender.builder).toEqual({
			name: 'Tōtara Projects',
			website: 'https://totara-projects.example',
		});
		expect(changed.builder).toEqual({ name: 'Nuevo Constructores', website: null });
		expect(harness.sandbox.history().at(-1)?.changes).toEqual({
			builder: { from: tender.builder, to: { name: 'Nuevo Constructores', website: null } },
		});
	});

	it.each<[string, () => unknown, RegExp]>([
		[
			'an unknown project',
			() => harness.sandbox.addTenderUnderBuilder('prj-nope', 'Bluegum Builders'),
			/unknown project/,
		],
		['an unknown company', () => harness.sandbox.listOpen('nobody'), /unknown company "nobody"/],
		[
			'a bad tender status',
			() => harness.sandbox.closeTender('tdr-0000001', 'Finished' as 'Closed'),
			/status must be one of Open, Closed, Awarded/,
		],
		[
			'an unknown field to open',
			() => harness.sandbox.openTender({ colour: 'red' } as never),
			/openTender does not take colour/,
		],
		[
			'an unknown field to update',
			() => harness.sandbox.updateTender('tdr-0000001', { colour: 'red' } as never),
			/updateTender does not take colour/,
		],
		[
			'a bad type',
			() => harness.sandbox.updateTender('tdr-0000001', { type: 'Quote' as 'Tender' }),
			/type must be one of Tender, Procurement \(got "Quote"\)/,
		],
		[
			'a bad date',
			() => harness.sandbox.openTender({ quotesDueAt: '2030-02-30' }),
			/quotesDueAt must be a calendar date as YYYY-MM-DD/,
		],
		[
			'a company without keywords',
			() => harness.sandbox.openTender({ companyId: SANDBOX_FIXTURES.noKeywordsCompanyId }),
			/has no keywords/,
		],
		['a start that is no date', () => createSandboxData({ now: 'next tuesday' }), /ISO 8601/],
	])('throws a clear error for %s', (_case, call, message) => {
		expect(call).toThrow(message);
	});
});
