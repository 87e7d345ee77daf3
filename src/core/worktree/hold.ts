// A worker's worktree is held while a worker runs in it: git's own worktree lock, its reason
// naming the window (its process and an id) and the worker. Another window on the same repository
// lists the worktree from git's records only, as a leftover of no running worker; the lock is how
// it learns otherwise, so that it neither discards the folder a worker works in nor merges (commits
// its half-done work) from under it. A lock whose process is gone (a crash, a reload) holds nothing.
// A lock the person made (any other reason) is theirs: never taken away here.
import { readdir, readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { isRecordedProcessAlive, startStamp } from '../worker/processTree';
import { git, gitFailure } from './git';
import type { WorkerWorktree } from './create';
import { listWorktreeEntries } from './repo';

const PREFIX = 'rpc-workers: ';
const holderSchema = z.object({ pid: z.number().int().positive(), start: z.nullable(z.string()), window: z.string(), worker: z.string() });
export type WorktreeHolder = z.infer<typeof holderSchema>;

/** The holder this process writes for a window (`window`: an id of the window's own, one per window). */
export function holderHere(window: string, worker: string): WorktreeHolder {
  return { pid: process.pid, start: startStamp(process.pid) ?? null, window, worker };
}

export async function holdWorktree(wt: WorkerWorktree, holder: WorktreeHolder): Promise<{ ok: true } | { ok: false; reason: string }> {
  // A hold whose process is gone (a window that crashed or reloaded) holds nothing, but git refuses
  // a second lock: left in place, a session resumed there ran unheld, and another window, reading
  // the dead hold as none, discarded the folder from under it.
  const { holder: was } = await lockOf(wt);
  if (was && !isRecordedProcessAlive(was)) await git(wt.mainRoot, ['worktree', 'unlock', wt.path]);
  const r = await git(wt.mainRoot, ['worktree', 'lock', '--reason', PREFIX + JSON.stringify(holder), wt.path]);
  return r.ok ? { ok: true } : { ok: false, reason: gitFailure(r, `git worktree lock ${wt.path}`) };
}

/** Lets go of this window's hold (a lock of another window's or the person's stays). */
export async function releaseWorktree(wt: WorkerWorktree, window: string): Promise<void> {
  const lock = await lockOf(wt);
  if (lock.holder?.window === window) await git(wt.mainRoot, ['worktree', 'unlock', wt.path]);
}

/**
 * The worker of another window that holds the worktree, while its process runs; null when none
 * does (no lock, this window's, the person's own, or one whose process is gone).
 */
export async function heldElsewhere(wt: WorkerWorktree, window: string | undefined): Promise<WorktreeHolder | null> {
  const { holder } = await lockOf(wt);
  return holder && holder.window !== window && isRecordedProcessAlive(holder) ? holder : null;
}

/**
 * Before the worktree is removed: the lock of this window or of a process that is gone goes (git
 * removes no locked worktree); one of a live window, or the person's, stays, and git refuses.
 */
export async function unlockIfOurs(wt: WorkerWorktree, window: string | undefined): Promise<void> {
  const { holder } = await lockOf(wt);
  if (holder && (holder.window === window || !isRecordedProcessAlive(holder))) await git(wt.mainRoot, ['worktree', 'unlock', wt.path]);
}

export const heldWords = (h: WorktreeHolder) => `${h.worker} works in it in another window (process ${h.pid}): stop it there first`;

async function lockOf(wt: WorkerWorktree): Promise<{ holder: WorktreeHolder | null }> {
  const entry = (await listWorktreeEntries(wt.mainRoot))?.find((e) => e.path === wt.path);
  const reason = entry?.locked ?? (await lockFileOf(wt));
  if (!reason?.startsWith(PREFIX)) return { holder: null };
  try {
    const parsed = holderSchema.safeParse(JSON.parse(reason.slice(PREFIX.length)));
    return { holder: parsed.success ? parsed.data : null };
  } catch {
    return { holder: null };
  }
}

/**
 * The lock's reason as git keeps it, `worktrees/<id>/locked` in the repository's common git folder
 * (gitrepository-layout), found by the `gitdir` beside it; null when none. git before 2.31 locks
 * and unlocks as later ones do, but its `worktree list --porcelain` names no lock: read from that
 * list alone, this window's own hold was never let go, and Discard failed on git's refusal.
 */
async function lockFileOf(wt: WorkerWorktree): Promise<string | null> {
  const common = await git(wt.mainRoot, ['rev-parse', '--git-common-dir']);
  if (!common.ok) return null;
  const admin = path.resolve(wt.mainRoot, common.stdout.trim(), 'worktrees');
  const want = await realpath(wt.path).catch(() => wt.path);
  for (const id of await readdir(admin).catch(() => [] as string[])) {
    const gitdir = await readFile(path.join(admin, id, 'gitdir'), 'utf8').catch(() => null);
    if (gitdir === null) continue;
    const folder = path.dirname(gitdir.trim());
    if (folder !== want && (await realpath(folder).catch(() => folder)) !== want) continue;
    // git writes the reason with a line end, which its list leaves out.
    return readFile(path.join(admin, id, 'locked'), 'utf8').then((r) => r.replace(/\n$/, ''), () => null);
  }
  return null;
}
