// A tool row's state and the words on its badge, as the Sessions tree and the export say a call's
// end (protocol/callEnd.ts): a call the guard flagged after it ran reads "ok, flagged by the
// guard" there, so it does here, not a bare "ok" beside its warning.
import { callEndWords } from '../protocol/callEnd';
import { duration } from '../protocol/words';
import type { ToolEntry } from './entries';

export type ToolState = 'blocked' | 'stopped' | 'running' | 'error' | 'ok';

export function toolState(e: ToolEntry): ToolState {
  return e.blocked ? 'blocked' : e.stopped ? 'stopped' : e.endedAt === null ? 'running' : e.isError ? 'error' : 'ok';
}

/** `running…`, `blocked` (its line in the row names by whom), or the end's words and how long it took. */
export function toolBadge(e: ToolEntry, state: ToolState = toolState(e)): string {
  if (state === 'running') return e.past ? 'end not in view' : 'running…';
  if (state === 'blocked') return 'blocked';
  const words = callEndWords(state, e);
  return e.startUnseen ? words : `${words} · ${duration((e.endedAt ?? e.startedAt) - e.startedAt)}`;
}
