// @ts-check
'use strict';

/**
 * The token request of the API's quick start, as every hand-written bench client sends it.
 * @param {{ client: { clientId: string, clientSecret: string } }} target
 * @returns {{ method: 'POST', headers: Record<string, string>, body: string }}
 */
function tokenRequest(target) {
	return {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams({
			grant_type: 'client_credentials',
			client_id: target.client.clientId,
			client_secret: target.client.clientSecret,
			scope: 'speci-finder/read',
		}).toString(),
	};
}

module.exports = { tokenRequest };
