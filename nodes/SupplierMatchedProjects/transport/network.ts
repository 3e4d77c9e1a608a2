export type NetworkFailureKind =
	| 'timeout'
	| 'refused'
	| 'dns'
	| 'interrupted'
	| 'tls'
	| 'cancelled';

/** A request that got no HTTP answer. */
export interface NetworkFailure {
	kind: NetworkFailureKind;
	/** Worded without the raw error codes: n8n swaps a message naming one for a generic text. */
	summary: string;
	retryable: boolean;
}

function tls(summary: string): NetworkFailure {
	return { kind: 'tls', summary: `its TLS certificate ${summary}`, retryable: false };
}

/** Each failure with the error codes that mean it (Node's, axios's and undici's). */
const FAILURES_BY_CODES: ReadonlyArray<[codes: string[], failure: NetworkFailure]> = [
	[
		[
			'ECONNABORTED',
			'ETIMEDOUT',
			'UND_ERR_CONNECT_TIMEOUT',
			'UND_ERR_HEADERS_TIMEOUT',
			'UND_ERR_BODY_TIMEOUT',
		],
		{ kind: 'timeout', summary: 'no answer within the time limit', retryable: true },
	],
	[['ECONNREFUSED'], { kind: 'refused', summary: 'the connection was refused', retryable: true }],
	[['ENOTFOUND'], { kind: 'dns', summary: 'the host name was not found', retryable: false }],
	[
		['EAI_AGAIN'],
		{ kind: 'dns', summary: 'the host name could not be resolved for now', retryable: true },
	],
	[
		['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'ERR_BAD_RESPONSE'],
		{ kind: 'interrupted', summary: 'the connection was closed unexpectedly', retryable: true },
	],
	[['EHOSTUNREACH'], { kind: 'interrupted', summary: 'the host is unreachable', retryable: true }],
	[
		['ENETUNREACH'],
		{ kind: 'interrupted', summary: 'the network is unreachable', retryable: true },
	],
	[['ENETDOWN'], { kind: 'interrupted', summary: 'the network is down', retryable: true }],
	[
		['ERR_CANCELED', 'ABORT_ERR'],
		{ kind: 'cancelled', summary: 'the request was cancelled', retryable: false },
	],
	[['CERT_HAS_EXPIRED'], tls('has expired')],
	[['CERT_NOT_YET_VALID'], tls('is not valid yet')],
	[['UNABLE_TO_GET_ISSUER_CERT_LOCALLY'], tls('was issued by an authority n8n does not trust')],
	[['DEPTH_ZERO_SELF_SIGNED_CERT'], tls('is self-signed')],
	[['SELF_SIGNED_CERT_IN_CHAIN'], tls('chain is self-signed')],
	[['UNABLE_TO_VERIFY_LEAF_SIGNATURE'], tls('could not be verified')],
	[['ERR_TLS_CERT_ALTNAME_INVALID'], tls('is for another host name')],
];

const FAILURES: ReadonlyMap<string, NetworkFailure> = new Map(
	FAILURES_BY_CODES.flatMap(([codes, failure]) => codes.map((code) => [code, failure] as const)),
);

function answerStatus(level: Record<string, unknown>): number | undefined {
	const response = level.response;
	if (typeof response !== 'object' || response === null) return undefined;
	const status = (response as Record<string, unknown>).status;
	return typeof status === 'number' ? status : undefined;
}

/**
 * Finds why a request got no answer, following the error's causes (n8n wraps the HTTP client's
 * error in its own). Undefined when the server did answer, or for any other failure.
 */
export function networkFailureOf(error: unknown): NetworkFailure | undefined {
	const seen = new Set<unknown>();
	let level: unknown = error;
	while (typeof level === 'object' && level !== null && !seen.has(level)) {
		seen.add(level);
		const current = level as Record<string, unknown>;
		const status = answerStatus(current);
		const failure = typeof current.code === 'string' ? FAILURES.get(current.code) : undefined;
		// A body that broke off after a good status line is a network failure; an error status is an answer.
		if (current.code === 'ERR_BAD_RESPONSE')
			return status === undefined || status < 400 ? failure : undefined;
		if (status !== undefined) return undefined;
		if (failure !== undefined) return failure;
		if (current.name === 'AbortError') return FAILURES.get('ABORT_ERR');
		level = current.cause;
	}
	return undefined;
}
