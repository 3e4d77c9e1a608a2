import { DAY_MS, harnessFor, SANDBOX_FIXTURES, sandboxDay, START } from './harness';

describe('sandbox control functions and their /__sandbox HTTP routes', () => {
	const harness = harnessFor({ cacheSeconds: 0, rateLimit: false });

	const control = () => harness.client.control;

	it('lists its routes at GET /__sandbox', async () => {
		const index = (await harness.client.send('GET', '/__sandbox')).body as {
			routes: Array<{ method: string; path: string }>;
		};

		expect(index.routes).toEqual(
			expect.arrayContaining([
				expect.objectContaining({ method: 'POST', path: '/__sandbox/tenders' }),
				expect.objectContaining({ method: 'PUT', path: '/__sandbox/faults/rates' }),
			]),
		);
	});

	it('serves the fixtures with the url', async () => {
		const fixtures = (await harness.client.send('GET', '/__sandbox/fixtures')).body;

		expect(fixtures).toEqual({ ...SANDBOX_FIXTURES, url: harness.sandbox.url });
	});

	it('reads, sets and advances the clock', async () => {
		const start = await control().clock.now();
		await control().clock.set('2031-01-01T00:00:00Z');
		const set = await control().clock.now();
		await control().clock.advance(DAY_MS);
		const advanced = harness.sandbox.clock.now();
		await control().clock.set(START);

		expect(start.now.slice(0, 10)).toBe('2030-03-10');
		expect(set.now.slice(0, 13)).toBe('2031-01-01T00');
		expect(new Date(advanced).toISOString().slice(0, 10)).toBe('2031-01-02');
		harness.token = await harness.client.token();
	});

	it("opens tenders with ids of the caller's choice, odd ones included, and refuses one in use", async () => {
		for (const id of ['__proto__', 'constructor', 'hasOwnProperty']) {
			const tender = await control().openTenderWithId(id);
			expect(tender).toMatchObject({ id, status: 'Open' });
			expect(harness.sandbox.getTender(id)).toEqual(tender);
		}
		const listed = harness.sandbox
			.listOpen(SANDBOX_FIXTURES.companyId)
			.flatMap((project) => project.tenders.map((tender) => tender.id));
		expect(listed).toEqual(expect.arrayContaining(['__proto__', 'constructor', 'hasOwnProperty']));
		await expect(control().openTenderWithId('constructor')).rejects.toThrow(
			'a tender with id "constructor" exists already',
		);
		expect(() => harness.sandbox.openTenderWithId('')).toThrow('needs a non-empty string id');
	});

	it('opens a tender over HTTP that the next walk returns, and records it in history', async () => {
		const tender = await control().openTender({
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
		expect((await control().history()).at(-1)).toEqual({
			at: expect.stringMatching(/^2030-03-10T/),
			type: 'opened',
			tenderId: tender.id,
			projectId: tender.projectId,
		});
		expect(await control().getTender(tender.id)).toEqual(tender);
	});

	it('updates, closes and reopens a tender, with the changes in history', async () => {
		const tender = harness.sandbox.openTender({ quotesDueAt: sandboxDay(harness.sandbox, 10) });
		const historyBefore = harness.sandbox.history().length;

		const moved = await control().updateTender(tender.id, {
			quotesDueAt: sandboxDay(harness.sandbox, 20),
			name: 'Plumbing Stage 2',
		});
		const closed = await control().closeTender(tender.id, 'Awarded');
		const reopened = await control().updateTender(tender.id, { status: 'Open' });
		const unchanged = await control().updateTender(tender.id, { status: 'Open' });

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

	it('re-dates a tender relative to the sandbox day over HTTP, into and out of the listing', async () => {
		const tender = harness.sandbox.openTender({ quotesDueAt: sandboxDay(harness.sandbox, 90) });
		const listed = async () =>
			(await control().listOpen(SANDBOX_FIXTURES.companyId)).some((project) =>
				project.tenders.some((listedTender) => listedTender.id === tender.id),
			);
		expect(await listed()).toBe(false);

		const soon = await control().redateTender(tender.id, 2);
		expect(soon.quotesDueAt).toBe(sandboxDay(harness.sandbox, 2));
		expect(await listed()).toBe(true);
		expect(harness.sandbox.history().at(-1)).toMatchObject({
			type: 'changed',
			tenderId: tender.id,
			changes: {
				quotesDueAt: { from: sandboxDay(harness.sandbox, 90), to: sandboxDay(harness.sandbox, 2) },
			},
		});
		const today = await control().redateTender(tender.id, 0);
		expect(today.quotesDueAt).toBe(sandboxDay(harness.sandbox));
		const past = await control().redateTender(tender.id, -1);
		expect(past.quotesDueAt).toBe(sandboxDay(harness.sandbox, -1));
		expect(await listed()).toBe(false);
	});

	it.each([[1.5], ['2'], [null]])(
		'refuses to re-date by %j days with a message naming dueInDays',
		async (dueInDays) => {
			const tender = harness.sandbox.openTender();
			const response = await harness.client.send('POST', `/__sandbox/tenders/${tender.id}/redate`, {
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ dueInDays }),
			});
			expect(response.status).toBe(400);
			expect(response.body).toEqual({
				code: 'INVALID_REQUEST',
				message: `redateTender: dueInDays must be a whole number of days (got ${JSON.stringify(dueInDays)})`,
			});
			expect(harness.sandbox.getTender(tender.id)).toEqual(tender);
		},
	);

	it('answers 404 when re-dating an unknown tender', async () => {
		const response = await harness.client.send('POST', '/__sandbox/tenders/tdr-nope/redate', {
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ dueInDays: 1 }),
		});
		expect(response.status).toBe(404);
	});

	it('records a builder change and a builder given by name', async () => {
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

	it('adds a tender under another builder and sets a project status over HTTP', async () => {
		const first = harness.sandbox.openTender();

		const added = await control().addTenderUnderBuilder(first.projectId, 'Bluegum Builders', {
			name: 'HVAC Upgrade',
		});
		await control().setProjectStatus(first.projectId, 'Closed');
		const entry = (await control().listOpen(SANDBOX_FIXTURES.companyId)).find(
			(project) => project.projectId === first.projectId,
		);

		expect(added).toMatchObject({
			projectId: first.projectId,
			builder: { name: 'Bluegum Builders' },
		});
		expect(entry?.status).toBe('Closed');
		expect(entry?.tenders.map((tender) => tender.id).sort()).toEqual([first.id, added.id].sort());
	});

	it('revokes tokens and reports tokens issued over HTTP', async () => {
		const before = await control().tokensIssued({ clientId: SANDBOX_FIXTURES.client.clientId });
		const token = await harness.client.token();

		const revoked = await control().revokeTokens({ clientId: SANDBOX_FIXTURES.client.clientId });

		expect(await control().tokensIssued({ clientId: SANDBOX_FIXTURES.client.clientId })).toBe(
			before + 1,
		);
		expect(await control().tokensIssued()).toBeGreaterThanOrEqual(before + 1);
		expect(revoked).toBeGreaterThanOrEqual(1);
		expect((await harness.client.results({ token })).status).toBe(401);
		harness.token = await harness.client.token();
	});

	it('reads and resets the request log over HTTP, without logging control calls', async () => {
		await control().resetRequests();
		await harness.client.results({ token: harness.token, limit: 4 });
		await control().history();

		const log = await control().requests();

		expect(log).toEqual([
			expect.objectContaining({ method: 'GET', query: { limit: '4' }, status: 200 }),
		]);
	});

	it('injects faults, sets rates and latency, and clears the cache over HTTP', async () => {
		await control().injectFault({ kind: 'fetchFailed' });
		const failed = await harness.client.results({ token: harness.token });
		await control().setFaultRates({ serverError: 1 }, 3);
		const random = await harness.client.results({ token: harness.token });
		await control().clearFaults();
		await control().setLatency(120);
		const started = Date.now();
		const slow = await harness.client.results({ token: harness.token });
		const elapsed = Date.now() - started;
		await control().setLatency(0);
		await control().clearCache();

		expect([failed.status, random.status, slow.status]).toEqual([502, 500, 200]);
		expect(elapsed).toBeGreaterThanOrEqual(110);
		expect(await control().faultsInjected()).toMatchObject({ fetchFailed: 1, serverError: 1 });
	});

	const tenders = '/__sandbox/tenders';
	it.each<[string, string, number, RegExp, unknown]>([
		['an unknown tender', `GET ${tenders}/tdr-nope`, 404, /unknown tender "tdr-nope"/, undefined],
		[
			'an unknown project',
			'PUT /__sandbox/projects/prj-nope/status',
			404,
			/unknown project/,
			{ status: 'Closed' },
		],
		[
			'an unknown company',
			'GET /__sandbox/companies/nobody/open',
			404,
			/unknown company "nobody"/,
			undefined,
		],
		[
			'a bad status',
			`POST ${tenders}/tdr-0000001/close`,
			400,
			/status must be one of Open, Closed, Awarded/,
			{ status: 'Finished' },
		],
		[
			'an unknown field',
			`POST ${tenders}`,
			400,
			/openTender does not take colour/,
			{ colour: 'red' },
		],
		[
			'a bad date',
			`POST ${tenders}`,
			400,
			/quotesDueAt must be a calendar date as YYYY-MM-DD/,
			{ quotesDueAt: '2030-02-30' },
		],
		[
			'a company without keywords',
			`POST ${tenders}`,
			400,
			/has no keywords/,
			{ companyId: SANDBOX_FIXTURES.noKeywordsCompanyId },
		],
		['a body that is not an object', `POST ${tenders}`, 400, /must be a JSON object/, [1, 2]],
		[
			'an unknown route',
			'GET /__sandbox/nothing-here',
			404,
			/GET \/__sandbox lists them/,
			undefined,
		],
		['the wrong method', 'DELETE /__sandbox/history', 405, /takes GET/, undefined],
	])('answers %s with a clear error', async (_case, route, status, message, body) => {
		const [method, path] = route.split(' ');
		const result = await harness.client.send(method, path, {
			headers: { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});

		expect(result.status).toBe(status);
		expect(result.body).toEqual({
			code: expect.any(String),
			message: expect.stringMatching(message),
		});
	});

	it('answers a body that is not JSON with 400', async () => {
		const result = await harness.client.send('POST', '/__sandbox/tenders', { body: '{nope' });

		expect(result.status).toBe(400);
		expect(result.body).toMatchObject({ code: 'INVALID_JSON' });
	});

	it('throws the same clear errors from the programmatic API', () => {
		expect(() => harness.sandbox.closeTender('tdr-nope')).toThrow('unknown tender "tdr-nope"');
		expect(() => harness.sandbox.updateTender('tdr-0000001', { colour: 'red' } as never)).toThrow(
			/does not take colour/,
		);
		expect(() =>
			harness.sandbox.updateTender('tdr-0000001', { type: 'Quote' as 'Tender' }),
		).toThrow('type must be one of Tender, Procurement (got "Quote")');
		expect(() => harness.sandbox.setProjectStatus('prj-000001', 'Archived' as 'Closed')).toThrow(
			/status must be one of Active, Closed/,
		);
		expect(() => harness.sandbox.clock.set('next tuesday')).toThrow(/ISO 8601/);
		const tender = harness.sandbox.openTender();
		harness.sandbox.closeTender(tender.id);
		expect(() => harness.sandbox.closeTender(tender.id)).toThrow(/already Closed/);
	});
});
