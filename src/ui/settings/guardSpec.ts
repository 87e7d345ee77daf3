// The write guard a start asks for, from the rpcWorkers.guard.* settings. Pure: the core's
// policyFromSettings is handed in, because the UI bundle loads the core (zod, yaml) only when a
// worker starts (see lazySupervisor.ts), never at activation.
import * as os from 'node:os';
import * as path from 'node:path';
import type { GuardSpec, GuardSettings as CoreGuardSettings } from '../../core/guard/policy';
import { SECTION, type GuardSettings } from './settings';

export type PolicyFromSettings = (settings: CoreGuardSettings, workspaceFolder: string) => GuardSpec;

export type GuardChoice =
  | { ok: true; guard: true | GuardSpec; onViolation: 'abort' | 'flag' }
  | { ok: false; error: string };

/**
 * `true` (the workspace defaults) when nothing is configured; otherwise the settings as a spec.
 * An entry the guard cannot honour is an error naming its setting: a broken guard must not
 * quietly become a wider one, nor no guard.
 */
export function guardFromSettings(g: GuardSettings, workspaceFolder: string, fromSettings: PolicyFromSettings): GuardChoice {
  // An invalid list was read as empty: the workspace folder allowed, nothing more forbidden.
  if (g.invalid?.length) return { ok: false, error: g.invalid.join('; ') };
  const onViolation = g.onViolation;
  if (g.allowedPaths.length === 0 && g.forbiddenPaths.length === 0 && !g.allowBash) return { ok: true, guard: true, onViolation };
  // Each list on its own first, so that the error names the setting that holds the bad entry.
  const lists = [['guard.allowedPaths', { allowed: g.allowedPaths }], ['guard.forbiddenPaths', { forbidden: g.forbiddenPaths }]] as const;
  for (const [key, part] of lists) {
    try {
      fromSettings(part, workspaceFolder);
    } catch (error) {
      return { ok: false, error: `${SECTION}.${key}: ${(error as Error).message}` };
    }
  }
  try {
    return { ok: true, guard: fromSettings({ allowed: g.allowedPaths, forbidden: g.forbiddenPaths, bash: g.allowBash }, workspaceFolder), onViolation };
  } catch (error) {
    // Refused together: named are the settings set, each an id the Settings editor finds
    // (rpcWorkers.guard is a group, no setting a person can look up and change).
    const set = [g.allowedPaths.length > 0 && 'guard.allowedPaths', g.forbiddenPaths.length > 0 && 'guard.forbiddenPaths', g.allowBash && 'guard.allowBash']
      .filter((k): k is string => k !== false).map((k) => `${SECTION}.${k}`);
    const named = set.length > 1 ? `${set.slice(0, -1).join(', ')} and ${set[set.length - 1]}` : set[0];
    return { ok: false, error: `${named}: ${(error as Error).message}` };
  }
}

/**
 * rpcWorkers.agentDirs entries as absolute directories: `${workspaceFolder}` and a leading `~`
 * are expanded, a relative entry is under the workspace folder (never the extension host's cwd).
 */
export function resolveAgentDirs(entries: string[], workspaceFolder: string, home = os.homedir()): string[] {
  return entries.map((entry) => {
    const p = entry.replaceAll('${workspaceFolder}', workspaceFolder).replace(/^~(?=$|[/\\])/, home);
    return path.isAbsolute(p) ? path.normalize(p) : path.join(workspaceFolder, p);
  });
}

/**
 * The running editor's settings folders, from the extension's global storage
 * (`<user data>/User/globalStorage/<extension id>`): its `User` folder and, beside it, `Machine`
 * (a remote's). None when the storage lies elsewhere: the core forbids the usual places anyway.
 */
export function editorSettingsDirsOf(globalStorage: string): string[] {
  const storage = path.dirname(globalStorage);
  if (path.basename(storage) !== 'globalStorage') return [];
  const user = path.dirname(storage);
  return [user, path.join(path.dirname(user), 'Machine')];
}
