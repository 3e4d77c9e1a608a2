import type { JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import {
	describeApiFailure,
	notAPageAdvice,
} from '../../../../../nodes/SupplierMatchedProjects/transport/api-errors';
import { project, workflowNode } from '../../../../support/engine/n8n-fixtures';

const node = workflowNode(
	'n',
	'Supplier Matched Projects',
	'n8n-nodes-supplier-matched-projects.supplierMatchedProjects',
);

describe('API error messages', () => {
	const context = {
		companyId: 'c-1',
		clientId: 'client-9',
		baseUrl: 'https://api.test',
		attempts: 1,
	};

	it.each([
		[
			400,
			{ code: 'CLIENT_ID_HEADER_MISSING', message: 'x' },
			'did not receive the x-service-client-id header (CLIENT_ID_HEADER_MISSING)',
			'proxy',
		],
		[
			400,
			{ code: 'INVALID_LIMIT', message: 'limit must be' },
			'rejected the request for company "c-1" as invalid (HTTP 400, INVALID_LIMIT)',
			'The API says: limit must be',
		],
		[
			401,
			{ code: 'CLIENT_ID_HEADER_MISMATCH', message: 'x' },
			'Client ID "client-9" is not the client the access token was issued to (CLIENT_ID_HEADER_MISMATCH)',
			'issued together',
		],
		[
			401,
			{ code: 'Unauthorised', message: 'Unauthorised.' },
			'refused access to company "c-1" (Unauthorised)',
			'not registered to client "client-9"',
		],
		[401, 'not json', 'refused access to company "c-1" (HTTP 401)', 'scope speci-finder/read'],
		[
			404,
			undefined,
			'No Supplier Matched-Projects API answered at https://api.test (HTTP 404)',
			'Base URL',
		],
		[
			429,
			{ code: 'RATE_LIMITED', message: 'slow down' },
			'rate limit was reached (HTTP 429)',
			'100 requests per 5 minutes',
		],
		[
			502,
			{ code: 'FETCH_FAILED', message: 'x' },
			'failed on its side (FETCH_FAILED)',
			'Run the workflow again later',
		],
		[
			500,
			{ code: 'INTERNAL_SERVER_ERROR', message: 'x' },
			'failed on its side (INTERNAL_SERVER_ERROR)',
			'Run the workflow again later',
		],
		[418, {}, 'answered with HTTP 418', 'Base URL'],
	])('HTTP %p %j names the cause and the fix', (status, body, cause, fix) => {
		const failure = describeApiFailure(status, body, context);
		expect(failure.message).toContain(cause);
		expect(failure.description).toContain(fix);
		// n8n replaces messages it recognises (status texts, network codes): ours must survive.
		const error = new NodeApiError(node, { message: failure.message } as JsonObject, {
			message: failure.message,
			description: failure.description,
			httpCode: String(status),
		});
		expect(error.message).toBe(failure.message);
		expect(error.description).toBe(failure.description);
	});

	it('counts attempts in the message when it retried', () => {
		expect(describeApiFailure(503, {}, { ...context, attempts: 5 }).message).toBe(
			'The API failed on its side after 5 attempts (HTTP 503)',
		);
	});
});

describe('advice for an answer that is not a results page', () => {
	it.each([
		['a web page', '<!doctype html><html>sign in</html>', /web page \(HTML\).*Base URL/],
		['an empty body', '  ', /^The answer was empty\. Check the credential's Base URL/],
		['JSON cut off', '{"data":[{"projectId":"p1","tend', /cut off or malformed.*again later/],
		['plain text', 'hello', /^It sent text that is not JSON\. Check/],
		['a JSON list', [project()], /JSON list, not a results page/],
		['JSON null', null, /JSON value null/],
		['a JSON number', 5, /JSON value number/],
		[
			'JSON without data',
			{ error: 'x', status: 2 },
			/no data list \(it has the fields error, status\): that is not this API's results endpoint/,
		],
		['data not a list', { data: {}, _metadata: {} }, /a data field that is not a list/],
		[
			'no _metadata',
			{ data: [] },
			/a data list but no _metadata, so the node cannot tell whether more pages follow/,
		],
		['odd _metadata', { data: [], _metadata: 'x' }, /a _metadata that is not an object/],
		[
			'odd hasNextPage',
			{ data: [], _metadata: { hasNextPage: 'yes' } },
			/hasNextPage is not true or false/,
		],
	])('%s', (_name, body, advice) => {
		expect(notAPageAdvice(body)).toMatch(advice);
	});

	it('names a few field names, cut short, and nothing of their values', () => {
		const body = Object.fromEntries(
			Array.from({ length: 8 }, (_, index) => [`${'k'.repeat(60)}${index}`, 'SECRET-VALUE']),
		);
		const advice = notAPageAdvice(body);
		expect(advice).toContain(`${'k'.repeat(39)}…, `);
		expect(advice).toContain('and 3 more');
		expect(advice).not.toContain('SECRET-VALUE');
		expect(advice).not.toContain('k'.repeat(41));
	});
});
