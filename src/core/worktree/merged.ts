// Whether a worktree's work is in the branch it came from: after a merge back nothing is left to
// list against that branch, and "no changes" would read as if the work was lost. Known from git
// alone, so a reload says it too: the worktree's HEAD is an ancestor of the branch (the merge base
// is HEAD itself) and is not the commit the worktree started at (then it did nothing of its own).
import { git } from './git';
import type { WorkerWorktree } from './create';

export interface MergedInto {
  /** The branch that holds the worktree's HEAD (the one it was made from). */
  into: string;
  /** The merge commit that brought it in; HEAD itself when it came in by a fast-forward. */
  commit: string;
}

/** `base`: the merge base of HEAD and the branch (changes.ts baseOf), as the listing measured from. */
export async function mergedInto(wt: WorkerWorktree, base: string): Promise<MergedInto | null> {
  if (!wt.target) return null;
  const head = await git(wt.path, ['rev-parse', 'HEAD']);
  if (!head.ok) return null;
  const at = head.stdout.trim();
  if (at !== base || at === wt.baseCommit) return null;
  // The first commit on the way from HEAD to the branch with HEAD as a later parent: its merge.
  const path = await git(wt.path, ['rev-list', '--reverse', '--ancestry-path', '--parents', `${at}..refs/heads/${wt.target}`]);
  const merge = path.ok ? path.stdout.split('\n').map((l) => l.trim().split(' ')).find((c) => c.slice(2).includes(at)) : undefined;
  return { into: wt.target, commit: merge?.[0] ?? at };
}
