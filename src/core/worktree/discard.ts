// Discard: remove a worker's worktree and its branch. In two steps so that nothing is lost
// unasked: `previewDiscard` says what would go (files not committed, commits no other branch
// holds) with a fingerprint of that state; `discardWorktree` refuses when the worktree changed
// since the preview the person confirmed. Stopping a worker never calls either.
import { existsSync } from 'node:fs';
import { git, gitFailure, zFields } from './git';
import { listChanges, nestedRepositories, type ChangedFile } from './changes';
import type { WorkerWorktree } from './create';
import { heldElsewhere, heldWords, unlockIfOurs } from './hold';
import { listWorktreeEntries } from './repo';

/** `window`: the asking window's id (holdWorktree); a worktree another window's live worker holds is refused. */
export interface DiscardOptions {
  window?: string;
}

export interface DiscardPreview {
  status: 'ok';
  path: string;
  branch: string;
  /** Changes not committed on the branch (untracked files included). */
  uncommitted: ChangedFile[];
  /** Commits on the branch or the worktree's HEAD that no other branch holds, newest first. */
  unmergedCommits: Array<{ commit: string; subject: string }>;
  /** Nothing would be lost: no uncommitted change, no commit only this branch has, no nested repository. */
  nothingLost: boolean;
  /**
   * Files .gitignore keeps out of git (a folder wholly ignored as one entry, with its `/`): the
   * removal deletes them too, and no branch has them. Not in `nothingLost` (a build's output).
   */
  ignored: string[];
  /** Repositories of their own inside the worktree (nestedRepositories): lost whole, whatever a branch holds. */
  nested: string[];
  /** Pass back to discardWorktree: it refuses if the worktree is not the one previewed. */
  fingerprint: string;
  /** The folder was deleted already (by hand): only the branch and git's record of it remain. */
  folderGone: boolean;
}

export type PreviewResult = DiscardPreview | { status: 'error'; path: string; reason: string };

export async function previewDiscard(wt: WorkerWorktree, options: DiscardOptions = {}): Promise<PreviewResult> {
  const fail = (reason: string): PreviewResult => ({ status: 'error', path: wt.path, reason });
  const holder = await heldElsewhere(wt, options.window);
  if (holder) return fail(heldWords(holder));
  if (!existsSync(wt.path)) return previewGone(wt);
  const head = await git(wt.path, ['rev-parse', 'HEAD']);
  if (!head.ok) return fail(gitFailure(head, `reading ${wt.path}`));
  const changes = await listChanges(wt.path, head.stdout.trim());
  if (changes.status !== 'ok') return fail(changes.reason);
  // HEAD as well as the branch: an agent that detached HEAD in its worktree and committed there
  // has commits no branch holds, and removing the worktree loses them.
  const log = await git(wt.path, ['log', '-z', '--format=%H%x1f%s', 'HEAD', `refs/heads/${wt.branch}`, '--not', `--exclude=${wt.branch}`, '--branches']);
  if (!log.ok) return fail(gitFailure(log, `listing the commits of ${wt.branch}`));
  const ignored = await git(wt.path, ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory']);
  if (!ignored.ok) return fail(gitFailure(ignored, `listing the ignored files in ${wt.path}`));
  const nested = await nestedRepositories(wt.path, changes.snapshot);
  if (nested.status !== 'ok') return fail(nested.reason);
  const unmergedCommits = commitsOf(log.stdout);
  return {
    status: 'ok', path: wt.path, branch: wt.branch, uncommitted: changes.files, unmergedCommits, nested: nested.paths,
    nothingLost: changes.files.length === 0 && unmergedCommits.length === 0 && nested.paths.length === 0, ignored: zFields(ignored.stdout),
    fingerprint: `${head.stdout.trim()}:${changes.snapshot}`, folderGone: false,
  };
}

/**
 * A worktree whose folder was deleted by hand: its files are gone already, but git still lists
 * it and the branch may hold commits no other branch has; those are what Discard would lose.
 */
async function previewGone(wt: WorkerWorktree): Promise<PreviewResult> {
  const fail = (reason: string): PreviewResult => ({ status: 'error', path: wt.path, reason });
  const tip = await git(wt.mainRoot, ['rev-parse', '--verify', '-q', `refs/heads/${wt.branch}`]);
  if (!tip.ok) return fail(`the folder ${wt.path} does not exist and its branch ${wt.branch} is gone too: nothing is left to discard`);
  const log = await git(wt.mainRoot, ['log', '-z', '--format=%H%x1f%s', `refs/heads/${wt.branch}`, '--not', `--exclude=${wt.branch}`, '--branches']);
  if (!log.ok) return fail(gitFailure(log, `listing the commits of ${wt.branch}`));
  const unmergedCommits = commitsOf(log.stdout);
  return {
    status: 'ok', path: wt.path, branch: wt.branch, uncommitted: [], unmergedCommits, ignored: [], nested: [],
    nothingLost: unmergedCommits.length === 0, fingerprint: `gone:${tip.stdout.trim()}`, folderGone: true,
  };
}

function commitsOf(out: string): Array<{ commit: string; subject: string }> {
  return zFields(out).map((l) => {
    const [commit, subject] = l.split('\x1f');
    return { commit, subject };
  });
}

export type DiscardResult =
  | { status: 'discarded'; path: string; branch: string; lost: DiscardPreview }
  /** The worktree is gone, but git kept its branch (checked out in another worktree): `reason` is git's. */
  | { status: 'branch_kept'; path: string; branch: string; reason: string }
  | { status: 'changed_since_preview'; path: string; preview: DiscardPreview; reason: string }
  | { status: 'error'; path: string; reason: string };

export async function discardWorktree(wt: WorkerWorktree, expectedFingerprint: string, options: DiscardOptions = {}): Promise<DiscardResult> {
  const now = await previewDiscard(wt, options);
  if (now.status !== 'ok') return now;
  if (now.fingerprint !== expectedFingerprint) {
    return { status: 'changed_since_preview', path: wt.path, preview: now, reason: `the worktree changed since you were asked (${now.uncommitted.length} uncommitted, ${now.unmergedCommits.length} unmerged commits now); nothing was removed` };
  }
  await unlockIfOurs(wt, options.window);
  // A folder gone that git no longer lists either (an earlier Discard removed it, then could not
  // delete the branch): only the branch is left, and `worktree remove` would fail on it.
  const registered = !now.folderGone || (await listWorktreeEntries(wt.mainRoot))?.some((e) => e.path === wt.path) !== false;
  // From the main worktree: git will not remove the worktree it runs in.
  const remove = registered ? await git(wt.mainRoot, ['worktree', 'remove', '--force', wt.path]) : null;
  if (remove && !remove.ok) return { status: 'error', path: wt.path, reason: gitFailure(remove, `git worktree remove ${wt.path}`) };
  const branch = await git(wt.mainRoot, ['branch', '-D', wt.branch]);
  // Said apart from an error: the worktree is gone whatever the caller tries again, and only the
  // person can free the branch (it is checked out in another worktree, say).
  if (!branch.ok) return { status: 'branch_kept', path: wt.path, branch: wt.branch, reason: gitFailure(branch, `git branch -D ${wt.branch}`) };
  return { status: 'discarded', path: wt.path, branch: wt.branch, lost: now };
}
