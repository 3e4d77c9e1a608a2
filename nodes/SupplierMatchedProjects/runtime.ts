import type { ApiConnection } from './transport';
import {
	API_RATE_LIMIT,
	API_RATE_WINDOW_MS,
	RateBudget,
	type RateBudgetOptions,
} from './transport/rate-budget';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './transport/retry';
import { TokenCache } from './transport/token';
import { Turns } from './transport/turns';
import type { FailureStreak } from './trigger/failures';
import type { QuietState } from './trigger/memory';
import type { RunningPoll } from './trigger/overlap';

export interface RuntimeOptions {
	/** Parts of the retry policy to change; tests shorten its waits. */
	retryPolicy?: Partial<RetryPolicy>;
	/**
	 * The rate budget's burst (RATE_BURST) and its sleep: tests whose subject is not pacing raise
	 * the one, tests whose clock moves only when they move it pass a sleep that moves it.
	 */
	rateBudget?: Pick<RateBudgetOptions, 'burst' | 'sleep'>;
}

/**
 * What lives once per n8n process: each credential's tokens, rate budget and walk turns, the retry
 * policy, and what the trigger notes between polls. n8n constructs the node and credential classes
 * without arguments, so in n8n they all share `packageRuntime`; tests and the bench hand the
 * classes a runtime of their own to get a fresh process.
 */
export class SupplierRuntime implements ApiConnection {
	readonly tokens = new TokenCache();

	/** Shared by every execution of both nodes: the API counts per client, not per workflow. */
	readonly rateBudget: RateBudget;

	readonly walkTurns = new Turns();

	readonly retryPolicy: Readonly<RetryPolicy>;

	/**
	 * The poll of each trigger running now, by workflow and node (trigger/overlap.ts). Per process
	 * is enough: only one process polls a workflow, the leader main in queue mode.
	 */
	readonly runningPolls = new Map<string, RunningPoll>();

	/** Failed polls in a row, by trigger: a failure that will not pass is reported once per streak. */
	readonly failureStreaks = new Map<string, FailureStreak>();

	/** Polls in a row that read nothing for want of a request slot, by trigger. */
	readonly waitStreaks = new Map<string, FailureStreak>();

	/**
	 * The write count of the state this process last wrote, by trigger. A state read with another
	 * count comes from elsewhere (a restart, another process), so the polls since its last save are
	 * unknown: the trigger's state is told, and keeps every remembered tender for a full retention
	 * period.
	 */
	readonly lastWrites = new Map<string, number>();

	/** Each trigger's last quiet poll, in case n8n drops its state (trigger/memory.ts). */
	readonly quietStates = new Map<string, QuietState>();

	constructor(options: RuntimeOptions = {}) {
		this.retryPolicy = Object.freeze({ ...DEFAULT_RETRY_POLICY, ...options.retryPolicy });
		this.rateBudget = new RateBudget({
			limit: API_RATE_LIMIT,
			windowMs: API_RATE_WINDOW_MS,
			...options.rateBudget,
		});
	}
}

/** The one runtime of this n8n process. */
export const packageRuntime = new SupplierRuntime();
