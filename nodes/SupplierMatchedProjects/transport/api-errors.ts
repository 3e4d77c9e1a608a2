import type { ErrorBody } from '../api/types';
import { API_RATE_LIMIT_TEXT } from './rate-budget';

export interface ApiFailure {
	/** The cause, in a sentence. */
	message: string;
	/** What to do about it. */
	description: string;
}

/** The request the API refused: what a message about it names. */
export interface FailedRequest {
	companyId: string;
	clientId: string;
	baseUrl: string;
	attempts: number;
}

/** The error code the API put in its body, if it sent one we can read. */
export function errorCodeOf(body: unknown): string | undefined {
	if (typeof body !== 'object' || body === null) return undefined;
	const code = (body as Partial<ErrorBody>).code;
	return typeof code === 'string' && code !== '' ? code : undefined;
}

function serverSays(body: unknown): string {
	if (typeof body !== 'object' || body === null) return '';
	const message = (body as Partial<ErrorBody>).message;
	return typeof message === 'string' && message !== '' ? ` The API says: ${message}` : '';
}

function afterAttempts(request: FailedRequest): string {
	return request.attempts > 1 ? ` after ${request.attempts} attempts` : '';
}

/** Turns an API error answer (section 7 of the API specification) into a cause and a fix. */
export function describeApiFailure(
	status: number,
	body: unknown,
	request: FailedRequest,
): ApiFailure {
	const code = errorCodeOf(body);
	const says = serverSays(body);
	if (status === 400 && code === 'CLIENT_ID_HEADER_MISSING') {
		return {
			message: 'The API did not receive the x-service-client-id header (CLIENT_ID_HEADER_MISSING)',
			description: `The node sends it on every request from the credential's Client ID. Something between n8n and the API removed it: check the proxy settings of n8n and of your network.${says}`,
		};
	}
	if (status === 400) {
		return {
			message: `The API rejected the request for company "${request.companyId}" as invalid (HTTP 400${code ? `, ${code}` : ''})`,
			description: `Check the Company ID. If the request came from an older cursor, run the node again to start from the first page.${says}`,
		};
	}
	if (status === 401 && code === 'CLIENT_ID_HEADER_MISMATCH') {
		return {
			message: `The credential's Client ID "${request.clientId}" is not the client the access token was issued to (CLIENT_ID_HEADER_MISMATCH)`,
			description: `Enter the Client ID and Client Secret that were issued together for this integration; if you changed one, change the other to match.${says}`,
		};
	}
	if (status === 401 || status === 403) {
		return {
			message: `The API refused access to company "${request.companyId}" (${code ?? `HTTP ${status}`})`,
			description: `The API gives this one answer for four causes: the token is not valid for this API; the company "${request.companyId}" is not registered to client "${request.clientId}"; the permission is not published; or the token lacks the scope speci-finder/read. Check the Company ID, keep the credential's Scope as speci-finder/read, and ask the operator to register the company and publish the permission.${says}`,
		};
	}
	if (status === 404) {
		return {
			message: `No Supplier Matched-Projects API answered at ${request.baseUrl} (HTTP 404)`,
			description: `Check the credential's Base URL: it is the resource API's address, without /api/supplier/v1.${says}`,
		};
	}
	if (status === 429) {
		return {
			message: `The API's rate limit was reached${afterAttempts(request)} (HTTP 429)`,
			description: `The API allows ${API_RATE_LIMIT_TEXT} per credential, and this call has waited as long as the node allows. Run the workflow later, or fetch fewer pages by setting a Limit.${says}`,
		};
	}
	if (status >= 500) {
		return {
			message: `The API failed on its side${afterAttempts(request)} (${code ?? `HTTP ${status}`})`,
			description: `This is a temporary failure of the service or one of its downstream systems. Run the workflow again later.${says}`,
		};
	}
	return {
		message: `The API answered with HTTP ${status}${code ? ` (${code})` : ''}`,
		description: `Check the credential's Base URL and the Company ID.${says}`,
	};
}

const BASE_URL_FIX =
	"Check the credential's Base URL: it is the resource API's address, without /api/supplier/v1.";

/** At most this many of a body's field names are named, each cut short. */
const NAMED_FIELDS = 5;
const NAME_LENGTH = 40;

function fieldNames(body: Record<string, unknown>): string {
	const names = Object.keys(body);
	if (names.length === 0) return 'no fields';
	const shown = names
		.slice(0, NAMED_FIELDS)
		.map((name) => (name.length > NAME_LENGTH ? `${name.slice(0, NAME_LENGTH - 1)}…` : name));
	const more = names.length > NAMED_FIELDS ? ` and ${names.length - NAMED_FIELDS} more` : '';
	return `the fields ${shown.join(', ')}${more}`;
}

/**
 * What to do about a successful answer that is not a results page, fitted to what it was: a web
 * page, text, JSON cut off, other JSON, or a page without its paging information. Quotes nothing
 * of the body but its field names, cut short.
 */
export function notAPageAdvice(body: unknown): string {
	if (typeof body === 'string') {
		const start = body.trimStart();
		if (start === '') return `The answer was empty. ${BASE_URL_FIX}`;
		if (start.startsWith('<')) {
			return `It sent a web page (HTML), not JSON: the address probably leads to a website, a sign-in portal or a proxy's page rather than the API. ${BASE_URL_FIX}`;
		}
		if (start.startsWith('{') || start.startsWith('[')) {
			return `It sent JSON that is cut off or malformed: a proxy or a dropped connection may have cut it. Run the workflow again later; if it keeps happening, ${BASE_URL_FIX.charAt(0).toLowerCase()}${BASE_URL_FIX.slice(1)}`;
		}
		return `It sent text that is not JSON. ${BASE_URL_FIX}`;
	}
	if (Array.isArray(body)) {
		return `It sent a JSON list, not a results page (an object with a data list and _metadata): the address leads to another service. ${BASE_URL_FIX}`;
	}
	if (typeof body !== 'object' || body === null) {
		return `It sent the JSON value ${body === null ? 'null' : typeof body}, not a results page. ${BASE_URL_FIX}`;
	}
	const page = body as Record<string, unknown>;
	if (!Array.isArray(page.data)) {
		const data = page.data === undefined ? 'no data list' : 'a data field that is not a list';
		return `It sent JSON with ${data} (it has ${fieldNames(page)}): that is not this API's results endpoint. ${BASE_URL_FIX}`;
	}
	const metadata = page._metadata;
	const paging =
		metadata === undefined
			? 'no _metadata'
			: typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)
				? 'a _metadata that is not an object'
				: 'a _metadata whose hasNextPage is not true or false';
	return `It sent a data list but ${paging}, so the node cannot tell whether more pages follow. The address may lead to another version of the API or through a proxy that rewrites answers. ${BASE_URL_FIX} If it is right, tell the API's operator.`;
}
