// "Start Worker": a worker of a profile (the settings' profiles and the built-in ones): the one
// the argument names or the person picks, in the active folder, under the settings' guard when
// the profile asks for it (a guard setting it cannot honour starts nothing).
import * as vscode from 'vscode';
import type { StartResult, WorkerSpec } from '../../core/api';
import type { CoreCards } from './agentStart';
import type { ParsedArg } from './commandArgs';
import { pickProfile } from './pickers';
import { guardFromSettings } from '../settings/guardSpec';
import { findAcpAgents, findExecutable, findFirstExecutable, profileChoices, searchDirs, TAU_COMMANDS, type ProfileChoice } from '../settings/profiles';
import type { Settings } from '../settings/settings';

type Refused = { status: 'cancelled' | 'error'; error?: string };

export interface ProfileStartDeps {
  settings(): Settings;
  extensionPath: string;
  /** Where τ and pi workers keep their sessions. */
  tauSessionDir: string;
  piSessionDir?: string;
  core(): CoreCards;
  /** The folder a start runs in (the active editor's, else the first). */
  defaultFolder(): string | undefined;
  noFolder(): Refused;
  firstTask(p: ParsedArg): Promise<string | undefined | null>;
  /** `worktree`: the profile asks for a worktree of its own. */
  launch(spec: WorkerSpec, task: string | undefined, p: ParsedArg, worktree: boolean): Promise<StartResult | Refused>;
}

export async function startProfileWorker(p: ParsedArg, deps: ProfileStartDeps): Promise<StartResult | Refused> {
  const settings = deps.settings();
  // Asked before the picker: with no folder open, no profile could start.
  const cwd = deps.defaultFolder();
  if (!cwd) return deps.noFolder();
  const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
  const dirs = searchDirs(folders);
  const choices = profileChoices({
    configured: settings.profiles, extensionPath: deps.extensionPath, piPath: findExecutable('pi', dirs),
    tauPath: findFirstExecutable(TAU_COMMANDS, dirs), acpPaths: findAcpAgents(dirs), tauSessionDir: deps.tauSessionDir, piSessionDir: deps.piSessionDir,
  });
  let choice: ProfileChoice | undefined;
  if (p.arg.profile) {
    choice = choices.find((c) => c.name === p.arg.profile);
    if (!choice) {
      const error = `there is no worker profile named "${p.arg.profile}" (known: ${choices.map((c) => c.name).join(', ')})`;
      void vscode.window.showErrorMessage(`RPC Workers: ${error}`, 'Open Settings').then((c) => c && vscode.commands.executeCommand('workbench.action.openSettings', 'rpcWorkers.profiles'));
      return { status: 'error', error };
    }
  } else {
    choice = await pickProfile(choices, settings.defaultProfile, settings.invalidProfiles);
    if (!choice) return { status: 'cancelled' };
  }
  // A profile with `guard: true` runs under the settings' guard; a setting the guard cannot
  // honour starts nothing (a broken guard must not mean no guard).
  let guard: Pick<WorkerSpec, 'guard' | 'onViolation' | 'workspaceFolder'> = {};
  if (choice.guard) {
    const g = guardFromSettings(settings.guard, cwd, (gs, folder) => deps.core().policyFromSettings(gs, folder));
    if (!g.ok) {
      const error = `profile "${choice.name}" asks for the guard, but ${g.error}; nothing was started`;
      void vscode.window.showErrorMessage(`RPC Workers: ${error}`, 'Open Settings').then((c) => c && vscode.commands.executeCommand('workbench.action.openSettings', 'rpcWorkers.guard'));
      return { status: 'error', error };
    }
    guard = { guard: g.guard, onViolation: g.onViolation, workspaceFolder: cwd };
  }
  const task = await deps.firstTask(p);
  if (task === null) return { status: 'cancelled' };
  return deps.launch({ ...choice.spec(cwd), ...guard, ...(p.arg.name ? { name: p.arg.name } : {}) }, task, p, choice.worktree === true);
}
