// The person confirms a change to what configures workers (workspace profiles, guard settings,
// agent cards) made while a worker ran: it may be the worker's own doing. The core decides
// which changes those are (core/guard/launchConfig.ts); this reads VS Code's side of them and
// asks before a start that would use them.
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import { lazySchema } from '../../protocol/lazySchema';
import type { Supervisor } from '../../core/api';
// A leaf of the core (node built-ins only), so activation does not load the core.
import { cardFolderSources, LaunchConfigWatch, type ConfigSource, type WatchState, type WatchStore } from '../../core/guard/launchConfig';
import { defaultAgentDirs } from '../../core/cards/agentDirs';
import { isLive } from '../views/describe';
import { resolveAgentDirs } from './guardSpec';
import type { Settings } from './settings';

/**
 * The settings a worker's start reads workspace-first (worktreesDir: where a worktree worker runs,
 * and so its guard), and history.resumeInterrupted, which starts workers at a reload unasked.
 */
export const WATCHED_SETTINGS = [
  'profiles', 'defaultProfile', 'agentDirs', 'guard.allowedPaths', 'guard.forbiddenPaths', 'guard.allowBash', 'guard.onViolation', 'worktreesDir',
  'history.resumeInterrupted',
] as const;

function sources(settings: () => Settings): ConfigSource[] {
  const out: ConfigSource[] = [];
  const folders = vscode.workspace.workspaceFolders ?? [];
  for (const key of WATCHED_SETTINGS) {
    out.push({
      label: `workspace setting rpcWorkers.${key}`,
      read: () => JSON.stringify([
        vscode.workspace.getConfiguration('rpcWorkers').inspect(key)?.workspaceValue,
        ...folders.map((f) => vscode.workspace.getConfiguration('rpcWorkers', f.uri).inspect(key)?.workspaceFolderValue),
      ]),
    });
  }
  // Every folder a card may be read from: pi's own as the extension's environment names it, and as
  // each pi profile's `env` does (a start from a card runs on a pi profile, with its environment).
  const { profiles, agentDirs } = settings();
  const envs = [process.env, ...profiles.filter((p) => p.dialect === 'pi' && p.env).map((p) => ({ ...process.env, ...p.env }))];
  const dirs = new Set<string>();
  for (const env of envs) {
    if (folders.length === 0) for (const d of defaultAgentDirs(undefined, env)) dirs.add(d);
    for (const f of folders) for (const d of defaultAgentDirs(f.uri.fsPath, env, resolveAgentDirs(agentDirs, f.uri.fsPath))) dirs.add(d);
  }
  for (const d of dirs) out.push(...cardFolderSources(d));
  return out;
}

/** The workspaceState key of the watch's state: digests only, never a setting's value or a card's text. */
export const GATE_STATE_KEY = 'rpcWorkers.launchConfigGate';

const digests = () => z.record(z.string(), z.string());
const savedState = lazySchema(() => z.object({ baseline: digests(), changed: digests(), ran: z.boolean() }));

/**
 * The watch's state in the workspace's memento; an unreadable one is no baseline (this window's
 * reading becomes it). `saving`: each update, until VS Code has it.
 */
function mementoStore(memento: vscode.Memento, saving: (update: Promise<void>) => void): WatchStore {
  return {
    load: () => {
      const parsed = savedState.safeParse(memento.get(GATE_STATE_KEY));
      return parsed.success ? parsed.data : undefined;
    },
    // A failed write costs one needless question in the next window, never a start.
    save: (state: WatchState) => saving(Promise.resolve(memento.update(GATE_STATE_KEY, state)).catch(() => undefined)),
  };
}

export class LaunchConfigGate {
  private watching: LaunchConfigWatch | undefined;
  private readonly off: () => void;
  /** The last update of the workspace's state, until VS Code has it. */
  private saving: Promise<void> = Promise.resolve();

  /**
   * `memento`: the workspace's state, where what the gate last read is kept across reloads: a
   * change made before a reload, or while the window was closed and a worker still ran, is asked
   * about as one made in this window. `survivors`: how many workers an earlier window left
   * running (its host crashed) are still alive (ui/host/survivors.ts): each runs as this
   * window's own workers do, and may change what configures the next one as they may. `warn`:
   * told when the survivors cannot be counted (off Linux they are found through `ps`).
   */
  constructor(private readonly supervisor: Supervisor, private readonly settings: () => Settings, private readonly memento?: vscode.Memento, private readonly survivors: () => number = () => 0, private readonly warn: (message: string) => void = () => {}) {
    this.off = supervisor.onState((s) => {
      if (isLive(s)) this.watch.started();
      // A worker's end closes the time it ran: what changed until then is held.
      else this.watch.observe(this.live());
    });
  }

  /**
   * Made at first use, not at activation (it reads every card): until a worker starts, every
   * change is the person's, unless one ran before the reload.
   */
  private get watch(): LaunchConfigWatch {
    this.watching ??= new LaunchConfigWatch(() => sources(this.settings), this.memento && mementoStore(this.memento, (update) => (this.saving = update)));
    return this.watching;
  }

  /**
   * Workers that run now: this window's and the survivors. A survivor's end is not followed: it
   * counts until the next reading (a start, a worker's end) finds it gone, so a change made in
   * between is asked about once more than needed, never passed as the person's.
   */
  private live(): number {
    return this.supervisor.list().filter(isLive).length + this.survivorCount();
  }

  /**
   * Survivors that cannot be counted (a `ps` that fails: a full process table) count as one: a
   * change is then asked about rather than taken as the person's, and no start fails for it.
   */
  private survivorCount(): number {
    try {
      return this.survivors();
    } catch (error) {
      this.warn(`could not tell whether workers an earlier window left still run (${(error as Error).message}); counted as one running, so a change to what configures workers is asked about`);
      return 1;
    }
  }

  /**
   * Before a start: true when nothing changed while a worker ran, or the person confirms what
   * did. `programmatic` starts (other extensions, commands with arguments) cannot be asked and
   * are refused until the person has confirmed through a start of their own.
   */
  async confirm(programmatic: boolean): Promise<{ ok: true } | { ok: false; error: string; cancelled?: boolean }> {
    this.watch.observe(this.live());
    const changed = this.watch.pending();
    if (changed.length === 0) return { ok: true };
    const list = changed.map((c) => `• ${c}`).join('\n');
    const what = `While a worker ran (in this window or before it was reloaded), what configures the next worker changed:\n${list}\nA worker may have changed it itself (to loosen its guard, or to shadow a card).`;
    if (programmatic) return { ok: false, error: `${what}\nStart a worker from the Command Palette to review and confirm the change; nothing was started.` };
    const use = 'Start With These Changes';
    const choice = await vscode.window.showWarningMessage('Worker settings or agent cards changed while a worker ran', { modal: true, detail: what }, use);
    if (choice !== use) return { ok: false, cancelled: true, error: 'the changed worker configuration was not confirmed' };
    this.watch.confirm();
    return { ok: true };
  }

  /**
   * Resolves once what the gate last kept is in the workspace's state. At a close, deactivate()
   * stops the last worker and the gate keeps "no worker runs"; VS Code hands a memento's update
   * on only after a timer and a round trip, so deactivate() waits for it, or the next window may
   * find "a worker ran" and ask once for nothing.
   */
  saved(): Promise<void> {
    return this.saving;
  }

  dispose(): void {
    this.off();
  }
}
