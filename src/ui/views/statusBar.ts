// The status bar item: how many workers run, how many stream and how many wait for the person's
// answer; hidden when there are none.
// A second item carries the text pi's extensions set with setStatus.
import * as vscode from 'vscode';
import type { Supervisor } from '../../core/api';
import { statusText } from './describe';
import { plainText } from '../../protocol/plainText';
import { Disposable, toDisposable } from '../disposable';
import { throttle } from '../throttle';

export class WorkersStatusBar extends Disposable {
  readonly item: vscode.StatusBarItem;
  private readonly notices: vscode.StatusBarItem;
  private readonly noticeTexts = new Map<string, string>();
  /** Workers waiting for the person's answer (the Sessions view's badge: attention's count). */
  private waiting = 0;
  private readonly update = throttle(() => this.render(), 100);

  constructor(private readonly supervisor: Supervisor) {
    super();
    this.item = this._register(vscode.window.createStatusBarItem('rpcWorkers.status', vscode.StatusBarAlignment.Left, 50));
    this.item.name = 'RPC Workers';
    this.item.command = 'rpcWorkers.sessions.focus';
    this.notices = this._register(vscode.window.createStatusBarItem('rpcWorkers.notices', vscode.StatusBarAlignment.Left, 49));
    this.notices.name = 'RPC Workers: worker status';
    this.notices.command = 'rpcWorkers.sessions.focus';
    this._register(this.update);
    this._register(toDisposable(supervisor.onState(() => this.update.schedule())));
    this._register(toDisposable(supervisor.onRemoved(() => this.update.schedule())));
    this.render();
  }

  /** pi's setStatus: `text` undefined (or nothing to show once its colour codes are gone) clears the entry. */
  setNotice(workerId: string, key: string, text: string | undefined): void {
    const k = `${workerId}\u0000${key}`;
    const shown = text === undefined ? '' : plainText(text).replace(/\s+/g, ' ').trim().slice(0, 80);
    if (shown === '') this.noticeTexts.delete(k);
    else this.noticeTexts.set(k, shown);
    const texts = [...this.noticeTexts.values()];
    if (texts.length === 0) this.notices.hide();
    else {
      // $( in worker text would be read as an icon: escape it.
      this.notices.text = texts.map((t) => t.replace(/\$\(/g, '$\u200b(')).join(' | ');
      // Which worker set which: two workers' extensions often set the same kind of status.
      this.notices.tooltip = [...this.noticeTexts].map(([key, t]) => `${this.nameOf(key.slice(0, key.indexOf('\u0000')))}: ${t}`).join('\n');
      this.notices.show();
    }
  }

  private nameOf(workerId: string): string {
    const st = this.supervisor.state(workerId);
    return st.status === 'not_found' ? workerId : st.state.name;
  }

  clearNotices(workerId: string): void {
    for (const k of [...this.noticeTexts.keys()]) if (k.startsWith(`${workerId}\u0000`)) this.noticeTexts.delete(k);
    this.setNotice(workerId, '', undefined);
  }

  /** How many workers wait for the person's answer, as the view's badge says (workerAttention.ts). */
  setWaiting(count: number): void {
    if (count === this.waiting) return;
    this.waiting = count;
    this.render();
  }

  render(): void {
    const t = statusText(this.supervisor.list(), this.waiting);
    if (!t) {
      this.item.hide();
      return;
    }
    this.item.text = t.text;
    this.item.tooltip = t.tooltip;
    // A worker waiting on the person stands out where the badge may be out of sight (the view's
    // container closed, the activity bar hidden).
    this.item.backgroundColor = t.waiting ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.accessibilityInformation = { label: t.tooltip, role: 'button' };
    this.item.show();
  }
}
