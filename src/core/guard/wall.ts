// The guard as a wall, for agents that ask before they act or write through the host (ACP): a
// write outside the policy is refused before it happens, not reported after it landed.
import { extractPaths } from './audit';
import { judgePath, type ResolvedPolicy } from './policy';
import type { PermissionAsk } from '../api';

/** ACP tool kinds that change files. */
const WRITING_KINDS: ReadonlySet<string> = new Set(['edit', 'delete', 'move']);

/** Why the guard refuses a write of `raw` (relative to `cwd`); null: allowed. */
export function writeVeto(policy: ResolvedPolicy, raw: string, cwd: string): string | null {
  const v = judgePath(policy, raw, cwd);
  return v.allowed ? null : `write to ${JSON.stringify(v.resolved || raw)}: ${v.rule}`;
}

/**
 * Why the guard rejects a call the agent asks about; null: the person may be asked. A call that
 * would change files is judged by every path it names (its locations, its diffs, path fields of
 * its input); one that names none cannot be confined and is rejected. A shell is rejected unless
 * the policy allows bash, as pi's guard drops it.
 */
export function permissionVeto(policy: ResolvedPolicy, ask: Pick<PermissionAsk, 'toolKind' | 'args' | 'diffs' | 'locations'>, cwd: string): string | null {
  const kind = ask.toolKind ?? '';
  if (kind === 'execute') return policy.bash ? null : 'a shell command under the guard: a shell cannot be confined by path checks, and bash is not allowed';
  if (!WRITING_KINDS.has(kind) && ask.diffs.length === 0) return null;
  const named = [...ask.locations.map((l) => l.path), ...ask.diffs.map((d) => d.path)];
  // Copilot CLI 1.0.102's patch text names an absolute path with git's prefix in place of its
  // leading slash ("+++ b/tmp/w/src/new.txt" for /tmp/w/src/new.txt): a name that is, with the
  // slash back, one of the absolute paths the question names is that file, not one under cwd.
  const fromArgs = extractPaths(ask.args ?? {}).map((p) => (!p.startsWith('/') && named.includes(`/${p}`) ? `/${p}` : p));
  const paths = [...new Set([...named, ...fromArgs])];
  if (paths.length === 0) return `${kind || 'a change'} that names no path: the guard cannot tell what it writes`;
  for (const raw of paths) {
    const v = judgePath(policy, raw, cwd);
    if (!v.allowed) return `${kind || 'change'} ${JSON.stringify(raw)}: ${v.rule}`;
  }
  return null;
}
