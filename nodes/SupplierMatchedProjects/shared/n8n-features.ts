import * as workflow from 'n8n-workflow';
import type { IHttpRequestOptions } from 'n8n-workflow';

/**
 * The values this package takes from n8n-workflow at run time that some supported n8n lines lack.
 * n8n loads its own n8n-workflow, not the one this package is built against, and a missing export
 * is `undefined`: every use of such a value goes through here, where it is detected once.
 */
const exported: Partial<typeof workflow> = workflow;

/** n8n-workflow 2.40's list, for the n8n lines that predate the export. */
const TIMED_CAUSES_BEFORE_2_40 = ['rate-limited', 'quota-exhausted', 'temporarily-unavailable'];

/** Failure causes after which the source comes back on its own, so a wait can help. */
export const TIMED_CAUSES: readonly string[] = exported.TIMED_CAUSES ?? TIMED_CAUSES_BEFORE_2_40;

/**
 * The domains n8n allows this credential to reach, when the running n8n can say (n8n-workflow
 * 1.120, and 2.20 on; not 2.0 to 2.19). Undefined leaves the request as n8n would send it.
 */
export function credentialAllowedDomains(
	options: Parameters<typeof workflow.getCredentialAllowedDomains>[0],
): IHttpRequestOptions['allowedDomains'] {
	return exported.getCredentialAllowedDomains?.(options);
}
