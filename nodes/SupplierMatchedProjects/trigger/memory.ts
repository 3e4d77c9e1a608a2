import type { IDataObject } from 'n8n-workflow';

import { readTriggerState, type ReadStateResult } from './state';

/**
 * n8n keeps a poll's state when the poll emits, and under its durable scheduler with durable
 * cursors after a quiet poll too. Elsewhere a quiet poll's state may be dropped: n8n's scheduler
 * without durable cursors reads every poll's state afresh from the database, and the durable
 * cursor is made when the activation poll starts and never takes what that poll wrote. The next
 * poll then reads the state before. A quiet poll announced nothing, so handing its state on to
 * the next poll cannot lose a tender: it spares reading the same pages again, and keeps the
 * baseline taken at activation instead of a later one that would swallow what opened since.
 */

/** A quiet poll's state, and the write it was made from. */
export interface QuietState {
	/** The write count of the state the poll read (0: none). */
	basedOn: number;
	/** What it wrote, as stored. */
	written: IDataObject;
	/** When (epoch ms). */
	at: number;
}

/** Past this a quiet state is not handed on: the trigger was surely redeployed or restarted. */
export const QUIET_STATE_MS = 30 * 60_000;

/** The write count of a state as read; 0 for none. */
export function seqOf(read: ReadStateResult): number {
	return read.kind === 'state' ? (read.state.seq ?? 0) : 0;
}

/**
 * The state a poll goes on from: what n8n handed it, or the quiet state of the poll before when
 * n8n dropped that one (it handed back the very state that poll had read).
 */
export function stateToGoOn(
	stored: ReadStateResult,
	quiet: QuietState | undefined,
	now: number,
): { read: ReadStateResult; handedOn: boolean } {
	if (
		quiet === undefined ||
		stored.kind === 'unreadable' ||
		now - quiet.at > QUIET_STATE_MS ||
		seqOf(stored) !== quiet.basedOn
	) {
		return { read: stored, handedOn: false };
	}
	return { read: readTriggerState(quiet.written), handedOn: true };
}
