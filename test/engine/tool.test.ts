import nock from 'nock';
import type { INodeParameters } from 'n8n-workflow';

import { TOOL_DESCRIPTION } from '../../nodes/SupplierMatchedProjects/descriptions/tool';
import { n8nProcess, type N8nProcess } from '../support/harness';
import { page, project, projects, tender } from '../support/engine/n8n-fixtures';
import {
	AUTH,
	CLIENT,
	COMPANY,
	CREDENTIAL,
	getResults as results,
	tokenOnce,
	useNock,
} from '../support/engine/nock-api';
import {
	expectCompactKeys,
	MODEL_FILLED_KEYS,
	parseToolAnswer,
} from '../support/engine/tool-answer';

let proc: N8nProcess;

/** Only what a user sets by hand: everything else is the node's defaults. */
const PARAMETERS: INodeParameters = {
	resource: 'matchedProject',
	operation: 'getAll',
	companyId: COMPANY,
};

async function call(args: Record<string, unknown>, parameters: INodeParameters = {}) {
	return await proc.tool({ ...PARAMETERS, ...parameters }, args, { name: 'Matched Projects' });
}

function answerOf(result: { answer: string | undefined; error: string | undefined }) {
	expect(result.error).toBeUndefined();
	return parseToolAnswer(result.answer ?? 'null');
}

useNock();

beforeEach(() => {
	proc = n8nProcess({ credential: CREDENTIAL });
});

describe('the tool a model sees', () => {
	it('has our description and optional, described fields pre-wired from the defaults alone', async () => {
		const token = tokenOnce();
		const scope = results({ limit: 20 }).reply(200, page([]));
		const result = await call({});
		expect(result.name).toBe('Matched_Projects');
		expect(result.description).toBe(TOOL_DESCRIPTION);
		expect(Object.keys(result.fields).sort()).toEqual(MODEL_FILLED_KEYS);
		for (const field of Object.values(result.fields)) {
			expect(field.required).toBe(false);
			expect(field.description?.length).toBeGreaterThan(30);
		}
		expect(token.isDone()).toBe(true);
		expect(scope.isDone()).toBe(true);
	});
});

describe('answers', () => {
	it('by default: 20 compact projects in one request of 20, saying more match', async () => {
		tokenOnce();
		const scope = results({ limit: 20 }).reply(200, page(projects(20), 'next'));
		const answer = answerOf(await call({}));
		expect(scope.isDone()).toBe(true);
		expect(answer.returned).toBe(20);
		expect(answer.moreMatch).toBe(true);
		expect(answer.filtersApplied).toEqual([]);
		expect(answer.summary).toMatch(
			/^20 matched projects with open tenders, earliest quotes due first\./,
		);
		expect(answer.summary).toMatch(
			/More projects match: to see them, call again with a higher limit/,
		);
		expectCompactKeys(answer);
		expect(answer.projects[0].budget).toBe('$1,000,000 to $5,000,000');
	});

	it('takes the limit and filters the model gives, and says nothing more matches on the last page', async () => {
		tokenOnce();
		const inNsw = project({
			projectId: 'nsw-1',
			address: '5 George St, Parramatta NSW 2150, Australia',
			tenders: [tender({ builder: { name: 'Hansen Yuncken', website: null } })],
		});
		const scope = results({ limit: 100 }).reply(200, page([project(), inNsw, project()]));
		const answer = answerOf(await call({ limit: 5, location: 'nsw', builder: 'hansen' }));
		expect(scope.isDone()).toBe(true);
		expect(answer.returned).toBe(1);
		expect(answer.moreMatch).toBe(false);
		expect(answer.projects.map((p) => p.projectId)).toEqual(['nsw-1']);
		expect(answer.filtersApplied).toEqual(['address contains nsw', 'builder name contains hansen']);
		expect(answer.summary).toContain('No other project matches.');
	});

	it('with filters met exactly on a page followed by others, says more may match, without another request', async () => {
		tokenOnce();
		const data = projects(4).map((p, index) => ({
			...p,
			category: index < 2 ? 'Retail' : 'Civil',
		}));
		const scope = results({ limit: 100 }).reply(200, page(data, 'next'));
		const answer = answerOf(await call({ limit: 2, category: 'Retail' }));
		expect(scope.isDone()).toBe(true);
		expect(answer.returned).toBe(2);
		expect(answer.moreMatch).toBeNull();
		expect(answer.summary).toContain('More may match in results not read yet');
	});

	it('caps a limit above 100 at one page and says so', async () => {
		tokenOnce();
		const scope = results({ limit: 100 }).reply(200, page(projects(100), 'next'));
		const answer = answerOf(await call({ limit: 500 }));
		expect(scope.isDone()).toBe(true);
		expect(answer.returned).toBe(100);
		expect(answer.summary).toContain(
			'The limit of 500 was lowered to 100, the most one call returns.',
		);
		expect(answer.summary).toContain(
			'More projects match: to see them, narrow the search with a filter.',
		);
	});

	it('fetches chosen projects by ID in full when the answer is raw', async () => {
		tokenOnce();
		const data = projects(3);
		const scope = results({ limit: 100 }).reply(200, page(data));
		const answer = answerOf(await call({ projectIds: 'p3, p1' }, { answer: 'raw' }));
		expect(scope.isDone()).toBe(true);
		expect(answer.projects).toEqual([data[0], data[2]]);
		expect(answer.filtersApplied).toEqual(['project ID is p3 or p1']);
	});

	it('gives only the fields chosen, tender fields under tenders', async () => {
		tokenOnce();
		const scope = results({ limit: 20 }).reply(200, page([project({ projectName: 'Depot' })]));
		const answer = answerOf(
			await call(
				{},
				{ answer: 'fields', answerFields: ['quotesDueAt', 'projectName', 'consultants'] },
			),
		);
		expect(scope.isDone()).toBe(true);
		expect(answer.projects).toEqual([
			{ projectName: 'Depot', consultants: 'Plan & Co', tenders: [{ quotesDueAt: '2030-02-01' }] },
		]);
	});

	it('keeps filters the user fixed: the model narrows within them', async () => {
		tokenOnce();
		const data = [
			project({ projectId: 'a', category: 'Retail', address: '1 A St, Perth WA 6000, Australia' }),
			project({ projectId: 'b', category: 'Civil', address: '1 B St, Perth WA 6000, Australia' }),
		];
		const scope = results({ limit: 100 }).reply(200, page(data));
		const answer = answerOf(
			await call({ location: 'Perth', category: 'Civil' }, { filters: { categories: 'Retail' } }),
		);
		expect(scope.isDone()).toBe(true);
		expect(answer.returned).toBe(0);
		expect(answer.filtersApplied).toEqual([
			'category is Retail',
			'address contains Perth',
			'category is Civil',
		]);
	});
});

describe('errors a model can act on', () => {
	it('an API refusal: short, says who can fix it, names no company, client or secret', async () => {
		tokenOnce();
		nock(AUTH)
			.post('/oauth2/token')
			.reply(200, { access_token: 'token-2', token_type: 'Bearer', expires_in: 3600 });
		const scope = results()
			.times(2)
			.reply(401, { code: 'Unauthorised', message: `bad token token-1 for ${CLIENT}` });
		const result = await call({});
		expect(scope.isDone()).toBe(true);
		expect(result.answer).toBeUndefined();
		expect(result.error).toBe(
			"The API refused the request for the supplier's projects (HTTP 401).\n\nDetails: The workflow's owner must fix this in n8n (the tool's credential or Company ID); calling again will not help.",
		);
		for (const secret of [CREDENTIAL.clientSecret, CLIENT, COMPANY, 'token-1']) {
			expect(result.error).not.toContain(secret);
		}
	});

	it('paging the API broke: a temporary failure, call again later', async () => {
		tokenOnce();
		const scope = results({ limit: 100 }).reply(200, {
			data: projects(1),
			_metadata: { hasNextPage: true, nextCursor: null },
		});
		const result = await call({ location: 'Nowhere' });
		expect(scope.isDone()).toBe(true);
		expect(result.error).toBe(
			'The API failed or could not be reached.\n\nDetails: This is usually temporary: call again in a few minutes.',
		);
	});

	it('a value the model gave: names it and asks for a corrected call, before any request', async () => {
		const result = await call({ budgetAtLeast: -5 });
		expect(result.error).toBe(
			'Budget At Least filter: enter a number of dollars from 0 to 1,000,000,000,000 (a trillion), without "$" or commas (got -5)\n\nDetails: This value came from the tool call: correct it or leave it out, then call again.',
		);
		const limit = await call({ limit: 0 });
		expect(limit.error).toMatch(
			/^Max Projects \(limit\) must be a whole number of projects from 1 to 100 \(got 0\)/,
		);
	});
});

describe('a tool set up wrongly', () => {
	it('Max Projects given by an expression as text: read as its digits say, refused when not a number', async () => {
		tokenOnce();
		const scope = results({ limit: 5 }).reply(200, page(projects(5), 'next'));
		const answer = answerOf(await call({}, { maxProjects: '={{ "5" }}' }));
		expect(answer.returned).toBe(5);
		expect(scope.isDone()).toBe(true);
		const result = await call({}, { maxProjects: '={{ "maybe" }}' });
		expect(result.error).toMatch(
			/^Max Projects \(limit\) must be a whole number of projects from 1 to 100 \(got "maybe"\)/,
		);
	});
});

describe('the node outside a tool', () => {
	it('never sees the tool parameters: defaults and output as before', async () => {
		tokenOnce();
		const data = projects(3);
		const scope = results({ limit: 50 }).reply(200, page(data));
		const result = await proc.run({
			...PARAMETERS,
			answer: 'raw',
			maxProjects: 2,
			modelFilters: { locations: 'Nowhere' },
		});
		expect(scope.isDone()).toBe(true);
		expect(result.error).toBeUndefined();
		expect(result.items?.map((item) => item.json)).toEqual(data);
	});

	it('filters by Project IDs too', async () => {
		tokenOnce();
		const data = projects(3);
		const scope = results({ limit: 100 }).reply(200, page(data));
		const result = await proc.run({ ...PARAMETERS, filters: { projectIds: 'p2' } });
		expect(scope.isDone()).toBe(true);
		expect(result.error).toBeUndefined();
		expect(result.items?.map((item) => item.json)).toEqual([data[1]]);
	});
});
