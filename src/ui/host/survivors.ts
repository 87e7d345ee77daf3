// Workers that outlived a window whose extension host crashed: the host records each worker it
// starts in a registry file; on the next activation the ones still alive (the same process, not
// a reused pid) whose host is gone are offered to be stopped. Without this a crashed host leaves
// no way back to them.
import type { RegistryEntry, SurvivorStop } from '../../core/index';

export const STOP = 'Stop Them';
export const LEAVE = 'Leave Running';

export interface SurvivorDeps {
  find(file: string): RegistryEntry[];
  stop(entries: RegistryEntry[], options: { registryFile: string }): Promise<SurvivorStop[]>;
  /** Asks the person; resolves to the button chosen, or undefined when dismissed. */
  ask(message: string, ...buttons: string[]): Promise<string | undefined>;
  tell(message: string, isError: boolean): void;
  log(message: string): void;
}

function describe(e: RegistryEntry): string {
  const program = e.command.split(/[\\/]/).pop() ?? e.command;
  return `${program} (pid ${e.pid}, in ${e.cwd})`;
}

/** Returns what was done, for the tests: `none`, `left`, or the stop results. */
export async function offerSurvivorStop(registryFile: string, deps: SurvivorDeps): Promise<'none' | 'left' | SurvivorStop[]> {
  const found = deps.find(registryFile);
  if (found.length === 0) return 'none';
  const what = found.map(describe).join(', ');
  deps.log(`workers that outlived an earlier window: ${what}`);
  const choice = await deps.ask(
    `RPC Workers: ${found.length === 1 ? 'a worker' : `${found.length} workers`} from a window that did not shut down cleanly ${found.length === 1 ? 'is' : 'are'} still running: ${what}. Stop ${found.length === 1 ? 'it' : 'them'}?`,
    STOP, LEAVE,
  );
  if (choice !== STOP) return 'left';
  const results = await deps.stop(found, { registryFile });
  const failed = results.filter((r) => r.status === 'failed' || r.status === 'refused');
  for (const r of results) deps.log(`survivor pid ${r.pid}: ${r.status}${r.killed ? ' (SIGKILL)' : ''}${r.remaining.length ? `, still alive: ${r.remaining.join(', ')}` : ''}`);
  if (failed.length) deps.tell(`RPC Workers: ${failed.length} of ${results.length} could not be stopped (pids ${failed.map((r) => r.remaining.join(', ') || r.pid).join('; ')}); see the RPC Workers log.`, true);
  else deps.tell(`RPC Workers: stopped ${results.length === 1 ? 'the worker' : `${results.length} workers`} left by the earlier window.`, false);
  return results;
}
