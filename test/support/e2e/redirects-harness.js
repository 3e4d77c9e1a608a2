// @ts-check
'use strict';

/**
 * The real-n8n redirect suite's world: the sandbox, an API double in front of it that answers
 * chosen requests with redirects, and a server on another origin (another loopback port) that
 * records every request and answers like an API and a token issuer would, to tempt. n8n gets one
 * webhook workflow per case, whose redirect its Company ID (results request) or Auth URL (token
 * request) chooses, so that every token case starts a token exchange of its own.
 */

const { SANDBOX_FIXTURES } = require('../../../sandbox');
const { credentialsFor } = require('../../../scripts/n8n/examples');
const { startScriptedServer } = require('../reliability/server');
const { getManyWorkflow } = require('./workflows');
const stack = require('./stack');

/** In every cross-origin Location: none of it may reach n8n's messages. */
const LOCATION_USER_INFO = 'intruder:hunter2';
const LOCATION_PATH = '/collect/stolen-path?take=everything';
/** A credential whose Base URL answers the Test's check with a 302 to the other origin. */
const TEST_BUTTON_CREDENTIAL_ID = 'smpRedirectTestButton';

/**
 * @typedef {object} RedirectCase
 * @property {string} id the workflow's id
 * @property {string} path its webhook's path
 * @property {'results' | 'token'} request the request that is redirected
 * @property {'other' | 'same'} origin where to
 * @property {number} status
 */

/** @type {RedirectCase[]} */
const CASES = [
	...[301, 302, 307, 308].map((status) => ({ request: 'results', origin: 'other', status })),
	{ request: 'results', origin: 'same', status: 302 },
	...[302, 307, 308].map((status) => ({ request: 'token', origin: 'other', status })),
	{ request: 'token', origin: 'same', status: 307 },
	{ request: 'token', origin: 'same', status: 302 },
].map((redirect) => {
	const name = `${redirect.request}-${redirect.origin}-${redirect.status}`;
	return /** @type {RedirectCase} */ ({
		...redirect,
		id: `smpRedirect${name}`,
		path: `redirect-${name}`,
	});
});

/**
 * @param {number} status @param {string} location
 * @returns {import('../reliability/server').ScriptedReply}
 */
function redirect(status, location) {
	return { status, headers: { location }, text: '' };
}

/** @param {RedirectCase} redirectCase @param {string} apiUrl */
function credentialOf(redirectCase, apiUrl) {
	const authUrl =
		redirectCase.request === 'token'
			? `${apiUrl}/token-${redirectCase.origin}-${redirectCase.status}`
			: apiUrl;
	const [credential] = credentialsFor({ authUrl, baseUrl: apiUrl });
	const name = `Supplier Matched Projects (${redirectCase.path})`;
	return { ...credential, id: `${redirectCase.id}Credential`, name };
}

/** Get Many on a webhook call, answering projects or error. @param {RedirectCase} redirectCase */
function workflowOf(redirectCase) {
	const credential = credentialOf(redirectCase, '');
	return getManyWorkflow({
		id: redirectCase.id,
		name: `e2e: ${redirectCase.path}`,
		path: redirectCase.path,
		companyId:
			redirectCase.request === 'results'
				? `${redirectCase.origin}-origin-${redirectCase.status}`
				: SANDBOX_FIXTURES.companyId,
		credential: { id: credential.id, name: credential.name },
	});
}

/**
 * The API double: what a case redirects, to the other origin (`otherLocation`) or the same one
 * (`/v2` paths, forwarded to the sandbox); everything else forwarded as it is.
 * @param {string} sandboxUrl @param {string} otherLocation
 * @returns {import('../reliability/server').ScriptedHandler}
 */
function apiDouble(sandboxUrl, otherLocation) {
	return (request) => {
		const results = /^\/api\/supplier\/v1\/companies\/(other|same)-origin-(\d{3})(\/.*)$/.exec(
			request.path,
		);
		if (results) {
			const status = Number(results[2]);
			if (results[1] === 'other') return redirect(status, otherLocation);
			const moved = `/api/supplier/v1/companies/${SANDBOX_FIXTURES.companyId}${results[3]}`;
			return redirect(status, `/v2${moved}`);
		}
		if (request.path.startsWith('/v2/')) {
			return { forward: sandboxUrl, forwardPath: request.path.slice('/v2'.length) };
		}
		const check = /^\/check-(\d{3})\/swagger\/doc$/.exec(request.path);
		if (check) return redirect(Number(check[1]), otherLocation);
		const token = /^\/token-(other|same)-(\d{3})\/oauth2\/token$/.exec(request.path);
		if (token) {
			const status = Number(token[2]);
			return redirect(status, token[1] === 'other' ? otherLocation : '/oauth2/token');
		}
		return { forward: sandboxUrl };
	};
}

/** @param {{ log: (line: string) => void }} logger */
function startRedirectsE2e(logger) {
	return stack.startStack(logger, async (cleanups) => {
		const sandbox = await stack.startNoonSandbox(cleanups, { projects: 30 });
		const other = await startScriptedServer(() => ({
			json: {
				access_token: 'other-origin-token',
				token_type: 'Bearer',
				expires_in: 3600,
				data: [],
				_metadata: { nextCursor: null, hasNextPage: false },
			},
		}));
		cleanups.push(() => other.stop());
		const otherLocation = `http://${LOCATION_USER_INFO}@${new URL(other.url).host}${LOCATION_PATH}`;
		const api = await startScriptedServer(apiDouble(sandbox.url, otherLocation));
		cleanups.push(() => api.stop());
		const credentials = CASES.map((redirectCase) => credentialOf(redirectCase, api.url));
		const testButton = {
			...credentials[0],
			id: TEST_BUTTON_CREDENTIAL_ID,
			name: 'Supplier Matched Projects (check redirected)',
			data: { ...credentials[0].data, baseUrl: `${api.url}/check-302` },
		};
		const world = await stack.launchWorld(cleanups, logger, {
			name: 'redirects',
			sandbox,
			logLevel: 'info',
			credentials: [...credentials, testButton],
			workflows: () => CASES.map(workflowOf),
			activate: CASES.map((redirectCase) => redirectCase.id),
		});
		return {
			...world,
			api,
			other,
			cases: CASES,
			/** what no message may show of a cross-origin Location */
			hiddenParts: ['intruder', 'hunter2', 'collect', 'stolen-path', 'everything'],
			/** @param {RedirectCase} redirectCase */
			credentialId: (redirectCase) => credentialOf(redirectCase, api.url).id,
			testButtonCredentialId: TEST_BUTTON_CREDENTIAL_ID,
			/** @param {RedirectCase} redirectCase */
			authUrlOf: (redirectCase) => credentialOf(redirectCase, api.url).data.authUrl,
		};
	});
}

module.exports = { startRedirectsE2e };
