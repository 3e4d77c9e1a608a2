import { runNode, TestCredentialsHelper } from '../support/engine';
import { packageProcess, type PackageProcess } from '../support/package-process';

let proc: PackageProcess;
let helper: TestCredentialsHelper;

beforeEach(() => {
	proc = packageProcess();
	helper = new TestCredentialsHelper([proc.credential]);
	helper.setCredentials('supplierMatchedProjectsApi', {
		// Nothing listens there: a request sent by mistake fails with another message.
		authUrl: 'http://127.0.0.1:9',
		baseUrl: 'http://127.0.0.1:9',
		clientId: 'client-1',
		clientSecret: 'example-client-secret-for-router-tests',
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
			const result = await runNode({
				nodeType: proc.node,
				parameters: { ...parameters, companyId: 'company-1', returnAll: true },
				credentialsHelper: helper,
			});
			expect(result.items).toBeUndefined();
			expect(result.error?.message).toBe(message);
			expect(helper.writes).toEqual([]);
		},
	);
});
