// Each worker's log as an editor tab of its own: the tab's title is the worker's name and its
// attention state, kept up to date as the state changes.
import type * as vscode from 'vscode';
import type { EventLog } from '../eventLog/eventLogView';
import { Disposable } from '../disposable';
import { tabTitle } from './attentionLook';
import type { WorkerAttention } from './workerAttention';

export class LogTabs extends Disposable {
  constructor(private readonly eventLog: EventLog, private readonly attention: WorkerAttention) {
    super();
    this._register(attention.onDidChange(() => this.retitle()));
    this._register(eventLog.onDidOpenPanel(() => this.retitle()));
    // A tab switched to another worker (its dropdown, or a resume) is titled for the one it shows.
    this._register(eventLog.onDidChangeLooking(() => this.retitle()));
  }

  /** The open tabs by worker (one each). */
  tabs(): Map<string, vscode.WebviewPanel> {
    const out = new Map<string, vscode.WebviewPanel>();
    for (const s of this.eventLog.panelSessions) if (s.panel && s.workerId) out.set(s.workerId, s.panel);
    return out;
  }

  retitle(): void {
    // Every tab, not one per worker: two tabs may show one worker (a dropdown switched one to it).
    for (const s of this.eventLog.panelSessions) {
      const { panel, workerId: id } = s;
      if (!panel || !id) continue;
      const state = this.eventLog.stateOf(id);
      const name = this.eventLog.label(id) ?? state?.name ?? id;
      // A past session's read-only log is told apart from a live worker of the same name.
      // A removed worker's kept log: its board entry is gone, its last state still says how it ended.
      const info = this.attention.get(id) ?? (state ? this.attention.current(state) : null);
      const title = this.eventLog.isPast(id) ? `${name} · past session` : tabTitle(name, info?.attention ?? null, state);
      if (panel.title !== title) panel.title = title;
    }
  }
}
