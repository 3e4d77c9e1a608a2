// @ts-check
'use strict';

/**
 * The REST API n8n's own editor uses (`/rest/...`), driven the way the editor drives it: a session
 * cookie from /rest/login plus the `browser-id` header the cookie is bound to.
 */

const crypto = require('node:crypto');
const path = require('node:path');

const { delay, waitUntil } = require('./runtime');

/** @typedef {{ email: string, password: string, firstName: string, lastName: string }} Owner */
/**
 * @typedef {{ id: string, workflowId: string, status: string, mode: string, startedAt: string | null, stoppedAt: string | null }} ExecutionSummary
 *   status: success, error, running, ...; mode: trigger, webhook, manual, ...
 */
/**
 * @typedef {{ data?: { main?: ({ json: Record<string, unknown> }[] | null)[] }, error?: { message?: string, description?: string } }} NodeRun
 * @typedef {{ id: string, status: string, mode: string, runData: Record<string, NodeRun[]>, error?: { message?: string, description?: string } }} ExecutionDetail
 *   runData: by node name; error: the execution's, if any
 */

/** n8n lists 20 executions by default and at most 100 per page. */
const EXECUTIONS_PAGE = 100;
/** Statuses n8n lists apart from the finished executions, at the top of every page. */
const CURRENT_STATUSES = new Set(['new', 'running']);

/** A password that satisfies n8n's rules (8+ characters, a digit, an uppercase letter). */
function generatePassword() {
	return `Demo-${crypto.randomBytes(9).toString('base64url')}-7`;
}

/** @param {string} text @returns {any} its JSON, or itself when it is not JSON */
function jsonOrText(text) {
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}

class N8nClient {
	/**
	 * @param {string} baseUrl
	 * @param {{ n8nHome: string }} runtime where n8n's own `flatted` (its execution data format) lives
	 */
	constructor(baseUrl, runtime) {
		this.baseUrl = baseUrl.replace(/\/$/, '');
		this.browserId = crypto.randomUUID();
		/** @type {string | undefined} */
		this.cookie = undefined;
		/** @type {{ parse: (text: string) => unknown }} */
		this.flatted = require(path.join(runtime.n8nHome, 'node_modules', 'flatted'));
	}

	/**
	 * A request as the editor sends it, with the session cookie it keeps.
	 * @param {string} method
	 * @param {string} route e.g. `/rest/workflows`
	 * @param {unknown} [body]
	 * @returns {Promise<any>} the JSON answer (or its text)
	 */
	async request(method, route, body) {
		/** @type {Record<string, string>} */
		const headers = { 'browser-id': this.browserId, accept: 'application/json' };
		if (this.cookie) headers.cookie = this.cookie;
		if (body !== undefined) headers['content-type'] = 'application/json';
		const response = await fetch(`${this.baseUrl}${route}`, {
			method,
			headers,
			body: body === undefined ? undefined : JSON.stringify(body),
			signal: AbortSignal.timeout(120000),
		});
		const auth = response.headers.getSetCookie().find((cookie) => cookie.startsWith('n8n-auth='));
		if (auth) this.cookie = auth.split(';')[0];
		const text = await response.text();
		const parsed = jsonOrText(text);
		if (!response.ok) {
			const message = typeof parsed?.message === 'string' ? parsed.message : text.slice(0, 500);
			throw new Error(`${method} ${route} answered ${response.status}: ${message}`);
		}
		return parsed;
	}

	/**
	 * @param {string} method
	 * @param {string} route under /rest, e.g. `/workflows`
	 * @param {unknown} [body]
	 * @returns {Promise<any>} the `data` member of n8n's JSON answer
	 */
	async rest(method, route, body) {
		const parsed = await this.request(method, `/rest${route}`, body);
		return parsed && typeof parsed === 'object' && 'data' in parsed ? parsed.data : parsed;
	}

	/** Creates the owner (the editor's first-run form) and keeps its session. @param {Owner} owner */
	async setupOwner(owner) {
		return await this.rest('POST', '/owner/setup', owner);
	}

	/** @param {{ email: string, password: string }} login */
	async login({ email, password }) {
		return await this.rest('POST', '/login', { emailOrLdapLoginId: email, password });
	}

	/**
	 * @param {string} workflowId
	 * @returns {Promise<{ id: string, name: string, active: boolean, versionId: string, nodes: { name: string, type: string, webhookId?: string, parameters: Record<string, unknown> }[] }>}
	 */
	async getWorkflow(workflowId) {
		return await this.rest('GET', `/workflows/${encodeURIComponent(workflowId)}`);
	}

	/**
	 * Publishes (activates) the workflow's current version, as the editor's Publish button does,
	 * and waits (up to a minute) until its triggers are live.
	 * @param {string} workflowId
	 */
	async activateWorkflow(workflowId) {
		const route = `/workflows/${encodeURIComponent(workflowId)}`;
		const { versionId } = await this.getWorkflow(workflowId);
		const activated = await this.rest('POST', `${route}/activate`, { versionId });
		// n8n 2.40 answers before the triggers are registered: publication runs from an outbox. An
		// n8n without that status (404: 1.123, 2.0, 2.30) registers them before it answers.
		let status = 'unknown';
		const published = async () => {
			/** @type {{ status: string, triggers: { status: string, errorMessage: string | null }[] } | undefined} */
			const publication = await this.rest('GET', `${route}/publication-status`).catch((error) => {
				if (/ answered 404:/.test(error.message)) return undefined;
				throw error;
			});
			if (publication === undefined || publication.status === 'published') return true;
			status = publication.status;
			if (publication.status === 'failed' || publication.status === 'partial') {
				const reasons = publication.triggers
					.filter((trigger) => trigger.status === 'failed')
					.map((trigger) => trigger.errorMessage);
				throw new Error(`activating workflow ${workflowId} failed: ${reasons.join('; ')}`);
			}
			return undefined;
		};
		const failure = () => `workflow ${workflowId}, still "${status}", was not published`;
		await waitUntil(published, { timeoutMs: 60000, intervalMs: 200, failure });
		return activated;
	}

	/** @param {string} workflowId */
	async deactivateWorkflow(workflowId) {
		return await this.rest('POST', `/workflows/${encodeURIComponent(workflowId)}/deactivate`, {});
	}

	/**
	 * Starts a manual run of a saved workflow from one of its triggers (the editor's "Execute
	 * workflow" button).
	 * @param {string} workflowId
	 * @param {string} triggerName
	 * @returns {Promise<string>} its id
	 */
	async runManually(workflowId, triggerName) {
		const started = await this.rest('POST', `/workflows/${encodeURIComponent(workflowId)}/run`, {
			triggerToStartFrom: { name: triggerName },
		});
		if (!started || typeof started.executionId !== 'string') {
			throw new Error(`n8n did not start workflow ${workflowId}: ${JSON.stringify(started)}`);
		}
		return started.executionId;
	}

	/**
	 * A file of types as the editor gets it: every node description (its node panel searches
	 * their names and `codex.alias`), tool copies included, or every credential type.
	 * @param {'nodes.json' | 'credentials.json'} file
	 * @returns {Promise<{ name: string, displayName: string, codex?: { alias?: string[] } }[]>}
	 */
	async servedTypes(file) {
		return await this.request('GET', `/types/${file}`);
	}

	/**
	 * Runs a stored credential's Test the way the credential modal does: read it with its
	 * (redacted) data, send that back to /credentials/test, which puts the secrets back in.
	 * @param {string} credentialId
	 * @returns {Promise<{ status: 'OK' | 'Error', message: string }>}
	 */
	async testCredential(credentialId) {
		const route = `/credentials/${encodeURIComponent(credentialId)}?includeData=true`;
		const { id, name, type, data } = await this.rest('GET', route);
		return await this.rest('POST', '/credentials/test', { credentials: { id, name, type, data } });
	}

	/**
	 * Every execution, page by page: n8n 2.41 hands out a `nextCursor`; n8n 2.40 has none and
	 * pages by `lastId` (executions with a lower id). Running executions come with every page of
	 * 2.40, so a repeated id is skipped.
	 * @param {string} [workflowId]
	 * @returns {Promise<ExecutionSummary[]>} newest first
	 */
	async listExecutions(workflowId) {
		/** @type {Map<string, ExecutionSummary>} */
		const listed = new Map();
		/** @type {Record<string, string>} */
		let position = {};
		for (;;) {
			const query = new URLSearchParams({ limit: String(EXECUTIONS_PAGE), ...position });
			if (workflowId) query.set('filter', JSON.stringify({ workflowId }));
			/** @type {{ results: ExecutionSummary[], nextCursor?: string | null }} */
			const page = await this.rest('GET', `/executions?${query}`);
			const completed = page.results.filter((execution) => !CURRENT_STATUSES.has(execution.status));
			for (const execution of page.results) {
				if (!listed.has(execution.id)) listed.set(execution.id, execution);
			}
			if (typeof page.nextCursor === 'string') position = { cursor: page.nextCursor };
			else if (page.nextCursor === undefined && completed.length === EXECUTIONS_PAGE) {
				position = {
					lastId: String(Math.min(...completed.map((execution) => Number(execution.id)))),
				};
			} else return [...listed.values()];
		}
	}

	/**
	 * Waits until the workflow has at least `count` finished executions, or the time is up.
	 * @param {string} workflowId @param {number} count @param {number} timeoutMs
	 * @returns {Promise<ExecutionSummary[]>} the finished ones, newest first
	 */
	async waitForExecutions(workflowId, count, timeoutMs) {
		// Not waitUntil: when the time is up, what finished is the answer, and the caller's
		// assertions say what is missing.
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const finished = (await this.listExecutions(workflowId)).filter(
				(execution) => execution.stoppedAt !== null && !CURRENT_STATUSES.has(execution.status),
			);
			if (finished.length >= count || Date.now() > deadline) return finished;
			await delay(500);
		}
	}

	/**
	 * Calls a production webhook of an active workflow.
	 * @param {string} pathName
	 * @param {{ method?: string, json?: unknown, timeoutMs?: number }} [init] json: the body (POST)
	 * @returns {Promise<{ status: number, body: unknown, ms: number }>} the body parsed when it is JSON
	 */
	async callWebhook(pathName, init = {}) {
		const started = Date.now();
		const withBody = init.json !== undefined;
		const response = await fetch(`${this.baseUrl}/webhook/${pathName}`, {
			method: init.method ?? (withBody ? 'POST' : 'GET'),
			...(withBody && {
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(init.json),
			}),
			signal: AbortSignal.timeout(init.timeoutMs ?? 120000),
		});
		const body = /** @type {unknown} */ (jsonOrText(await response.text()));
		return { status: response.status, body, ms: Date.now() - started };
	}

	/** @param {string} executionId @returns {Promise<ExecutionDetail>} */
	async getExecution(executionId) {
		const execution = await this.rest('GET', `/executions/${encodeURIComponent(executionId)}`);
		const data = /** @type {any} */ (
			typeof execution.data === 'string' ? this.flatted.parse(execution.data) : execution.data
		);
		return {
			id: String(execution.id),
			status: execution.status,
			mode: execution.mode,
			runData: data?.resultData?.runData ?? {},
			error: data?.resultData?.error,
		};
	}
}

/**
 * The JSON items a node produced on its first output in its last run of an execution.
 * @param {ExecutionDetail} execution @param {string} nodeName @returns {Record<string, unknown>[]}
 */
function outputItems(execution, nodeName) {
	const runs = execution.runData[nodeName];
	if (!runs || runs.length === 0) {
		throw new Error(
			`node "${nodeName}" did not run in execution ${execution.id} (ran: ${Object.keys(execution.runData).join(', ')})`,
		);
	}
	const main = runs[runs.length - 1].data?.main?.[0] ?? [];
	return main.map((item) => item.json);
}

module.exports = { N8nClient, generatePassword, outputItems };
