// The status chip at the top of the log, pure (no DOM) so the tests hold it: the worker's phase,
// or first what its row in the Sessions view says first (needs input, done, failed: the one word
// of protocol/words.ts), then its model, pid and usage.
import type { WorkerView } from '../protocol/messages';
import { newsWord } from '../protocol/words';

export interface StatusChip {
  text: string;
  /** The tooltip: the text, and why the worker needs the person when it does. */
  title: string;
  /** `phase-<phase>` always (scenarios wait on it), `attention-<state>` for news. */
  cls: string;
}

export function statusChip(w: WorkerView | null, phase: string): StatusChip {
  if (!w) return { text: 'no worker', title: 'no worker', cls: `status-badge phase-${phase}` };
  // A past session's log has no worker behind it: nothing about it is news.
  const news = w.note ? null : newsWord(w.attention);
  // A pid is shown while its process lives: a stopped worker's is gone (and may be another's by now).
  const live = w.status === 'running' || w.status === 'starting';
  const text = `${w.note ? 'history (read-only)' : news ?? phase}${w.model ? ` · ${w.model}` : ''}${w.pid && live && !w.note ? ` · pid ${w.pid}` : ''}${w.usage ? ` · ${w.usage}` : ''}`;
  const title = news && w.attentionReason ? `${text}\n${news}: ${w.attentionReason}` : text;
  return { text, title, cls: `status-badge phase-${phase}${news ? ` attention-${w.attention}` : ''}` };
}
