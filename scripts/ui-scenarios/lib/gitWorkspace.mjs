// A scenario's own copy of the sample workspace, made a git repository with one commit, for the
// scenarios whose workers start in worktrees of their own.
import { execFileSync } from 'node:child_process';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { SAMPLE_WORKSPACE } from '../../lib/code-server.mjs';
import { makeTempDir } from '../../lib/paths.mjs';

/** git's output in `cwd`, as text; its errors thrown with their stderr. */
export const git = (cwd, ...args) => execFileSync('git', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] }).toString();

/** `{ root, ws }`: a temporary folder (remove it after) holding the workspace `ws`, committed on `main`. */
export function gitWorkspace(name) {
  const root = makeTempDir(name);
  const ws = join(root, 'workspace');
  cpSync(SAMPLE_WORKSPACE, ws, { recursive: true });
  git(ws, 'init', '-q', '-b', 'main');
  git(ws, 'config', 'user.email', 'person@example.com');
  git(ws, 'config', 'user.name', 'A Person');
  git(ws, 'add', '-A');
  git(ws, 'commit', '-q', '-m', 'The sample workspace');
  return { root, ws };
}
