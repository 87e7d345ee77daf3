// What a worker changed in its worktree: its branch's commits since the base plus everything
// not committed, untracked files included (an agent writes files and rarely commits). Worked out
// on a copy of the worktree's index (`git add -A` into a temporary GIT_INDEX_FILE), so the
// worktree's own index and files are never touched, renames are found, and .gitignore applies.
import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { git, gitBytes, gitFailure, zFields } from './git';
import type { WorkerWorktree } from './create';
import { mergedInto, type MergedInto } from './merged';

export type ChangeKind = 'added' | 'modified' | 'deleted' | 'renamed';

export interface ChangedFile {
  kind: ChangeKind;
  /** Relative to the worktree's top, with `/`; for a deletion the path that was removed. */
  path: string;
  /** A rename's former path; null otherwise. */
  oldPath: string | null;
  /** Lines added / removed; null for a binary file. */
  linesAdded: number | null;
  linesRemoved: number | null;
  /** The diff editor's left side: the file at the base commit (null: the file is new). */
  left: { commit: string; path: string } | null;
  /** The diff editor's right side: the file in the worktree (null: deleted). */
  right: string | null;
}

export interface ChangeCounts {
  added: number;
  modified: number;
  deleted: number;
  renamed: number;
  total: number;
}

export type ChangesResult =
  | {
    status: 'ok'; worktree: string; base: string; files: ChangedFile[]; counts: ChangeCounts;
    /** The tree of the worktree as it is now (what a commit of everything would hold). */
    snapshot: string;
    /** Nothing left to list because it is all in the branch it came from (workerChanges only). */
    merged: MergedInto | null;
  }
  | { status: 'error'; worktree: string; reason: string };

const KINDS: Record<string, ChangeKind> = { A: 'added', M: 'modified', T: 'modified', U: 'modified', D: 'deleted', R: 'renamed', C: 'added' };

/**
 * The base a worker's changes are measured from: where its branch forked from the person's
 * branch (after a merge, the merged commit, so only what came since shows), else the recorded base.
 */
export async function baseOf(wt: WorkerWorktree): Promise<string> {
  if (wt.target) {
    const mb = await git(wt.path, ['merge-base', 'HEAD', `refs/heads/${wt.target}`]);
    if (mb.ok) return mb.stdout.trim();
  }
  return wt.baseCommit;
}

/** Changes of the worktree at `worktree` against `base` (a commit), committed or not. */
export async function listChanges(worktree: string, base: string): Promise<ChangesResult> {
  const fail = (reason: string): ChangesResult => ({ status: 'error', worktree, reason });
  const indexPath = await git(worktree, ['rev-parse', '--path-format=absolute', '--git-path', 'index']);
  if (!indexPath.ok) return fail(gitFailure(indexPath, `reading the worktree at ${worktree}`));
  const tmp = await mkdtemp(path.join(tmpdir(), 'rpcw-index-'));
  try {
    const env = { GIT_INDEX_FILE: path.join(tmp, 'index') };
    // The worktree's index carries file stats: only files changed since are read again.
    const copied = await copyFile(indexPath.stdout.trim(), env.GIT_INDEX_FILE).then(() => true, () => false);
    if (!copied) {
      const read = await git(worktree, ['read-tree', 'HEAD'], { env });
      if (!read.ok) return fail(gitFailure(read, 'reading HEAD into a scratch index'));
    }
    const add = await git(worktree, ['add', '-A', '--', '.'], { env });
    if (!add.ok) return fail(gitFailure(add, 'staging the worktree into a scratch index'));
    const tree = await git(worktree, ['write-tree'], { env });
    if (!tree.ok) return fail(gitFailure(tree, 'writing the worktree\'s tree'));
    const names = await git(worktree, ['diff', '--cached', '-M', '--name-status', '-z', base, '--'], { env });
    if (!names.ok) return fail(gitFailure(names, `comparing with ${base}`));
    const nums = await git(worktree, ['diff', '--cached', '-M', '--numstat', '-z', base, '--'], { env });
    if (!nums.ok) return fail(gitFailure(nums, `counting lines against ${base}`));
    const files = parseNameStatus(names.stdout, base, worktree);
    applyNumstat(files, nums.stdout);
    return { status: 'ok', worktree, base, files, counts: countKinds(files), snapshot: tree.stdout.trim(), merged: null };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

function parseNameStatus(out: string, base: string, worktree: string): ChangedFile[] {
  const f = zFields(out);
  const files: ChangedFile[] = [];
  for (let i = 0; i < f.length;) {
    const letter = f[i++][0];
    const twoPaths = letter === 'R' || letter === 'C';
    const oldPath = twoPaths ? f[i++] : null;
    const p = f[i++];
    const kind = KINDS[letter] ?? 'modified';
    files.push({
      kind, path: p, oldPath: kind === 'renamed' ? oldPath : null, linesAdded: null, linesRemoved: null,
      left: kind === 'added' ? null : { commit: base, path: oldPath ?? p },
      right: kind === 'deleted' ? null : path.join(worktree, p),
    });
  }
  return files;
}

/** `added\tremoved\tpath\0`, or for a rename `added\tremoved\t\0old\0new\0`; `-` for binary. */
function applyNumstat(files: ChangedFile[], out: string): void {
  const byPath = new Map(files.map((x) => [x.path, x]));
  const f = zFields(out);
  for (let i = 0; i < f.length;) {
    // The path is what follows the second tab, whole: a name may hold tabs itself.
    const field = f[i++];
    const t1 = field.indexOf('\t');
    const t2 = field.indexOf('\t', t1 + 1);
    const [a, r, inline] = [field.slice(0, t1), field.slice(t1 + 1, t2), field.slice(t2 + 1)];
    let p = inline;
    if (!inline) {
      i++;
      p = f[i++];
    }
    const file = byPath.get(p);
    if (!file) continue;
    file.linesAdded = a === '-' ? null : Number(a);
    file.linesRemoved = r === '-' ? null : Number(r);
  }
}

export function countKinds(files: readonly ChangedFile[]): ChangeCounts {
  const counts: ChangeCounts = { added: 0, modified: 0, deleted: 0, renamed: 0, total: files.length };
  for (const f of files) counts[f.kind]++;
  return counts;
}

/**
 * Repositories of their own inside the worktree (a worker's `git clone` or `git init` there) that
 * .gitmodules does not list: `git add -A` takes each as a pointer to its commit (a gitlink) and
 * none of its files, so a merge brings nothing of it and removing the worktree loses it whole.
 * `tree`: the worktree as listChanges staged it (its snapshot). Paths relative, with `/`.
 */
export async function nestedRepositories(worktree: string, tree: string): Promise<{ status: 'ok'; paths: string[] } | { status: 'error'; reason: string }> {
  const listed = await git(worktree, ['ls-tree', '-r', '-z', tree]);
  if (!listed.ok) return { status: 'error', reason: gitFailure(listed, 'listing the worktree\'s tree') };
  const gitlinks = zFields(listed.stdout).filter((l) => l.startsWith('160000 ')).map((l) => l.slice(l.indexOf('\t') + 1));
  // One the worktree's checkout left empty is the person's, not yet checked out; a clone has its .git.
  const nested = gitlinks.filter((p) => existsSync(path.join(worktree, p, '.git')));
  if (nested.length === 0 || !existsSync(path.join(worktree, '.gitmodules'))) return { status: 'ok', paths: nested };
  const modules = await git(worktree, ['config', '-z', '--file', '.gitmodules', '--get-regexp', '^submodule\\..*\\.path$']);
  // Exit code 1: no submodule's path is set.
  if (!modules.ok && modules.code !== 1) return { status: 'error', reason: gitFailure(modules, 'reading .gitmodules') };
  const registered = new Set(zFields(modules.stdout).map((f) => f.slice(f.indexOf('\n') + 1)));
  return { status: 'ok', paths: nested.filter((p) => !registered.has(p)) };
}

/** A worker's changes against its base (see baseOf); with none left, whether they were merged back. */
export async function workerChanges(wt: WorkerWorktree): Promise<ChangesResult> {
  const base = await baseOf(wt);
  const r = await listChanges(wt.path, base);
  if (r.status !== 'ok' || r.counts.total > 0) return r;
  return { ...r, merged: await mergedInto(wt, base) };
}

export type ContentResult = { status: 'ok'; content: Buffer } | { status: 'missing'; reason: string };

/** A file's bytes at a commit (the diff editor's left side), from any worktree of the repository. */
export async function contentAt(repoFolder: string, commit: string, relPath: string): Promise<ContentResult> {
  const bytes = await gitBytes(repoFolder, `${commit}:${relPath}`);
  return bytes ? { status: 'ok', content: bytes } : { status: 'missing', reason: `${relPath} is not in ${commit.slice(0, 12)}` };
}
