import type { JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { PagingError } from '../../nodes/SupplierMatchedProjects/transport/pages';
import {
	failureOf,
	isHeard,
	passesOnItsOwn,
	UNREACHABLE_STREAK_MS,
} from '../../nodes/SupplierMatchedProjects/trigger/failures';
import { NoAnswerError } from '../../nodes/SupplierMatchedProjects/transport';
import { networkFailureOf } from '../../nodes/SupplierMatchedProjects/transport/network';
import { workflowNode } from '../support/n8n-fixtures';

const DAY_MS = 86_400_000;

const node = workflowNode(
	'trigger',
	'Supplier Matched Projects Trigger',
	'supplierMatchedProjectsTrigger',
);

function apiError(options: ConstructorParameters<typeof NodeApiError>[2]): NodeApiError {
	return new NodeApiError(node, { message: 'x' } as JsonObject, { message: 'x', ...options });
}

/** What the transport throws when a request got no answer, for the error code Node gave. */
function noAnswer(code: string, failure?: NoAnswerError['failure']): NoAnswerError {
	const network = networkFailureOf({ code });
	if (network === undefined) throw new Error(`no network failure for ${code}`);
	const message = `Could not reach the API at https://api.example: ${network.summary}`;
	return new NoAnswerError(node, { message, description: '' }, network, failure);
}

describe('which failed polls the trigger only logs, and which it reports', () => {
	it.each([
		['an API failing on its side (HTTP 500)', apiError({ httpCode: '500' })],
		['an API failing downstream (HTTP 502)', apiError({ httpCode: '502' })],
		["the API's rate limit (HTTP 429)", apiError({ httpCode: '429' })],
		['a network failure (no HTTP code)', apiError({})],
		[
			'a token issuer failing or out of reach',
			apiError({ failure: { cause: 'temporarily-unavailable' } }),
		],
		['a token issuer throttling', apiError({ failure: { cause: 'rate-limited' } })],
		['paging the service broke', new PagingError('a cursor repeated')],
	])('passes on its own: %s', (_case, error) => {
		expect(passesOnItsOwn(error)).toBe(true);
	});

	it.each([
		['the API refusing access (HTTP 401)', apiError({ httpCode: '401' })],
		['the API rejecting the request (HTTP 400)', apiError({ httpCode: '400' })],
		['no API at the Base URL (HTTP 404)', apiError({ httpCode: '404' })],
		[
			'a token issuer rejecting the client, scope or address',
			apiError({ failure: { cause: 'credential-invalid' } }),
		],
		[
			'a declared cause that needs the user, whatever the HTTP code says',
			apiError({ httpCode: '503', failure: { cause: 'configuration-invalid' } }),
		],
		['a parameter to fix', new NodeOperationError(node, 'Company ID is empty')],
		['anything else', new Error('unexpected')],
	])('needs the user: %s', (_case, error) => {
		expect(passesOnItsOwn(error)).toBe(false);
	});
});

describe('why a poll failed, in n8n terms', () => {
	it.each([
		['a 429', apiError({ httpCode: '429' }), 'rate-limited'],
		['a 503', apiError({ httpCode: '503' }), 'temporarily-unavailable'],
		['a 401', apiError({ httpCode: '401' }), 'credential-invalid'],
		['a 404 (no API at the Base URL)', apiError({ httpCode: '404' }), 'configuration-invalid'],
		['a refused connection', noAnswer('ECONNREFUSED'), 'temporarily-unavailable'],
		['a host name not found', noAnswer('ENOTFOUND'), 'configuration-invalid'],
		['an expired certificate', noAnswer('CERT_HAS_EXPIRED'), 'configuration-invalid'],
		['paging the service broke', new PagingError('a cursor repeated'), 'temporarily-unavailable'],
		[
			'a parameter to fix',
			new NodeOperationError(node, 'Company ID is empty'),
			'configuration-invalid',
		],
		['a bug', new TypeError('x is undefined'), 'node-defect'],
	])('%s', (_case, error, cause) => {
		expect(failureOf(error)).toEqual({ cause });
	});

	it('keeps a cause the transport declared', () => {
		const declared = apiError({ failure: { cause: 'credential-invalid' } });
		expect(failureOf(declared)).toEqual({ cause: 'credential-invalid' });
	});
});

describe('which failures fail an execution, once per streak', () => {
	const refused = noAnswer('ECONNREFUSED');
	// The token issuer's: it declares its failure passing, like every unreachable issuer.
	const noHost = noAnswer('ENOTFOUND', { cause: 'temporarily-unavailable' });
	const wrongHost = noAnswer('ERR_TLS_CERT_ALTNAME_INVALID');

	it('hears a host name not found or a bad certificate at once, then not again in that streak', () => {
		for (const error of [noHost, wrongHost]) {
			expect(isHeard(error, { since: 0, heard: false }, 0)).toBe(true);
			expect(isHeard(error, { since: 0, heard: true }, DAY_MS)).toBe(false);
		}
	});

	it('hears a refused connection only once it has lasted half an hour', () => {
		expect(isHeard(refused, { since: 0, heard: false }, UNREACHABLE_STREAK_MS - 1)).toBe(false);
		expect(isHeard(refused, { since: 0, heard: false }, UNREACHABLE_STREAK_MS)).toBe(true);
		expect(isHeard(refused, { since: 0, heard: true }, 2 * UNREACHABLE_STREAK_MS)).toBe(false);
	});

	it("does not take an answer's words for a network failure", () => {
		const answered = apiError({
			httpCode: '502',
			message: 'The API says: the host name was not found',
		});
		expect(isHeard(answered, { since: 0, heard: false }, DAY_MS)).toBe(false);
		expect(failureOf(answered)).toEqual({ cause: 'temporarily-unavailable' });
	});

	it('keeps a 5xx, a 429 and broken paging quiet however long they last', () => {
		for (const error of [apiError({ httpCode: '503' }), apiError({ httpCode: '429' })]) {
			expect(isHeard(error, { since: 0, heard: false }, DAY_MS)).toBe(false);
		}
		expect(isHeard(new PagingError('x'), { since: 0, heard: false }, DAY_MS)).toBe(false);
	});

	it('hears every poll a failure the user must fix', () => {
		expect(isHeard(apiError({ httpCode: '401' }), { since: 0, heard: true }, 0)).toBe(true);
	});
});

describe('network failures the transport names', () => {
	it.each([
		['ENOTFOUND', 'dns', false],
		['EAI_AGAIN', 'dns', true],
		['CERT_HAS_EXPIRED', 'tls', false],
		['ECONNREFUSED', 'refused', true],
	])('%s', (code, kind, retryable) => {
		expect(noAnswer(code).network).toMatchObject({ kind, retryable });
	});

	it('finds none in an answer from the API, whatever its words', () => {
		const answered = apiError({ httpCode: '503', message: 'the host name was not found' });
		expect(isHeard(answered, { since: 0, heard: false }, DAY_MS)).toBe(false);
	});
});
