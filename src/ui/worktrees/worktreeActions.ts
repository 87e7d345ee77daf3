// What the person does with a worker's worktree: start a worker in a new one, open a changed
// file's diff, merge it into their branch, open it in a new window, discard it. Each outcome is
// the core's status, said as it is; nothing is deleted without a modal confirmation that names
// what would be lost, and a merge never overwrites: conflicts go to VS Code's merge editor.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as os from 'node:os';
import * as vscode from 'vscode';
import type { StartResult, Supervisor, WorkerSpec, WorkerState } from '../../core/api';
import { isLive } from '../commands/pickers';
import { isTrusted, refuseUntrusted, UNTRUSTED_WORKTREE_REFUSAL } from '../settings/trust';
import { leftoverId, workerIn, type WorktreeCore, type WorkerWorktrees, type WorktreeEntry } from './workerWorktrees';
import type { WorkerWorktree } from '../../core/worktree';
import { baseUri } from './baseContent';

type Refused = { status: 'cancelled' | 'error'; error?: string };

export interface ActionServices {
  supervisor: Supervisor;
  worktrees: WorkerWorktrees;
  core(): WorktreeCore;
  worktreesDir(): string;
  log: vscode.LogOutputChannel;
  /** This window's id, as its holds on worktrees name it: another window's live hold refuses Merge and Discard. */
  window?: string;
}

const error = (message: string): Refused => {
  void vscode.window.showErrorMessage(`RPC Workers: ${message}`);
  return { status: 'error', error: message };
};

/** The worker id in a command's argument: a tree node, `{ workerId }`, or none. */
export function workerIdOf(arg: unknown): string | undefined {
  const id = (arg as { workerId?: unknown } | undefined)?.workerId;
  return typeof id === 'string' && id ? id : undefined;
}

/** `~/x`, an absolute path, or a path relative to the repository. Empty: the core's default. */
export function resolveWorktreesDir(setting: string, repoRoot: string): string | undefined {
  if (!setting) return undefined;
  if (setting === '~' || setting.startsWith('~/')) return path.join(os.homedir(), setting.slice(1));
  return path.resolve(repoRoot, setting);
}

export class WorktreeActions {
  constructor(private readonly s: ActionServices) {}

  /** For Commands' worktreePlacer: make the worktree, move the spec into it, keep it if the start works. */
  async place(spec: WorkerSpec): Promise<{ spec: WorkerSpec; started(r: StartResult): Promise<void> } | Refused> {
    // Starts refuse first; this holds should a start path ever skip that (git runs hooks here).
    if (!isTrusted()) return refuseUntrusted();
    const core = this.s.core();
    const repo = await core.detectRepository(spec.cwd);
    if (repo.status !== 'repository') return error(`cannot start ${spec.name ?? 'the worker'} in a new worktree: ${repo.reason}`);
    const made = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Making a worktree for ${spec.name ?? 'the worker'}…` },
      () => core.createWorktree({ folder: repo.root, workerName: spec.name ?? 'worker', worktreesDir: resolveWorktreesDir(this.s.worktreesDir(), repo.mainRoot) }),
    );
    if (made.status !== 'created') return error(`could not make a worktree: ${made.reason}`);
    const wt = made.worktree;
    const moved = core.specInWorktree(spec, wt, repo.root);
    // A folder git does not track (untracked, ignored, empty) is not in the worktree: the start
    // would fail with "cwd … does not exist", naming neither the worktree nor why.
    if (!existsSync(moved.cwd)) {
      await this.unstarted(wt, repo.root);
      return error(`cannot start ${spec.name ?? 'the worker'} in a new worktree: its folder ${spec.cwd} holds no file git tracks at ${wt.baseCommit.slice(0, 8)} (untracked or ignored), so the worktree has no such folder; start it from a folder git tracks`);
    }
    this.s.log.info(`worktree ${wt.path} on branch ${wt.branch} from ${wt.target ?? 'HEAD'} at ${wt.baseCommit.slice(0, 8)}`);
    if (made.leftOut.length) {
      const files = made.leftOut.slice(0, 5).join(', ') + (made.leftOut.length > 5 ? `, and ${made.leftOut.length - 5} more` : '');
      void vscode.window.showInformationMessage(`RPC Workers: ${spec.name ?? 'the worker'}'s worktree starts from your last commit (${wt.target ?? 'HEAD'} at ${wt.baseCommit.slice(0, 8)}): your uncommitted changes are not in it (${files}).`);
    }
    return {
      spec: moved,
      started: async (r) => {
        if (r.status === 'started') return this.s.worktrees.add(r.workerId, wt, repo.root);
        await this.unstarted(wt, repo.root);
      },
    };
  }

  /**
   * A fresh worktree no worker runs in (its start failed or was refused): it goes while nothing is
   * in it, and with it the row the window may have listed it under meanwhile (git's files change
   * as it is made: adoptLeftovers). One the worker wrote in is kept, and listed to review or discard.
   */
  private async unstarted(wt: WorkerWorktree, checkout: string): Promise<void> {
    const core = this.s.core();
    const preview = await core.previewDiscard(wt);
    const r = preview.status === 'ok' && preview.nothingLost ? await core.discardWorktree(wt, preview.fingerprint) : null;
    if (r?.status === 'branch_kept') this.s.log.warn(`the start failed; its worktree ${wt.path} is gone, but its branch ${r.branch} is kept: ${r.reason}`);
    const gone = r?.status === 'discarded' || r?.status === 'branch_kept';
    const rows = this.s.worktrees.all().filter((e) => e.worktree.path === wt.path);
    if (gone) {
      for (const e of rows) this.s.worktrees.remove(e.workerId);
      return;
    }
    this.s.log.warn(`the start failed; the worktree ${wt.path} is kept (it is not empty)`);
    if (rows.length === 0) this.s.worktrees.add(leftoverId(wt.branch), wt, checkout);
  }

  private entry(arg: unknown): WorktreeEntry | undefined {
    const id = workerIdOf(arg);
    const e = id ? this.s.worktrees.get(id) : undefined;
    if (!e) void vscode.window.showErrorMessage('RPC Workers: that worker has no worktree (it was started in your checkout, or its worktree was discarded).');
    return e;
  }

  /**
   * The live worker working in this worktree: its own, or another started in its folder (a
   * resumed session keeps the folder it ran in, under a new worker id).
   */
  private occupant(e: WorktreeEntry): WorkerState | null {
    const own = this.s.supervisor.state(e.workerId);
    if (own.status !== 'not_found' && isLive(own.state)) return own.state;
    return workerIn(this.s.supervisor, e.worktree.path) ?? null;
  }

  /** A worker that starts, writes or waits for an answer: merging now would race it. */
  private busy(e: WorktreeEntry): string | null {
    const s = this.occupant(e);
    if (!s) return null;
    if (s.pendingInput.length) return `${s.name} waits for your answer; answer it first`;
    if (s.status === 'starting') return `${s.name} is still starting; merge once it has started`;
    if (s.streaming || s.compacting) return `${s.name} is working; wait for its turn to end (or abort it) first`;
    return null;
  }

  async openDiff(arg: unknown): Promise<{ status: string }> {
    const e = this.entry(arg);
    const file = (arg as { file?: unknown } | undefined)?.file;
    const f = e?.files.find((x) => x.path === file);
    if (!e || !f) return { status: 'not_found' };
    const repo = e.worktree.mainRoot;
    const empty = baseUri({ repo, commit: '', path: f.path });
    const left = f.left ? baseUri({ repo, commit: f.left.commit, path: f.left.path }) : empty;
    const right = f.right ? vscode.Uri.file(f.right) : empty;
    const title = `${path.basename(f.path)} (${f.kind} in ${e.worktree.branch}: base ↔ worktree)`;
    await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: true });
    return { status: 'shown' };
  }

  async merge(arg: unknown): Promise<{ status: string; reason?: string }> {
    const e = this.entry(arg);
    if (!e) return { status: 'not_found' };
    const busy = this.busy(e);
    if (busy) return error(`not merged: ${busy}.`);
    const core = this.s.core();
    const r = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Merging ${e.worktree.branch} into your branch…` },
      () => core.mergeWorktree(e.worktree, { into: e.checkout, window: this.s.window }),
    );
    void this.s.worktrees.refresh(e.workerId);
    switch (r.status) {
      case 'merged':
        if (r.hooksSkipped?.length) void vscode.window.showWarningMessage(`RPC Workers: merged ${e.worktree.workerName} (${r.branch}) into ${r.targetBranch} without running your git hooks: ${hooksWhy(r.hooksSkipped)}. ${r.files.length} file${r.files.length === 1 ? '' : 's'}, commit ${r.commit.slice(0, 8)}.`);
        else void vscode.window.showInformationMessage(`RPC Workers: merged ${e.worktree.workerName} (${r.branch}) into ${r.targetBranch}: ${r.files.length} file${r.files.length === 1 ? '' : 's'}, commit ${r.commit.slice(0, 8)}.`);
        break;
      case 'up_to_date':
        void vscode.window.showInformationMessage(`RPC Workers: ${r.targetBranch} already has everything ${e.worktree.workerName} did; nothing to merge.`);
        break;
      case 'conflicts':
        await this.openConflicts(r.conflicts.map((c) => c.absPath));
        void vscode.window.showWarningMessage(
          `RPC Workers: merging ${e.worktree.workerName} into ${r.targetBranch} conflicts in ${r.conflicts.map((c) => c.path).join(', ')}. Nothing was overwritten: resolve each file in the merge editor, then Complete Merge, or Abort Merge to go back.${r.hooksSkipped?.length ? ` Your git hooks were not run, nor will Complete Merge run them: ${hooksWhy(r.hooksSkipped)}.` : ''}`,
          'Complete Merge', 'Abort Merge',
        ).then((c) => c && this.finish(e.checkout, c === 'Abort Merge'));
        break;
      case 'dirty':
        return error(`not merged: ${r.reason} (${r.files.slice(0, 5).join(', ')}${r.files.length > 5 ? ', …' : ''}). Nothing was changed.`);
      case 'merge_in_progress': {
        // Left by this merge (a hook refused its commit) or an earlier one: the way out is offered.
        const message = `not merged: ${r.reason}`;
        void vscode.window.showErrorMessage(`RPC Workers: ${message}`, 'Complete Merge', 'Abort Merge').then((c) => c && this.finish(e.checkout, c === 'Abort Merge'));
        const refused: Refused = { status: 'error', error: message };
        return refused;
      }
      default:
        return error(`not merged (${r.status}): ${r.reason}`);
    }
    return { status: r.status };
  }

  /** VS Code's merge editor through the git extension's command when it has one; else the file (with its markers). */
  private async openConflicts(files: string[]): Promise<void> {
    const known = new Set(await vscode.commands.getCommands(true));
    for (const f of files) {
      const uri = vscode.Uri.file(f);
      try {
        if (known.has('git.openMergeEditor')) await vscode.commands.executeCommand('git.openMergeEditor', uri);
        else await vscode.commands.executeCommand('vscode.open', uri);
      } catch (err) {
        this.s.log.warn(`merge editor for ${f}: ${(err as Error).message}; opening the file`);
        await vscode.commands.executeCommand('vscode.open', uri);
      }
    }
  }

  async finish(checkout: string, abort: boolean): Promise<{ status: string }> {
    // Reached from a merge's notification, not a command: committing a merge runs hooks.
    if (!isTrusted()) return refuseUntrusted(UNTRUSTED_WORKTREE_REFUSAL);
    const core = this.s.core();
    const r = abort ? await core.abortMerge(checkout) : await core.finishMerge(checkout);
    if (r.status === 'merged' && r.hooksSkipped?.length) void vscode.window.showWarningMessage(`RPC Workers: merge completed without running your git hooks: ${hooksWhy(r.hooksSkipped)}. Commit ${r.commit.slice(0, 8)}.`);
    else if (r.status === 'merged') void vscode.window.showInformationMessage(`RPC Workers: merge completed, commit ${r.commit.slice(0, 8)}.`);
    else if (r.status === 'aborted') void vscode.window.showInformationMessage('RPC Workers: merge aborted; your branch is as it was.');
    else if (r.status === 'conflicts') {
      void vscode.window.showWarningMessage(`RPC Workers: not completed: ${unresolvedWords(r.conflicts)}`, 'Complete Merge', 'Abort Merge')
        .then((c) => c && this.finish(checkout, c === 'Abort Merge'));
    } else error(`${abort ? 'abort' : 'completing the merge'} failed (${r.status}): ${r.reason}`);
    for (const e of this.s.worktrees.all()) if (e.checkout === checkout) void this.s.worktrees.refresh(e.workerId);
    return { status: r.status };
  }

  /** `followUp`: what the refusal's Discard Worktree… then does, as for discard. */
  async openInNewWindow(arg: unknown): Promise<DiscardOutcome> {
    const e = this.entry(arg);
    if (!e) return { status: 'not_found' };
    // VS Code opens a window on a missing folder without a word: an empty window, no files.
    if (!existsSync(e.worktree.path)) {
      const why = `cannot open ${e.worktree.workerName}'s worktree in a new window: its folder ${e.worktree.path} does not exist (deleted or moved).`;
      // Another window's worker holds it: Discard would refuse, and its row does not offer it.
      if (e.heldBy) return error(`${why} ${e.heldBy.worker} works in it in ${e.heldBy.where}.`);
      const message = `${why} Discard it to remove what git keeps of it, and its branch ${e.worktree.branch}.`;
      const followUp = Promise.resolve(vscode.window.showErrorMessage(`RPC Workers: ${message}`, DISCARD_WORKTREE))
        .then((c): DiscardOutcome | Promise<DiscardOutcome> => (c === DISCARD_WORKTREE ? this.discard(arg) : { status: 'cancelled', message }));
      return { status: 'missing', message, followUp };
    }
    await vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(e.worktree.path), { forceNewWindow: true });
    return { status: 'opened' };
  }

  /**
   * `confirm` stands in for the modal in tests (it gets the modal's message). While a worker runs
   * in the worktree the answer is 'running' at once, and `followUp` is what the explanation's
   * Stop Worker and Discard then does (a caller is not held until a notification is answered).
   */
  async discard(arg: unknown, confirm?: (message: string) => Promise<boolean>): Promise<DiscardOutcome> {
    const e = this.entry(arg);
    if (!e) return { status: 'not_found' };
    const occupant = this.occupant(e);
    if (occupant) {
      const why = `${occupant.name} still runs in this worktree, so it cannot be discarded now: it would go on writing in a folder that is gone. Stop it first${busyWords(occupant)}, then discard.`;
      return { status: 'running', message: why, followUp: this.stopThenDiscard(arg, occupant, why, confirm) };
    }
    const core = this.s.core();
    const preview = await core.previewDiscard(e.worktree, { window: this.s.window });
    if (preview.status !== 'ok') return error(`cannot discard: ${preview.reason}`);
    const message = discardMessage(e, preview);
    const ok = confirm ? await confirm(message) : (await vscode.window.showWarningMessage(message, { modal: true }, 'Discard')) === 'Discard';
    if (!ok) return { status: 'cancelled', message };
    const r = await core.discardWorktree(e.worktree, preview.fingerprint, { window: this.s.window });
    if (r.status === 'discarded') {
      this.s.worktrees.remove(e.workerId);
      void vscode.window.showInformationMessage(`RPC Workers: discarded ${e.worktree.workerName}'s worktree and branch ${r.branch}.`);
    } else if (r.status === 'branch_kept') {
      // The worktree is gone: its row could only offer a Discard that fails the same way.
      this.s.worktrees.remove(e.workerId);
      void vscode.window.showWarningMessage(`RPC Workers: discarded ${e.worktree.workerName}'s worktree, but its branch ${r.branch} is kept, as git would not delete it (${r.reason}). Delete the branch yourself once nothing holds it.`);
    } else if (r.status === 'changed_since_preview') {
      void vscode.window.showWarningMessage(`RPC Workers: nothing was discarded: ${r.reason}. Look again and discard once more if you still mean it.`);
    } else error(`discard failed: ${r.reason}`);
    return { status: r.status, message };
  }

  /**
   * Discard is offered while the worker runs (hidden, a person looked for it and found nothing):
   * chosen, it says why it cannot run now and offers to stop the worker first. The modal that
   * names what would be lost comes after the stop, so it lists what the worker left; the
   * discard is asked afresh then (the worktree may have gone meanwhile, or another worker come).
   */
  private async stopThenDiscard(arg: unknown, occupant: WorkerState, why: string, confirm?: (message: string) => Promise<boolean>): Promise<DiscardOutcome> {
    const choice = await vscode.window.showWarningMessage(`RPC Workers: ${why}`, STOP_AND_DISCARD);
    if (choice !== STOP_AND_DISCARD) return { status: 'cancelled', message: why };
    const stopped = await this.s.supervisor.stop(occupant.workerId);
    if (stopped.status !== 'stopped') return error(`could not stop ${occupant.name} (${stopped.status}); nothing was discarded.`);
    return this.discard(arg, confirm);
  }
}

export type DiscardOutcome = { status: string; message?: string; error?: string; followUp?: Promise<DiscardOutcome> };

/** Why a merge ran none of the person's hooks (hookSources.ts): said first, as a warning, so that what they do (an install, a lint) is run by hand once the files are read. */
const hooksWhy = (files: string[]): string => `the worker changed ${files.slice(0, 3).join(', ')}${files.length > 3 ? ` and ${files.length - 3} more` : ''}, which they run or read`;

const busyWords = (s: WorkerState): string => (s.streaming || s.compacting || s.pendingInput.length > 0 ? ' (its turn is cut short)' : '');

const STOP_AND_DISCARD = 'Stop Worker and Discard';
const DISCARD_WORKTREE = 'Discard Worktree…';

/** Why a Complete Merge was refused: the files still marked, and the binary files git left at the person's side. */
function unresolvedWords(conflicts: Array<{ path: string; binary?: true }>): string {
  const marked = conflicts.filter((c) => !c.binary).map((c) => c.path);
  const binary = conflicts.filter((c) => c.binary).map((c) => c.path);
  const parts: string[] = [];
  if (marked.length) parts.push(`${marked.join(', ')} still ${marked.length === 1 ? 'has' : 'have'} conflict markers.`);
  if (binary.length) {
    const one = binary.length === 1;
    parts.push(`${binary.join(', ')} ${one ? 'is' : 'are'} binary, and git left your side in ${one ? 'it' : 'them'} and the worker's out: take one (git checkout --theirs -- ${binary.join(' ')} for the worker's, --ours for yours) and stage it (git add), then Complete Merge.`);
  }
  return parts.join(' ');
}

/** The confirmation, naming what would be lost. */
export function discardMessage(e: Pick<WorktreeEntry, 'worktree'>, p: { uncommitted: Array<{ path: string; kind: string }>; unmergedCommits: Array<{ commit: string; subject: string }>; nothingLost: boolean; ignored: string[]; nested: string[]; folderGone?: boolean }): string {
  const head = `Discard ${e.worktree.workerName}'s worktree (${e.worktree.path}${p.folderGone ? ', its folder deleted already' : ''}) and its branch ${e.worktree.branch}?`;
  const list = <T>(xs: T[], say: (x: T) => string) => xs.slice(0, 8).map(say).join(', ') + (xs.length > 8 ? `, and ${xs.length - 8} more` : '');
  // git removes them with the folder, and no branch holds them: said, though often a build's output.
  const ignored = p.ignored.length ? ` The files git ignores there go too: ${list(p.ignored, (f) => f)}.` : '';
  if (p.nothingLost) return `${head} ${ignored ? 'Every change git tracks is in another branch.' : 'Nothing would be lost: every change is in another branch.'}${ignored}`;
  const parts: string[] = [];
  if (p.uncommitted.length) parts.push(`${p.uncommitted.length} uncommitted file${p.uncommitted.length === 1 ? '' : 's'} (${list(p.uncommitted, (f) => `${f.path} ${f.kind}`)})`);
  if (p.unmergedCommits.length) parts.push(`${p.unmergedCommits.length} commit${p.unmergedCommits.length === 1 ? '' : 's'} no other branch holds (${list(p.unmergedCommits, (c) => `${c.commit.slice(0, 8)} ${c.subject}`)})`);
  const one = p.nested.length === 1;
  if (p.nested.length) parts.push(`${p.nested.length} ${one ? 'repository of its' : 'repositories of their'} own (${list(p.nested, (r) => r)}), whose files and commits no branch here holds`);
  return `${head} This deletes ${parts.join(' and ')}.${ignored} It cannot be undone.`;
}
