// @ts-check
'use strict';

/**
 * A scripted, OpenAI-compatible model on loopback for n8n's OpenAI Chat Model node (1.3) with the
 * Responses API on (its default): `POST <base>/responses`, not streamed (the AI Agent streams only
 * for a trigger that streams its answer). The test's `script` decides each turn's output from the
 * request; `turns()` are exactly what n8n sent (the tools offered, the tool result handed back).
 * It proves n8n's agent path, not a model.
 */

const { startScriptedServer } = require('../reliability/server');

/**
 * @typedef {object} ResponsesRequest
 * @property {string} model
 * @property {Array<Record<string, any>>} input conversation items (messages, function calls and their outputs)
 * @property {Array<{ type: string, name: string, description?: string, parameters?: unknown }>} [tools]
 * @property {boolean} [stream]
 */

/** @typedef {(request: ResponsesRequest) => Array<Record<string, unknown>>} Script */

/** A function call, as the Responses API writes one into `output`. */
function functionCall(/** @type {string} */ name, /** @type {unknown} */ args, id = 'call_1') {
	const call = { type: 'function_call', id: `fc_${id}`, call_id: id, name };
	return { ...call, arguments: JSON.stringify(args), status: 'completed' };
}

/** An assistant message, as the Responses API writes one into `output`. */
function assistantMessage(/** @type {string} */ text) {
	const content = [{ type: 'output_text', text, annotations: [] }];
	return { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content };
}

/**
 * A completed, non-streamed Responses API answer.
 * @param {number} turn @param {string} model @param {Array<Record<string, unknown>>} output
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

/** @param {Script} respond @param {ResponsesRequest} body */
function scriptedOutput(respond, body) {
	try {
		return respond(body);
	} catch (error) {
		// Shows up in the test as an agent answer naming the cause.
		return [
			assistantMessage(`The script failed: ${error instanceof Error ? error.message : error}`),
		];
	}
}

async function startScriptedModel() {
	/** @type {Script} */
	let respond = () => [assistantMessage('No script was set for this turn.')];
	const server = await startScriptedServer((request, index) => {
		/** @type {ResponsesRequest} */
		const body = JSON.parse(request.body || '{}');
		const refusal =
			request.method !== 'POST' || request.path !== '/v1/responses'
				? `this scripted model serves only POST /v1/responses, not ${request.method} ${request.path}`
				: body.stream && 'this scripted model answers only non-streamed requests';
		if (refusal) return { status: 400, json: { error: { message: refusal } } };
		return { json: completedResponse(index + 1, body.model, scriptedOutput(respond, body)) };
	});
	return {
		/** the OpenAI credential's Base URL */
		baseUrl: `${server.url}/v1`,
		/** every request, in order (`length = 0` forgets them) */
		requests: server.requests,
		/** @returns {ResponsesRequest[]} the body of every request, in order */
		turns: () => server.requests.map((request) => JSON.parse(request.body)),
		/** @param {Script} next */
		script(next) {
			respond = next;
		},
		stop: server.stop,
	};
}

/** @typedef {Awaited<ReturnType<typeof startScriptedModel>>} ScriptedModel */

module.exports = { startScriptedModel, functionCall, assistantMessage };
