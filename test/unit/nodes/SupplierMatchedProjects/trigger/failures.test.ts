import { NodeOperationError } from 'n8n-workflow';

import {
	failureOf,
	isHeard,
	passesOnItsOwn,
	UNREACHABLE_STREAK_MS,
} from '../../../../../nodes/SupplierMatchedProjects/trigger/failures';
import { NoAnswerError } from '../../../../../nodes/SupplierMatchedProjects/transport';
import {
	ApiError,
	type FailureKind,
} from '../../../../../nodes/SupplierMatchedProjects/transport/errors';
import { networkFailureOf } from '../../../../../nodes/SupplierMatchedProjects/transport/network';
import { workflowNode } from '../../../../support/engine/n8n-fixtures';

const DAY_MS = 86_400_000;

const node = workflowNode(
	'trigger',
	'Supplier Matched Projects Trigger',
	'supplierMatchedProjectsTrigger',
);

function apiError(
	kind: FailureKind,
	words: { httpCode?: number; message?: string } = {},
): ApiError {
	return new ApiError(node, kind, { message: 'x', description: '', ...words });
}

/** What the transport throws when a request got no answer, for the error code Node gave. */
function noAnswer(code: string, failure?: NoAnswerError['failure']): NoAnswerError {
	const network = networkFailureOf({ code });
	if (network === undefined) throw new Error(`no network failure for ${code}`);
	const message = `Could not reach the API at https://api.example: ${network.summary}`;
	return new NoAnswerError(node, { message, description: '', failure }, network);
}

const rateLimited = apiError('rateLimited', { httpCode: 429 });
const noSlot = apiError('waiting', { httpCode: 429 });
const unavailable = apiError('server', { httpCode: 503 });
const tokenRefused = apiError('credentials', { httpCode: 401 });
const forbidden = apiError('client', { httpCode: 403 });
const noApi = apiError('notFound', { httpCode: 404 });
const brokenPaging = apiError('paging', { message: 'a cursor repeated' });
const parameterToFix = new NodeOperationError(node, 'Company ID is empty');

// Only the failure's kind decides, so a row per kind.
describe('which failed polls the trigger only logs, and which it reports', () => {
	it.each([
		['an API failing on its side (HTTP 500)', apiError('server', { httpCode: 500 })],
		["the API's rate limit (HTTP 429)", rateLimited],
		['no request slot within the wait', noSlot],
		['a network failure (no HTTP code)', noAnswer('ECONNRESET')],
		['paging the service broke', brokenPaging],
	])('passes on its own: %s', (_case, error) => {
		expect(passesOnItsOwn(error)).toBe(true);
	});

	it.each([
		['the API refusing the token (HTTP 401)', tokenRefused],
		['the API refusing access (HTTP 403)', forbidden],
		['no API at the Base URL (HTTP 404)', noApi],
		['an answer that is no results page', apiError('notAPage', { httpCode: 200 })],
		['a parameter to fix', parameterToFix],
		['anything else', new Error('unexpected')],
	])('needs the user: %s', (_case, error) => {
		expect(passesOnItsOwn(error)).toBe(false);
	});
});

describe('why a poll failed, in n8n terms', () => {
	it.each([
		['a 429', rateLimited, 'rate-limited'],
		['no request slot', noSlot, 'rate-limited'],
		['a 503', unavailable, 'temporarily-unavailable'],
		['a 401', tokenRefused, 'credential-invalid'],
		['a 403', forbidden, 'configuration-invalid'],
		['a 404 (no API at the Base URL)', noApi, 'configuration-invalid'],
		['a refused connection', noAnswer('ECONNREFUSED'), 'temporarily-unavailable'],
		['a host name not found', noAnswer('ENOTFOUND'), 'configuration-invalid'],
		['paging the service broke', brokenPaging, 'temporarily-unavailable'],
		['a parameter to fix', parameterToFix, 'configuration-invalid'],
		['a bug', new TypeError('x is undefined'), 'node-defect'],
	])('%s', (_case, error, cause) => {
		expect(failureOf(error)).toEqual({ cause });
	});

	it('keeps the cause a parameter check declared', () => {
		const declared = new NodeOperationError(node, 'x', { failure: { cause: 'quota-exhausted' } });
		expect(failureOf(declared)).toEqual({ cause: 'quota-exhausted' });
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
		const answered = apiError('server', {
			httpCode: 502,
			message: 'The API says: the host name was not found',
		});
		expect(isHeard(answered, { since: 0, heard: false }, DAY_MS)).toBe(false);
		expect(failureOf(answered)).toEqual({ cause: 'temporarily-unavailable' });
	});

	it('keeps a 5xx, a 429 and broken paging quiet however long they last', () => {
		for (const error of [unavailable, rateLimited, noSlot, apiError('paging')]) {
			expect(isHeard(error, { since: 0, heard: false }, DAY_MS)).toBe(false);
		}
	});

	it('hears every poll a failure the user must fix', () => {
		expect(isHeard(tokenRefused, { since: 0, heard: true }, 0)).toBe(true);
	});
});
