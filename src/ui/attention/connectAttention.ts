// Puts the attention room together: the board, the tree's look, the badge (and the status bar's
// count of it), the log tabs' titles.
import * as vscode from 'vscode';
import type { Supervisor, WorkerSpec } from '../../core/api';
import type { EventLog } from '../eventLog/eventLogView';
import { loginHint } from '../settings/profiles';
import type { Settings } from '../settings/settings';
import type { SessionsTree } from '../views/sessionsTree';
import type { WorkerSelection } from '../views/workerSelection';
import { attentionContributor } from './attentionTree';
import { LogTabs } from './logTabs';
import { WorkerAttention } from './workerAttention';

export interface AttentionParts { attention: WorkerAttention; tabs: LogTabs }

export function connectAttention(o: {
  supervisor: Supervisor; tree: SessionsTree; eventLog: EventLog; selection: WorkerSelection; settings(): Settings;
  /** The status bar's count says the workers waiting too, the badge's number. */
  statusBar?: { setWaiting(count: number): void };
  core(): typeof import('../../core/index'); log: vscode.LogOutputChannel; register<T extends vscode.Disposable>(d: T): T;
  /** The spec a worker of this window started with (PastSessions keeps it). */
  specOf?(workerId: string): WorkerSpec | undefined;
}): AttentionParts {
  const view = o.tree.view;
  const attention = o.register(new WorkerAttention({
    supervisor: o.supervisor,
    setting: () => o.settings().notifications,
    visibleLogs: () => o.eventLog.visibleWorkers(),
    onDidChangeLooking: o.eventLog.onDidChangeLooking,
    decide: (setting, change, visible) => o.core().attention.decideNotification(setting, change, visible),
    openLog: (id) => o.eventLog.openPanel(id),
    label: (id) => o.eventLog.label(id),
    loginHint: (state) => loginHint(state.command, state.args),
    specOf: o.specOf,
    setBadge: (badge) => {
      if (view) view.badge = badge;
      o.statusBar?.setWaiting(badge?.value ?? 0);
    },
    log: (m) => o.log.debug(m),
  }));
  o.tree.contributors.push(attentionContributor(attention));
  o.register(attention.onDidChange((id) => o.eventLog.attentionChanged(id)));
  o.register(attention.onDidChange(() => o.tree.invalidate()));
  const tabs = o.register(new LogTabs(o.eventLog, attention));
  return { attention, tabs };
}
