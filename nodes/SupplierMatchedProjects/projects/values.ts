/** Checks for values read from the API or from storage, which may hold anything JSON can. */

export function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function listOf<T>(value: T[] | null | undefined): T[] {
	return Array.isArray(value) ? value : [];
}
