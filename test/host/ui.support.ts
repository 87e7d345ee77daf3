// Shared by the UI host tests: the running extension, its parts, and waits on events (never on
// fixed sleeps).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentEvent } from '../../src/core/events/agentEvent';
import type { WorkerState } from '../../src/core/api';
import type { ExtensionApi } from '../../src/ui/extension';

export const EXTENSION_ID = 'rpc-workers.rpc-workers';

/**
 * Where scripts/ensure-workers.mjs installs the real workers (scripts/lib/paths.mjs's cacheDir(),
 * said again: those scripts are not bundled into the host), and the versions it pins.
 */
export function cacheDir(): string {
  if (process.env.RPC_WORKERS_CACHE_DIR) return path.resolve(process.env.RPC_WORKERS_CACHE_DIR);
  return path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'rpc-workers');
}
export const PI1_VERSION = '1.6.0';
export const TAU_VERSION = '0.15.0';

export async function extensionApi(): Promise<ExtensionApi> {
  const ext = vscode.extensions.getExtension<ExtensionApi>(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is not loaded`);
  const api = await ext.activate();
  assert.ok(api.__ui, 'the extension API does not reach its UI parts');
  return api;
}

export function workspaceFolder(): vscode.WorkspaceFolder {
  const f = vscode.workspace.workspaceFolders?.[0];
  assert.ok(f, 'the host opened no workspace folder');
  return f;
}

/**
 * Resolve when `predicate` holds, checked now and on every event/state change; reject after `ms`.
 * `what` may be a function, read when the wait times out, to say what was seen by then.
 */
export function waitFor<T>(api: ExtensionApi, what: string | (() => string), predicate: () => T | undefined | false, ms = 20_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const check = () => {
      let v: T | undefined | false;
      try {
        v = predicate();
      } catch (error) {
        done();
        reject(error);
        return;
      }
      if (v) {
        done();
        resolve(v);
      }
    };
    const offE = api.onEvent(() => check());
    const offS = api.onState(() => check());
    // Also re-check on a short tick: some conditions (a webview message, a tree refresh) are not
    // host events. This is a bounded poll for an assertion, not a sleep for synchronisation.
    const tick = setInterval(check, 25);
    const timer = setTimeout(() => {
      done();
      reject(new Error(`timed out after ${ms} ms waiting for ${typeof what === 'string' ? what : what()}`));
    }, ms);
    function done() {
      offE();
      offS();
      clearInterval(tick);
      clearTimeout(timer);
    }
    check();
  });
}

/** The tab's dirty mark for `uri` (the workbench's own state, sent to the extension host with the tabs), or null with no tab. */
export function tabDirty(uri: vscode.Uri): boolean | null {
  for (const tab of vscode.window.tabGroups.all.flatMap((g) => g.tabs)) {
    if (tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === uri.toString()) return tab.isDirty;
  }
  return null;
}

/** The next event of `type` from `workerId` (matching `match`), bounded by `ms`. */
export function nextEvent(api: ExtensionApi, workerId: string, type: string, match: (e: AgentEvent) => boolean = () => true, ms = 20_000): Promise<AgentEvent> {
  return new Promise((resolve, reject) => {
    const off = api.onEvent((id, e) => {
      if (id === workerId && e.type === type && match(e)) {
        off();
        clearTimeout(timer);
        resolve(e);
      }
    });
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no ${type} from ${workerId} within ${ms} ms`));
    }, ms);
  });
}

export function state(api: ExtensionApi, workerId: string): WorkerState {
  const s = api.state(workerId);
  assert.notEqual(s.status, 'not_found', `worker ${workerId} is gone`);
  return (s as { state: WorkerState }).state;
}

/** Start the demo worker through the command, as a keybinding or another extension would. */
export async function startDemo(api: ExtensionApi, name = 'Demo worker'): Promise<string> {
  const r = await vscode.commands.executeCommand<{ status: string; workerId?: string; error?: string }>('rpcWorkers.startDemoWorker', { name });
  assert.equal(r?.status, 'started', `Start Demo Worker answered ${JSON.stringify(r)}`);
  assert.equal(api.state(r.workerId!).status, 'running');
  return r.workerId!;
}

export async function stopAll(): Promise<void> {
  await vscode.commands.executeCommand('rpcWorkers.stopAll');
}

/** Configures one profile (the only one), starts a worker from it with Start Worker, and returns its id. */
export async function startFromProfile(api: ExtensionApi, profile: { name: string } & Record<string, unknown>): Promise<string> {
  await vscode.workspace.getConfiguration('rpcWorkers').update('profiles', [profile], vscode.ConfigurationTarget.Global);
  await waitFor(api, `the profile ${profile.name}`, () => api.__ui.settings.profiles.some((p) => p.name === profile.name));
  const r = await vscode.commands.executeCommand<{ status: string; workerId?: string }>('rpcWorkers.startWorker', { profile: profile.name });
  assert.equal(r.status, 'started', JSON.stringify(r));
  return r.workerId!;
}

/** After an editor-files suite: its documents closed unsaved, its workers stopped, its profiles gone. */
export async function closeEditorsAndProfiles(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await stopAll();
  await vscode.workspace.getConfiguration('rpcWorkers').update('profiles', undefined, vscode.ConfigurationTarget.Global);
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A zombie answers kill(0); it is dead for our purpose.
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\S+ \(.*\) [ZX]/.test(stat);
  } catch {
    return false;
  }
}

/** Pids below `pid` (Linux /proc). */
export function descendants(pid: number): number[] {
  const byParent = new Map<number, number[]>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = byParent.get(ppid) ?? [];
      list.push(Number(name));
      byParent.set(ppid, list);
    } catch { /* gone */ }
  }
  const out: number[] = [];
  const walk = (p: number) => { for (const c of byParent.get(p) ?? []) { out.push(c); walk(c); } };
  walk(pid);
  return out;
}

type CommandResult = { status: string; workerId?: string; error?: string };

/**
 * What a person does with a real worker on the mock LLM, through the commands: open its event log,
 * prompt from the palette and see the reply streamed there, then ask for a long bash command and
 * abort it while it runs. `mock` is the mock LLM's script(). Returns the worker's last state.
 */
export async function streamThenAbort(api: ExtensionApi, id: string, mock: { script(...replies: object[]): void }, reply: string): Promise<WorkerState> {
  await vscode.commands.executeCommand('rpcWorkers.showEventLog', { workerId: id });
  const session = await waitFor(api, 'the event log on the worker', () => { const s = api.__ui.eventLog.session; return s && s.workerId === id && s.stats.received.includes('ready') ? s : undefined; });

  mock.script({ text: reply });
  const end = nextEvent(api, id, 'agent_settled', () => true, 30_000);
  const r = await vscode.commands.executeCommand<CommandResult>('rpcWorkers.prompt', { workerId: id, message: 'say hello', source: 'palette', submitter: 'user' });
  assert.equal(r.status, 'accepted', JSON.stringify(r));
  assert.equal((await end).end_reason, 'done');
  const deltas = api.events(id).filter((e) => e.type === 'message_update' && e.block_type === 'text').map((e) => e.delta).join('');
  assert.equal(deltas, reply);
  assert.equal(state(api, id).turns.at(-1)!.source, 'palette', 'the turn does not say the palette started it');
  await waitFor(api, 'the webview to draw the reply', () => (session.stats.rendered?.events ?? 0) >= api.events(id).length);

  mock.script({ toolCalls: [{ name: 'bash', arguments: { command: 'sleep 30' } }] });
  const tool = nextEvent(api, id, 'tool_execution_start', () => true, 30_000);
  await vscode.commands.executeCommand('rpcWorkers.prompt', { workerId: id, message: 'run the long command' });
  await tool;
  const t0 = Date.now();
  const aborted = await vscode.commands.executeCommand<CommandResult>('rpcWorkers.abort', { workerId: id });
  assert.equal(aborted.status, 'aborted', JSON.stringify(aborted));
  // Not a speed goal: the abort interrupted `sleep 30` instead of waiting for it to finish.
  assert.ok(Date.now() - t0 < 15_000, `the abort took ${Date.now() - t0} ms, as if it waited for the command`);
  const after = state(api, id);
  assert.equal(after.lastEndReason, 'aborted');
  return after;
}
