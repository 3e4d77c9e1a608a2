/**
 * Shared pieces of the reliability tests: a credentials helper pointed at a server, the main
 * node run through n8n's real engine, and a deep search for secrets in whatever n8n could show,
 * log or store.
 */
import type { ICredentialDataDecryptedObject, INodeParameters } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../../nodes/SupplierMatchedProjects/transport';
import { runNode, TestCredentialsHelper, type NodeRun } from './engine';
import { packageProcess, type PackageProcess } from './package-process';

export interface CredentialFields {
	authUrl: string;
	baseUrl: string;
	clientId: string;
	clientSecret: string;
	scope?: string;
}

/** A credentials helper that knows the credential type of one process, and that process. */
export interface ProcessCredentials extends TestCredentialsHelper {
	process: PackageProcess;
}

/** The credential in a fresh process, unless one is given for several to share. */
export function credentialsHelper(
	fields: CredentialFields,
	process: PackageProcess = packageProcess(),
): ProcessCredentials {
	const helper = Object.assign(new TestCredentialsHelper([process.credential]), { process });
	helper.setCredentials(CREDENTIAL_TYPE, { ...fields } as ICredentialDataDecryptedObject);
	return helper;
}

/** Get Many with every result unless the parameters say otherwise. */
export async function getMany(
	helper: ProcessCredentials,
	parameters: INodeParameters,
	options: { continueOnFail?: boolean } = {},
): Promise<NodeRun> {
	return await runNode({
		nodeType: helper.process.node,
		parameters: { resource: 'matchedProject', operation: 'getAll', returnAll: true, ...parameters },
		credentialsHelper: helper,
		continueOnFail: options.continueOnFail,
	});
}

/**
 * Every spelling under which a secret could leak: as is, form- and URL-encoded, as JSON inside a
 * string, and inside HTTP Basic credentials.
 */
export function secretForms(secret: string, clientId?: string): string[] {
	const forms = new Set([
		secret,
		encodeURIComponent(secret),
		new URLSearchParams({ s: secret }).toString().slice(2),
		JSON.stringify(secret).slice(1, -1),
	]);
	if (clientId !== undefined) forms.add(Buffer.from(`${clientId}:${secret}`).toString('base64'));
	return [...forms];
}

/**
 * Every string reachable from a value, with where it was found: own properties enumerable or not
 * (so an error's message, stack, description and cause are all read), array entries, Map and Set
 * entries. Cycles are followed once.
 */
export function stringsIn(value: unknown, root = '$'): Array<{ at: string; text: string }> {
	const found: Array<{ at: string; text: string }> = [];
	const seen = new Set<unknown>();
	const visit = (current: unknown, at: string): void => {
		if (typeof current === 'string') {
			found.push({ at, text: current });
			return;
		}
		if (typeof current !== 'object' || current === null || seen.has(current)) return;
		seen.add(current);
		if (current instanceof Map) {
			for (const [key, entry] of current) {
				visit(key, `${at}<key>`);
				visit(entry, `${at}<${String(key)}>`);
			}
			return;
		}
		if (current instanceof Set) {
			for (const entry of current) visit(entry, `${at}<entry>`);
			return;
		}
		for (const name of Object.getOwnPropertyNames(current)) {
			const descriptor = Object.getOwnPropertyDescriptor(current, name);
			if (descriptor === undefined || !('value' in descriptor)) continue;
			visit(name, `${at}<name>`);
			visit(descriptor.value, `${at}.${name}`);
		}
	};
	visit(value, root);
	return found;
}

/** Where any of the secrets (in any of its spellings) shows up in the given places. */
export function leaksIn(places: Record<string, unknown>, secrets: string[]): string[] {
	const needles = secrets.filter((secret) => secret.length >= 6);
	const leaks: string[] = [];
	for (const [place, value] of Object.entries(places)) {
		for (const { at, text } of stringsIn(value, place)) {
			for (const needle of needles) {
				if (text.includes(needle)) leaks.push(`${at} contains ${JSON.stringify(needle)}`);
			}
		}
	}
	return leaks;
}
