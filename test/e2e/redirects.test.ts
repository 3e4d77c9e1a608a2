import { stderrLogger } from '../support/e2e/support';
import { startRedirectsE2e } from '../support/e2e/redirects-harness';

/**
 * Issue 26 in a real n8n (the version SMP_N8N_VERSION picks): the API, or the token issuer,
 * answers with a redirect. To another origin (another loopback port, a server that records every
 * request and would answer like the API): the execution fails with a message naming that origin
 * and nothing else of the Location, and the other origin hears nothing at all, no token, client
 * ID or secret. On the same origin: a results request follows; a token request follows a 307 and
 * refuses a 302, which would turn its POST into a GET. The credential's Test reports a redirect of
 * its check without following it. One n8n serves every test.
 */

type Environment = Awaited<ReturnType<typeof startRedirectsE2e>>;
type RedirectCase = Environment['cases'][number];

let env: Environment;

beforeAll(async () => {
	env = await startRedirectsE2e(stderrLogger);
}, 10 * 60_000);

afterAll(async () => {
	await env?.stop();
}, 60_000);

afterEach(() => {
	expect(env.other.requests).toEqual([]);
});

function caseOf(request: 'results' | 'token', origin: 'other' | 'same', status: number) {
	const found = env.cases.find(
		(candidate) =>
			candidate.request === request && candidate.origin === origin && candidate.status === status,
	);
	if (found === undefined) throw new TypeError(`no case ${request}-${origin}-${status}`);
	return found;
}

/** Calls the case's webhook and returns its execution's detail and the node's error. */
async function run(redirectCase: RedirectCase) {
	const response = await env.client.callWebhook(redirectCase.path);
	const [execution] = await env.client.waitForExecutions(redirectCase.id, 1, 30_000);
	const detail = await env.client.getExecution(execution.id);
	const nodeRun = detail.runData['Matched Projects']?.[0];
	return { response, detail, error: nodeRun?.error };
}

function expectOriginOnly(text: string): void {
	expect(text).toContain(env.other.url);
	for (const part of env.hiddenParts) expect(text).not.toContain(part);
}

describe('a redirect to another origin fails the execution and reaches nothing there', () => {
	test.each([301, 302, 307, 308])('results request, %i', async (status) => {
		const { response, detail, error } = await run(caseOf('results', 'other', status));
		expect(response.status).toBeGreaterThanOrEqual(500);
		expect(detail.status).toBe('error');
		expect(error?.message).toBe(
			`The API at ${env.api.url} redirected the request to another address, ${env.other.url} (HTTP ${status}); the node did not follow it, so the credential was not sent there`,
		);
		expect(error?.description).toContain("Correct the credential's Base URL");
		expectOriginOnly(JSON.stringify(detail));
	});

	test.each([302, 307, 308])('token request, %i', async (status) => {
		const redirectCase = caseOf('token', 'other', status);
		const { detail, error } = await run(redirectCase);
		expect(detail.status).toBe('error');
		expect(error?.message).toBe(
			`The token issuer at ${env.authUrlOf(redirectCase)} redirected the token request to another address, ${env.other.url} (HTTP ${status}); the node did not follow it, so the client secret was not sent there`,
		);
		expect(error?.description).toContain("Correct the credential's Auth URL");
		expectOriginOnly(JSON.stringify(detail));
		const posts = env.api.requests.filter((request) =>
			request.path.startsWith(`/token-other-${status}/`),
		);
		expect(posts).toHaveLength(1);
	});

	test("the credential's Test reports a redirected check without following it", async () => {
		const result = await env.client.testCredential(env.testButtonCredentialId);
		expect(result.status).toBe('Error');
		expect(result.message).toContain(
			env.features.testResponseCodeRules
				? 'the Base URL answered with a redirect (HTTP 302), which the test does not follow'
				: 'Request failed with status code 302',
		);
		expect(env.api.requests.map((request) => request.path)).toContain('/check-302/swagger/doc');
	});

	test("the credential's Test names the origin of a redirected token request", async () => {
		const redirectCase = caseOf('token', 'other', 307);
		const result = await env.client.testCredential(env.credentialId(redirectCase));
		expect(result).toEqual({
			status: 'Error',
			message: `The token issuer at ${env.authUrlOf(redirectCase)} redirected the token request to another address, ${env.other.url} (HTTP 307); the node did not follow it, so the client secret was not sent there`,
		});
	});
});

describe('a redirect on the same origin', () => {
	test('results request, 302: followed, every project returned', async () => {
		const { response, detail } = await run(caseOf('results', 'same', 302));
		expect(detail.status).toBe('success');
		expect(response.body).toEqual(env.sandbox.listOpen(env.fixtures.companyId));
		const paths = env.api.requests
			.map((request) => request.path.split('?')[0])
			.filter((path) => path.includes('/same-origin-302/') || path.startsWith('/v2/'));
		expect(paths).toEqual([
			'/api/supplier/v1/companies/same-origin-302/speci-finder/results',
			`/v2/api/supplier/v1/companies/${env.fixtures.companyId}/speci-finder/results`,
		]);
	});

	test('token request, 307: the POST follows with the form and the walk runs', async () => {
		const { response, detail } = await run(caseOf('token', 'same', 307));
		expect(detail.status).toBe('success');
		expect(response.body).toEqual(env.sandbox.listOpen(env.fixtures.companyId));
		const posts = env.api.requests.filter((request) => request.method === 'POST');
		const followed = posts.findIndex((request) => request.path === '/token-same-307/oauth2/token');
		expect(followed).toBeGreaterThanOrEqual(0);
		expect(posts[followed + 1].path).toBe('/oauth2/token');
		expect(posts[followed + 1].body).toBe(posts[followed].body);
	});

	test('token request, 302: refused, since it would turn the POST into a GET', async () => {
		const redirectCase = caseOf('token', 'same', 302);
		const { detail, error } = await run(redirectCase);
		expect(detail.status).toBe('error');
		expect(error?.message).toBe(
			`The token issuer at ${env.authUrlOf(redirectCase)} answered the token request with a redirect (HTTP 302) that would turn it into a GET without the client's credentials, so the node did not follow it`,
		);
		expect(
			env.api.requests.filter(
				(request) => request.path === '/oauth2/token' && request.method === 'GET',
			),
		).toEqual([]);
	});
});
