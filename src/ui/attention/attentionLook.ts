// How each attention state is shown: a codicon, a theme colour and a word. No vscode import, so
// the tree, the tab titles and the tests share them.
import type { WorkerState } from '../../core/api';
import type { Attention } from '../../core/attention/attention';
import { attentionWord, INPUT_LOST_WORD, newsWord } from '../../protocol/words';
import { isDeaf } from '../views/describe';

export interface Look {
  icon: string;
  color?: string;
  word: string;
}

export const ATTENTION_LOOK: Record<Attention, Look> = {
  'needs-input': { icon: 'bell-dot', color: 'notificationsWarningIcon.foreground', word: attentionWord('needs-input') },
  working: { icon: 'sync~spin', color: 'charts.blue', word: attentionWord('working') },
  failed: { icon: 'error', color: 'errorForeground', word: attentionWord('failed') },
  done: { icon: 'pass-filled', color: 'testing.iconPassed', word: attentionWord('done') },
  stopped: { icon: 'debug-stop', color: 'disabledForeground', word: attentionWord('stopped') },
  idle: { icon: 'circle-filled', color: 'testing.iconPassed', word: attentionWord('idle') },
};

type InputState = Pick<WorkerState, 'status'> & Partial<Pick<WorkerState, 'inputLost'>>;

/**
 * The word for a worker's attention where a state is said in words (its tab's title, its
 * tooltip's state line). A worker that no longer reads its input is `failed` (notified as an
 * error, until a Stop), but its process runs on and may still stream its turn: "failed" read as
 * if it had exited or crashed, so it is said in its row's and chip's words. One that exited on
 * its own is `stopped` too, but "stopped" read as the person's Stop: it says "exited", as its row does.
 */
export function stateWord(s: InputState | null | undefined, attention: Attention): string {
  if (s && isDeaf(s)) return INPUT_LOST_WORD;
  return attention === 'stopped' && s?.status === 'exited' ? 'exited' : ATTENTION_LOOK[attention].word;
}

/**
 * The news word a worker's row says first (with its icon), or null: the row keeps its own. A
 * worker that no longer reads its input keeps its warning and words ("not reading its input"),
 * which say more than its attention's "failed" (said in its tooltip).
 */
export function rowNews(s: InputState, attention: Attention): string | null {
  return isDeaf(s) ? null : newsWord(attention);
}

/**
 * A row's description with its news word first ("failed · idle"); said once where the worker's own
 * status is that word already (a crashed worker's "failed · exit 3").
 */
export function rowDescription(news: string | null, description: string): string {
  if (!news || description.split(' · ')[0] === news) return description;
  return description ? `${news} · ${description}` : news;
}

/**
 * The tooltip's line for a state and its reason, split where the word goes in bold: "failed:
 * its turn ended in an error: …", but "failed (exit code 3)", "stopped" and "not reading its
 * input: stop it" where the reason begins with the word already (it read "failed: failed (exit
 * code 3)", "stopped: stopped").
 */
export function reasonLine(word: string, reason: string): { word: string; rest: string } {
  if (reason === word || reason.startsWith(`${word} `) || reason.startsWith(`${word}:`)) return { word, rest: reason.slice(word.length) };
  return { word, rest: `: ${reason}` };
}

/** A log tab's title: the worker's name and its state ("Demo worker · needs input"); `s`: its state, for stateWord. */
export function tabTitle(name: string, attention: Attention | null, s?: InputState): string {
  return attention ? `${name} · ${stateWord(s, attention)}` : name;
}

/** The view's badge: how many workers wait for the person, or none. */
export function badgeFor(waiting: number): { value: number; tooltip: string } | undefined {
  if (waiting <= 0) return undefined;
  return { value: waiting, tooltip: `${waiting} worker${waiting === 1 ? '' : 's'} need${waiting === 1 ? 's' : ''} your input` };
}
