// The commands that show a worker's views: its Event Log (the sidebar view, or an editor tab of
// its own), its output channel, its process id. Commands (commands.ts) registers them.
import * as vscode from 'vscode';
import type { Supervisor, WorkerState } from '../../core/api';
import type { EventLog } from '../eventLog/eventLogView';
import type { OutputChannels } from '../views/outputChannels';
import type { SessionsTree } from '../views/sessionsTree';
import type { WorkerSelection } from '../views/workerSelection';
import { parseCommandArg } from './commandArgs';
import { any, isLive, type WorkerFilter } from './pickers';
import { unknownWorkerSentence } from './resultWords';

/** What these commands use of the extension (Commands' services). */
export interface ViewServices {
  supervisor: Supervisor;
  selection: WorkerSelection;
  eventLog: EventLog;
  tree: SessionsTree;
  outputs: OutputChannels;
}

type Refused = { status: 'cancelled' | 'error'; error?: string };
/** Every worker command's start (Commands.target): the argument checked, then the worker it names or the person picks. */
type Target = (raw: unknown, pick: { title: string; filter: WorkerFilter; none: string }) => Promise<{ workerId: string } | Refused>;

export function viewCommands(s: ViewServices, target: Target) {
  /**
   * An argument's id that no worker of this window has, live, kept or past (a keybinding's from an
   * earlier window: ids are new in each): said, and nothing opened for it.
   */
  const unknown = (workerId: string) => {
    if (s.eventLog.stateOf(workerId)) return undefined;
    const error = unknownWorkerSentence(workerId);
    void vscode.window.showErrorMessage(`RPC Workers: ${error}`);
    return { status: 'not_found' as const, workerId, error };
  };
  return {
    async showEventLog(raw?: unknown) {
      const p = parseCommandArg(raw, 'palette');
      const gone = p.arg.workerId ? unknown(p.arg.workerId) : undefined;
      if (gone) return gone;
      const workerId = p.arg.workerId ?? s.selection.current ?? s.supervisor.list().find(isLive)?.workerId;
      await s.eventLog.show(workerId, { preserveFocus: false });
      if (workerId) void s.tree.reveal(workerId);
      return { status: 'shown', workerId: workerId ?? null };
    },

    async openEventLogPanel(raw?: unknown) {
      const t = await target(raw, { title: 'Open Log in Editor Tab', filter: any, none: 'There is no worker whose log to open.' });
      if (!('workerId' in t)) return t;
      const { workerId } = t;
      const gone = unknown(workerId);
      if (gone) return gone;
      s.eventLog.openPanel(workerId);
      return { status: 'shown', workerId };
    },

    async showOutput(raw?: unknown) {
      const t = await target(raw, { title: 'Show Worker Output', filter: any, none: 'There is no worker whose output to show.' });
      if (!('workerId' in t)) return t;
      const { workerId } = t;
      const gone = unknown(workerId);
      if (gone) return gone;
      const shown = s.outputs.show(workerId);
      return { status: shown ? 'shown' : 'not_found', workerId };
    },

    async copyPid(raw?: unknown) {
      // A live worker's only, as its row offers it: an exited one's pid names a process that is gone (and may be reused).
      const t = await target(raw, { title: 'Copy PID', filter: (w: WorkerState) => isLive(w) && w.pid !== null, none: 'No running worker has a process id.' });
      if (!('workerId' in t)) return t;
      const { workerId } = t;
      const gone = unknown(workerId);
      if (gone) return gone;
      const st = s.supervisor.state(workerId);
      const pid = st.status === 'not_found' || !isLive(st.state) ? null : st.state.pid;
      if (pid === null) return { status: 'not_found' as const, workerId };
      await vscode.env.clipboard.writeText(String(pid));
      vscode.window.setStatusBarMessage(`$(clippy) Copied PID ${pid} of ${st.status === 'not_found' ? workerId : st.state.name}`, 3000);
      return { status: 'copied' as const, workerId, pid };
    },
  };
}
