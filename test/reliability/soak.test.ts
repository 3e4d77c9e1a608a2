/**
 * The fault soak, at CI size by default; `npm run soak` runs it at full size (1,000 polls and 200
 * walks) and collects the printed figures. See test/support/reliability/soak.ts for how the
 * expected emissions are worked out from the sandbox alone.
 */
import { reportFigures, soakSize } from '../support/reliability/report';
import { soakTrigger, soakWalks, type TriggerSoakFigures } from '../support/reliability/soak';

const size = soakSize();
const full = size.name === 'full';
// CI keeps backoff short so the run fits in well under a minute; the full soak uses the
// transport's own policy. Retry-After is honoured in both.
const retryPolicy = full ? undefined : { baseDelayMs: 20, maxDelayMs: 200 };

/** The trigger's figures, each non-empty list of example ids on a line of its own. */
function printable({ examples, ...figures }: TriggerSoakFigures) {
	const lists = Object.entries(examples).filter(([, ids]) => ids.length > 0);
	return {
		...figures,
		...Object.fromEntries(lists.map(([kind, ids]) => [`examples ${kind}`, ids.join(' | ')])),
	};
}

test(
	`trigger: ${size.polls} polls under faults, restarts and revoked tokens lose and duplicate nothing`,
	async () => {
		const figures = await soakTrigger(size.polls, {
			seed: 7,
			projects: 300,
			retryPolicy,
			revokeChance: 0.05,
			restartChance: full ? 0.02 : 0.06,
		});
		reportFigures(`Trigger soak (${size.name})`, printable(figures));

		expect(figures.expectedNew).toBeGreaterThan(0);
		expect(figures.updatesExpected).toBeGreaterThan(0);
		expect(figures.restarts).toBeGreaterThan(0);
		expect(figures.faultsInjected.serverError + figures.faultsInjected.fetchFailed).toBeGreaterThan(
			0,
		);
		expect(figures.faultsInjected.rateLimited).toBeGreaterThan(0);
		expect(figures.examples).toEqual({
			lost: [],
			duplicated: [],
			unexpected: [],
			mismatched: [],
			updatesLost: [],
			updatesUnexpected: [],
			silentPartialWalks: [],
		});
		// A poll walked every page, said it skipped, left its walk to go on at the next poll, or
		// waited for a request slot (said once per streak); never a silent partial walk.
		expect(figures.silentPartialWalks).toBe(0);
		expect(
			figures.pollsFullyServed +
				figures.pollsSkipped +
				figures.pollsSpanningWalks +
				figures.pollsWaitingForTheirTurn +
				figures.activationsFailed,
		).toBe(figures.polls);
		expect(figures.updatesDuplicated).toBe(0);
		expect(figures.busiestFiveMinutes).toBeLessThanOrEqual(100);
		expect(figures.rateLimitedByTheApi).toBe(0);
	},
	size.timeoutMs,
);

test(
	`Get Many: ${size.walks} return-all walks under faults each return exactly the sandbox's list`,
	async () => {
		const figures = await soakWalks(size.walks, {
			seed: 11,
			projects: 300,
			retryPolicy,
			revokeChance: 0.05,
			reruns: 2,
		});
		reportFigures(`Get Many walk soak (${size.name})`, figures);

		expect(figures.faultsInjected.serverError + figures.faultsInjected.fetchFailed).toBeGreaterThan(
			0,
		);
		expect(figures.wrong).toBe(0);
		expect(figures.failedAfterReruns).toBe(0);
		expect(figures.exact).toBe(figures.walks);
		expect(figures.busiestFiveMinutes).toBeLessThanOrEqual(100);
		expect(figures.rateLimitedByTheApi).toBe(0);
	},
	size.timeoutMs,
);
