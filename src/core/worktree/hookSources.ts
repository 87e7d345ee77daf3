// Git runs the person's hooks when the host commits or merges for them, and hooks run what the
// repository holds: husky's wrappers (core.hooksPath .husky/_) run the tracked .husky/<hook>,
// lefthook and pre-commit read their config from the working tree. A worker that changed one of
// those would have its own code run, with the person's rights, by the person's Merge. Such a
// commit or merge runs with no hooks, and says which files made it so.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathWithin } from '../pathWithin';
import { git } from './git';

/** Hook managers' files read when a hook runs (lefthook, pre-commit, overcommit), at the repository's top. */
const CONFIG_FILES = new Set(['lefthook.yml', 'lefthook.yaml', '.lefthook.yml', '.lefthook.yaml', 'lefthook-local.yml', 'lefthook-local.yaml', '.pre-commit-config.yaml', '.pre-commit-config.yml', '.overcommit.yml']);
const CONFIG_FOLDERS = ['.lefthook/', '.lefthook-local/'];

/**
 * Of `changed` (paths relative to `root`, git's `/`), those a hook of `root` would run or read:
 * inside the hooks folder when it lies in the repository, beside it when it is husky's `_`, or a
 * hook manager's config. When git cannot say where the hooks are, every changed file counts.
 */
export async function hookSources(root: string, changed: readonly string[], hooksPath?: string): Promise<string[]> {
  if (changed.length === 0) return [];
  const where = hooksPath ?? (await hooksFolder(root));
  if (where === null) return [...changed];
  const inside = pathWithin(root, where);
  const hooks = inside ? `${inside.split(path.sep).join('/')}/` : null;
  const husky = hooks?.endsWith('/_/') ? hooks.slice(0, -2) : null;
  return changed.filter((p) =>
    CONFIG_FILES.has(p) || CONFIG_FOLDERS.some((f) => p.startsWith(f))
    || (hooks !== null && p.startsWith(hooks))
    || (husky !== null && p.startsWith(husky) && !p.slice(husky.length).includes('/')));
}

/** Where git runs `root`'s hooks from, absolute; null when git cannot say. */
export async function hooksFolder(root: string): Promise<string | null> {
  const r = await git(root, ['rev-parse', '--path-format=absolute', '--git-path', 'hooks']);
  return r.ok ? r.stdout.trim() : null;
}

/** `run` with git's config args that turn hooks off when `off`: an empty hooks folder of its own, removed after. */
export async function withHooks<T>(off: boolean, run: (config: string[]) => Promise<T>): Promise<T> {
  if (!off) return run([]);
  const none = await mkdtemp(path.join(tmpdir(), 'rpcw-no-hooks-'));
  try {
    return await run(['-c', `core.hooksPath=${none}`]);
  } finally {
    await rm(none, { recursive: true, force: true });
  }
}
