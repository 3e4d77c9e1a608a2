/**
 * The token exchange's own edge cases; the credential's tests (test/unit/credentials/) go through
 * it for the rest.
 */
import type { IHttpRequestHelper } from 'n8n-workflow';

import {
	TokenCache,
	TokenRequestError,
} from '../../../../../nodes/SupplierMatchedProjects/transport/token';

const settings = {
	authUrl: 'https://auth.test',
	baseUrl: 'https://api.test',
	clientId: 'client-1',
	clientSecret: 'secret',
	scope: '',
};

it('refuses a token answer whose access_token is empty, as one without it', async () => {
	const helpers = {
		httpRequest: async () => ({ statusCode: 200, headers: {}, body: { access_token: '' } }),
	} as unknown as IHttpRequestHelper['helpers'];
	const failure = new TokenCache().obtain(helpers, settings);
	await expect(failure).rejects.toThrow(TokenRequestError);
	await expect(failure).rejects.toThrow('answered with JSON without an access_token');
});
