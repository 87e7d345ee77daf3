// The guard as a wall, for agents that ask before they act or write through the host (ACP): a
// write outside the policy is refused before it happens, not reported after it landed.
import { extractPaths, extractRelativeNames, forbiddenName, judgeChange, movedFolderVeto, READING_KINDS, subagentCall, WRITING_KINDS } from './audit';
import { judgedWithLooks, type FolderLooks } from './contents';
import { judgePath, type ResolvedPolicy } from './policy';
import { SHELL_ALLOWED_BY } from './veto';
import type { PermissionAsk } from '../api';

/** Why the guard refuses a write of `raw` (relative to `cwd`); null: allowed. */
export function writeVeto(policy: ResolvedPolicy, raw: string, cwd: string): string | null {
  const v = judgePath(policy, raw, cwd);
  return v.allowed ? null : `write to ${JSON.stringify(v.resolved || raw)}: ${v.rule}`;
}

/** The wall's answer to a question. */
export interface WallVerdict {
  /** Why the guard rejects the call without asking; null: the person may be asked. */
  veto: string | null;
  /**
   * The wall judged the call: false for one whose kind does not say what it does and that names
   * no path the guard can read (an MCP tool, kind "other"). Such a call is still audited when it
   * runs, and no "allow always" may answer it (nothing confines what it writes).
   */
  judged: boolean;
}

type WallAsk = Pick<PermissionAsk, 'toolKind' | 'args' | 'diffs' | 'locations'> & Partial<Pick<PermissionAsk, 'title'>>;

/**
 * The wall's judgement of a call the agent asks about. A call that would change files is judged by
 * every path it names (its locations, its diffs, what its input names: extractPaths); one that names none
 * cannot be confined and is rejected. A call whose kind does not say it only reads (kind "other":
 * Claude's NotebookEdit, an MCP tool) is judged by the paths it names too, and is not judged when
 * it names none, unless `refuseUnjudged` (a worker whose violations abort its turn: asked and
 * allowed, such a call would run, be flagged by the audit, and end the turn), then it is rejected.
 * A shell is rejected unless the policy allows bash, as pi's guard drops it. A folder deleted or
 * moved is judged by what it holds, walked off the thread first (judgedWithLooks).
 */
export function permissionVerdict(policy: ResolvedPolicy, ask: WallAsk, cwd: string, refuseUnjudged = false): Promise<WallVerdict> {
  return judgedWithLooks(policy.forbidden, (looks) => wallVerdict(policy, ask, cwd, { refuseUnjudged, looks }));
}

function wallVerdict(policy: ResolvedPolicy, ask: WallAsk, cwd: string, { refuseUnjudged, looks }: { refuseUnjudged: boolean; looks: FolderLooks }): WallVerdict {
  const kind = ask.toolKind ?? '';
  if (kind === 'execute') return { veto: policy.bash ? null : `a shell command under the guard: a shell cannot be confined by path checks, and bash is not allowed ${SHELL_ALLOWED_BY}`, judged: true };
  // A subagent's own calls are never seen: as unjudged as an MCP tool naming no path.
  const subagent = subagentCall(kind, ask.title);
  if (subagent) return refuseUnjudged ? { veto: `${subagent}, and this worker's violations abort its turn`, judged: true } : { veto: null, judged: false };
  const writes = WRITING_KINDS.has(kind) || ask.diffs.length > 0;
  // A read is not confined: the guard confines writes (the audit passes these kinds too).
  if (!writes && READING_KINDS.has(kind)) return { veto: null, judged: true };
  const named = [...ask.locations.map((l) => l.path), ...ask.diffs.map((d) => d.path)];
  // Copilot CLI 1.0.102's patch text names an absolute path with git's prefix in place of its
  // leading slash ("+++ b/tmp/w/src/new.txt" for /tmp/w/src/new.txt): a name that is, with the
  // slash back, one of the absolute paths the question names is that file, not one under cwd.
  const fromArgs = extractPaths(ask.args ?? {}).map((p) => (!p.startsWith('/') && named.includes(`/${p}`) ? `/${p}` : p));
  const paths = [...new Set([...named, ...fromArgs])];
  // A call of another kind is named by its title too: "other" alone does not say which tool.
  const what = writes ? kind || 'change' : `${ask.title || 'a call'} (kind ${JSON.stringify(kind || 'none')})`;
  // A relative word under a field the guard does not know may name a file: one that lands on a
  // forbidden name (`target_file: ".vscode/settings.json"`) is refused; it confines nothing else.
  const forbidden = forbiddenName(policy, extractRelativeNames(ask.args ?? {}), cwd);
  if (paths.length === 0) {
    if (forbidden) return { veto: `${what} ${JSON.stringify(forbidden.raw)}: ${forbidden.rule}`, judged: true };
    if (writes) return { veto: `${kind || 'a change'} that names no path: the guard cannot tell what it writes`, judged: true };
    if (!refuseUnjudged) return { veto: null, judged: false };
    return { veto: `${what} names no path the guard can judge, and this worker's violations abort its turn (rpcWorkers.guard.onViolation "flag" puts such a call to you, flagged when it runs)`, judged: true };
  }
  for (const raw of paths) {
    const v = judgeChange(policy, raw, cwd, kind, looks);
    if (!v.allowed) return { veto: `${what} ${JSON.stringify(raw)}: ${v.rule}`, judged: true };
  }
  const moved = kind === 'move' ? movedFolderVeto(policy, paths, cwd, looks) : null;
  if (moved) return { veto: `${what} ${JSON.stringify(moved.raw)}: ${moved.rule}`, judged: true };
  if (forbidden) return { veto: `${what} ${JSON.stringify(forbidden.raw)}: ${forbidden.rule}`, judged: true };
  return { veto: null, judged: true };
}

/** Why the guard rejects a call the agent asks about; null: the person may be asked (see permissionVerdict). */
export async function permissionVeto(policy: ResolvedPolicy, ask: WallAsk, cwd: string): Promise<string | null> {
  return (await permissionVerdict(policy, ask, cwd)).veto;
}
