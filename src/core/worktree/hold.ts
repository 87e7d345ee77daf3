// A worker's worktree is held while a worker runs in it: git's own worktree lock, its reason
// naming the window (its process and an id) and the worker. Another window on the same repository
// lists the worktree from git's records only, as a leftover of no running worker; the lock is how
// it learns otherwise, so that it neither discards the folder a worker works in nor merges (commits
// its half-done work) from under it. A lock whose process is gone (a crash, a reload) holds nothing.
// A lock the person made (any other reason) is theirs: never taken away here.
import { randomUUID } from 'node:crypto';
import { readlinkSync } from 'node:fs';
import { readdir, readFile, realpath, rename, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import * as z from 'zod/mini';
import { lazySchema, type LazyInfer } from '../../protocol/lazySchema';
import { isRecordedProcessAlive, startStamp } from '../worker/processTree';
import { git, gitFailure } from './git';
import type { WorkerWorktree } from './create';
import { listWorktreeEntries } from './repo';

const PREFIX = 'rpc-workers: ';
// `space`: where the pid means that process (see pidSpace); absent in holds written before it was.
// zod/mini and built on first use: the extension's first check of the workspace loads this module
// (dist/extension-later.js) at every window's start, and reads a hold only when a worktree is listed.
const holderSchema = lazySchema(() => z.object({ pid: z.int().check(z.positive()), start: z.nullable(z.string()), window: z.string(), worker: z.string(), space: z.optional(z.string()) }));
export type WorktreeHolder = LazyInfer<typeof holderSchema>;

let space: string | undefined;
/**
 * Where this process's pids name processes: the machine, and on Linux its pid namespace. A window
 * in a container or on another machine sharing the repository's folder writes pids this process
 * table knows nothing of: its live hold would be read as dead here, and taken away.
 */
export function pidSpace(): string {
  if (space === undefined) {
    let ns = '';
    try {
      ns = readlinkSync('/proc/self/ns/pid');
    } catch {
      // No /proc (macOS, Windows): the machine's name alone.
    }
    space = ns ? `${hostname()} ${ns}` : hostname();
  }
  return space;
}

/** The holder this process writes for a window (`window`: an id of the window's own, one per window). */
export function holderHere(window: string, worker: string): WorktreeHolder {
  return { pid: process.pid, start: startStamp(process.pid) ?? null, window, worker, space: pidSpace() };
}

/** The hold was written where this process cannot see its pid (another machine, another container). */
const heldFromAfar = (h: WorktreeHolder): boolean => h.space !== undefined && h.space !== pidSpace();

/** Whether the hold's window still runs; one written where this process cannot see its pid is taken to. */
function holderAlive(h: WorktreeHolder): boolean {
  return heldFromAfar(h) || isRecordedProcessAlive(h);
}

/** Where the holding window runs, in words: `another window (process N)`, and if this one cannot check it, what frees it. */
const holderWhere = (h: WorktreeHolder): string =>
  heldFromAfar(h) ? `a window on another machine or container (process ${h.pid} there, which cannot be checked from here; if it no longer runs, git worktree unlock frees the worktree)` : `another window (process ${h.pid})`;

export async function holdWorktree(wt: WorkerWorktree, holder: WorktreeHolder): Promise<{ ok: true } | { ok: false; reason: string }> {
  // A hold whose process is gone (a window that crashed or reloaded) holds nothing, but git refuses
  // a second lock: left in place, a session resumed there ran unheld, and another window, reading
  // the dead hold as none, discarded the folder from under it.
  const was = await lockOf(wt);
  if (was.holder && !holderAlive(was.holder)) await takeDeadHold(wt, was.reason!);
  const r = await git(wt.mainRoot, ['worktree', 'lock', '--reason', PREFIX + JSON.stringify(holder), wt.path]);
  return r.ok ? { ok: true } : { ok: false, reason: gitFailure(r, `git worktree lock ${wt.path}`) };
}

/** Lets go of this window's hold (a lock of another window's or the person's stays). */
export async function releaseWorktree(wt: WorkerWorktree, window: string): Promise<void> {
  const lock = await lockOf(wt);
  if (lock.holder?.window === window) await git(wt.mainRoot, ['worktree', 'unlock', wt.path]);
}

/**
 * This window's hold passes to `holder`, another of its workers still in the worktree, when the one
 * it names stops: another window would otherwise be told to stop there a worker that no longer runs.
 * The lock's file is replaced whole (written aside, renamed), so the worktree is never unheld
 * meanwhile; a lock of another window's or the person's is left as it is.
 */
export async function passHold(wt: WorkerWorktree, holder: WorktreeHolder): Promise<void> {
  const { holder: now } = await lockOf(wt);
  if (!now || now.window !== holder.window || now.worker === holder.worker) return;
  const file = await lockFileOf(wt);
  if (!file) return;
  const aside = `${file}.${process.pid}-${randomUUID().slice(0, 8)}`;
  await writeFile(aside, `${PREFIX}${JSON.stringify(holder)}\n`);
  await rename(aside, file).catch(() => rm(aside, { force: true }));
}

/**
 * The worker of another window that holds the worktree, while its process runs; null when none
 * does (no lock, this window's, the person's own, or one whose process is gone).
 */
export async function heldElsewhere(wt: WorkerWorktree, window: string | undefined): Promise<HeldBy | null> {
  const { holder } = await lockOf(wt);
  return holder && holder.window !== window && holderAlive(holder) ? { ...holder, where: holderWhere(holder) } : null;
}

/** Another window's hold, with where that window runs in words (holderWhere). */
export type HeldBy = WorktreeHolder & { where: string };

/**
 * Before the worktree is removed: the lock of this window or of a process that is gone goes (git
 * removes no locked worktree); one of a live window, or the person's, stays, and git refuses.
 */
export async function unlockIfOurs(wt: WorkerWorktree, window: string | undefined): Promise<void> {
  const { holder, reason } = await lockOf(wt);
  if (holder?.window === window) await git(wt.mainRoot, ['worktree', 'unlock', wt.path]);
  else if (holder && !holderAlive(holder)) await takeDeadHold(wt, reason!);
}

/**
 * Takes away the dead hold `reason` names, if it is still the one there. Another window may have
 * replaced it since it was read (a session resumed there too): git's unlock would take away that
 * live hold, and the second window then locked or discarded the worktree from under the first's
 * worker. The lock's file is moved aside first, which one window alone can do; one that is not the
 * dead hold is put back.
 */
async function takeDeadHold(wt: WorkerWorktree, reason: string): Promise<void> {
  const file = await lockFileOf(wt);
  if (!file) return;
  const aside = `${file}.${process.pid}-${randomUUID().slice(0, 8)}`;
  if (!(await rename(file, aside).then(() => true, () => false))) return;
  const was = await readFile(aside, 'utf8').catch(() => null);
  // Put back only where no lock is yet ('wx': one made meanwhile stands, as git's own would).
  if (was !== null && was.replace(/\n$/, '') !== reason) await writeFile(file, was, { flag: 'wx' }).catch(() => undefined);
  await rm(aside, { force: true });
}

export const heldWords = (h: WorktreeHolder) => `${h.worker} works in it in ${holderWhere(h)}: stop it there first`;

/** The worktree's lock: its reason as git keeps it (null: none), and the holder it names if it is a window's. */
async function lockOf(wt: WorkerWorktree): Promise<{ holder: WorktreeHolder | null; reason: string | null }> {
  const entry = (await listWorktreeEntries(wt.mainRoot))?.find((e) => e.path === wt.path);
  const file = entry?.locked === undefined || entry.locked === null ? await lockFileOf(wt) : null;
  // git writes the reason with a line end, which its list leaves out.
  const reason = entry?.locked ?? (file && (await readFile(file, 'utf8').then((r) => r.replace(/\n$/, ''), () => null)));
  if (!reason?.startsWith(PREFIX)) return { holder: null, reason };
  try {
    const parsed = holderSchema.safeParse(JSON.parse(reason.slice(PREFIX.length)));
    return { holder: parsed.success ? parsed.data : null, reason };
  } catch {
    return { holder: null, reason };
  }
}

/**
 * Where git keeps the lock's reason, `worktrees/<id>/locked` in the repository's common git folder
 * (gitrepository-layout), found by the `gitdir` beside it; null when no such folder is found. git
 * before 2.31 locks and unlocks as later ones do, but its `worktree list --porcelain` names no
 * lock: read from that list alone, this window's own hold was never let go, and Discard failed on
 * git's refusal.
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
    return path.join(admin, id, 'locked');
  }
  return null;
}
