// Real git repositories for the worktree tests, made in a temp folder.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createWorktree, type WorkerWorktree } from '../../src/core/worktree';

export const sh = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

/** A repository on branch main with one commit of `files` (and a .gitignore of ignored/). */
export function makeRepo(files: Record<string, string> = { 'a.txt': 'one\ntwo\nthree\n', 'b.txt': 'bee\n', 'gone.txt': 'x\n', 'old.txt': 'a file long enough\nto be seen as renamed\nwhen it moves\n' }): { dir: string; repo: string } {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'rpcw-wt-')));
  const repo = path.join(dir, 'proj');
  mkdirSync(repo);
  sh(repo, 'init', '-q', '-b', 'main');
  sh(repo, 'config', 'user.name', 'Test Person');
  sh(repo, 'config', 'user.email', 'person@example.com');
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(repo, name), text);
  writeFileSync(path.join(repo, '.gitignore'), 'ignored/\n');
  sh(repo, 'add', '-A');
  sh(repo, 'commit', '-q', '-m', 'start');
  return { dir, repo };
}

export async function created(repo: string, workerName: string, extra: { worktreesDir?: string } = {}): Promise<WorkerWorktree> {
  const r = await createWorktree({ folder: repo, workerName, ...extra });
  if (r.status !== 'created') return assert.fail(JSON.stringify(r));
  return r.worktree;
}
