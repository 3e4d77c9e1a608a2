// @ts-check
'use strict';

/**
 * A small typed HTTP client for the sandbox, for tests (which cannot import Node modules under the
 * community-node lint) and for separate processes (e2e, demo) that drive a sandbox by URL.
 * It reports what the server said; it never retries, so tests see every status as it is.
 */

const { SANDBOX_FIXTURES } = require('../../sandbox');

/** @typedef {import('../../sandbox').Sandbox} Sandbox */
/** @typedef {import('../../sandbox/types').ResultsPage} ResultsPage */
/** @typedef {import('../../sandbox/types').Project} Project */
/** @typedef {import('../../sandbox/types').TokenResponse} TokenResponse */
/** @typedef {import('../../sandbox/types').SandboxTender} SandboxTender */
/** @typedef {import('../../sandbox/store').HistoryEvent} HistoryEvent */
/** @typedef {import('../../sandbox/store').OpenTenderOptions} OpenTenderOptions */
/** @typedef {import('../../sandbox/store').TenderPatch} TenderPatch */
/** @typedef {import('../../sandbox/server').RequestLogEntry} RequestLogEntry */
/** @typedef {import('../../sandbox/faults').FaultRequest} FaultRequest */
/** @typedef {import('../../sandbox/faults').FaultRates} FaultRates */
/** @typedef {import('../../sandbox/faults').FaultKind} FaultKind */

/**
 * @typedef {object} HttpResult
 * @property {number} status
 * @property {Headers} headers
 * @property {string} text the raw body
 * @property {unknown} body the body parsed as JSON, or undefined when it is not JSON
 */

/**
 * @param {Response} response
 * @returns {Promise<HttpResult>}
 */
async function toResult(response) {
	const text = await response.text();
	/** @type {unknown} */
	let body;
	try {
		body = text === '' ? undefined : JSON.parse(text);
	} catch {
		body = undefined;
	}
	return { status: response.status, headers: response.headers, text, body };
}

/**
 * @param {string} url sandbox base URL
 */
function createSandboxClient(url) {
	/**
	 * @param {string} method
	 * @param {string} path
	 * @param {{ headers?: Record<string, string>, body?: string }} [init]
	 * @returns {Promise<HttpResult>}
	 */
	async function send(method, path, init = {}) {
		return toResult(
			await fetch(`${url}${path}`, { method, headers: init.headers, body: init.body }),
		);
	}

	/**
	 * Posts a form to the token endpoint; pass `form` to send exactly those fields.
	 * @param {{ clientId?: string, clientSecret?: string, scope?: string | null, form?: Record<string, string>, headers?: Record<string, string> }} [options]
	 *   scope null leaves it out; the default is SANDBOX_FIXTURES.scope
	 * @returns {Promise<HttpResult>}
	 */
	function requestToken(options = {}) {
		const {
			clientId = SANDBOX_FIXTURES.client.clientId,
			clientSecret = SANDBOX_FIXTURES.client.clientSecret,
		} = options;
		const scope = options.scope === undefined ? SANDBOX_FIXTURES.scope : options.scope;
		/** @type {Record<string, string>} */
		const form = options.form ?? {
			grant_type: 'client_credentials',
			client_id: clientId,
			client_secret: clientSecret,
			...(scope === null ? {} : { scope }),
		};
		return send('POST', '/oauth2/token', {
			headers: { 'content-type': 'application/x-www-form-urlencoded', ...options.headers },
			body: new URLSearchParams(form).toString(),
		});
	}

	/**
	 * @param {{ clientId?: string, clientSecret?: string, scope?: string | null }} [options]
	 * @returns {Promise<string>} an access token; throws when the endpoint refuses
	 */
	async function token(options) {
		const result = await requestToken(options);
		const body = /** @type {TokenResponse | undefined} */ (result.body);
		if (result.status !== 200 || !body)
			throw new Error(`token request failed: ${result.status} ${result.text}`);
		return body.access_token;
	}

	/**
	 * GET one results page. Headers default to a valid call for the fixture client; pass
	 * `headers` entries as undefined to leave one out, and `query` to send a raw query string.
	 * @param {{ companyId?: string, token?: string, clientId?: string, cursor?: string, limit?: number | string, query?: string, headers?: Record<string, string | undefined> }} options
	 * @returns {Promise<HttpResult>}
	 */
	function results(options) {
		const { companyId = SANDBOX_FIXTURES.companyId, clientId = SANDBOX_FIXTURES.client.clientId } =
			options;
		const params = new URLSearchParams();
		if (options.cursor !== undefined) params.set('cursor', options.cursor);
		if (options.limit !== undefined) params.set('limit', String(options.limit));
		const query = options.query ?? params.toString();
		/** @type {Record<string, string | undefined>} */
		const wanted = {
			authorization: options.token === undefined ? undefined : `Bearer ${options.token}`,
			'x-service-client-id': clientId,
			...options.headers,
		};
		/** @type {Record<string, string>} */
		const headers = {};
		for (const [name, value] of Object.entries(wanted))
			if (value !== undefined) headers[name] = value;
		return send(
			'GET',
			`/api/supplier/v1/companies/${encodeURIComponent(companyId)}/speci-finder/results${query ? `?${query}` : ''}`,
			{
				headers,
			},
		);
	}

	/**
	 * Walks every page the way the spec says (same limit, cursor passed back verbatim).
	 * @param {{ companyId?: string, token: string, clientId?: string, limit?: number }} options
	 * @returns {Promise<{ projects: Project[], pages: ResultsPage[] }>}
	 */
	async function walk(options) {
		/** @type {ResultsPage[]} */
		const pages = [];
		/** @type {string | undefined} */
		let cursor;
		do {
			const result = await results({ ...options, cursor });
			if (result.status !== 200)
				throw new Error(
					`walk stopped at page ${pages.length + 1}: ${result.status} ${result.text}`,
				);
			const page = /** @type {ResultsPage} */ (result.body);
			pages.push(page);
			cursor = page._metadata.nextCursor ?? undefined;
		} while (cursor !== undefined);
		return { projects: pages.flatMap((page) => page.data), pages };
	}

	/**
	 * @template T
	 * @param {string} method
	 * @param {string} path under /__sandbox
	 * @param {unknown} [body]
	 * @returns {Promise<T>}
	 */
	async function control(method, path, body) {
		const result = await send(method, `/__sandbox${path}`, {
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		if (result.status >= 400) {
			const error = /** @type {{ message?: string } | undefined} */ (result.body);
			throw new Error(
				`sandbox control ${method} ${path} failed: ${result.status} ${error?.message ?? result.text}`,
			);
		}
		return /** @type {T} */ (result.body);
	}

	/** @param {string} id */
	const segment = (id) => encodeURIComponent(id);

	return {
		url,
		send,
		requestToken,
		token,
		results,
		walk,
		/** The sandbox's control functions over HTTP (same names as the programmatic API, async). */
		control: {
			clock: {
				/** @returns {Promise<{ now: string, epochMs: number }>} */
				now: () => control('GET', '/clock'),
				/** @param {Date | string | number} at */
				set: (at) =>
					control('POST', '/clock/set', { at: at instanceof Date ? at.toISOString() : at }),
				/** @param {number} ms */
				advance: (ms) => control('POST', '/clock/advance', { ms }),
			},
			/**
			 * @param {OpenTenderOptions} [options]
			 * @returns {Promise<SandboxTender>}
			 */
			openTender: (options = {}) => control('POST', '/tenders', options),
			/**
			 * @param {string} tenderId
			 * @returns {Promise<SandboxTender>}
			 */
			getTender: (tenderId) => control('GET', `/tenders/${segment(tenderId)}`),
			/**
			 * @param {string} tenderId
			 * @param {'Closed' | 'Awarded'} [status]
			 * @returns {Promise<SandboxTender>}
			 */
			closeTender: (tenderId, status) =>
				control(
					'POST',
					`/tenders/${segment(tenderId)}/close`,
					status === undefined ? {} : { status },
				),
			/**
			 * @param {string} tenderId
			 * @param {TenderPatch} patch
			 * @returns {Promise<SandboxTender>}
			 */
			updateTender: (tenderId, patch) => control('PATCH', `/tenders/${segment(tenderId)}`, patch),
			/**
			 * @param {string} tenderId
			 * @param {number} dueInDays
			 * @returns {Promise<SandboxTender>}
			 */
			redateTender: (tenderId, dueInDays) =>
				control('POST', `/tenders/${segment(tenderId)}/redate`, { dueInDays }),
			/**
			 * @param {string} projectId
			 * @param {{ name: string, website: string | null } | string} builder
			 * @param {Omit<OpenTenderOptions, 'projectId' | 'builder'>} [fields]
			 * @returns {Promise<SandboxTender>}
			 */
			addTenderUnderBuilder: (projectId, builder, fields = {}) =>
				control('POST', `/projects/${segment(projectId)}/tenders`, { ...fields, builder }),
			/**
			 * @param {string} projectId
			 * @param {'Active' | 'Closed'} status
			 * @returns {Promise<void>}
			 */
			setProjectStatus: (projectId, status) =>
				control('PUT', `/projects/${segment(projectId)}/status`, { status }),
			/**
			 * @param {string} companyId
			 * @returns {Promise<Project[]>}
			 */
			listOpen: (companyId) => control('GET', `/companies/${segment(companyId)}/open`),
			/** @returns {Promise<HistoryEvent[]>} */
			history: () => control('GET', '/history'),
			/**
			 * @param {{ clientId?: string }} [filter]
			 * @returns {Promise<number>}
			 */
			revokeTokens: async (filter = {}) =>
				/** @type {{ revoked: number }} */ (await control('POST', '/tokens/revoke', filter))
					.revoked,
			/**
			 * @param {{ clientId?: string }} [filter]
			 * @returns {Promise<number>}
			 */
			tokensIssued: async (filter = {}) =>
				/** @type {{ count: number }} */ (
					await control(
						'GET',
						`/tokens/issued${filter.clientId === undefined ? '' : `?clientId=${segment(filter.clientId)}`}`,
					)
				).count,
			/** @returns {Promise<RequestLogEntry[]>} */
			requests: () => control('GET', '/requests'),
			/** @returns {Promise<void>} */
			resetRequests: () => control('DELETE', '/requests'),
			/**
			 * @param {FaultRequest} fault
			 * @returns {Promise<void>}
			 */
			injectFault: async (fault) => {
				await control('POST', '/faults', fault);
			},
			/**
			 * @param {FaultRates | null} rates
			 * @param {number} [rngSeed]
			 * @returns {Promise<void>}
			 */
			setFaultRates: (rates, rngSeed) =>
				control('PUT', '/faults/rates', { rates: rates ?? {}, rngSeed }),
			/** @returns {Promise<void>} */
			clearFaults: () => control('DELETE', '/faults'),
			/** @returns {Promise<Record<FaultKind, number>>} */
			faultsInjected: () => control('GET', '/faults'),
			/**
			 * @param {number} ms
			 * @returns {Promise<void>}
			 */
			setLatency: (ms) => control('PUT', '/latency', { ms }),
			/** @returns {Promise<void>} */
			clearCache: () => control('DELETE', '/cache'),
		},
	};
}

module.exports = { createSandboxClient };
