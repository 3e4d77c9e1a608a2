import type { IDataObject } from 'n8n-workflow';

import type { PollDiff } from './diff';
import {
	readTriggerState,
	writeTriggerState,
	type ReadStateResult,
	type TriggerState,
} from './state';

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

/** What the process notes of each trigger's states, by trigger. */
export interface StateNotes {
	/** The write count of the state this process last wrote. */
	readonly lastWrites: Map<string, number>;
	/** The last quiet poll's state. */
	readonly quietStates: Map<string, QuietState>;
}

/** The state a poll goes on from. */
export interface RecalledState {
	read: ReadStateResult;
	/** Undefined when there is none, or it is unreadable. */
	previous: TriggerState | undefined;
	/** Its write count (0: none). */
	seq: number;
	/** Not what this process last wrote: the polls since its last save are unknown. */
	loadedFromStorage: boolean;
}

/** The trigger's state as n8n handed it to this poll, or as the quiet poll before left it. */
export function recallState(
	stored: IDataObject,
	notes: StateNotes,
	trigger: string,
	now: number,
): RecalledState {
	const { read, handedOn } = stateToGoOn(
		readTriggerState(stored),
		notes.quietStates.get(trigger),
		now,
	);
	if (!handedOn) notes.quietStates.delete(trigger);
	const seq = seqOf(read);
	return {
		read,
		previous: read.kind === 'state' ? read.state : undefined,
		seq,
		loadedFromStorage: notes.lastWrites.get(trigger) !== seq,
	};
}

/**
 * Writes the diff's next state into the node's static data, key by key, which is how n8n notices
 * that it changed. Returns it as written.
 */
export function keepState(
	staticData: IDataObject,
	notes: StateNotes,
	trigger: string,
	recalled: RecalledState,
	diff: PollDiff,
): IDataObject {
	const seq = recalled.seq + 1;
	const completedAt = diff.walkComplete ? Date.now() : recalled.previous?.completedAt;
	const written = writeTriggerState({ ...diff.next, seq, completedAt });
	for (const key of Object.keys(staticData)) if (!(key in written)) delete staticData[key];
	Object.assign(staticData, written);
	notes.lastWrites.set(trigger, seq);
	return written;
}

/** A quiet poll's state is noted, in case n8n drops it; a poll that emitted needs no note. */
export function noteQuiet(
	notes: StateNotes,
	trigger: string,
	recalled: RecalledState,
	written: IDataObject,
	quiet: boolean,
): void {
	if (quiet) notes.quietStates.set(trigger, { basedOn: recalled.seq, written, at: Date.now() });
	else notes.quietStates.delete(trigger);
}
