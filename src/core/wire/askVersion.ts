// A program's `--version`, asked while its worker starts (a pi behind a launcher script, a τ
// without its package's metadata beside it). A program that does not answer in time is ended
// with everything it started: execFile's own timeout ended only the process it spawned (pi's
// launcher sh, or cmd.exe on Windows), and the program itself ran on, for as long as it liked.
import { spawn, type ChildProcess } from 'node:child_process';
import { launchCommand } from '../worker/launchCommand';
import { processTree, signalTree, taskkill, type ProcInfo } from '../worker/processTree';

/** `read`: the version in what the program printed, or null. Never fails: an unknown version is null. */
export function askVersion(command: string, env: Record<string, string | undefined>, cwd: string, timeoutMs: number, read: (stdout: string) => string | null): Promise<string | null> {
  return new Promise((resolve) => {
    // Through cmd.exe on Windows, where the program is npm's .cmd shim (launchCommand.ts). In a
    // process group of its own elsewhere, as a worker is: ending the tree signals each group in it,
    // and on macOS (no /proc to tell the host's own group) the host's group would have been one.
    // spawn, as execFile passes no `detached` on.
    const run = launchCommand(command, ['--version'], { env: env as NodeJS.ProcessEnv, cwd, windowsHide: true, detached: process.platform !== 'win32', stdio: ['ignore', 'pipe', 'ignore'] });
    const done = (version: string | null) => {
      clearTimeout(timer);
      resolve(version);
    };
    let child: ChildProcess;
    try {
      child = spawn(run.command, run.args, run.options);
    } catch {
      return resolve(null);
    }
    let out = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      // A version is a line: an endless stream is not kept.
      if (out.length < 64 * 1024) out += chunk;
    });
    child.on('error', () => done(null));
    child.on('close', (code) => done(code === 0 ? read(out) : null));
    const timer = setTimeout(() => {
      // Answered first: the kill below may fail, and a start must not wait on it.
      resolve(null);
      endCommand(child);
      // A process that left the tree may still hold the output: nothing waits for it.
      child.stdout?.destroy();
    }, timeoutMs);
    timer.unref();
  });
}

/**
 * Ends the process `child` spawned and everything below it. Once that process has exited and been
 * reaped (an `exitCode` or `signalCode`) its pid may be another program's: nothing is signalled.
 * Where the process table cannot be read (`ps` failed), the process spawned is ended alone, as
 * execFile's timeout did. `readTree`: the process table's reading of the tree.
 */
export function endCommand(child: Pick<ChildProcess, 'pid' | 'exitCode' | 'signalCode' | 'kill'>, readTree: (pid: number) => ProcInfo[] = processTree): void {
  const pid = child.pid;
  if (pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  if (process.platform === 'win32') return taskkill(pid, { force: true });
  let tree: ProcInfo[];
  try {
    tree = readTree(pid);
  } catch {
    tree = [];
  }
  if (tree.length) signalTree(tree, 'SIGKILL');
  else child.kill('SIGKILL');
}
