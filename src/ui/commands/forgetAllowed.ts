// "RPC Workers: Forget Always-Allowed Actions…": clears one or all of what the person allowed
// always for a worker (the core keeps the rules, permissionRules.ts). The worker comes as for
// every worker command (Commands.target): from the Sessions tree it is that worker's, from the
// palette the person picks one; then the argument's rule `key`, or `all`, or the person's pick.
import * as vscode from 'vscode';
import type { Supervisor, WorkerState } from '../../core/api';
import type { CommandArg } from './commandArgs';
import { unknownWorkerSentence } from './resultWords';
import { isLive } from '../views/describe';

export type ForgetOutcome = { status: string; error?: string; workerId?: string; forgotten?: number };

/**
 * A worker whose rules can still be forgotten: live (its rules end with it, so an exited one's
 * answer nothing; its row does not offer the command either) and with at least one rule.
 */
export const hasRules = (s: Pick<WorkerState, 'allowedAlways' | 'status'>) => isLive(s) && (s.allowedAlways?.length ?? 0) > 0;

/** `known`: the window's name for the id (a worker stopped since), undefined when it never had one. */
export async function forgetAllowed(supervisor: Supervisor, id: string, a: Pick<CommandArg, 'key' | 'all'>, known?: string): Promise<ForgetOutcome> {
  const st = supervisor.state(id);
  if (st.status === 'not_found') {
    // Stopped meanwhile, or an argument's id from an earlier window: said, as the other commands say it.
    const error = known === undefined ? unknownWorkerSentence(id) : `${known} is no longer running`;
    void vscode.window.showErrorMessage(`RPC Workers: Forget Always-Allowed Actions: ${error}`);
    return { status: 'not_found', workerId: id, error };
  }
  const rules = st.state.allowedAlways ?? [];
  let key: string | undefined = a.key;
  if (!a.all && key === undefined) {
    if (rules.length === 0) {
      void vscode.window.showInformationMessage(`RPC Workers: ${st.state.name} has no actions allowed always.`);
      return { status: 'cancelled', workerId: id };
    }
    const ALL = '\u0000all';
    const pick = await vscode.window.showQuickPick([
      { label: '$(clear-all) Forget all', description: `${rules.length} rule${rules.length === 1 ? '' : 's'}`, key: ALL },
      ...rules.map((r) => ({ label: r.key, description: `since ${new Date(r.since).toLocaleTimeString()}`, key: r.key })),
    ], { title: `Forget Always-Allowed Actions of ${st.state.name}`, placeHolder: 'The agent will be asked again' });
    if (!pick) return { status: 'cancelled', workerId: id };
    key = pick.key === ALL ? undefined : pick.key;
  }
  const r = await supervisor.forgetAllowed(id, key);
  if (r.status !== 'forgotten') return { status: r.status, workerId: id, error: r.error };
  vscode.window.setStatusBarMessage(`$(check) ${st.state.name}: ${r.forgotten} always-allowed action${r.forgotten === 1 ? '' : 's'} forgotten`, 4000);
  return { status: 'forgotten', workerId: id, forgotten: r.forgotten };
}
