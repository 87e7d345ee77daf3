// Which worker (or past session) each log tab shows, as the host records it in the workspace's
// state. A tab that VS Code brings back after a reload carries the state its page last set; a
// tab whose page had set none (the window reloaded while the page was still loading) came back
// with nothing to say what it showed, and was closed. Seen on VS Code 1.100 (code-server
// 4.100.3): Open Log in Editor Tab, then Reload Window at once, and the tab was gone.
// This record, written when the tab opens, is what such a tab is given back.
import type * as vscode from 'vscode';

const KEY = 'rpcWorkers.eventLog.openTabs';
/** More records than tabs anyone keeps open; a bound on a list that no reload may have emptied. */
const MAX_RECORDS = 50;

export class OpenTabs {
  /** What the window before this one had open, not yet claimed by a tab that came back. */
  private readonly before: string[];
  private written: string;

  constructor(private readonly memento: vscode.Memento | undefined) {
    const saved = memento?.get<unknown>(KEY);
    this.before = Array.isArray(saved) ? saved.filter((k): k is string => typeof k === 'string') : [];
    this.written = JSON.stringify(this.before);
  }

  /** A tab came back saying what it showed: that record is its own. */
  claim(key: string): void {
    const i = this.before.indexOf(key);
    if (i >= 0) this.before.splice(i, 1);
  }

  /** A tab came back with no state of its own: the oldest record no tab claimed, if any. */
  takeUnclaimed(): string | undefined {
    return this.before.shift();
  }

  /**
   * The tabs open now. The records not claimed yet stay too: VS Code brings a tab back when it is
   * first shown, so one behind another may come back only after a further reload.
   */
  record(keys: string[]): void {
    const all = [...new Set([...this.before, ...keys])].slice(-MAX_RECORDS);
    const text = JSON.stringify(all);
    if (text === this.written || !this.memento) return;
    this.written = text;
    void this.memento.update(KEY, all);
  }
}
