// @ts-check
'use strict';

/**
 * A scripted, OpenAI-compatible model on loopback, for n8n's OpenAI Chat Model node (1.3) with the
 * Responses API on (its default): `POST <base>/responses`, not streamed (the AI Agent streams only
 * for a trigger that streams its answer). The test's `respond` decides each turn's output items
 * from the request; every request body is kept, so the test reads exactly what n8n sent the model
 * (the tools offered, the tool result it handed back). It proves n8n's agent path, not a model.
 */

const http = require('node:http');

/**
 * @typedef {object} ResponsesRequest
 * @property {string} model
 * @property {Array<Record<string, any>>} input conversation items (messages, function calls and their outputs)
 * @property {Array<{ type: string, name: string, description?: string, parameters?: unknown }>} [tools]
 * @property {boolean} [stream]
 */

/**
 * @typedef {object} ScriptedModel
 * @property {string} baseUrl what the OpenAI credential's Base URL is set to (ends in /v1)
 * @property {{ method: string, path: string, body: ResponsesRequest }[]} requests every request, in order
 * @property {(respond: (request: ResponsesRequest) => Array<Record<string, unknown>>) => void} script
 * @property {() => Promise<void>} stop
 */

/** A function call, as the Responses API writes one into `output`. */
function functionCall(/** @type {string} */ name, /** @type {unknown} */ args, id = 'call_1') {
	return {
		type: 'function_call',
		id: `fc_${id}`,
		call_id: id,
		name,
		arguments: JSON.stringify(args),
		status: 'completed',
	};
}

/** An assistant message, as the Responses API writes one into `output`. */
function assistantMessage(/** @type {string} */ text) {
	return {
		type: 'message',
		id: 'msg_1',
		role: 'assistant',
		status: 'completed',
		content: [{ type: 'output_text', text, annotations: [] }],
	};
}

/**
 * @param {http.ServerResponse} response
 * @param {number} status
 * @param {unknown} body
 */
function sendJson(response, status, body) {
	response.writeHead(status, { 'content-type': 'application/json' });
	response.end(JSON.stringify(body));
}

/**
 * @param {http.ServerResponse} response
 * @param {number} status
 * @param {string} message
 */
function sendError(response, status, message) {
	sendJson(response, status, { error: { message, type: 'invalid_request_error' } });
}

/**
 * Why this model will not answer a request, or undefined when it will.
 * @param {string} method
 * @param {string} path
 * @param {ResponsesRequest} body
 * @returns {[number, string] | undefined}
 */
function refusal(method, path, body) {
	if (method !== 'POST' || path !== '/v1/responses') {
		return [404, `this scripted model serves only POST /v1/responses, not ${method} ${path}`];
	}
	// Shows up in the test as a failed agent run naming the cause.
	if (body.stream) return [400, 'this scripted model answers only non-streamed requests'];
	return undefined;
}

/**
 * @param {(request: ResponsesRequest) => Array<Record<string, unknown>>} respond
 * @param {ResponsesRequest} body
 */
function scriptedOutput(respond, body) {
	try {
		return respond(body);
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		return [assistantMessage(`The script failed: ${reason}`)];
	}
}

/**
 * A completed, non-streamed Responses API answer.
 * @param {number} turn
 * @param {string} model
 * @param {Array<Record<string, unknown>>} output
 */
function completedResponse(turn, model, output) {
	return {
		id: `resp_${turn}`,
		object: 'response',
		created_at: Math.floor(Date.now() / 1000),
		status: 'completed',
		error: null,
		incomplete_details: null,
		model,
		output,
		parallel_tool_calls: true,
		tool_choice: 'auto',
		tools: [],
		usage: {
			input_tokens: 1,
			input_tokens_details: { cached_tokens: 0 },
			output_tokens: 1,
			output_tokens_details: { reasoning_tokens: 0 },
			total_tokens: 2,
		},
	};
}

/** @returns {Promise<ScriptedModel>} */
async function startScriptedModel() {
	/** @type {ScriptedModel['requests']} */
	const requests = [];
	/** @type {(request: ResponsesRequest) => Array<Record<string, unknown>>} */
	let respond = () => [assistantMessage('No script was set for this turn.')];
	let turn = 0;

	/**
	 * @param {http.IncomingMessage} request
	 * @param {http.ServerResponse} response
	 * @param {string} text the request body
	 */
	function answer(request, response, text) {
		/** @type {ResponsesRequest} */
		let body;
		try {
			body = JSON.parse(text || '{}');
		} catch {
			sendError(response, 400, 'the body is not JSON');
			return;
		}
		const method = request.method ?? '';
		const path = (request.url ?? '').split('?')[0];
		requests.push({ method, path, body });
		const refused = refusal(method, path, body);
		if (refused) {
			sendError(response, ...refused);
			return;
		}
		turn++;
		sendJson(response, 200, completedResponse(turn, body.model, scriptedOutput(respond, body)));
	}

	const server = http.createServer((request, response) => {
		/** @type {Buffer[]} */
		const chunks = [];
		request.on('data', (chunk) => chunks.push(chunk));
		request.on('end', () => answer(request, response, Buffer.concat(chunks).toString('utf8')));
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
	const address = server.address();
	if (!address || typeof address !== 'object') throw new Error('the scripted model has no port');
	return {
		baseUrl: `http://127.0.0.1:${address.port}/v1`,
		requests,
		script(next) {
			respond = next;
		},
		stop: () =>
			new Promise((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

module.exports = { startScriptedModel, functionCall, assistantMessage };
