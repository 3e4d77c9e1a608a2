/**
 * A deep search for secrets in whatever n8n could show, log or store: the reliability tests' own
 * check that a credential's secret and tokens stay where they belong.
 */

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
