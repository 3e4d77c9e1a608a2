import * as workflow from 'n8n-workflow';
import type { IHttpRequestOptions, INode } from 'n8n-workflow';

/**
 * The values this package takes from n8n-workflow at run time that some supported n8n lines lack
 * or shape differently. n8n loads its own n8n-workflow, not the one this package is built against,
 * and a missing export is `undefined`: every use of such a value goes through here, where it is
 * detected once.
 */
const exported: Partial<typeof workflow> = workflow;

/** n8n-workflow 2.40's list, for the n8n lines that predate the export. */
const TIMED_CAUSES_BEFORE_2_40 = ['rate-limited', 'quota-exhausted', 'temporarily-unavailable'];

/** Failure causes after which the source comes back on its own, so a wait can help. */
export const TIMED_CAUSES: readonly string[] = exported.TIMED_CAUSES ?? TIMED_CAUSES_BEFORE_2_40;

type AllowedDomainsRequest = Parameters<typeof workflow.getCredentialAllowedDomains>[0];

/**
 * How the running n8n's allowed-domains helper is called. It changed twice:
 * - `positional` (n8n 1.123, 2.20): `(credentialData, nodeEndpointUrl?)`; "None" restricts nothing;
 * - `options` (up to 2.3x): `({ node, credentialData })`; "None" throws for every node, its own
 *   API included, although the editor may set "None" on a new credential;
 * - `ownedSurface` (2.40 on): `credentialOwnedSurface` makes "None" a no-op for a node's own API.
 * `absent` (n8n 2.0 to 2.19): there is no helper, and n8n applies no list to a node's request.
 */
export type AllowedDomainsShape = 'absent' | 'positional' | 'options' | 'ownedSurface';

type LooseHelper = (...args: unknown[]) => unknown;

const PROBE_NODE: INode = {
	id: 'probe',
	name: 'probe',
	type: 'probe',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

/**
 * One call tells the shapes apart: the probe is at once positional credential data (listing
 * `positional.invalid`) and an options object whose credential lists `listed.invalid`; only the
 * newest helper adds the endpoint's own host to the list.
 */
function shapeOf(helper: LooseHelper | undefined): AllowedDomainsShape {
	if (typeof helper !== 'function') return 'absent';
	let answer: unknown;
	try {
		answer = helper({
			allowedHttpRequestDomains: 'domains',
			allowedDomains: 'positional.invalid',
			node: PROBE_NODE,
			credentialData: { allowedHttpRequestDomains: 'domains', allowedDomains: 'listed.invalid' },
			credentialOwnedSurface: true,
			nodeEndpointUrl: 'https://endpoint.invalid',
		});
	} catch {
		answer = undefined;
	}
	if (answer === 'positional.invalid') return 'positional';
	if (answer === 'listed.invalid') return 'options';
	// The newest shape, and whatever comes after it: the one this package is built against.
	return 'ownedSurface';
}

const helper = exported.getCredentialAllowedDomains as LooseHelper | undefined;

/** The running n8n's shape of the allowed-domains helper. */
export const ALLOWED_DOMAINS_SHAPE: AllowedDomainsShape = shapeOf(helper);

/**
 * The domains n8n allows this credential to reach from this package's own API requests, as the
 * running n8n applies them. Undefined leaves the request as n8n would send it.
 */
export function credentialAllowedDomains(
	request: AllowedDomainsRequest,
): IHttpRequestOptions['allowedDomains'] {
	if (helper === undefined || ALLOWED_DOMAINS_SHAPE === 'absent') return undefined;
	if (ALLOWED_DOMAINS_SHAPE === 'positional') {
		return helper(request.credentialData, request.nodeEndpointUrl) as string | undefined;
	}
	if (ALLOWED_DOMAINS_SHAPE === 'options') {
		// What n8n decided later (pull request 37200): "None" guards the HTTP Request node, not a
		// node's own API, which would otherwise fail on every request.
		if (request.credentialData?.allowedHttpRequestDomains === 'none') return undefined;
		return helper({ node: request.node, credentialData: request.credentialData }) as
			| string
			| undefined;
	}
	return helper(request) as string | undefined;
}
