import type { Project } from '../../nodes/SupplierMatchedProjects/api/types';
import { page, project, tender } from '../support/engine/n8n-fixtures';
import { API, AUTH, COMPANY, RESULTS, getResults, tokenOnce, useNock } from '../support/engine/nock-api';
import { n8nProcess, type PollHarness } from '../support/harness';
import { emittedTenderIds } from '../support/engine/poll-world';

function trigger(filters = {}): PollHarness {
	const proc = n8nProcess({
		credential: {
			authUrl: AUTH,
			baseUrl: API,
			clientId: 'client-1',
			clientSecret: 'example-client-secret-for-engine-tests',
		},
	});
	return proc.poll({ companyId: COMPANY, filters });
}

/** A project whose tenders list also holds something that is not a tender. */
function oddProject(...ids: string[]): Project {
	const tenders = [null, ...ids.map((id) => tender({ id, type: 'Tender' })), 'x'];
	return project({ projectId: 'p1', tenders: tenders as unknown as Project['tenders'] });
}

useNock();

describe('a tenders list holding entries that are not tenders', () => {
	it.each([
		['without filters', {}],
		['with a tender filter', { tenderTypes: ['Tender'] }],
	])(
		'is read past %s: the test event, the baseline and later polls see the real tenders',
		async (_, filters) => {
			const token = tokenOnce();
			const results = getResults()
				.times(2)
				.reply(200, page([oddProject('t1')]))
				.get(RESULTS)
				.query(true)
				.reply(200, page([oddProject('t1', 't2')]));
			const harness = trigger(filters);
			expect(emittedTenderIds((await harness.fetchTestEvent()) ?? [])).toEqual(['t1']);
			expect(await harness.activate()).toEqual({ kind: 'nothing' });
			const outcome = await harness.poll();
			expect(outcome.kind === 'emitted' && emittedTenderIds(outcome.items)).toEqual(['t2']);
			expect(token.isDone()).toBe(true);
			expect(results.isDone()).toBe(true);
		},
	);
});
