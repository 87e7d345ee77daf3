// How a guarded pi worker is started: the guard extension, its policy, and a tool list it can
// judge. pi 0.73.1's built-in tools are read, bash, edit, write, grep, find, ls
// (core/tools/index.js allToolNames); with no --tools it enables read, bash, edit, write (sdk.js).
import * as path from 'node:path';
import { policyToWire, type ResolvedPolicy } from './policy';

export const GUARD_ENV = 'RPC_WORKERS_GUARD';
export const PI_BUILTIN_TOOLS: readonly string[] = ['read', 'bash', 'edit', 'write', 'grep', 'find', 'ls'];
export const PI_DEFAULT_TOOLS: readonly string[] = ['read', 'bash', 'edit', 'write'];

/**
 * pi's `--tools` list under the guard: pi's own tools only (the guard cannot tell what another
 * tool writes), and bash only when the policy allows it, since no path check confines a shell.
 */
export function guardedTools(requestedTools: string[] | undefined, policy: ResolvedPolicy): string[] {
  const wanted = requestedTools ?? PI_DEFAULT_TOOLS;
  const kept = wanted.map((t) => t.trim()).filter((t) => PI_BUILTIN_TOOLS.includes(t) && (t !== 'bash' || policy.bash));
  return [...new Set(kept)];
}

export function piGuardLaunch(
  policy: ResolvedPolicy,
  cwd: string,
  guardBundlePath: string,
  requestedTools?: string[],
): { args: string[]; env: Record<string, string> } {
  // pi resolves -e against the worker's cwd, which is not where the bundle is.
  if (!path.isAbsolute(guardBundlePath)) throw new Error(`guard bundle path ${JSON.stringify(guardBundlePath)} is not absolute`);
  const tools = guardedTools(requestedTools, policy);
  return {
    args: ['-e', guardBundlePath, ...(tools.length > 0 ? ['--tools', tools.join(',')] : ['--no-tools'])],
    env: { [GUARD_ENV]: JSON.stringify(policyToWire(policy, cwd)) },
  };
}
