// Which workers need the person, derived from WorkerState alone plus a "seen" mark the UI keeps:
//   needs-input  a pi dialog is open, or a τ extension request stands (the worker waits on them)
//   working      starting, or busy with a turn (its run, or the work after it)
//   failed       the process failed, or no longer reads its input, or its last turn ended in an
//                error the person has not seen
//   done         its last turn ended and the person has not looked since
//   stopped      stopped by the person, or exited on its own (that one is news: notified)
//   idle         running, nothing new since the person last looked (or no turn yet)
// Pure: no clock, no I/O, so every transition can be tested on hand-made states.
import type { TurnSummary, WorkerState } from '../api';
import { INPUT_LOST_WORD, type Attention } from '../../protocol/words';

export type { Attention };

export interface AttentionInfo {
  attention: Attention;
  /** Why, in a few words, for a tooltip or a notification. */
  reason: string;
  /**
   * The turn whose end it is (TurnSummary.index): `done`, or `failed` for that turn's error. Absent
   * where the state is the worker's own (a crash, its input lost), so that what a turn said (a login
   * it needs) is not taken for why the process failed.
   */
  turn?: number;
  /** `stopped` because it exited on its own (no Stop asked for it): news, where a Stop is not. */
  exited?: true;
}

/** The last ended turn the person has seen, by TurnSummary.index (0: none). */
export interface SeenMark {
  turn: number;
}

export const NOTHING_SEEN: SeenMark = { turn: 0 };

export function lastEndedTurn(state: WorkerState): TurnSummary | null {
  for (let i = state.turns.length - 1; i >= 0; i--) {
    if (state.turns[i].endedAt !== null) return state.turns[i];
  }
  return null;
}

/** The mark to keep when the person looks at the worker (its log shown, its row opened). */
export function seenNow(state: WorkerState): SeenMark {
  return { turn: lastEndedTurn(state)?.index ?? 0 };
}

/**
 * Why a worker that no longer reads its input needs the person ("W: not reading its input: stop
 * it"), in the words its row, chip and tab say it in.
 */
export const INPUT_LOST_REASON = `${INPUT_LOST_WORD}: stop it`;

export function attentionOf(state: WorkerState, seen: SeenMark = NOTHING_SEEN): AttentionInfo {
  switch (state.status) {
    case 'failed':
      return { attention: 'failed', reason: exitWords(state, 'failed') };
    case 'stopped':
      return { attention: 'stopped', reason: 'stopped' };
    case 'exited':
      return { attention: 'stopped', reason: exitWords(state, 'exited on its own'), exited: true };
    case 'starting':
      return { attention: 'working', reason: 'starting' };
  }
  // Nothing sent reaches it, not even an answer to what it asks: only a Stop ends it. Said
  // until then (no look clears it), so it is notified once, not at each verb it refuses.
  if (state.inputLost) return { attention: 'failed', reason: INPUT_LOST_REASON };
  const waiting = state.pendingInput[0];
  if (waiting) {
    // Two at once (an agent asking about two calls, a dialog beside a standing request): the
    // oldest is named, and the others counted, so the row does not read as one question left.
    const more = state.pendingInput.length - 1;
    return { attention: 'needs-input', reason: `waits for your answer to ${askedWords(waiting)}${waiting.title ? `: ${waiting.title}` : ''}${more ? ` (and ${more} more)` : ''}` };
  }
  if (state.streaming || state.compacting) return { attention: 'working', reason: state.compacting ? 'compacting' : 'working on a turn' };
  const last = lastEndedTurn(state);
  if (last && last.index > seen.turn) {
    if (last.error) return { attention: 'failed', reason: `its turn ended in an error: ${last.error}`, turn: last.index };
    return { attention: 'done', reason: last.endReason === 'aborted' ? 'its turn was aborted' : 'its turn ended', turn: last.index };
  }
  return { attention: 'idle', reason: last ? 'waiting for a prompt' : 'started, no turn yet' };
}

/** What waits, as the person met it: an agent's permission question, a pi dialog, a τ extension's request. */
function askedWords(p: WorkerState['pendingInput'][number]): string {
  if (p.kind === 'extension_request') return 'an extension\'s request';
  return p.method === 'permission' ? 'a permission question' : `a ${p.method ?? 'dialog'} dialog`;
}

function exitWords(state: WorkerState, how: string): string {
  const code = state.signal ? `killed by ${state.signal}` : state.exitCode !== null ? `exit code ${state.exitCode}` : null;
  return code ? `${how} (${code})` : how;
}

/** The workers that wait for the person (for the view container's badge): needs-input only. */
export function waitingCount(all: Iterable<Attention>): number {
  let n = 0;
  for (const a of all) if (a === 'needs-input') n++;
  return n;
}
