// Puts the worktree room together: the registry of worker worktrees, their rows in the Sessions
// view, the base side of diffs, the commands, and the context key that disables "Start in a New
// Worktree" when the workspace is not a git repository (with the reason in the log and on use).
// In an untrusted workspace none of it runs git: git runs programs the repository names itself
// (core.fsmonitor on `git add -A`, hooks on a merge), so the check waits for trust and each
// command refuses, saying how to trust the workspace.
import * as vscode from 'vscode';
import type { Supervisor } from '../../core/api';
import type { Commands } from '../commands/commands';
import type { Settings } from '../settings/settings';
import { isTrusted, refuseUntrusted, UNTRUSTED_WORKTREE_REFUSAL } from '../settings/trust';
import type { SessionsTree } from '../views/sessionsTree';
import { BASE_SCHEME, BaseContentProvider } from './baseContent';
import type { WorktreeActions } from './worktreeActions';
import { later } from '../later';
import { NO_GIT_REPO_KEY, WORKTREE_COMMANDS } from './worktreeIds';
import { worktreeContributor } from './worktreeTree';
import { isLeftover, leftoverId, workerIn, WorkerWorktrees, type WorktreeCore, type WorktreeEntry } from './workerWorktrees';

export interface WorktreeParts {
  worktrees: WorkerWorktrees;
  /** Made on first use (dist/extension-later.js, later.ts). */
  readonly actions: WorktreeActions;
  /** The last check of the workspace (the host tests await it). */
  checked: Promise<{ available: boolean; reason: string | null }>;
  /** Checks again now (what the watcher and each worktree command do). */
  recheck(): Promise<{ available: boolean; reason: string | null }>;
}

export function connectWorktrees(o: {
  supervisor: Supervisor; tree: SessionsTree; settings(): Settings; commands(): Commands;
  /** The git side (src/core/worktree): the extension's is dist/extension-later.js's copy, not dist/core.js's. */
  worktree(): WorktreeCore; log: vscode.LogOutputChannel; register<T extends vscode.Disposable>(d: T): T;
}): WorktreeParts {
  const core = o.worktree;
  // Names this window in its holds on worktrees (another window on the repository reads them);
  // unique beside the process's id, which the hold names too. Not node:crypto: activation loads it not.
  const window = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  const worktrees = o.register(new WorkerWorktrees(o.supervisor, core, window));
  let made: WorktreeActions | undefined;
  const actions = () => (made ??= new (later().WorktreeActions)({ supervisor: o.supervisor, worktrees, core, worktreesDir: () => o.settings().worktreesDir, log: o.log, window }));
  o.register(vscode.workspace.registerTextDocumentContentProvider(BASE_SCHEME, new BaseContentProvider(core)));
  const live = () => new Set(o.supervisor.list().map((s) => s.workerId));
  o.tree.contributors.push(worktreeContributor(worktrees, live, (folder) => workerIn(o.supervisor, folder)));
  o.register(worktrees.onDidChange(() => o.tree.invalidate()));
  // Another window's hold comes and goes with its lock file (watched); a holder that died without
  // letting go (a crash) changes no file: its rows are read again as the person comes back here.
  o.register(vscode.window.onDidChangeWindowState((s) => { if (s.focused && isTrusted()) void worktrees.recheckHolds(); }));

  const parts: WorktreeParts = { worktrees, get actions() { return actions(); }, checked: Promise.resolve({ available: false, reason: null }), recheck: () => (parts.checked = check()) };
  // Checks overlap (git's file events, a command's own check): each answers from its own reading,
  // and only the latest sets the context key, so an older one that finishes last says nothing.
  let latest = 0;
  const check = async () => {
    const n = ++latest;
    if (!isTrusted()) {
      // Not even `git rev-parse`: nothing visible needs the answer while untrusted (the welcome
      // text that uses the key shows only in a trusted workspace, and starts are refused).
      if (n === latest) await vscode.commands.executeCommand('setContext', NO_GIT_REPO_KEY, false);
      o.log.info('worktrees wait for workspace trust: git runs nothing here until then');
      return { available: false, reason: 'the workspace is not trusted' };
    }
    // Every folder of a multi-root workspace: a start runs in the active editor's folder, which
    // need not be the first, and each repository's leftover worktrees are listed.
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
    const found = await Promise.all(folders.map((f) => core().detectRepository(f)));
    const repos = found.filter((r) => r.status === 'repository');
    const reason = repos.length > 0 ? null : folders.length === 0 ? 'no folder is open' : found.map((r) => (r.status === 'repository' ? '' : r.reason)).join('; ');
    if (n === latest) await vscode.commands.executeCommand('setContext', NO_GIT_REPO_KEY, reason !== null);
    if (reason) o.log.info(`worktrees are not available: ${reason}`);
    // One after another: two folders of one repository list the same worktrees.
    for (const r of repos) await adoptLeftovers(r.root, r.mainRoot);
    return { available: reason === null, reason };
  };
  // Worktrees that workers of an earlier window left (stop and reload delete nothing): listed
  // again from git's own records, so they can still be reviewed, merged or discarded.
  const adoptLeftovers = async (root: string, mainRoot: string) => {
    // The rows as they were before git was asked (left to right: read before the await).
    const [before, [listed, registered]] = [worktrees.all(), await Promise.all([core().listWorkerWorktrees(root), core().listWorktreeEntries(root)])];
    if (registered) dropRemoved(worktrees, before, mainRoot, registered);
    // Known as the listing ends, not as it began: a worker may have started in one meanwhile.
    const known = new Set(worktrees.all().map((e) => e.worktree.path));
    for (const wt of listed) {
      // A worker's worktree opened as the workspace (Open Worktree in New Window) is the person's
      // checkout there, not a leftover to merge into itself or to discard from under the window.
      if (!known.has(wt.path) && wt.path !== root) worktrees.add(leftoverId(wt.branch), wt, root);
    }
  };
  // A folder that becomes a repository (git init, its first commit) is one at once, not after a
  // reload. Watched from the first check's end: making a watcher reads the folder's settings
  // (files.watcherExclude) and parses its pattern, a fifth of activation in an extension host,
  // and nothing needs it before there is a first answer to keep up to date.
  const watchGit = () => {
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const git = o.register(vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, '.git/{HEAD,refs/heads/**}')));
      const again = () => { parts.checked = check(); };
      o.register(git.onDidCreate(again));
      o.register(git.onDidChange(again));
      o.register(git.onDidDelete(again));
    }
  };
  // After activation: the check loads dist/extension-later.js, which activation itself does not. Untrusted, it
  // runs no git and the real check waits for trust (listing a leftover worktree runs git there).
  parts.checked = new Promise((resolve) => setTimeout(resolve, 0)).then(check).finally(watchGit);
  if (!isTrusted()) {
    const granted = o.register(vscode.workspace.onDidGrantWorkspaceTrust(() => {
      granted.dispose();
      parts.checked = check();
    }));
  }
  o.register(vscode.workspace.onDidChangeWorkspaceFolders(() => { parts.checked = check(); }));

  // The commands are never disabled (a disabled command is missing from the palette, and its
  // name typed there runs another); each asks again and, when it cannot run, says why.
  const unavailable = async () => {
    // The start commands' own refusal, before this check would run git.
    if (!isTrusted()) return refuseUntrusted();
    const r = await (parts.checked = check());
    if (r.available) return null;
    const message = `Starting a worker in its own worktree needs a git repository with at least one commit: ${r.reason}.`;
    void vscode.window.showErrorMessage(`RPC Workers: ${message}`);
    return { status: 'error' as const, error: message };
  };
  const reg = (id: string, fn: (arg: unknown) => unknown) => o.register(vscode.commands.registerCommand(id, fn));
  // Each runs git (a merge runs the repository's hooks) or acts on a worktree git listed.
  const trusted = (fn: (arg: unknown) => unknown) => (a: unknown) => (isTrusted() ? fn(a) : refuseUntrusted(UNTRUSTED_WORKTREE_REFUSAL));
  reg(WORKTREE_COMMANDS.startInWorktree, async (a) => (await unavailable()) ?? o.commands().startWorker(a, { inWorktree: true }));
  reg(WORKTREE_COMMANDS.startDemoInWorktree, async (a) => (await unavailable()) ?? o.commands().startDemoWorker(a, { inWorktree: true }));
  reg(WORKTREE_COMMANDS.openDiff, trusted((a) => actions().openDiff(a)));
  reg(WORKTREE_COMMANDS.merge, trusted((a) => actions().merge(a)));
  reg(WORKTREE_COMMANDS.openWindow, trusted((a) => actions().openInNewWindow(a)));
  reg(WORKTREE_COMMANDS.discard, trusted((a) => actions().discard(a)));
  reg(WORKTREE_COMMANDS.refresh, trusted((a) => refreshWorktrees(worktrees, a)));
  return parts;
}

/**
 * The leftovers of the repository at `mainRoot` (listed before git was asked) that git no longer
 * has (discarded in another window, git worktree remove): a row could only say its folder is gone,
 * and its Discard that nothing is left. One whose folder alone was deleted is still git's, its
 * branch too: it stays, to discard.
 */
function dropRemoved(worktrees: WorkerWorktrees, before: WorktreeEntry[], mainRoot: string, registered: Array<{ path: string }>): void {
  const paths = new Set(registered.map((e) => e.path));
  for (const e of before) {
    if (isLeftover(e.workerId) && e.worktree.mainRoot === mainRoot && !paths.has(e.worktree.path) && worktrees.get(e.workerId) === e) worktrees.remove(e.workerId);
  }
}

/** Refresh Worktree Changes: the worker's named, else every one listed. */
async function refreshWorktrees(worktrees: WorkerWorktrees, a: unknown) {
  const id = (a as { workerId?: string } | undefined)?.workerId;
  const ids = id ? [id] : worktrees.all().map((e) => e.workerId);
  // From the palette with no worker worktree listed: said, or the command looks as if it did not run.
  if (!ids.length) {
    const message = 'no worker has a worktree to refresh. Start Worker in New Worktree starts one in a worktree of its own.';
    void vscode.window.showInformationMessage(`RPC Workers: ${message}`);
    return { status: 'none', message };
  }
  await Promise.all(ids.map((w) => worktrees.refresh(w)));
  return { status: 'refreshed' };
}
