// For workers the host cannot load a guard into (τ, others): judge a tool call from its arguments
// as it is reported. This reports a violation; only an in-process guard can prevent one.
import { judgePath, type ResolvedPolicy } from './policy';

/** Tools that only read: their paths are not judged, a guard confines writes. */
export const READ_ONLY_TOOLS: ReadonlySet<string> = new Set(['read', 'grep', 'find', 'ls']);
export const SHELL_TOOLS: ReadonlySet<string> = new Set(['bash', 'shell']);

const PATH_KEYS = new Set([
  'path', 'file_path', 'filePath', 'file', 'filename', 'target', 'target_path', 'destination', 'dest',
  'source', 'from', 'to', 'old_path', 'new_path', 'paths', 'files',
]);
const PATCH_KEYS = new Set(['patch', 'diff', 'input']);
const MAX_DEPTH = 4;

/** File names in a Codex-style patch or a unified diff. */
export function patchPaths(text: string): string[] {
  const found: string[] = [];
  for (const line of text.split('\n')) {
    const codex = /^\*\*\* (?:(?:Add|Update|Delete) File|Move to): (.+?)\r?$/.exec(line);
    const unified = /^(?:\+\+\+|---) (?:[ab]\/)?(.+?)(?:\t.*)?\r?$/.exec(line);
    const name = codex?.[1] ?? unified?.[1];
    if (name && name !== '/dev/null') found.push(name);
  }
  return [...new Set(found)];
}

function collect(value: unknown, key: string | null, depth: number, out: string[]): void {
  if (depth > MAX_DEPTH) return;
  if (typeof value === 'string') {
    if (key !== null && PATH_KEYS.has(key)) out.push(value);
    else if (key !== null && PATCH_KEYS.has(key)) out.push(...patchPaths(value));
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) collect(item, key, depth + 1, out);
    return;
  }
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) collect(v, k, depth + 1, out);
  }
}

export function extractPaths(args: unknown): string[] {
  const out: string[] = [];
  collect(args, null, 0, out);
  return [...new Set(out)];
}

export interface AuditResult {
  violation: string | null;
  /** Where the judged paths resolve to (empty for read-only tools and shells). */
  paths: string[];
}

export function auditToolCall(policy: ResolvedPolicy, toolName: string, args: unknown, cwd: string): AuditResult {
  if (READ_ONLY_TOOLS.has(toolName)) return { violation: null, paths: [] };
  if (SHELL_TOOLS.has(toolName)) {
    return policy.bash
      ? { violation: null, paths: [] }
      : { violation: `${toolName} under the guard: a shell cannot be audited by path, and bash is not allowed`, paths: [] };
  }
  let violation: string | null = null;
  const paths: string[] = [];
  for (const raw of extractPaths(args)) {
    const verdict = judgePath(policy, raw, cwd);
    if (verdict.resolved) paths.push(verdict.resolved);
    if (!verdict.allowed && violation === null) violation = `${toolName} ${JSON.stringify(raw)}: ${verdict.rule}`;
  }
  return { violation, paths };
}
