// The write guard's policy: where a guarded worker may write. Forbidden wins over allowed, and a
// path is judged where the OS would really write it (see paths.ts), under every reading a tool
// might give the string; one denying reading denies. A `..` after a symlink lands in one place
// for the kernel and in another for a tool that normalises the string first: both are judged.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { NOT_LOOKED, type FolderLooks } from './contents';
import { caseFold, compileForbidden, compilePattern, exactFold, hasGlob, matchesPath, type Pattern } from './match';
import {
  MAX_PATH_CHARS, isOtherUsersHome, lexicalReading, literalReading, physicalPath, piReading,
  platformCaseInsensitive, probeCaseInsensitive, splitPath, type Physical,
} from './paths';

export interface GuardSpec {
  allowedPaths: string[];
  forbiddenPaths: string[];
  bash?: boolean;
}

const absolutePath = z
  .string()
  .min(1)
  .max(MAX_PATH_CHARS)
  .refine((p) => !p.includes('\0'), 'contains a NUL byte')
  .refine((p) => path.isAbsolute(p), 'is not an absolute path');

export const GuardSpecSchema = z.strictObject({
  allowedPaths: z.array(absolutePath),
  forbiddenPaths: z.array(absolutePath),
  bash: z.boolean().optional(),
});

/** What the host hands pi's guard extension in RPC_WORKERS_GUARD. */
export const GuardWireSchema = z.strictObject({
  allowedPaths: z.array(absolutePath),
  forbiddenPaths: z.array(absolutePath),
  bash: z.boolean(),
  cwd: absolutePath,
});
export type GuardWire = z.infer<typeof GuardWireSchema>;

export class GuardSpecError extends Error {}

export interface ResolvedPolicy {
  readonly root: string;
  readonly allowed: readonly Pattern[];
  readonly forbidden: readonly Pattern[];
  readonly bash: boolean;
}

export interface Verdict {
  allowed: boolean;
  /** Which rule decided, human readable and on one line. */
  rule: string;
  resolved: string;
}

export interface GuardOptions {
  /** Overrides probing the volume; for tests and hosts that know better. */
  caseInsensitive?: boolean;
  /** Absolute folders forbidden too, wherever they are (the agent card folders a start reads). */
  alsoForbidden?: string[];
}

/**
 * Forbidden at any depth under the root and every allowed path, whatever else a spec says:
 * secrets and repository internals, and what configures the next worker or the editor (the
 * workspace's settings with its `rpcWorkers.profiles` and `rpcWorkers.guard.*`, agent cards,
 * the agents' own config folders), so a guarded worker cannot loosen the guard of the next one.
 */
export const DEFAULT_FORBIDDEN_NAMES = [
  '.git', '.env', '.env.*', 'node_modules',
  '.vscode', '*.code-workspace', '.pi', '.tau', '.claude', '.gemini', '.codex', '.cursor', '.agents',
] as const;

export function defaultForbidden(base: string): string[] {
  return DEFAULT_FORBIDDEN_NAMES.map((name) => path.join(base, '**', name));
}

function zodMessage(err: z.ZodError): string {
  return err.issues.map((i) => `${i.path.join('.') || 'guard'}: ${i.message}`).join('; ');
}

/** The pattern with its literal prefix resolved like a judged path, so the two compare. */
function resolvePattern(text: string): { physical: string; lexical: string } {
  const { root, segments } = splitPath(text);
  const firstGlob = segments.findIndex(hasGlob);
  const literal = firstGlob < 0 ? segments : segments.slice(0, firstGlob);
  const rest = firstGlob < 0 ? [] : segments.slice(firstGlob);
  if (rest.includes('..')) throw new GuardSpecError(`${JSON.stringify(text)}: ".." after a wildcard`);
  const lexical = path.join(root, ...literal);
  const phys = physicalPath(lexical);
  if (!phys.ok) throw new GuardSpecError(`${JSON.stringify(text)}: ${phys.reason}`);
  return { physical: path.join(phys.path, ...rest), lexical: path.join(lexical, ...rest) };
}

function compile(spec: { allowedPaths: string[]; forbiddenPaths: string[]; bash: boolean }, root: string, options: GuardOptions): ResolvedPolicy {
  const allowed = [...new Set(spec.allowedPaths.map((p) => resolvePattern(p).physical))].map((text) => {
    const insensitive = options.caseInsensitive ?? probeCaseInsensitive(text.split(/[*?]/)[0] as string) ?? platformCaseInsensitive();
    return compilePattern(text, insensitive ? caseFold : exactFold);
  });
  // Forbidden patterns keep their unresolved spelling too: matching more only blocks more.
  const forbiddenTexts = new Set(spec.forbiddenPaths.flatMap((p) => Object.values(resolvePattern(p))));
  const forbidden = [...forbiddenTexts].map(compileForbidden);
  return { root, allowed, forbidden, bash: spec.bash };
}

/**
 * `true`: workspace defaults for `root` (the workspace folder holding the worker's cwd, or the
 * cwd itself). Throws GuardSpecError for an invalid spec: a broken guard must not mean no guard.
 */
export function resolveGuard(spec: boolean | GuardSpec | undefined, root: string, options: GuardOptions = {}): ResolvedPolicy | null {
  if (spec === undefined || spec === false) return null;
  const parsedRoot = absolutePath.safeParse(root);
  if (!parsedRoot.success) throw new GuardSpecError(`guard root: ${zodMessage(parsedRoot.error)}`);
  const parsed = GuardSpecSchema.safeParse(spec === true ? { allowedPaths: [root], forbiddenPaths: [] } : spec);
  if (!parsed.success) throw new GuardSpecError(zodMessage(parsed.error));
  const { allowedPaths, forbiddenPaths, bash } = parsed.data;
  const defaults = [...[root, ...allowedPaths].flatMap(defaultForbidden), ...(options.alsoForbidden ?? []).filter((p) => path.isAbsolute(p))];
  return compile({ allowedPaths, forbiddenPaths: [...forbiddenPaths, ...defaults], bash: bash === true }, root, options);
}

export function policyToWire(policy: ResolvedPolicy, cwd: string): GuardWire {
  return { allowedPaths: policy.allowed.map((p) => p.text), forbiddenPaths: policy.forbidden.map((p) => p.text), bash: policy.bash, cwd };
}

/** The extension's side: the patterns are already resolved, so no defaults are added. */
export function policyFromWire(value: unknown): { ok: true; policy: ResolvedPolicy; cwd: string } | { ok: false; error: string } {
  const parsed = GuardWireSchema.safeParse(value);
  if (!parsed.success) return { ok: false, error: zodMessage(parsed.error) };
  try {
    return { ok: true, policy: compile(parsed.data, parsed.data.cwd, {}), cwd: parsed.data.cwd };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
}

const q = JSON.stringify;

function refuse(reason: string, resolved = ''): Verdict {
  return { allowed: false, rule: `refused: ${reason}`, resolved };
}

/** A delete or a move (judgePath's `takes`): the name given, and what befalls what a folder there holds. */
interface Taking {
  raw: string;
  verb: string;
  looks: FolderLooks;
}

/** A folder taken along whole is judged by every name it holds (contents.ts, walked before), links not followed. */
function judgeHeld(verdict: Verdict, stat: fs.Stats | null, takes: Taking | null): Verdict {
  if (!verdict.allowed || takes === null || !stat?.isDirectory()) return verdict;
  const found = takes.looks.inside(verdict.resolved);
  if (found === null) return verdict;
  if (found.kind === 'unchecked') return refuse(found.reason, verdict.resolved);
  const shown = path.join(/^file:\/\//i.test(takes.raw) ? verdict.resolved : takes.raw, found.entry);
  return { allowed: false, rule: `the folder holds ${q(shown)}, which would be ${takes.verb} with it: forbidden ${q(found.pattern)}`, resolved: verdict.resolved };
}

function judgeResolved(policy: ResolvedPolicy, resolved: string, stat: { isFile(): boolean; nlink: number } | null, forbiddenOnly: boolean): Verdict {
  const forbidden = policy.forbidden.find((p) => matchesPath(p, resolved));
  if (forbidden) return { allowed: false, rule: `forbidden ${q(forbidden.text)}`, resolved };
  if (forbiddenOnly) return { allowed: true, rule: 'not forbidden', resolved };
  const allowed = policy.allowed.find((p) => matchesPath(p, resolved));
  if (!allowed) return { allowed: false, rule: `outside the allowed paths ${q(policy.allowed.map((p) => p.text))}`, resolved };
  // A write through one name of a hard link changes the file under all its other names.
  if (stat?.isFile() && stat.nlink > 1) return refuse(`hard-linked file (${stat.nlink} links)`, resolved);
  return { allowed: true, rule: `allowed ${q(allowed.text)}`, resolved };
}

/**
 * May a guarded worker write to `raw` (relative to `cwd`)? `replaces`: the tool renames a new
 * file over the name (τ's write): a symlink there is replaced, not written through, so the
 * name's own place is judged (its folder resolved, the last name as it stands). `forbiddenOnly`:
 * for a string that may name no file at all (a relative word under a field the guard does not
 * know), only whether it lands on a forbidden place is asked, not whether it is allowed. `verb`:
 * the call deletes or moves the name ("deleted", "moved or replaced"), so a real folder there
 * (not a link to one) is judged by what it holds too, as `looks` found it (judgedWithLooks walks it).
 */
export function judgePath(policy: ResolvedPolicy, raw: unknown, cwd: string, { replaces = false, forbiddenOnly = false, verb = '', looks = NOT_LOOKED }: { replaces?: boolean; forbiddenOnly?: boolean; verb?: string; looks?: FolderLooks } = {}): Verdict {
  if (typeof raw !== 'string') return refuse('path is not a string');
  if (raw.length === 0) return refuse('empty path');
  if (raw.includes('\0')) return refuse('NUL byte in path');
  if (raw.length > MAX_PATH_CHARS) return refuse(`path longer than ${MAX_PATH_CHARS} characters`);
  if (!path.isAbsolute(cwd)) return refuse(`cwd ${q(cwd)} is not absolute`);
  if (isOtherUsersHome(raw)) return refuse('"~user" paths cannot be resolved');
  let pi: string;
  try {
    pi = piReading(raw, cwd);
  } catch (error) {
    return refuse(`a file URL pi cannot read (${(error as Error).message})`);
  }
  let first: Verdict | null = null;
  for (const reading of new Set([pi, literalReading(raw, cwd)])) {
    const verdict = judgeReading(policy, reading, { replaces, forbiddenOnly, takes: verb ? { raw, verb, looks } : null });
    if (!verdict.allowed) return verdict;
    first ??= verdict;
  }
  return first as Verdict;
}

/**
 * Where a refused path lands, when that is not where it reads (a symlink on the way): `write
 * "gen/x.ts": outside the allowed paths ["/ws"]` read as a contradiction, `gen` being in /ws.
 * null when it lands where it reads, or the refusal is not about where it lands.
 */
function landing(verdict: Verdict, plain: string): string | null {
  const judged = verdict.rule.startsWith('forbidden ') || verdict.rule.startsWith('outside the allowed paths ');
  return judged && verdict.resolved !== '' && verdict.resolved !== plain ? `it leads to ${q(verdict.resolved)}` : null;
}

/** Said of a refused reading when a path's two readings land apart, so the refusal says which. */
const KERNEL_WORDS = 'read with symlinks followed before "..", as the OS writes it for a tool that passes the path as is';
const NODE_WORDS = 'read with ".." removed as text first, as pi and Node-based agents write it';

/** The refusal with what is said of its reading (`words`, if any) and where it lands. */
function saying(verdict: Verdict, plain: string, words?: string): Verdict {
  if (verdict.allowed) return verdict;
  const said = [words, landing(verdict, plain)].filter((w): w is string => !!w).join(': ');
  return said ? { ...verdict, rule: `${verdict.rule} (${said})` } : verdict;
}

/**
 * One reading of the path, judged where it lands. With `..` in it, where depends on the tool:
 * the kernel follows symlinks before applying `..` (a program that passes the string as is, such
 * as codex), Node's path.resolve removes `..` as text first (pi, the Node-based ACP agents). The
 * guard cannot tell which a worker does, so both places must be allowed.
 */
function judgeReading(policy: ResolvedPolicy, reading: string, how: { replaces: boolean; forbiddenOnly: boolean; takes: Taking | null }): Verdict {
  const land = (abs: string): Physical => (how.replaces ? replacedPath(abs) : physicalPath(abs));
  const judge = (p: Physical & { ok: true }) => judgeHeld(judgeResolved(policy, p.path, p.stat, how.forbiddenOnly), p.stat, how.takes);
  const kernel = land(reading);
  if (!kernel.ok) return refuse(kernel.reason, reading);
  const byKernel = judge(kernel);
  const textual = lexicalReading(reading);
  if (textual === null) return saying(byKernel, path.resolve(reading));
  const node = land(textual);
  if (!node.ok) return refuse(node.reason, textual);
  if (node.path === kernel.path) return saying(byKernel, textual);
  const byNode = judge(node);
  if (!byKernel.allowed) return saying(byKernel, textual, KERNEL_WORDS);
  if (!byNode.allowed) return saying(byNode, textual, NODE_WORDS);
  // Both allowed: the place pi writes, as a relative path was always reported.
  return byNode;
}

/** Where a rename over `abs` lands: its folder as the OS resolves it, its last name not followed. */
function replacedPath(abs: string): Physical {
  const name = path.basename(abs);
  if (name === '' || name === '.' || name === '..') return physicalPath(abs);
  const folder = physicalPath(path.dirname(abs));
  if (!folder.ok) return folder;
  const place = path.join(folder.path, name);
  let stat: fs.Stats | null = null;
  try {
    stat = fs.lstatSync(place);
  } catch {
    // Not there yet: the rename creates it.
  }
  return { ok: true, path: place, stat };
}

export interface GuardSettings {
  allowed?: string[];
  forbidden?: string[];
  bash?: boolean;
}

function settingToPath(entry: string, folder: string): string {
  // Settings are shared between systems: `secrets\\**` written on Windows was, on Linux and macOS,
  // one name holding a backslash, and forbade nothing. No glob here escapes a character, so a
  // backslash is a separator everywhere, as Windows reads it (in the entry, not the folder's name).
  const p = entry.replaceAll('\\', '/').replaceAll('${workspaceFolder}', folder);
  if (p.length === 0 || p.includes('\0')) throw new GuardSpecError(`guard setting ${q(entry)}: empty or NUL byte`);
  if (p.includes('${')) throw new GuardSpecError(`guard setting ${q(entry)}: only \${workspaceFolder} is substituted`);
  if (p.startsWith('~')) throw new GuardSpecError(`guard setting ${q(entry)}: "~" is not expanded, write an absolute path`);
  if (/\{[^}]*,[^}]*\}/.test(p)) throw new GuardSpecError(`guard setting ${q(entry)}: no {a,b} globs, list each pattern`);
  // Refused as an absolute pattern is (resolvePattern): joined to the folder, `src/*/../..` was
  // normalised in silence into the folder's parent.
  const segments = p.split(/[\\/]/);
  const glob = segments.findIndex(hasGlob);
  if (glob >= 0 && segments.slice(glob).includes('..')) throw new GuardSpecError(`guard setting ${q(entry)}: ".." after a wildcard`);
  return path.isAbsolute(p) ? p : path.join(folder, p);
}

/**
 * Settings entries (workspace-relative globs, absolute paths, `${workspaceFolder}`) as a spec.
 * No allowed entries means the folder itself. Throws GuardSpecError rather than drop an entry.
 */
export function policyFromSettings(settings: GuardSettings, workspaceFolder: string): GuardSpec {
  if (!path.isAbsolute(workspaceFolder)) throw new GuardSpecError(`workspace folder ${q(workspaceFolder)} is not absolute`);
  const allowed = settings.allowed?.length ? settings.allowed : [workspaceFolder];
  return {
    allowedPaths: allowed.map((e) => settingToPath(e, workspaceFolder)),
    forbiddenPaths: (settings.forbidden ?? []).map((e) => settingToPath(e, workspaceFolder)),
    bash: settings.bash === true,
  };
}

