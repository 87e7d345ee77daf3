// Which worker runs in which worktree, and what each has changed there. Changes are listed again
// when a worker's turn ends (and when asked), never polled. Stopping a worker keeps its entry:
// the worktree stays for the person to review, merge or discard.
import * as vscode from 'vscode';
import type { Supervisor } from '../../core/api';
import type { ChangeCounts, ChangedFile, WorkerWorktree } from '../../core/worktree';
import { Disposable, toDisposable } from '../disposable';
import { isTrusted } from '../settings/trust';

export type WorktreeCore = typeof import('../../core/index')['worktree'];

export interface WorktreeEntry {
  workerId: string;
  worktree: WorkerWorktree;
  /** The person's checkout it was made from (merges go there). */
  checkout: string;
  files: ChangedFile[];
  counts: ChangeCounts | null;
  /** Why the last listing failed, if it did. */
  error: string | null;
}

/** The id of a worktree an earlier window's worker left, listed from git's records. */
export const leftoverId = (branch: string): string => `worktree:${branch}`;
const isLeftover = (id: string): boolean => id.startsWith('worktree:');

export class WorkerWorktrees extends Disposable {
  private readonly entries = new Map<string, WorktreeEntry>();
  private readonly pending = new Map<string, Promise<void>>();
  private readonly _onDidChange = this._register(new vscode.EventEmitter<string>());
  readonly onDidChange = this._onDidChange.event;

  /** `window`: this window's id, which its holds on worktrees name (core/worktree/hold.ts). */
  constructor(private readonly supervisor: Supervisor, private readonly core: () => WorktreeCore, private readonly window?: string) {
    super();
    this._register(toDisposable(supervisor.onEvent((id, e) => {
      if ((e.turn?.ends || e.type === 'agent_end') && this.entries.has(id)) void this.refresh(id);
    })));
    this._register(toDisposable(supervisor.onState((s) => {
      if (!this.entries.has(s.workerId) || s.status === 'running' || s.status === 'starting') return;
      // Stopped: another window may now merge or discard it.
      const e = this.entries.get(s.workerId)!;
      if (this.window && !isLeftover(s.workerId)) this.then(s.workerId, () => this.core().releaseWorktree(e.worktree, this.window!));
      void this.refresh(s.workerId);
    })));
  }

  add(workerId: string, worktree: WorkerWorktree, checkout: string): void {
    // git's files change as a worktree is made, so it can be listed as a leftover while its
    // worker still starts; once the worker has it, that leftover row is this worker's (no twin).
    for (const [id, e] of this.entries) if (id !== workerId && isLeftover(id) && e.worktree.path === worktree.path) this.entries.delete(id);
    this.entries.set(workerId, { workerId, worktree, checkout, files: [], counts: null, error: null });
    this._onDidChange.fire(workerId);
    // Held while its worker runs: another window lists it as a leftover of no running worker.
    if (this.window && !isLeftover(workerId)) {
      const holder = this.core().holderHere(this.window, worktree.workerName);
      // Not held (git refused the lock): the worker runs as well; only other windows know less.
      this.then(workerId, async () => {
        await this.core().holdWorktree(worktree, holder);
        // It ended before it was added here (an exit right after its start, a quick Stop): the
        // state that would let go came first, and none follows, so the hold would stand for good.
        if (!this.running(workerId)) await this.core().releaseWorktree(worktree, this.window!);
      });
    }
    void this.refresh(workerId);
  }

  private running(workerId: string): boolean {
    const st = this.supervisor.state(workerId);
    return st.status === 'running' || st.status === 'starting';
  }

  /** After what runs for this worker's worktree already (a hold, a listing), in turn. */
  private then(workerId: string, run: () => Promise<unknown>): void {
    const next = (this.pending.get(workerId) ?? Promise.resolve()).then(run).then(() => undefined, () => undefined);
    this.pending.set(workerId, next);
    void next.finally(() => { if (this.pending.get(workerId) === next) this.pending.delete(workerId); });
  }

  remove(workerId: string): void {
    this.entries.delete(workerId);
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
    const next = (running ?? Promise.resolve()).then(() => this.list(workerId));
    this.pending.set(workerId, next);
    void next.finally(() => { if (this.pending.get(workerId) === next) this.pending.delete(workerId); });
    return next;
  }

  private async list(workerId: string): Promise<void> {
    const e = this.entries.get(workerId);
    // Listing runs `git add -A`, which runs the repository's core.fsmonitor: never untrusted.
    if (!e || !isTrusted()) return;
    const r = await this.core().workerChanges(e.worktree);
    if (this.entries.get(workerId) !== e) return;
    if (r.status === 'ok') {
      e.files = r.files;
      e.counts = r.counts;
      e.error = null;
    } else {
      e.error = r.reason;
    }
    this._onDidChange.fire(workerId);
  }
}
