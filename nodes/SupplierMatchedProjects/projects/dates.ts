/**
 * Calendar dates as the API writes them (YYYY-MM-DD), and as whole days since the epoch, which is
 * how the trigger stores and compares them.
 */

const DAY_MS = 86_400_000;

/** Today's calendar date (YYYY-MM-DD) in a time zone. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
	const parts = new Intl.DateTimeFormat('en-CA', {
		timeZone,
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
	}).formatToParts(now);
	const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
	return `${part('year')}-${part('month')}-${part('day')}`;
}

/** A calendar date moved by whole days. */
export function addDays(date: string, days: number): string {
	const [year, month, day] = date.split('-').map(Number);
	return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

export function dayOf(epochMs: number): number {
	return Math.floor(epochMs / DAY_MS);
}

export function dayToIsoDate(day: number): string {
	return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** Days since the epoch of a calendar date (YYYY-MM-DD); undefined for anything else. */
export function isoDateToDay(value: string): number | undefined {
	if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
	const day = Date.parse(`${value}T00:00:00Z`) / DAY_MS;
	// Date.parse rolls 2025-02-30 over to March: only a date that survives the round trip is stored as a day.
	return Number.isInteger(day) && dayToIsoDate(day) === value ? day : undefined;
}
