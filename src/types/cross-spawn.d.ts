// The part of cross-spawn (pinned in package.json) the host uses: its parse, which turns a
// command into what Windows can start, and its hook that reports a command cmd.exe did not find
// as ENOENT. Declared here, not taken from @types/cross-spawn, which leaves out both.
declare module 'cross-spawn' {
  import type { ChildProcess, SpawnOptions } from 'node:child_process';

  interface Parsed {
    command: string;
    args: string[];
    options: SpawnOptions;
    /** The file the command was found as (Windows only); undefined when not found or not on Windows. */
    file: string | undefined;
    original: { command: string; args: string[] };
  }

  function spawn(command: string, args: readonly string[], options: SpawnOptions): ChildProcess;
  namespace spawn {
    function _parse(command: string, args: readonly string[], options: SpawnOptions): Parsed;
    const _enoent: { hookChildProcess(child: ChildProcess, parsed: Parsed): void };
  }
  export = spawn;
}
