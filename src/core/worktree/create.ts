// A worktree per worker: `git worktree add -b <branch> <folder> <base>`. The branch records the
// commit it started from and the person's branch it came from (git config branch.<b>.*, which
// `git branch -D` removes with the branch), so changes and merges can be worked out later,
// after a reload, from git alone.
//
// Default folder: a sibling of the main worktree, `<repo>.worktrees/<name>` (as VS Code's own
// background agents do). Not inside the workspace: the person's git status, search and file
// watchers would see every worker's files, and a worker guarded to the workspace could write into
// another worker's worktree. Not in the extension's storage: the person opens, reviews and keeps
// these folders, so they belong beside the repository and outlive the extension.
import { mkdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { pathWithin } from '../pathWithin';
import { git, gitFailure, zFields } from './git';
import { branchFree, prefixBlocker, slugFor, uniqueName } from './names';
import { detectRepository, listWorktreeEntries, type Repository, type RepositoryCheck } from './repo';

export const DEFAULT_BRANCH_PREFIX = 'worker/';
const CONFIG = { base: 'rpcWorkersBase', target: 'rpcWorkersTarget', worker: 'rpcWorkersWorker' } as const;

export interface WorkerWorktree {
  /** The worktree's folder: the worker's cwd and its guard's allowed path. */
  path: string;
  branch: string;
  /** The commit the branch started from. */
  baseCommit: string;
  /** The person's branch it was made from (null when made from a detached HEAD). */
  target: string | null;
  workerName: string;
  /** The main worktree of the repository. */
  mainRoot: string;
}

export interface CreateOptions {
  /** Any folder of the repository (the workspace folder). */
  folder: string;
  workerName: string;
  /** Where worktrees go; default `<mainRoot>/../<repo>.worktrees`. */
  worktreesDir?: string;
  branchPrefix?: string;
  /** What the branch starts from; default the HEAD of `folder`'s worktree. */
  base?: string;
}

type NotUsable = Exclude<RepositoryCheck, { status: 'repository' }>;

export type CreateResult =
  /** `leftOut`: files with uncommitted changes in the folder's checkout; the worktree starts from its HEAD without them. */
  | { status: 'created'; worktree: WorkerWorktree; leftOut: string[] }
  | NotUsable
  | { status: 'error'; folder: string; reason: string };

export function defaultWorktreesDir(mainRoot: string): string {
  return path.join(path.dirname(mainRoot), `${path.basename(mainRoot)}.worktrees`);
}

export async function createWorktree(options: CreateOptions): Promise<CreateResult> {
  const repo = await detectRepository(options.folder);
  if (repo.status !== 'repository') return repo;
  return oneAtATime(repo.commonDir, () => createIn(repo, options));
}

/**
 * The worktrees of one repository are made one at a time in this process. Else starts at once
 * (a start command run again and again, each under the same name) all took one free name, and
 * each round of the retry below gave it to one of them alone: the rest failed on git's "already
 * exists". Another window's start still races, and the retry is for that.
 */
const making = new Map<string, Promise<void>>();
function oneAtATime<T>(key: string, run: () => Promise<T>): Promise<T> {
  const result = (making.get(key) ?? Promise.resolve()).then(run);
  const done = result.then(() => undefined, () => undefined);
  making.set(key, done);
  void done.then(() => { if (making.get(key) === done) making.delete(key); });
  return result;
}

async function createIn(repo: Repository, options: CreateOptions): Promise<CreateResult> {
  const fail = (reason: string) => ({ status: 'error' as const, folder: repo.folder, reason });
  let dir = path.resolve(options.worktreesDir ?? defaultWorktreesDir(repo.mainRoot));
  const prefix = options.branchPrefix ?? DEFAULT_BRANCH_PREFIX;
  const base = await git(repo.root, ['rev-parse', '--verify', '-q', `${options.base ?? 'HEAD'}^{commit}`]);
  if (!base.ok) return fail(`the base ${JSON.stringify(options.base)} is not a commit of ${repo.root}`);
  const baseCommit = base.stdout.trim();
  const target = options.base === undefined ? repo.branch : null;
  try {
    await mkdir(dir, { recursive: true });
    // As git names worktrees (links resolved), so that its list and ours compare.
    dir = await realpath(dir);
  } catch (error) {
    return fail(`could not make the worktrees folder ${dir}: ${(error as Error).message}`);
  }
  const slug = slugFor(options.workerName);
  // Another start may take the same name between the look and the add: then look again.
  let last = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const refs = await git(repo.root, ['for-each-ref', '--format=%(refname:short)', 'refs/heads']);
    if (!refs.ok) return fail(gitFailure(refs, 'listing branches'));
    const branches = new Set(refs.stdout.split('\n').filter(Boolean));
    // Else no name is ever free, and the search below would never end (the host would hang).
    const blocker = prefixBlocker(prefix, branches);
    if (blocker) return fail(`the repository has a branch named "${blocker}", so git cannot make branches under "${prefix}" (a ref cannot be both a branch and a folder of branches): rename that branch (git branch -m ${blocker} <new name>) to start workers in worktrees`);
    const registered = new Set((await listWorktreeEntries(repo.root) ?? []).map((e) => e.path));
    const pick = uniqueName(slug, prefix, branches, dir, registered);
    const valid = await git(repo.root, ['check-ref-format', '--branch', pick.branch]);
    if (!valid.ok || !branchFree(pick.branch, branches)) return fail(`"${pick.branch}" is not a usable branch name (prefix ${JSON.stringify(prefix)})`);
    const add = await git(repo.root, ['worktree', 'add', '-b', pick.branch, pick.path, baseCommit]);
    if (!add.ok) {
      last = gitFailure(add, `git worktree add ${pick.path}`);
      if (/already exists/.test(add.stderr)) continue;
      return fail(last);
    }
    const cfg = async (key: string, value: string) => git(repo.root, ['config', `branch.${pick.branch}.${key}`, value]);
    await cfg(CONFIG.base, baseCommit);
    if (target) await cfg(CONFIG.target, target);
    await cfg(CONFIG.worker, options.workerName);
    // Said, not carried over: the person's unfinished edits are theirs to commit or bring.
    const status = await git(repo.root, ['status', '--porcelain=v1', '-z', '--untracked-files=normal']);
    // The worktrees folder inside the repository (a relative setting) is untracked there: it
    // holds the workers' checkouts, not the person's changes.
    const leftOut = status.ok ? leftOutFiles(status.stdout).filter((f) => pathWithin(dir, path.join(repo.root, f)) === null) : [];
    return { status: 'created', leftOut, worktree: { path: await realpath(pick.path), branch: pick.branch, baseCommit, target, workerName: options.workerName, mainRoot: repo.mainRoot } };
  }
  return fail(last);
}

/** The paths of `git status --porcelain -z` (a rename's new name). */
function leftOutFiles(out: string): string[] {
  const f = zFields(out);
  const files: string[] = [];
  for (let i = 0; i < f.length; i++) {
    files.push(f[i].slice(3));
    if (f[i][0] === 'R' || f[i][0] === 'C') i++;
  }
  return files;
}

export type OpenResult = { status: 'ok'; worktree: WorkerWorktree } | { status: 'not_managed' | 'not_found'; path: string; reason: string };

/** A worker's worktree read back from git: its branch and what `createWorktree` recorded. */
export async function openWorktree(worktreePath: string): Promise<OpenResult> {
  const abs = await realpath(worktreePath).catch(() => path.resolve(worktreePath));
  const repo = await detectRepository(abs);
  if (repo.status !== 'repository') return { status: 'not_found', path: abs, reason: repo.reason };
  if (repo.root !== abs) return { status: 'not_managed', path: abs, reason: `${abs} is not the top of a worktree (that is ${repo.root})` };
  if (!repo.branch) return { status: 'not_managed', path: abs, reason: `the worktree at ${abs} has a detached HEAD, not a worker's branch` };
  const read = async (key: string) => {
    const r = await git(abs, ['config', '--get', `branch.${repo.branch}.${key}`]);
    return r.ok ? r.stdout.trim() : null;
  };
  const baseCommit = await read(CONFIG.base);
  if (!baseCommit || repo.root === repo.mainRoot) return { status: 'not_managed', path: abs, reason: `${abs} (branch ${repo.branch}) was not made for a worker` };
  return {
    status: 'ok',
    worktree: { path: abs, branch: repo.branch, baseCommit, target: await read(CONFIG.target), workerName: (await read(CONFIG.worker)) ?? repo.branch, mainRoot: repo.mainRoot },
  };
}

/** The workers' worktrees of the repository holding `folder` (for the UI after a reload). */
export async function listWorkerWorktrees(folder: string): Promise<WorkerWorktree[]> {
  const entries = await listWorktreeEntries(folder);
  const out: WorkerWorktree[] = [];
  for (const e of (entries ?? []).slice(1)) {
    if (!e.branch) continue;
    const opened = await openWorktree(e.path);
    if (opened.status === 'ok') out.push(opened.worktree);
  }
  return out;
}
