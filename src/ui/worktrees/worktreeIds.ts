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

/** True when the workspace folder is a git repository with a commit. */
export const GIT_REPO_KEY = 'rpcWorkers.worktreesAvailable';
