// Another window's hold on a worktree comes and goes as git's `locked` file in the worktree's
// own folder under the repository's .git (worktrees/<name>/locked). Watched there, a window learns
// that a worker elsewhere started or stopped at once, without running git every few seconds.
// A holder that dies without letting go (a crash) leaves the file: the watch cannot tell, the
// window's next look does (the UI reads the holds again when the window gets the focus).
import { readFileSync, watch } from 'node:fs';
import path from 'node:path';

/** git's folder for a linked worktree, from the worktree's `.git` file (`gitdir: …`); null when unreadable. */
export function worktreeGitDir(worktreePath: string): string | null {
  try {
    const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(path.join(worktreePath, '.git'), 'utf8'));
    return m ? path.resolve(worktreePath, m[1]) : null;
  } catch {
    return null;
  }
}

/** Calls `onChange` when the worktree's lock is made, changed or taken away; a no-op when it cannot watch. */
export function watchHold(worktreePath: string, onChange: () => void): { dispose(): void } {
  const dir = worktreeGitDir(worktreePath);
  if (!dir) return { dispose() {} };
  try {
    // Not persistent: a watch keeps no process alive. The folder's other files (HEAD, index) change
    // as the worker works: only the lock's name counts (null: the platform did not say which).
    const w = watch(dir, { persistent: false }, (_event, name) => { if (name === null || name === 'locked') onChange(); });
    // The folder goes with a discarded worktree: the watch ends, nothing to report.
    w.on('error', () => w.close());
    return { dispose: () => w.close() };
  } catch {
    return { dispose() {} };
  }
}
