// The questions a command asks when it was not told: which worker (a QuickPick preselecting the
// one selected in the Sessions view) and what message (an InputBox).
import * as vscode from 'vscode';
import type { Supervisor, WorkerState } from '../../core/api';
import { isDeaf, isLive, runsAndReads, workerDescription, workerIcon, workerPickDetail } from '../views/describe';
import { DEMO_PROFILE, unknownDefault, type ProfileChoice } from '../settings/profiles';
import type { InvalidProfile } from '../settings/settings';

export type WorkerFilter = (s: WorkerState) => boolean;
export { isLive } from '../views/describe';
// The verbs' filters: a worker that no longer reads its input is none of them, since what they
// send cannot reach it (only Stop can end it: it picks with `any`).
export const isRunning: WorkerFilter = runsAndReads;
export const isStreaming: WorkerFilter = (s) => isRunning(s) && (s.streaming || s.compacting);
export const isIdle: WorkerFilter = (s) => isRunning(s) && !s.streaming && !s.compacting;
export const any: WorkerFilter = () => true;
/** Idle, and not an agent without compaction (Gemini, OpenCode): Compact can work on it. */
export const canCompact: WorkerFilter = (s) => isIdle(s) && !s.compactUnavailable;
/** Idle, and an agent that lists session modes: Switch Mode… can work on it. */
export const hasModes: WorkerFilter = (s) => isIdle(s) && (s.modes ?? []).length > 0;
/** Streaming, and it takes a steer inside the turn (ACP v1 has none; Claude's and Codex's adapters add one). */
export const canSteer: WorkerFilter = (s) => isStreaming(s) && s.midTurn?.steer !== false;

interface WorkerPick extends vscode.QuickPickItem { workerId: string }

/**
 * Why there is no candidate when the ones that would be are workers that no longer read their
 * input: "No worker is running: start one first" (or "No worker is streaming") is untrue of them,
 * and what to do is stop them. null: none is.
 */
function deafNone(all: WorkerState[], filter: WorkerFilter): string | null {
  const deaf = all.filter((s) => isDeaf(s) && filter({ ...s, inputLost: undefined }));
  if (!deaf.length) return null;
  const names = deaf.map((s) => s.name).join(', ');
  return `${names} no longer ${deaf.length === 1 ? 'reads its' : 'read their'} input (stdin closed): nothing sent can reach ${deaf.length === 1 ? 'it' : 'them'}; stop ${deaf.length === 1 ? 'it' : 'them'} (Stop Worker).`;
}

/**
 * The worker to act on. With one candidate it is taken without asking; with none, the person is
 * told why (`none` says what was looked for) and undefined comes back. A worker still starting
 * that will be a candidate once it runs is offered too (the person may have just started it and
 * mean it): picked, it is waited for.
 */
export async function pickWorker(supervisor: Supervisor, opts: { title: string; filter: WorkerFilter; selected?: string; none: string; waiting?: Set<string> }): Promise<string | undefined> {
  const all = supervisor.list();
  const ready = all.filter(opts.filter);
  const starting = all.filter((s) => s.status === 'starting' && opts.filter({ ...s, status: 'running', streaming: false, compacting: false }));
  const candidates = [...ready, ...starting];
  if (candidates.length === 0) {
    // With no worker running at all, the way on is to start one: offered as buttons.
    const buttons = all.some(isLive) ? [] : ['Start Worker', 'Start Demo Worker'];
    void vscode.window.showInformationMessage(deafNone(all, opts.filter) ?? opts.none, ...buttons).then((c) => {
      if (c === 'Start Worker') void vscode.commands.executeCommand('rpcWorkers.startWorker');
      else if (c === 'Start Demo Worker') void vscode.commands.executeCommand('rpcWorkers.startDemoWorker');
    });
    return undefined;
  }
  const nameOf = (s: WorkerState) => s.name;
  if (candidates.length === 1) return starting.length ? whenRunning(supervisor, candidates[0], nameOf(candidates[0]), opts) : candidates[0].workerId;
  const items: WorkerPick[] = candidates.map((s) => ({
    workerId: s.workerId,
    label: `$(${workerIcon(s).id.replace('~spin', '')}) ${nameOf(s)}`,
    description: s.status === 'starting' ? 'starting: picked, it is used once it runs' : workerDescription(s),
    detail: workerPickDetail(s),
  }));
  const qp = vscode.window.createQuickPick<WorkerPick>();
  qp.title = opts.title;
  qp.placeholder = 'Choose a worker';
  qp.items = items;
  const pre = items.find((i) => i.workerId === opts.selected);
  if (pre) qp.activeItems = [pre];
  const picked = await new Promise<string | undefined>((resolve) => {
    let value: string | undefined;
    qp.onDidAccept(() => {
      value = qp.selectedItems[0]?.workerId ?? qp.activeItems[0]?.workerId;
      qp.hide();
    });
    qp.onDidHide(() => {
      qp.dispose();
      resolve(value);
    });
    qp.show();
  });
  const stillStarting = starting.find((s) => s.workerId === picked);
  return stillStarting ? whenRunning(supervisor, stillStarting, nameOf(stillStarting), opts) : picked;
}

/**
 * A starting worker, once it runs (a notification says what is awaited, and can cancel it); if
 * it does not start, or no longer fits, the person is told and undefined comes back. `waiting`
 * holds its id meanwhile.
 */
function whenRunning(supervisor: Supervisor, worker: WorkerState, label: string, opts: { filter: WorkerFilter; waiting?: Set<string> }): Promise<string | undefined> {
  const id = worker.workerId;
  const { filter, waiting } = opts;
  waiting?.add(id);
  return Promise.resolve(vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Waiting for ${label} to start…`, cancellable: true }, (_progress, token) => new Promise<string | undefined>((resolve) => {
    const settle = (value: string | undefined, warning?: string) => {
      waiting?.delete(id);
      off();
      cancel.dispose();
      if (warning) void vscode.window.showWarningMessage(warning);
      resolve(value);
    };
    const check = (s: WorkerState | undefined) => {
      if (!s || s.status === 'starting') return;
      if (s.status === 'running' && filter(s)) settle(id);
      else settle(undefined, s.status === 'running' ? `${label} started, but can no longer take this.` : `${label} did not start (${s.status})${s.lastError ? `: ${s.lastError}` : '.'}`);
    };
    const off = supervisor.onState((s) => { if (s.workerId === id) check(s); });
    const cancel = token.onCancellationRequested(() => settle(undefined));
    const now = supervisor.state(id);
    check(now.status === 'not_found' ? { ...worker, status: 'exited' } : now.state);
  })));
}

/**
 * A message typed for a worker. `maxBytes`: the host's limit on a message (rpcWorkers.maxPromptBytes
 * as applied), said while typing: the host's refusal came once the box had closed, and the
 * message typed (or pasted) was gone with it.
 */
export async function askMessage(opts: { title: string; prompt: string; placeHolder?: string; value?: string; optional?: boolean; maxBytes?: number }): Promise<string | undefined> {
  return vscode.window.showInputBox({
    title: opts.title,
    prompt: opts.prompt,
    placeHolder: opts.placeHolder,
    value: opts.value,
    ignoreFocusOut: true,
    validateInput: (v) => {
      if (!opts.optional && !v.trim()) return 'Type a message (Escape cancels)';
      const bytes = opts.maxBytes === undefined ? 0 : Buffer.byteLength(v, 'utf8');
      return bytes > opts.maxBytes! ? `The message is ${bytes.toLocaleString('en')} bytes; a message may be at most ${opts.maxBytes!.toLocaleString('en')} (rpcWorkers.maxPromptBytes)` : null;
    },
  });
}

interface ProfilePick extends vscode.QuickPickItem { choice: ProfileChoice }

/**
 * `configured`: rpcWorkers.defaultProfile; unset or naming nothing here, the demo (it needs no model) comes first.
 * `invalid`: the settings' profiles refused for their errors; one the default names is said, with its error.
 */
export async function pickProfile(choices: ProfileChoice[], configured: string, invalid: readonly InvalidProfile[] = []): Promise<ProfileChoice | undefined> {
  const unknown = unknownDefault(choices, configured, invalid);
  const broken = !!unknown && invalid.some((p) => p.name === configured);
  // The error is too long for the picker's line, and the fix is in the settings: a notification
  // says it whole, with the way there, while the person picks another.
  if (broken) {
    void vscode.window.showWarningMessage(`RPC Workers: ${unknown}`, 'Open Settings')
      .then((c) => c && vscode.commands.executeCommand('workbench.action.openSettings', 'rpcWorkers.profiles'));
  }
  const defaultName = configured && !unknown ? configured : DEMO_PROFILE;
  const items: ProfilePick[] = choices.map((c) => ({
    choice: c,
    label: c.name,
    description: c.name === defaultName && !unknown ? 'default' : c.origin === 'settings' ? 'from settings' : c.origin === 'detected' ? 'found on this machine' : 'built in',
    detail: c.detail,
    iconPath: new vscode.ThemeIcon(c.origin === 'builtin' ? 'beaker' : c.origin === 'detected' ? 'search' : 'gear'),
  }));
  const def = items.findIndex((i) => i.choice.name === defaultName);
  if (def > 0) items.unshift(...items.splice(def, 1));
  // A default that names nothing is said where the person is looking, not passed over in silence.
  const picked = await vscode.window.showQuickPick(items, { title: 'Start Worker', placeHolder: unknown ? `${broken ? `rpcWorkers.defaultProfile "${configured}" is invalid` : unknown}: which worker to start?` : 'Which worker to start' });
  return picked?.choice;
}

/** `steer`: the worker takes a steer inside its turn (one that does not, such as Copilot, is offered only Follow up). */
export async function askStreamingBehavior(name: string, steer = true): Promise<'steer' | 'followUp' | undefined> {
  const picked = await vscode.window.showQuickPick(
    [
      ...(steer ? [{ label: '$(debug-step-into) Steer', detail: 'Delivered after the current tool call, before the turn continues', value: 'steer' as const }] : []),
      { label: '$(list-ordered) Follow up', detail: 'Delivered when the current turn has ended', value: 'followUp' as const },
    ],
    { title: `${name} is streaming`, placeHolder: 'How should the message reach it?' },
  );
  return picked?.value;
}
