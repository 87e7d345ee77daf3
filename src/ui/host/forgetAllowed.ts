// "RPC Workers: Forget Always-Allowed Actions…": clears one or all of what the person allowed
// always for a worker (the core keeps the rules, permissionRules.ts). From the palette it asks
// which worker, then which rule; from the Sessions tree it is that worker's; a caller may name
// the worker, the rule's key, or `all`.
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import type { Supervisor } from '../../core/api';
import { COMMANDS } from '../commands/ids';
import { pickWorker } from '../commands/pickers';

const forgetArg = z.looseObject({ workerId: z.optional(z.string()), key: z.optional(z.string()), all: z.optional(z.boolean()) });

type ForgetOutcome = { status: string; error?: string; workerId?: string; forgotten?: number };

const hasRules = (s: { allowedAlways?: unknown[] }) => (s.allowedAlways?.length ?? 0) > 0;

export function registerForgetAllowed(supervisor: Supervisor, selected: () => string | undefined): vscode.Disposable {
  return vscode.commands.registerCommand(COMMANDS.forgetAllowed, async (raw: unknown): Promise<ForgetOutcome> => {
    const parsed = forgetArg.safeParse(raw ?? {});
    if (!parsed.success) return { status: 'error', error: `invalid argument: ${parsed.error.issues.map((i) => i.message).join('; ')}` };
    const a = parsed.data;
    const id = a.workerId ?? await pickWorker(supervisor, { title: 'Forget Always-Allowed Actions', filter: hasRules, selected: selected(), none: 'No worker has actions allowed always.' });
    if (!id) return { status: 'cancelled' };
    const st = supervisor.state(id);
    if (st.status === 'not_found') return { status: 'not_found', workerId: id, error: `no worker with id ${id}` };
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
  });
}
