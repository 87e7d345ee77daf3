// "Merge into my branch": a real `git merge` in the person's worktree, never a copy of files.
// First everything the worker left uncommitted is committed on its own branch (in its own
// worktree), then the branch is merged with --no-ff, so the person's history shows one merge
// per worker. A merge that conflicts is left in progress, and the conflicted files come back
// for the merge editor. Refused, with nothing changed, when the person's worktree has
// uncommitted changes (or untracked files) in files the merge would write, or anything staged.
import path from 'node:path';
import { pathWithin } from '../pathWithin';
import { git, gitFailure, zFields } from './git';
import { listChanges, nestedRepositories } from './changes';
import type { WorkerWorktree } from './create';
import { heldElsewhere, heldWords } from './hold';
import { hookSources, hooksFolder, withHooks } from './hookSources';
import { detectRepository, listWorktreeEntries } from './repo';

export interface ConflictedFile {
  /** Relative to the person's worktree. */
  path: string;
  absPath: string;
  /** Index stages present (1 base, 2 the person's, 3 the worker's), as `git show :N:path` reads them. */
  stages: Array<1 | 2 | 3>;
  /** Set by finishMerge: a binary file still as git left it, the person's side, the worker's left out. */
  binary?: true;
}

export type MergeResult =
  /** `hooksSkipped`: the worker changed these files, which the person's hooks run or read, so the merge ran no hook (hookSources.ts). */
  | { status: 'merged'; into: string; branch: string; targetBranch: string; commit: string; committed: string | null; files: string[]; hooksSkipped?: string[] }
  | { status: 'up_to_date'; into: string; branch: string; targetBranch: string; committed: string | null }
  | { status: 'conflicts'; into: string; branch: string; targetBranch: string; committed: string | null; conflicts: ConflictedFile[]; hooksSkipped?: string[] }
  | { status: 'dirty'; into: string; reason: string; files: string[] }
  | { status: 'merge_in_progress' | 'detached_head' | 'not_found' | 'error'; into: string; reason: string };

export interface MergeOptions {
  /** The person's worktree (the workspace folder); default the worktree that has the branch the worker came from checked out. */
  into?: string;
  /** Message of the commit made of the worker's uncommitted changes. */
  commitMessage?: string;
  /** The asking window's id (holdWorktree): a worktree another window's live worker holds is refused. */
  window?: string;
}

export async function mergeWorktree(wt: WorkerWorktree, options: MergeOptions = {}): Promise<MergeResult> {
  const into = options.into ?? await checkedOut(wt);
  if (!into) return { status: 'not_found', into: wt.mainRoot, reason: `the branch ${wt.target ?? '(none recorded)'} the worker came from is not checked out in any worktree; say which worktree to merge into` };
  const repo = await detectRepository(into);
  if (repo.status !== 'repository') return { status: 'not_found', into, reason: repo.reason };
  const root = repo.root;
  if (root === wt.path) return { status: 'error', into: root, reason: 'a worktree cannot be merged into itself' };
  if (!repo.branch) return { status: 'detached_head', into: root, reason: `${root} has a detached HEAD: check out the branch to merge into first` };
  const targetBranch = repo.branch;
  if ((await git(root, ['rev-parse', '-q', '--verify', 'MERGE_HEAD'])).ok) {
    return { status: 'merge_in_progress', into: root, reason: `a merge is already in progress in ${root}: finish or abort it first` };
  }
  // Its uncommitted work would be committed from under it, half done.
  const holder = await heldElsewhere(wt, options.window);
  if (holder) return { status: 'error', into: root, reason: `${heldWords(holder)}; nothing was changed` };

  // The merge takes the branch: work the worker did on a detached HEAD or another branch in its
  // worktree would be committed there and left out, and the merge would report the branch's state.
  const on = await git(wt.path, ['symbolic-ref', '-q', '--short', 'HEAD']);
  if (on.error || (!on.ok && on.code !== 1)) return { status: 'error', into: root, reason: gitFailure(on, `reading which branch ${wt.path} is on`) };
  const at = on.ok ? on.stdout.trim() : null;
  if (at !== wt.branch) {
    return { status: 'error', into: root, reason: `the worktree ${wt.path} is not on its branch ${wt.branch} (${at ? `it has ${at} checked out` : 'its HEAD is detached'}), so what is there would not be merged: check out ${wt.branch} in it (git switch ${wt.branch}, after putting any commits made there on that branch) and merge again; nothing was changed` };
  }

  // What the merge would write: the worker's side since the fork, including what is not committed yet.
  const mb = await git(wt.path, ['merge-base', 'HEAD', repo.head]);
  if (!mb.ok) return { status: 'error', into: root, reason: gitFailure(mb, `finding where ${wt.branch} and ${targetBranch} parted`) };
  const theirs = await listChanges(wt.path, mb.stdout.trim());
  if (theirs.status !== 'ok') return { status: 'error', into: root, reason: theirs.reason };
  const nested = await nestedRepositories(wt.path, theirs.snapshot);
  if (nested.status !== 'ok') return { status: 'error', into: root, reason: nested.reason };
  if (nested.paths.length > 0) {
    const [names, one] = [nested.paths.join(', '), nested.paths.length === 1];
    return { status: 'error', into: root, reason: `${names} ${one ? 'is a repository of its own' : 'are repositories of their own'} in the worktree (a git clone or git init there), not listed in .gitmodules: git would commit only ${one ? 'a pointer to its commit' : 'pointers to their commits'}, and none of ${one ? 'its' : 'their'} files would reach ${targetBranch}. Remove ${one ? 'its' : 'their'} .git to merge the files, or add ${one ? 'it' : 'them'} as a submodule; nothing was changed` };
  }
  const touched = new Set(theirs.files.flatMap((f) => (f.oldPath ? [f.path, f.oldPath] : [f.path])));
  const dirty = await dirtyFiles(root);
  if ('failure' in dirty) return { status: 'error', into: root, reason: dirty.failure };
  const overlap = dirty.files.filter((f) => touched.has(f));
  if (overlap.length > 0) {
    return { status: 'dirty', into: root, files: overlap, reason: `${root} has uncommitted changes in ${overlap.length === 1 ? overlap[0] : `${overlap.length} files`} that the merge would write: commit or stash them first` };
  }
  // git merges only into an index that matches HEAD, whatever the files: refused here, before the
  // worker's work is committed, rather than by git after it, in words that blame the file.
  if (dirty.staged.length > 0) {
    return { status: 'dirty', into: root, files: dirty.staged, reason: `${root} has staged changes in ${dirty.staged.length === 1 ? dirty.staged[0] : `${dirty.staged.length} files`}, and git merges only when nothing is staged: commit or unstage them first` };
  }

  const committed = await commitAll(wt, options.commitMessage ?? `${wt.workerName}: its uncommitted work, committed to merge into ${targetBranch}`);
  if (committed.status === 'error') return { status: 'error', into: root, reason: committed.reason };
  const tip = await git(wt.path, ['rev-parse', 'HEAD']);
  if (!tip.ok) return { status: 'error', into: root, reason: gitFailure(tip, 'reading the worker\'s branch') };
  const base = { into: root, branch: wt.branch, targetBranch, committed: committed.commit };
  if ((await git(root, ['merge-base', '--is-ancestor', tip.stdout.trim(), 'HEAD'])).ok) return { status: 'up_to_date', ...base };

  const skipped = await hookSources(root, [...touched]);
  const merge = await withHooks(skipped.length > 0, (config) => git(root, [...config, 'merge', '--no-ff', '--no-edit', '-m', `Merge ${wt.workerName} (${wt.branch}) into ${targetBranch}`, wt.branch]));
  const hooks = skipped.length > 0 ? { hooksSkipped: skipped } : {};
  if (merge.ok) {
    const head = await git(root, ['rev-parse', 'HEAD']);
    const files = await git(root, ['diff', '--name-only', '-z', 'HEAD^1', 'HEAD']);
    return { status: 'merged', ...base, commit: head.stdout.trim(), files: zFields(files.stdout), ...hooks };
  }
  const conflicts = await conflictedFiles(root);
  if (conflicts.length > 0) return { status: 'conflicts', ...base, conflicts, ...hooks };
  const failure = gitFailure(merge, `git merge ${wt.branch}`);
  // A pre-merge-commit hook that fails leaves the merge staged, not committed: still in progress.
  if ((await git(root, ['rev-parse', '-q', '--verify', 'MERGE_HEAD'])).ok) {
    return { status: 'merge_in_progress', into: root, reason: `${failure}; the merge is left in progress in ${root}: complete it (once what git said is dealt with) or abort it` };
  }
  return { status: 'error', into: root, reason: failure };
}

/** The merge in progress in `root`: the files still unmerged (empty once all are resolved). */
export async function conflictedFiles(root: string): Promise<ConflictedFile[]> {
  const r = await git(root, ['ls-files', '-u', '-z']);
  const byPath = new Map<string, ConflictedFile>();
  for (const line of zFields(r.stdout)) {
    const tab = line.indexOf('\t');
    const stage = Number(line.slice(0, tab).split(' ')[2]) as 1 | 2 | 3;
    const p = line.slice(tab + 1);
    const f = byPath.get(p) ?? { path: p, absPath: path.join(root, p), stages: [] };
    f.stages.push(stage);
    byPath.set(p, f);
  }
  return [...byPath.values()];
}

export type FinishResult =
  | { status: 'merged'; commit: string; hooksSkipped?: string[] }
  | { status: 'conflicts'; conflicts: ConflictedFile[] }
  | { status: 'aborted' }
  | { status: 'no_merge' | 'error'; reason: string };

/** Conclude a merge whose conflicts the person resolved (the files saved): stage them and commit. */
export async function finishMerge(root: string): Promise<FinishResult> {
  if (!(await git(root, ['rev-parse', '-q', '--verify', 'MERGE_HEAD'])).ok) return { status: 'no_merge', reason: `no merge is in progress in ${root}` };
  const left = await conflictedFiles(root);
  const stillMarked: ConflictedFile[] = [];
  for (const f of left) {
    // A file still holding conflict markers is not resolved, whatever its stage says.
    const check = await git(root, ['diff', '--check', '--', f.path]);
    if (!check.ok && /conflict marker/.test(check.stdout)) stillMarked.push(f);
    else if (await binaryAsLeft(root, f)) stillMarked.push({ ...f, binary: true });
  }
  if (stillMarked.length > 0) return { status: 'conflicts', conflicts: stillMarked };
  if (left.length > 0) {
    const add = await git(root, ['add', '--', ...left.map((f) => f.path)]);
    if (!add.ok) return { status: 'error', reason: gitFailure(add, 'staging the resolved files') };
  }
  // What the merge brings in is what differs from HEAD now; hooks it changed are not run by its commit.
  const brought = await git(root, ['diff', '--name-only', '-z', 'HEAD']);
  const skipped = await hookSources(root, brought.ok ? zFields(brought.stdout) : ['(git could not list the merge\'s files)']);
  const commit = await withHooks(skipped.length > 0, (config) => git(root, [...config, 'commit', '--no-edit']));
  if (!commit.ok) return { status: 'error', reason: gitFailure(commit, 'committing the merge') };
  return { status: 'merged', commit: (await git(root, ['rev-parse', 'HEAD'])).stdout.trim(), ...(skipped.length > 0 ? { hooksSkipped: skipped } : {}) };
}

/**
 * A binary file both sides changed, as git left it: git writes no markers into one, only the
 * person's side, so staging it as it is would commit that side as the resolution and drop the
 * worker's without a word (and Discard would then call the worker's branch merged). Resolved
 * once the person stages a side or puts other content there.
 */
async function binaryAsLeft(root: string, f: ConflictedFile): Promise<boolean> {
  if (!f.stages.includes(2) || !f.stages.includes(3)) return false;
  const numstat = await git(root, ['diff', '--numstat', `:2:${f.path}`, `:3:${f.path}`]);
  if (!numstat.ok || !numstat.stdout.startsWith('-\t-\t')) return false;
  const [ours, now] = await Promise.all([git(root, ['rev-parse', `:2:${f.path}`]), git(root, ['hash-object', '--', f.path])]);
  return ours.ok && now.ok && ours.stdout.trim() === now.stdout.trim();
}

/** Give up a merge in progress: the person's branch and files go back to how they were before it. */
export async function abortMerge(root: string): Promise<FinishResult> {
  if (!(await git(root, ['rev-parse', '-q', '--verify', 'MERGE_HEAD'])).ok) return { status: 'no_merge', reason: `no merge is in progress in ${root}` };
  const r = await git(root, ['merge', '--abort']);
  return r.ok ? { status: 'aborted' } : { status: 'error', reason: gitFailure(r, 'git merge --abort') };
}

/** Commit everything in the worker's worktree on its branch; `commit` null when there was nothing. */
export async function commitAll(wt: WorkerWorktree, message: string): Promise<{ status: 'ok'; commit: string | null } | { status: 'error'; reason: string }> {
  const add = await git(wt.path, ['add', '-A', '--', '.']);
  if (!add.ok) return { status: 'error', reason: gitFailure(add, `staging the changes in ${wt.path}`) };
  // Hooks found inside the worktree (a relative core.hooksPath, as husky sets: `.husky/_`) are
  // files the worker could write, its guard allowing, and often ignored, so not in its changes:
  // committing for the person must not run them with the person's rights. Nor hooks that would
  // run or read what the worker changed (hookSources.ts). Other hooks run.
  const staged = await git(wt.path, ['diff', '--cached', '--name-only', '-z']);
  if (staged.ok && staged.stdout === '') return { status: 'ok', commit: null };
  const hooks = await hooksFolder(wt.path);
  const workerOwned = hooks === null || !staged.ok || pathWithin(wt.path, hooks) !== null;
  const off = workerOwned || (await hookSources(wt.path, zFields(staged.stdout), hooks)).length > 0;
  const commit = await withHooks(off, (config) => git(wt.path, [...config, 'commit', '-q', '-m', message]));
  if (!commit.ok) return { status: 'error', reason: gitFailure(commit, `committing the worker's changes on ${wt.branch}`) };
  return { status: 'ok', commit: (await git(wt.path, ['rev-parse', 'HEAD'])).stdout.trim() };
}

/** Paths with uncommitted changes or untracked files, renames with both names; and those staged. */
async function dirtyFiles(root: string): Promise<{ files: string[]; staged: string[] } | { failure: string }> {
  const r = await git(root, ['status', '--porcelain=v1', '-z', '--untracked-files=all']);
  if (!r.ok) return { failure: gitFailure(r, `reading the status of ${root}`) };
  const f = zFields(r.stdout);
  const files: string[] = [];
  const staged: string[] = [];
  for (let i = 0; i < f.length; i++) {
    const [x, p] = [f[i][0], f[i].slice(3)];
    files.push(p);
    if (x !== ' ' && x !== '?' && x !== '!') staged.push(p);
    if (x === 'R' || x === 'C') files.push(f[++i]);
  }
  return { files, staged };
}

async function checkedOut(wt: WorkerWorktree): Promise<string | null> {
  if (!wt.target) return null;
  const all = await listWorktreeEntries(wt.mainRoot);
  return all?.find((e) => e.branch === wt.target)?.path ?? null;
}
