// Is a folder inside a git repository, and which one. The answer names the reason when it is
// not usable for worktrees (no git, not a repository, no commit yet, git refusing the folder),
// so that the UI can say it in plain words and disable "Start in a new worktree".
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { git, gitFailure } from './git';

export interface Repository {
  status: 'repository';
  /** The folder that was asked about. */
  folder: string;
  /** The top of the working tree that holds `folder`. */
  root: string;
  /** The main worktree (where `.git` is a folder); differs from `root` when `folder` is in a linked worktree. */
  mainRoot: string;
  commonDir: string;
  head: string;
  /** The branch checked out at `root`; null on a detached HEAD. */
  branch: string | null;
}

export type RepositoryCheck =
  | Repository
  | { status: 'not_a_repository' | 'no_commits' | 'no_git' | 'not_found' | 'error'; folder: string; reason: string };

export async function detectRepository(folder: string): Promise<RepositoryCheck> {
  const abs = path.resolve(folder);
  try {
    if (!(await stat(abs)).isDirectory()) return { status: 'not_found', folder: abs, reason: `${abs} is not a folder` };
  } catch {
    return { status: 'not_found', folder: abs, reason: `${abs} does not exist` };
  }
  const top = await git(abs, ['rev-parse', '--show-toplevel', '--git-common-dir']);
  if (top.error) return { status: 'no_git', folder: abs, reason: top.error };
  if (!top.ok) {
    const said = top.stderr.trim();
    if (/not a git repository/i.test(said)) return { status: 'not_a_repository', folder: abs, reason: `${abs} is not in a git repository (git init creates one)` };
    if (/dubious ownership/i.test(said)) return { status: 'not_a_repository', folder: abs, reason: `git refuses ${abs}: the repository belongs to another user (see git's safe.directory)` };
    if (/must be run in a work tree/i.test(said)) return { status: 'not_a_repository', folder: abs, reason: `${abs} is inside a .git folder or a bare repository, not a working tree` };
    return { status: 'error', folder: abs, reason: gitFailure(top, 'reading the repository') };
  }
  const [root, common] = top.stdout.trim().split('\n');
  const commonDir = path.resolve(abs, common);
  const head = await git(abs, ['rev-parse', '--verify', '-q', 'HEAD^{commit}']);
  if (!head.ok) return { status: 'no_commits', folder: abs, reason: `the repository at ${root} has no commit yet; a worktree starts from a commit` };
  const branch = await git(abs, ['symbolic-ref', '-q', '--short', 'HEAD']);
  return {
    status: 'repository', folder: abs, root, mainRoot: await mainWorktree(abs, commonDir) ?? root, commonDir,
    head: head.stdout.trim(), branch: branch.ok ? branch.stdout.trim() : null,
  };
}

export interface WorktreeEntry {
  path: string;
  head: string | null;
  /** Short name; null when detached. */
  branch: string | null;
  bare: boolean;
  /** git's lock on it: its reason ('' when none was given); null when not locked. */
  locked: string | null;
}

/** `git worktree list --porcelain`, the main worktree first. */
export async function listWorktreeEntries(cwd: string): Promise<WorktreeEntry[] | null> {
  const r = await git(cwd, ['worktree', 'list', '--porcelain', '-z']);
  if (!r.ok) return null;
  const out: WorktreeEntry[] = [];
  let cur: WorktreeEntry | null = null;
  for (const line of r.stdout.split('\0')) {
    if (line.startsWith('worktree ')) out.push(cur = { path: line.slice(9), head: null, branch: null, bare: false, locked: null });
    else if (!cur) continue;
    else if (line.startsWith('HEAD ')) cur.head = line.slice(5);
    else if (line.startsWith('branch ')) cur.branch = line.slice(7).replace(/^refs\/heads\//, '');
    else if (line === 'bare') cur.bare = true;
    else if (line === 'locked' || line.startsWith('locked ')) cur.locked = line.slice(7);
  }
  return out;
}

async function mainWorktree(cwd: string, commonDir: string): Promise<string | null> {
  const all = await listWorktreeEntries(cwd);
  const main = all?.[0];
  if (!main || main.bare) return null;
  // A submodule's main worktree is listed by its git dir (.git/modules/<name>, whose core.worktree
  // names the folder): worktrees would go inside the superproject's .git. Its top is the folder.
  if (path.resolve(main.path) === path.resolve(commonDir)) {
    const top = await git(main.path, ['rev-parse', '--show-toplevel']);
    return top.ok ? top.stdout.trim() : null;
  }
  return main.path;
}
