// The git CLI, run with execFile (no shell: a path or a branch name is never parsed as a
// command). Never throws: a missing git, a timeout or a failing command comes back as a
// result whose `error` quotes git's own words, so each caller can turn it into a clear status.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';

export interface GitResult {
  ok: boolean;
  code: number | null;
  stdout: string;
  stderr: string;
  /** Set when git could not run at all (not installed, timed out, output too large). */
  error: string | null;
}

export interface GitOptions {
  env?: Record<string, string>;
  timeoutMs?: number;
}

const MAX_BUFFER = 64 * 1024 * 1024;

export function git(cwd: string, args: string[], options: GitOptions = {}): Promise<GitResult> {
  return new Promise((resolve) => {
    execFile('git', args, {
      cwd,
      // English messages (they are shown and sometimes matched), and never a credential prompt.
      env: { ...process.env, LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', ...options.env },
      maxBuffer: MAX_BUFFER,
      timeout: options.timeoutMs ?? 60_000,
      windowsHide: true,
      encoding: 'utf8',
    }, (err, stdout, stderr) => {
      if (!err) return resolve({ ok: true, code: 0, stdout, stderr, error: null });
      const e = err as NodeJS.ErrnoException & { code?: number | string; killed?: boolean };
      // Node says ENOENT for a missing cwd too (a worktree folder deleted by hand), not only for a missing git.
      if (e.code === 'ENOENT') return resolve({ ok: false, code: null, stdout, stderr, error: existsSync(cwd) ? 'git is not installed or not on the PATH' : `the folder ${cwd} does not exist (was it deleted or moved?)` });
      if (e.killed) return resolve({ ok: false, code: null, stdout, stderr, error: `git ${args[0]} took longer than ${(options.timeoutMs ?? 60_000) / 1000} s and was stopped` });
      if (typeof e.code !== 'number') return resolve({ ok: false, code: null, stdout, stderr, error: `git ${args[0]} could not run: ${e.message}` });
      resolve({ ok: false, code: e.code, stdout, stderr, error: null });
    });
  });
}

/** A blob's bytes (`<commit>:<path>`, `:<stage>:<path>`); null when git has no such object. */
export function gitBytes(cwd: string, spec: string): Promise<Buffer | null> {
  return new Promise((resolve) => {
    execFile('git', ['cat-file', 'blob', spec], { cwd, env: { ...process.env, LC_ALL: 'C', GIT_OPTIONAL_LOCKS: '0' }, maxBuffer: MAX_BUFFER, encoding: 'buffer', windowsHide: true },
      (err, stdout) => resolve(err ? null : stdout));
  });
}

/** What went wrong, in git's words where it said any. */
export function gitFailure(r: GitResult, what: string): string {
  if (r.error) return `${what}: ${r.error}`;
  const said = (r.stderr.trim() || r.stdout.trim()).split('\n').filter(Boolean).slice(-6).join('\n');
  return `${what}: git exited with code ${r.code}${said ? `: ${said}` : ''}`;
}

/** Split `-z` output into its fields. */
export function zFields(out: string): string[] {
  const fields = out.split('\0');
  if (fields[fields.length - 1] === '') fields.pop();
  return fields;
}
