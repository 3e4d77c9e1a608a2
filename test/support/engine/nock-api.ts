/**
 * The API and its token issuer for tests that answer with nock, not the sandbox. Importing nock
 * patches Node's http module, so this stays apart from the fixtures every test file imports.
 */
import nock from 'nock';

export const AUTH = 'https://auth.supplier.test';
export const API = 'https://api.supplier.test';
export const COMPANY = 'company-1';
export const CLIENT = 'client-1';
export const RESULTS = `/api/supplier/v1/companies/${COMPANY}/speci-finder/results`;

/**
 * Keeps the file's requests off the network and clears what a test left. nock patches Node's shared
 * http module; left active, it would intercept the next test file's requests.
 */
export function useNock(): void {
	beforeAll(() => nock.disableNetConnect());
	afterEach(() => nock.cleanAll());
	afterAll(() => {
		nock.enableNetConnect();
		nock.restore();
	});
}

/** A token issuer that hands out `token-1` once. */
export function tokenOnce(): nock.Scope {
	return nock(AUTH)
		.post('/oauth2/token')
		.reply(200, { access_token: 'token-1', token_type: 'Bearer', expires_in: 3600 });
}

/** A credential of this API, as "the database" holds it. */
export const CREDENTIAL = {
	authUrl: AUTH,
	baseUrl: API,
	clientId: CLIENT,
	clientSecret: 'example-client-secret-for-engine-tests',
};

/** The first (or only) request for the company's results, matching `query` (any by default). */
export function getResults(query: Record<string, string | number> | true = true) {
	return nock(API).matchHeader('x-service-client-id', CLIENT).get(RESULTS).query(query);
}
