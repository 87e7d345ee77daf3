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
  let r = await git(cwd, ['worktree', 'list', '--porcelain', '-z']);
  let end = '\0';
  // git before 2.36 refuses -z as an unknown switch (a usage error, 129): read from that alone, no
  // leftover worktree was listed, nor another window's hold on one. Its lines, then (a path with a
  // line end in it is misread there, as git itself cannot say it).
  if (!r.ok && r.code === 129) {
    r = await git(cwd, ['worktree', 'list', '--porcelain']);
    end = '\n';
  }
  if (!r.ok) return null;
  const out: WorktreeEntry[] = [];
  let cur: WorktreeEntry | null = null;
  for (const line of r.stdout.split(end)) {
    if (line.startsWith('worktree ')) out.push(cur = { path: line.slice(9), head: null, branch: null, bare: false, locked: null });
    else if (!cur) continue;
    else if (line.startsWith('HEAD ')) cur.head = line.slice(5);
    else if (line.startsWith('branch ')) cur.branch = line.slice(7).replace(/^refs\/heads\//, '');
    else if (line === 'bare') cur.bare = true;
    else if (line === 'locked' || line.startsWith('locked ')) cur.locked = end === '\n' ? unquoteC(line.slice(7)) : line.slice(7);
  }
  return out;
}

const C_ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/** A value git quoted on its line (`"a \"b\" \303\251"`, as it says a lock's reason without -z), as it was. */
function unquoteC(s: string): string {
  if (s.length < 2 || !s.startsWith('"') || !s.endsWith('"')) return s;
  const bytes: number[] = [];
  // By code point: a character beyond the BMP (an emoji, unquoted where core.quotePath is off) is one.
  const body = Array.from(s.slice(1, -1));
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'));
      continue;
    }
    const octal = /^[0-7]{3}/.exec(body.slice(i + 1, i + 4).join(''));
    if (octal) {
      bytes.push(parseInt(octal[0], 8));
      i += 3;
    } else {
      bytes.push(...(C_ESCAPES[body[i + 1]] !== undefined ? [C_ESCAPES[body[i + 1]]] : Buffer.from(body[i + 1] ?? '', 'utf8')));
      i += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
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
