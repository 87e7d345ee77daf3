// A worker started in its worktree: the spec the person chose, moved from their checkout into
// the worktree. Its cwd (the same sub-folder, if it was one; else the worktree's top) and its workspace folder become the
// worktree's, so `guard: true` allows the worktree alone; the paths of an explicit guard that lie
// in the checkout move with it (an allowed path elsewhere, e.g. /tmp, stays as the person set it).
import path from 'node:path';
import type { WorkerSpec } from '../api';
import { pathWithin } from '../pathWithin';
import { physicalPath } from '../guard/paths';
import type { GuardSpec } from '../guard/policy';
import type { WorkerWorktree } from './create';

/** `p` relative to `from` as spelled, else with both resolved; null when it lies outside. */
function within(from: string, p: string): string | null {
  const rel = pathWithin(from, p);
  if (rel !== null) return rel;
  // git names the checkout by its real path, VS Code a folder opened through a symlink by the
  // link: a guard path left in the person's checkout would let the worker write there.
  const realFrom = physicalPath(from);
  const realP = physicalPath(p);
  return realFrom.ok && realP.ok ? pathWithin(realFrom.path, realP.path) : null;
}

/** `p` under `from` moved to the same place under `to`; anything else unchanged. */
function moved(p: string, from: string, to: string): string {
  const rel = within(from, p);
  return rel === null ? p : rel === '' ? to : path.join(to, rel);
}

export function specInWorktree(spec: WorkerSpec, wt: WorkerWorktree, checkout: string): WorkerSpec {
  const move = (p: string) => moved(p, checkout, wt.path);
  const guard: WorkerSpec['guard'] = typeof spec.guard === 'object'
    ? { ...spec.guard, allowedPaths: spec.guard.allowedPaths.map(move), forbiddenPaths: spec.guard.forbiddenPaths.map(move) } satisfies GuardSpec
    : spec.guard;
  // A cwd outside the checkout would leave the worker outside its worktree: it starts at the top.
  const cwd = move(spec.cwd);
  return { ...spec, cwd: cwd === spec.cwd ? wt.path : cwd, workspaceFolder: wt.path, guard };
}
