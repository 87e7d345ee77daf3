// How the host starts a program a person named (a worker, an agent's terminal command, a
// `--version` probe). On Windows, `npm install -g` makes a `.cmd` shim for each program
// (claude-agent-acp.cmd, pi.cmd, npx.cmd): Node's spawn without a shell looks only for .exe/.com
// (ENOENT), and since Node 20.12 refuses to start a .cmd itself (EINVAL, CVE-2024-27980).
// cross-spawn finds the file through PATHEXT and runs a shim through cmd.exe, each argument quoted
// for cmd. Elsewhere its parse returns the command, args and options as given: what is started is
// what child_process.spawn was always asked.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import crossSpawn from 'cross-spawn';

export interface LaunchCommand {
  command: string;
  args: string[];
  /** The caller's options, with `windowsVerbatimArguments` set when cmd.exe runs the program. */
  options: SpawnOptions;
  /** The file the command was found as on Windows; undefined elsewhere, or when it was not found. */
  file: string | undefined;
  /** The command and args as asked, for the error that names a command cmd.exe did not find. */
  original: { command: string; args: string[] };
}

/** What to spawn for `command` and `args` (`options.env` is the PATH and PATHEXT searched, `options.cwd` the folder). */
export function launchCommand(command: string, args: readonly string[], options: SpawnOptions): LaunchCommand {
  return crossSpawn._parse(command, args, options);
}

/**
 * child_process.spawn of launchCommand's answer. On Windows a command cmd.exe did not find ends
 * cmd with code 1: cross-spawn's hook reports that as spawn's ENOENT error, as Node does elsewhere.
 */
export function spawnProgram(command: string, args: readonly string[], options: SpawnOptions): ChildProcess {
  const launch = launchCommand(command, args, options);
  const child = spawn(launch.command, launch.args, launch.options);
  crossSpawn._enoent.hookChildProcess(child, launch);
  return child;
}
