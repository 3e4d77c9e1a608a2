import { n8nProcess, type N8nProcess } from '../support/harness';

let proc: N8nProcess;

beforeEach(() => {
	proc = n8nProcess({
		credential: {
			// Nothing listens there: a request sent by mistake fails with another message.
			authUrl: 'http://127.0.0.1:9',
			baseUrl: 'http://127.0.0.1:9',
			clientId: 'client-1',
			clientSecret: 'example-client-secret-for-router-tests',
		},
	});
});

describe('router', () => {
	it.each([
		[
			'an operation',
			{ resource: 'matchedProject', operation: 'delete' },
			'Operation "delete" of resource "matchedProject" is not supported: open the node and choose an operation from its list',
		],
		[
			'a resource',
			{ resource: 'company', operation: 'getAll' },
			'Resource "company" is not supported: open the node and choose a resource from its list',
		],
	])(
		'names %s the node does not have instead of running another',
		async (_, parameters, message) => {
			const result = await proc.run({ ...parameters, companyId: 'company-1', returnAll: true });
			expect(result.items).toBeUndefined();
			expect(result.error?.message).toBe(message);
			expect(proc.credentials.writes).toEqual([]);
		},
	);
});
