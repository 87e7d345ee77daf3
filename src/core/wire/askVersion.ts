// A program's `--version`, asked while its worker starts (a pi behind a launcher script, a τ
// without its package's metadata beside it). A program that does not answer in time is ended
// with everything it started: execFile's own timeout ended only the process it spawned (pi's
// launcher sh, or cmd.exe on Windows), and the program itself ran on, for as long as it liked.
import { execFile } from 'node:child_process';
import { launchCommand } from '../worker/launchCommand';
import { processTree, signalTree, taskkill } from '../worker/processTree';

/** `read`: the version in what the program printed, or null. Never fails: an unknown version is null. */
export function askVersion(command: string, env: Record<string, string | undefined>, cwd: string, timeoutMs: number, read: (stdout: string) => string | null): Promise<string | null> {
  return new Promise((resolve) => {
    // Through cmd.exe on Windows, where the program is npm's .cmd shim (launchCommand.ts).
    const run = launchCommand(command, ['--version'], { env: env as NodeJS.ProcessEnv, cwd, windowsHide: true });
    const child = execFile(run.command, run.args, { ...run.options, encoding: 'utf8' }, (error, stdout) => {
      clearTimeout(timer);
      resolve(error ? null : read(String(stdout)));
    });
    const timer = setTimeout(() => {
      const pid = child.pid;
      if (pid !== undefined) {
        if (process.platform === 'win32') taskkill(pid, { force: true });
        else signalTree(processTree(pid), 'SIGKILL');
      }
      // A process that left the tree may still hold the output: the answer does not wait for it.
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve(null);
    }, timeoutMs);
    timer.unref();
  });
}
