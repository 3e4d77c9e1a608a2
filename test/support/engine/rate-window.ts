/** A request as the sandbox logs it: when its rate limit counted it, and the status it got. */
interface LoggedRequest {
	at: string;
	status: number;
}

/** The most of these requests the API accepted (anything but 429) in any window of `windowMs`. */
export function busiestWindow(requests: LoggedRequest[], windowMs: number): number {
	const accepted = requests
		.filter((entry) => entry.status !== 429)
		.map((entry) => Date.parse(entry.at));
	return Math.max(
		0,
		...accepted.map(
			(start) => accepted.filter((at) => at >= start && at < start + windowMs).length,
		),
	);
}
