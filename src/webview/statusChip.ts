// The status chip at the top of the log, pure (no DOM) so the tests hold it: the worker's phase,
// or first what its row in the Sessions view says first (needs input, done, failed: the one word
// of protocol/words.ts), then its model, pid and usage; and how long a running turn has been quiet.
import type { WorkerView } from '../protocol/messages';
import { duration, INPUT_LOST_ADVICE, INPUT_LOST_WORD, newsWord } from '../protocol/words';

/**
 * A running turn quiet this long says so: an agent may say nothing for minutes (Claude retrying a
 * key its model refused, a hung worker), and "streaming" alone reads as if all were well.
 */
export const QUIET_AFTER_MS = 30_000;

/** The phases in which the worker is expected to speak: a turn, a compaction. */
export const isBusyPhase = (phase: string): boolean => phase === 'streaming' || phase === 'compacting';

export interface StatusChip {
  text: string;
  /** The tooltip: the text, and why the worker needs the person when it does. */
  title: string;
  /** `phase-<phase>` always (scenarios wait on it), `attention-<state>` for news. */
  cls: string;
  /**
   * What a screen reader says, in the page's live region: the state alone (and that a turn went
   * quiet), never the seconds, pid or usage, so it speaks when the state changes and not once a
   * second while a quiet turn's count runs.
   */
  spoken: string;
}

/** `quietMs`: how long since the worker's last event (0: unknown). */
export function statusChip(w: WorkerView | null, phase: string, quietMs = 0): StatusChip {
  if (!w) return { text: 'no worker', title: 'no worker', cls: `status-badge phase-${phase}`, spoken: 'no worker' };
  // A past session's log has no worker behind it: nothing about it is news.
  const news = w.note ? null : newsWord(w.attention);
  // A pid is shown while its process lives: a stopped worker's is gone (and may be another's by now).
  const live = w.status === 'running' || w.status === 'starting';
  // A worker that no longer reads its input: its phase alone reads as if all were well, and
  // "failed" (its attention) says not what to do, so the chip says it, and its tooltip how.
  const deaf = live && !w.note && w.inputLost === true;
  const secs = Math.floor(quietMs / 1000);
  const quiet = !news && !deaf && !w.note && isBusyPhase(phase) && quietMs >= QUIET_AFTER_MS
    ? ` · quiet for ${secs < 60 ? `${secs} s` : duration(secs * 1000)}` : '';
  const state = w.note ? 'history (read-only)' : deaf ? INPUT_LOST_WORD : news ?? phase;
  const text = `${state}${quiet}${w.model ? ` · ${w.model}` : ''}${w.pid && live && !w.note ? ` · pid ${w.pid}` : ''}${w.usage ? ` · ${w.usage}` : ''}`;
  const title = deaf ? `${text}\n${INPUT_LOST_ADVICE}`
    : news && w.attentionReason ? `${text}\n${news}: ${w.attentionReason}`
    : quiet ? `${text}\nThe worker has sent nothing since its last event. It may be waiting on its model or on a long command; an agent retrying its model can say nothing for minutes. Abort ends the turn.` : text;
  // A deaf worker's look is its row's warning (yellow), not failed's red: its process runs on.
  const look = deaf ? ' input-lost' : news ? ` attention-${w.attention}` : '';
  return { text, title, cls: `status-badge phase-${phase}${look}`, spoken: `${w.name}: ${state}${quiet ? ', quiet' : ''}` };
}

/**
 * What the chip's hidden live line is set to when its words go from `last` to `words` (null: it
 * is left as it is, having nothing new to say). `saidInLine`: the composer's line says this change
 * already (composer.ts's stateLine), and a screen reader heard it twice, "Fixer exited." and then
 * "Fixer: exited"; the live line is then emptied, not left saying the state before (a removal is
 * not read out), and stays so until its words change again.
 */
export function spokenLine(last: string, words: string, saidInLine: boolean): string | null {
  if (words === last) return null;
  return saidInLine ? '' : words;
}
