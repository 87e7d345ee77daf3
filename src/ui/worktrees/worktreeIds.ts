// The worktree room's command ids and context key (declared in package.json).
export const WORKTREE_COMMANDS = {
  startInWorktree: 'rpcWorkers.startWorkerInWorktree',
  startDemoInWorktree: 'rpcWorkers.startDemoWorkerInWorktree',
  openDiff: 'rpcWorkers.worktree.openDiff',
  merge: 'rpcWorkers.worktree.merge',
  openWindow: 'rpcWorkers.worktree.openInNewWindow',
  discard: 'rpcWorkers.worktree.discard',
  refresh: 'rpcWorkers.worktree.refresh',
} as const;

/**
 * True once the check has found no workspace folder a git repository with a commit. Unset (false)
 * until then: the Sessions view's welcome says the folder is none only when that is known, not in
 * each new window while the check waits for activation and git.
 */
export const NO_GIT_REPO_KEY = 'rpcWorkers.worktreesUnavailable';
