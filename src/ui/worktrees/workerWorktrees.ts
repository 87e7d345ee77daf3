// Which worker runs in which worktree, and what each has changed there. Changes are listed again
// when a worker's turn ends (and when asked), never polled. Stopping a worker keeps its entry:
// the worktree stays for the person to review, merge or discard.
// A worker of this window holds its worktree (git's lock, core/worktree/hold.ts) while it runs,
// as does one resumed into it under a new id; a worktree another window's worker holds is said so
// on its row, learnt from the lock's file changing (watched) and again when the window is focused.
import * as vscode from 'vscode';
import type { Supervisor, WorkerState } from '../../core/api';
import { pathWithin } from '../../core/pathWithin';
import type { ChangeCounts, ChangedFile, MergedInto, HeldBy, WorkerWorktree } from '../../core/worktree';
import { Disposable, toDisposable } from '../disposable';
import { isTrusted } from '../settings/trust';
import { isLive } from '../views/describe';

/**
 * A live worker working in `folder` (a worktree): a resumed session keeps the folder it ran in,
 * under a new worker id. The worktree's row asks this as its Merge and Discard do.
 */
export function workerIn(supervisor: Pick<Supervisor, 'list'>, folder: string): WorkerState | undefined {
  return supervisor.list().find((s) => isLive(s) && pathWithin(folder, s.cwd) !== null);
}

export type WorktreeCore = typeof import('../../core/index')['worktree'];

export interface WorktreeEntry {
  workerId: string;
  worktree: WorkerWorktree;
  /** The person's checkout it was made from (merges go there). */
  checkout: string;
  files: ChangedFile[];
  counts: ChangeCounts | null;
  /** With no changes left: the branch its work was merged into, and by which commit (read from git). */
  merged: MergedInto | null;
  /** Why the last listing failed, if it did. */
  error: string | null;
  /** The worker of another window that works in it (its live hold), as last read; null when none. */
  heldBy: HeldBy | null;
}

/** The id of a worktree an earlier window's worker left, listed from git's records. */
export const leftoverId = (branch: string): string => `worktree:${branch}`;
export const isLeftover = (id: string): boolean => id.startsWith('worktree:');

export class WorkerWorktrees extends Disposable {
  private readonly entries = new Map<string, WorktreeEntry>();
  private readonly pending = new Map<string, Promise<void>>();
  /** Each entry's watch on its worktree's lock. */
  private readonly watches = new Map<string, { dispose(): void }>();
  /** Entries whose lock is to be read again (a read queued, not begun): a burst of file events reads once. */
  private readonly holdQueued = new Set<string>();
  /** Workers of this window in a worktree not made for them (a resumed session keeps its folder): the entry whose worktree each holds. */
  private readonly occupants = new Map<string, string>();
  private readonly _onDidChange = this._register(new vscode.EventEmitter<string>());
  readonly onDidChange = this._onDidChange.event;

  /** `window`: this window's id, which its holds on worktrees name (core/worktree/hold.ts). */
  constructor(private readonly supervisor: Supervisor, private readonly core: () => WorktreeCore, private readonly window?: string) {
    super();
    this._register(toDisposable(supervisor.onEvent((id, e) => {
      if ((e.turn?.ends || e.type === 'agent_end') && this.entries.has(id)) void this.refresh(id);
    })));
    this._register(toDisposable(supervisor.onState((s) => {
      if (!this.entries.has(s.workerId)) {
        if (isLive(s)) this.occupy(s);
        else this.vacate(s.workerId);
        return;
      }
      if (isLive(s)) return;
      // Stopped: another window may now merge or discard it.
      const e = this.entries.get(s.workerId)!;
      if (!isLeftover(s.workerId)) this.release(e, s.workerId);
      void this.refresh(s.workerId);
    })));
    this._register(toDisposable(() => {
      for (const w of this.watches.values()) w.dispose();
      this.watches.clear();
    }));
  }

  /**
   * A worker of this window started in a worktree listed here under another id (a resumed
   * session, which keeps its folder): held as the worktree's own worker holds it, in its name.
   */
  private occupy(s: WorkerState): void {
    if (!this.window || this.occupants.has(s.workerId)) return;
    const e = [...this.entries.values()].find((x) => x.workerId !== s.workerId && pathWithin(x.worktree.path, s.cwd) !== null);
    if (!e) return;
    this.occupants.set(s.workerId, e.workerId);
    const holder = this.core().holderHere(this.window, s.name);
    void this.then(e.workerId, () => this.core().holdWorktree(e.worktree, holder));
  }

  private vacate(workerId: string): void {
    const id = this.occupants.get(workerId);
    if (id === undefined) return;
    this.occupants.delete(workerId);
    const e = this.entries.get(id);
    if (e) this.release(e, workerId);
  }

  /**
   * This window lets go of the worktree `gone` held, unless another of its workers still works there:
   * then the hold names that one (another window says who to stop, and that one runs).
   */
  private release(e: WorktreeEntry, gone: string): void {
    if (!this.window) return;
    const window = this.window;
    const still = this.supervisor.list().find((w) => w.workerId !== gone && isLive(w) && pathWithin(e.worktree.path, w.cwd) !== null);
    if (!still) void this.then(e.workerId, () => this.core().releaseWorktree(e.worktree, window));
    else void this.then(e.workerId, () => this.core().passHold(e.worktree, this.core().holderHere(window, still.name)));
  }

  add(workerId: string, worktree: WorkerWorktree, checkout: string): void {
    // git's files change as a worktree is made, so it can be listed as a leftover while its
    // worker still starts; once the worker has it, that leftover row is this worker's (no twin).
    for (const [id, e] of this.entries) if (id !== workerId && isLeftover(id) && e.worktree.path === worktree.path) this.forget(id);
    this.entries.set(workerId, { workerId, worktree, checkout, files: [], counts: null, merged: null, error: null, heldBy: null });
    // Taken for a leftover's occupant while it started: the worktree is its own now.
    this.occupants.delete(workerId);
    this._onDidChange.fire(workerId);
    // Held while its worker runs: another window lists it as a leftover of no running worker.
    if (this.window && !isLeftover(workerId)) {
      const holder = this.core().holderHere(this.window, worktree.workerName);
      // Not held (git refused the lock): the worker runs as well; only other windows know less.
      void this.then(workerId, async () => {
        await this.core().holdWorktree(worktree, holder);
        // It ended before it was added here (an exit right after its start, a quick Stop): the
        // state that would let go came first, and none follows, so the hold would stand for good.
        if (!this.running(workerId)) await this.core().releaseWorktree(worktree, this.window!);
      });
    }
    // A session resumed at a reload may run in it before git's records are listed.
    if (isLeftover(workerId)) for (const s of this.supervisor.list()) if (isLive(s) && !this.occupants.has(s.workerId)) this.occupy(s);
    this.watches.get(workerId)?.dispose();
    this.watches.set(workerId, this.core().watchHold(worktree.path, () => this.rereadHold(workerId)));
    void this.refresh(workerId);
  }

  private running(workerId: string): boolean {
    const st = this.supervisor.state(workerId);
    return st.status === 'running' || st.status === 'starting';
  }

  /** Reads the worktree's lock again (its file changed): the row says whether another window's worker works there. */
  private rereadHold(workerId: string): void {
    if (this.holdQueued.has(workerId)) return;
    this.holdQueued.add(workerId);
    void this.then(workerId, async () => {
      this.holdQueued.delete(workerId);
      await this.readHold(workerId);
    });
  }

  /**
   * The rows said to be held by another window, read again: a holder that died (a crash, a
   * closed window) leaves its lock, which no file event tells. On the window's focus and on Refresh.
   */
  recheckHolds(): Promise<void> {
    const held = this.all().filter((e) => e.heldBy).map((e) => e.workerId);
    return Promise.all(held.map((id) => this.then(id, () => this.readHold(id)))).then(() => undefined);
  }

  private async readHold(workerId: string): Promise<void> {
    const e = this.entries.get(workerId);
    // Reading the lock runs `git worktree list`: never untrusted, as the listing.
    if (!e || !isTrusted()) return;
    const held = await this.core().heldElsewhere(e.worktree, this.window);
    if (this.entries.get(workerId) !== e || JSON.stringify(held) === JSON.stringify(e.heldBy)) return;
    e.heldBy = held;
    this._onDidChange.fire(workerId);
  }

  private forget(workerId: string): void {
    this.entries.delete(workerId);
    this.watches.get(workerId)?.dispose();
    this.watches.delete(workerId);
  }

  /** When the work queued for `workerId` (its listing, its hold) is done, as far as queued by now. */
  settled(workerId: string): Promise<void> {
    return this.pending.get(workerId) ?? Promise.resolve();
  }

  /** After what runs for this worker's worktree already (a hold, a listing), in turn. */
  private then(workerId: string, run: () => Promise<unknown>): Promise<void> {
    // Whatever came of the work before (a listing that threw): a release queued behind it still runs.
    const next = (this.pending.get(workerId) ?? Promise.resolve()).catch(() => undefined).then(run).then(() => undefined, () => undefined);
    this.pending.set(workerId, next);
    void next.finally(() => { if (this.pending.get(workerId) === next) this.pending.delete(workerId); });
    return next;
  }

  remove(workerId: string): void {
    this.forget(workerId);
    this._onDidChange.fire(workerId);
  }

  get(workerId: string): WorktreeEntry | undefined {
    return this.entries.get(workerId);
  }

  all(): WorktreeEntry[] {
    return [...this.entries.values()];
  }

  /** List the worker's changes again; concurrent calls share one listing and then run once more. */
  refresh(workerId: string): Promise<void> {
    const running = this.pending.get(workerId);
    const next = (running ?? Promise.resolve()).catch(() => undefined).then(() => this.list(workerId));
    this.pending.set(workerId, next);
    void next.finally(() => { if (this.pending.get(workerId) === next) this.pending.delete(workerId); });
    return next;
  }

  private async list(workerId: string): Promise<void> {
    const e = this.entries.get(workerId);
    // Listing runs `git add -A`, which runs the repository's core.fsmonitor: never untrusted.
    if (!e || !isTrusted()) return;
    // A listing that throws (no room for its scratch index) is said on the row as one that failed.
    const [r, held] = await Promise.all([
      this.core().workerChanges(e.worktree).catch((error: unknown) => ({ status: 'error' as const, reason: `listing the changes failed: ${(error as Error).message}` })),
      this.core().heldElsewhere(e.worktree, this.window).catch(() => e.heldBy),
    ]);
    if (this.entries.get(workerId) !== e) return;
    e.heldBy = held;
    if (r.status === 'ok') {
      e.files = r.files;
      e.counts = r.counts;
      e.merged = r.merged;
      e.error = null;
    } else {
      e.error = r.reason;
    }
    this._onDidChange.fire(workerId);
  }
}
