// For workers the host cannot load a guard into (τ, others): judge a tool call from its arguments
// as it is reported. This reports a violation; only an in-process guard can prevent one. It
// fails closed: what it does not know (a tool, an argument) is a violation, not a pass.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { judgedWithLooks, NOT_LOOKED, type FolderLooks } from './contents';
import { isOtherUsersHome, MAX_PATH_CHARS, splitPath } from './paths';
import { judgePath, type ResolvedPolicy, type Verdict } from './policy';
import { SHELL_ALLOWED_BY } from './veto';

/** Tools that only read: their paths are not judged, a guard confines writes. */
export const READ_ONLY_TOOLS: ReadonlySet<string> = new Set(['read', 'grep', 'find', 'ls']);
export const SHELL_TOOLS: ReadonlySet<string> = new Set(['bash', 'shell']);

const PATH_KEYS = new Set([
  'path', 'file_path', 'filePath', 'file', 'filename', 'target', 'target_path', 'destination', 'dest',
  'source', 'from', 'to', 'old_path', 'new_path', 'paths', 'files',
  // Claude's NotebookEdit (claude-agent-acp 0.101.0 asks about it as kind "other", its notebook
  // named only here: no locations, no diff).
  'notebook_path',
]);
const PATCH_KEYS = new Set(['patch', 'diff', 'input']);
/** File names in a Codex-style patch or a unified diff. */
export function patchPaths(text: string): string[] {
  const found: string[] = [];
  for (const line of text.split('\n')) {
    const codex = /^\*\*\* (?:(?:Add|Update|Delete) File|Move to): (.+?)\r?$/.exec(line);
    const unified = /^(?:\+\+\+|---) (?:[ab]\/)?(.+?)(?:\t.*)?\r?$/.exec(line);
    const name = codex?.[1] ?? unified?.[1];
    // A new or deleted file's other side is /dev/null; Copilot CLI 1.0.102 writes it with git's
    // prefix ("--- a/dev/null"), which is no file of the worker's either.
    if (name && name !== '/dev/null' && !(unified && name === 'dev/null')) found.push(name);
  }
  return [...new Set(found)];
}

/**
 * Fields whose strings are text a call writes or says, not a file it names: the agents' edit
 * tools (Claude's, Copilot's `old_str`/`new_str`, OpenCode's, Gemini's `instruction`, Claude's
 * NotebookEdit `new_source`). A line of code such as `/api/v1` or `../x` there is no path.
 */
const TEXT_KEYS = new Set([
  'content', 'file_text', 'old_string', 'new_string', 'oldString', 'newString', 'old_str', 'new_str',
  'oldText', 'newText', 'new_source', 'text', 'description', 'instruction',
]);

/**
 * A string that names a place by its form, whatever the field it is in: absolute, `~`, a file
 * URL, or with a `..` segment. The call may write there (an MCP tool's `output_file`, a
 * `save_to`), so it is judged; a plain relative word (`main`, `feature/x`) is not, since under
 * narrow allowed paths it would refuse calls that name no file at all.
 */
function looksLikePath(value: string): boolean {
  if (value.length === 0 || value.length > MAX_PATH_CHARS || /[\r\n]/.test(value)) return false;
  if (isRegexLiteral(value)) return false;
  return standsAlone(value) || splitPath(value).segments.includes('..');
}

/**
 * A regular expression written as a literal (`/a+/`, `/^v\d+$/i`), as a search tool takes one: one
 * body between two slashes, with no slash in it and at least one character that only a pattern
 * uses (`.` is in file names, so it does not count), and flags only after. Read as a path it
 * named a folder or file right under `/` and was refused. A path with a second folder in it, or
 * with none of those characters, is still judged; what this lets pass is a name directly under
 * the root spelt with pattern characters, and the flag file under it.
 */
function isRegexLiteral(value: string): boolean {
  return /^\/[^/]*[\^$+*?()[\]{}|\\][^/]*\/[dgimsuvy]*$/.test(value);
}

/**
 * A relative string that may name a file under a field the guard does not know (`target_file:
 * ".vscode/settings.json"`): one word (no white space), a `/` in it or a leading `.`, and no URL
 * scheme. Judged against the allowed paths it would refuse branches, routes and globs, so it is
 * judged against the forbidden names only (judgePath's `forbiddenOnly`).
 */
function mayNameFile(value: string): boolean {
  if (value.length === 0 || value.length > MAX_PATH_CHARS || /\s/.test(value)) return false;
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(value)) return false;
  return value.includes('/') || value.includes(path.sep) || value.startsWith('.');
}

/**
 * Fields that say where a call runs (an MCP tool's `cwd`, Codex's `workdir`): a relative path
 * beside one, or nested under it, is written there, not in the worker's folder.
 */
const CWD_KEYS = new Set(['cwd', 'workdir', 'working_directory', 'workingDirectory']);

/** A string a tool reads without a base folder: absolute, `~` or a file URL. */
function standsAlone(value: string): boolean {
  return path.isAbsolute(value) || value === '~' || value.startsWith('~/') || isOtherUsersHome(value) || /^file:\/\//i.test(value);
}

/**
 * `raw` as written from `base` (the call's own cwd; null: the worker's). Joined as text, not
 * resolved: judgePath walks it, so a symlink or `..` in the cwd is judged where it leads.
 */
function under(base: string | null, raw: string): string {
  return base === null || standsAlone(raw) ? raw : `${base}${path.sep}${raw}`;
}

interface Named {
  /** Judged against the whole policy. */
  paths: string[];
  /** Judged against the forbidden names only. */
  relative: string[];
}

/**
 * Every path a call's input names: the fields known to hold one (at any depth), the file names
 * of patch text, and any other string shaped like a path; and apart, the relative strings of
 * other fields that may name a file (mayNameFile). No depth limit: a path nested deeper than the
 * walk looked was judged as if absent (the input is JSON, bounded by the line cap). A relative
 * one beside or under a `cwd` field is named from that cwd (under): judged against the worker's
 * folder, `{cwd: "/elsewhere", path: "x"}` passed as a write inside it.
 */
function collect(args: unknown, out: Named): void {
  const stack: Array<[unknown, string | null, string | null]> = [[args, null, null]];
  while (stack.length > 0) {
    const [value, key, base] = stack.pop() as [unknown, string | null, string | null];
    if (typeof value === 'string') {
      if (key !== null && TEXT_KEYS.has(key)) continue;
      if ((key !== null && PATH_KEYS.has(key)) || looksLikePath(value)) out.paths.push(under(base, value));
      else if (mayNameFile(value)) out.relative.push(under(base, value));
      if (key !== null && PATCH_KEYS.has(key)) out.paths.push(...patchPaths(value).map((p) => under(base, p)));
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], key, base]);
    } else if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value);
      // A key may be the path: Codex's file changes are a map keyed by the file (Zed's codex-acp
      // reports `changes: {"/ws/.env": {type: "update", move_path: "/ws/env.txt"}}` as the call's
      // input), a move's source named nowhere else.
      for (const [k] of entries) if (looksLikePath(k)) out.paths.push(under(base, k));
      // The call's own cwd (itself read from the outer one) is where its relative paths land.
      const cwd = entries.find(([k, v]) => CWD_KEYS.has(k) && typeof v === 'string' && v.length > 0)?.[1] as string | undefined;
      const inner = cwd === undefined ? base : under(base, cwd);
      for (const [k, v] of entries.reverse()) stack.push([v, k, CWD_KEYS.has(k) ? base : inner]);
    }
  }
}

export function extractPaths(args: unknown): string[] {
  const out: Named = { paths: [], relative: [] };
  collect(args, out);
  return [...new Set(out.paths)];
}

/** The relative strings of a call's input that may name a file, to judge against the forbidden names only. */
export function extractRelativeNames(args: unknown): string[] {
  const out: Named = { paths: [], relative: [] };
  collect(args, out);
  return [...new Set(out.relative)];
}

/**
 * What befalls what a folder holds when a call of this kind names it. A move's destination is
 * among its paths too, and the call does not say which one is: a folder already there may be
 * replaced.
 */
const TAKEN: Readonly<Record<string, string>> = { delete: 'deleted', move: 'moved or replaced' };

/**
 * A path a change of an ACP agent's names, judged both where a link at it leads and at the name
 * itself (judgePath's `replaces`): an edit writes through a link, but a delete, a move's source
 * and a write renamed over the name remove or replace the link itself, and the call does not say
 * which it is (codex-acp asks about a move as kind edit, its source among the locations). So a
 * link outside the policy to a file inside (a dotfiles repository's ~/.bashrc) deleted or moved
 * away, or a forbidden name that is a link to an allowed file, is refused. The first refusal, else
 * the place the link leads. A delete or a move (`kind`) takes a folder there whole, so the folder
 * is judged by what it holds too, as `looks` found it (judgedWithLooks); an edit changes files only.
 */
export function judgeChange(policy: ResolvedPolicy, raw: string, cwd: string, kind = '', looks: FolderLooks = NOT_LOOKED): Verdict {
  const through = judgePath(policy, raw, cwd);
  if (!through.allowed) return through;
  const own = judgePath(policy, raw, cwd, { replaces: true, verb: TAKEN[kind] ?? '', looks });
  return own.allowed ? through : own;
}

/** Whether `place` is a folder itself, not a link to one. */
function isRealFolder(place: string): boolean {
  try {
    return fs.lstatSync(place).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Why a move of a folder is refused for where what it holds lands; null: it is not. A move names
 * its source and its destination and does not say which is which, so a real folder among its
 * paths is judged as if under each other name, and under the folder of its own name in one that
 * is a folder already (where `mv` puts it): `drafts/` holding `001.sql` moved to `migrations/`
 * lands a file on a forbidden `migrations/*.sql` that neither name matches. What the folder holds
 * is as `looks` found it (judgedWithLooks).
 */
export function movedFolderVeto(policy: ResolvedPolicy, paths: readonly string[], cwd: string, looks: FolderLooks = NOT_LOOKED): { raw: string; rule: string } | null {
  const places = paths.map((raw) => ({ raw, place: judgePath(policy, raw, cwd, { replaces: true }).resolved })).filter((p) => p.place !== '');
  for (const from of places) {
    if (!isRealFolder(from.place)) continue;
    const name = path.basename(from.place);
    const landings = places
      .filter((to) => to.place !== from.place)
      .flatMap((to) => [to, ...(isRealFolder(to.place) ? [{ raw: path.join(to.raw, name), place: path.join(to.place, name) }] : [])]);
    const found = landings.length > 0 ? looks.inside(from.place, landings.map((l) => l.place)) : null;
    if (found?.kind === 'unchecked') return { raw: from.raw, rule: `refused: ${found.reason}` };
    if (found) {
      const at = path.join((landings[found.base] as { raw: string }).raw, found.entry);
      return { raw: from.raw, rule: `the folder holds ${JSON.stringify(path.join(from.raw, found.entry))}, which would land at ${JSON.stringify(at)}: forbidden ${JSON.stringify(found.pattern)}` };
    }
  }
  return null;
}

/** Why the first of `names` that lands on a forbidden place is refused (judgePath's `forbiddenOnly`); null: none does. */
export function forbiddenName(policy: ResolvedPolicy, names: readonly string[], cwd: string): { raw: string; rule: string } | null {
  for (const raw of names) {
    const verdict = judgePath(policy, raw, cwd, { forbiddenOnly: true });
    if (!verdict.allowed) return { raw, rule: verdict.rule };
  }
  return null;
}

export interface AuditResult {
  violation: string | null;
  /** Where the judged paths resolve to (empty for read-only tools and shells). */
  paths: string[];
}

/**
 * The writing tools the audit knows (τ 0.15.0's and pi's): each names the file it writes in
 * `path` and takes only these arguments. Any other argument could name another file (a
 * `filepath`, an `output`, a path nested in options), so it is flagged, not guessed at.
 */
const WRITERS: Readonly<Record<string, ReadonlySet<string>>> = {
  write: new Set(['path', 'content', 'encoding']),
  edit: new Set(['path', 'old_string', 'new_string', 'replace_all', 'edits', 'oldText', 'newText']),
};
/** Patch tools: every file their patch text names is judged. */
const PATCHERS: Readonly<Record<string, ReadonlySet<string>>> = {
  apply_patch: new Set(['input', 'patch']),
};
const KNOWN = `it judges write and edit by their "path" and apply_patch by its patch, and passes ${[...READ_ONLY_TOOLS].join(', ')}`;

/**
 * Fails closed: a tool is passed only when it is known to be read-only, or known to write what
 * its arguments name and every such name is allowed. Anything else is a violation.
 */
export function auditToolCall(policy: ResolvedPolicy, toolName: string, args: unknown, cwd: string): AuditResult {
  if (READ_ONLY_TOOLS.has(toolName)) return { violation: null, paths: [] };
  if (SHELL_TOOLS.has(toolName)) {
    return policy.bash
      ? { violation: null, paths: [] }
      : { violation: `${toolName} under the guard: a shell cannot be audited by path, and bash is not allowed ${SHELL_ALLOWED_BY}`, paths: [] };
  }
  const keys = WRITERS[toolName] ?? PATCHERS[toolName];
  if (!keys) return { violation: `${toolName}: not a tool the audit knows (${KNOWN}), so what it writes cannot be checked`, paths: [] };
  const record = args !== null && typeof args === 'object' && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
  const unknown = Object.keys(record).find((k) => !keys.has(k));
  if (unknown !== undefined) return { violation: `${toolName}: argument ${JSON.stringify(unknown)} is not one the audit knows, so where the call writes cannot be checked`, paths: [] };
  let raws: string[];
  if (WRITERS[toolName]) {
    if (typeof record.path !== 'string') return { violation: `${toolName}: no "path" the audit can judge`, paths: [] };
    raws = [record.path];
  } else {
    raws = [...new Set(Object.values(record).flatMap((v) => (typeof v === 'string' ? patchPaths(v) : [])))];
    if (raws.length === 0) return { violation: `${toolName}: its patch names no file the audit can judge`, paths: [] };
  }
  let violation: string | null = null;
  const paths: string[] = [];
  for (const raw of raws) {
    // τ's write renames a new file over the name (a symlink there is replaced); an edit, pi's
    // write and a patch write through it. Both readings are judged for a write.
    const verdicts = [judgePath(policy, raw, cwd), ...(toolName === 'write' ? [judgePath(policy, raw, cwd, { replaces: true })] : [])];
    for (const verdict of verdicts) {
      if (verdict.resolved && !paths.includes(verdict.resolved)) paths.push(verdict.resolved);
      if (!verdict.allowed && violation === null) violation = `${toolName} ${JSON.stringify(raw)}: ${verdict.rule}`;
    }
  }
  return { violation, paths };
}

/** What a call does by the agent's own word (ACP's tool kinds): these only read. */
export const READING_KINDS: ReadonlySet<string> = new Set(['read', 'search', 'think', 'fetch', 'switch_mode']);
/** ACP tool kinds that change files. */
export const WRITING_KINDS: ReadonlySet<string> = new Set(['edit', 'delete', 'move']);

/**
 * Why a call is a subagent's, whose own tool calls the host never sees; null: it is not one.
 * Gemini CLI 0.61.0 reports a call of its `invoke_agent` as kind `think`, titled "Delegating to
 * agent 'NAME'", with no input; the subagent's calls are neither reported nor asked over ACP. A
 * guarded Gemini is started with the tool denied (geminiLaunch.ts); this holds where that did not
 * take (a wrapper script under another name, a machine whose system policies make Gemini ignore
 * the host's).
 */
export function subagentCall(kind: string, title: string | null | undefined): string | null {
  const m = kind === 'think' ? /^Delegating to agent '([^']*)'/.exec(title ?? '') : null;
  return m ? `a subagent (${JSON.stringify(m[1])}): its tool calls are not reported to the host, so what it writes cannot be checked` : null;
}

/**
 * A call the agent says the kind of (ACP): a subagent's fails closed (subagentCall), reading kinds pass, a shell passes only with bash
 * allowed, an edit, delete or move is judged by every path it names (its locations, its diffs,
 * path fields of its input) and by the forbidden names for its `relative` strings
 * (extractRelativeNames), and any other kind fails closed.
 */
export function auditKindCall(policy: ResolvedPolicy, kind: string, paths: string[], cwd: string, relative: readonly string[] = [], title?: string | null): Promise<AuditResult> {
  return judgedWithLooks(policy.forbidden, (looks) => judgeKindCall(policy, { kind, paths, relative, title }, cwd, looks));
}

function judgeKindCall(policy: ResolvedPolicy, call: { kind: string; paths: string[]; relative: readonly string[]; title?: string | null }, cwd: string, looks: FolderLooks): AuditResult {
  const { kind, paths, relative, title } = call;
  const subagent = subagentCall(kind, title);
  if (subagent) return { violation: subagent, paths: [] };
  if (READING_KINDS.has(kind)) return { violation: null, paths: [] };
  if (kind === 'execute') {
    return policy.bash ? { violation: null, paths: [] } : { violation: `a shell command under the guard: a shell cannot be audited by path, and bash is not allowed ${SHELL_ALLOWED_BY}`, paths: [] };
  }
  if (!WRITING_KINDS.has(kind)) return { violation: `a call of kind "${kind}": the agent does not say it only reads, so what it writes cannot be checked`, paths: [] };
  if (paths.length === 0) return { violation: `${kind}: it names no path the audit can judge`, paths: [] };
  let violation: string | null = null;
  const resolved: string[] = [];
  for (const raw of paths) {
    const verdict = judgeChange(policy, raw, cwd, kind, looks);
    if (verdict.resolved) resolved.push(verdict.resolved);
    if (!verdict.allowed && violation === null) violation = `${kind} ${JSON.stringify(raw)}: ${verdict.rule}`;
  }
  const moved = violation === null && kind === 'move' ? movedFolderVeto(policy, paths, cwd, looks) : null;
  if (moved) violation = `${kind} ${JSON.stringify(moved.raw)}: ${moved.rule}`;
  const named = violation === null ? forbiddenName(policy, relative, cwd) : null;
  if (named) violation = `${kind} ${JSON.stringify(named.raw)}: ${named.rule}`;
  return { violation, paths: resolved };
}
