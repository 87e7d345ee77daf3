// Where a tool's path argument really lands. A write follows symlinks, and the kernel applies
// `..` after following them, so the judgement walks the path one segment at a time against the
// real file system instead of normalising the string first (`link/../x` is not `x` if `link`
// points elsewhere). The missing tail is kept as text: it will be created under the real prefix.
// But a tool written on Node (pi, most ACP agents) normalises the string before it writes, so
// `link/../x` is `x` for it: a path with `..` has two readings, and the policy judges both.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Longer than any OS accepts (Windows' extended limit); refusing early bounds the work. */
export const MAX_PATH_CHARS = 32767;
/** Linux's own limit before ELOOP. */
const MAX_SYMLINK_HOPS = 40;

export type Physical =
  | { ok: true; path: string; stat: fs.Stats | null }
  | { ok: false; reason: string };

export function splitPath(p: string): { root: string; segments: string[] } {
  const root = path.parse(p).root;
  const separators = path.sep === '\\' ? /[\\/]+/ : /\/+/;
  return { root, segments: p.slice(root.length).split(separators).filter((s) => s.length > 0) };
}

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  // ENAMETOOLONG: the write will fail the same way, so judging the text is enough.
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'ENAMETOOLONG';
}

/** Resolve an absolute path the way the OS will when writing to it. */
export function physicalPath(abs: string): Physical {
  const start = splitPath(abs);
  let real = start.root;
  let realStat: fs.Stats | null = null;
  const tail: string[] = [];
  const pending = [...start.segments].reverse();
  let hops = 0;
  while (pending.length > 0) {
    const seg = pending.pop() as string;
    if (seg === '.') continue;
    if (seg === '..') {
      if (tail.length > 0) tail.pop();
      else real = path.dirname(real);
      realStat = null;
      continue;
    }
    if (tail.length > 0) {
      tail.push(seg);
      continue;
    }
    const next = path.join(real, seg);
    let st: fs.Stats;
    try {
      st = fs.lstatSync(next);
    } catch (err) {
      if (isMissing(err)) {
        tail.push(seg);
        continue;
      }
      return { ok: false, reason: `cannot inspect ${JSON.stringify(next)} (${(err as NodeJS.ErrnoException).code ?? 'error'})` };
    }
    if (st.isSymbolicLink()) {
      if (++hops > MAX_SYMLINK_HOPS) return { ok: false, reason: `symlink loop at ${JSON.stringify(next)}` };
      // procfs links (/proc/self, a pid's fd/N, cwd, root; /dev/fd leads here) are read in the
      // process that looks: here, the host's. In the worker they name its own files, elsewhere.
      if (next.startsWith('/proc/')) return { ok: false, reason: `${JSON.stringify(next)} is a /proc link: it leads elsewhere in another process (the worker) than in the host, so where the write lands cannot be judged` };
      const target = fs.readlinkSync(next);
      const t = splitPath(target);
      if (path.isAbsolute(target)) real = t.root;
      realStat = null;
      for (let i = t.segments.length - 1; i >= 0; i--) pending.push(t.segments[i] as string);
      continue;
    }
    real = next;
    realStat = st;
  }
  // The prefix is symlink-free now; realpath only canonicalises case and short names.
  try {
    real = fs.realpathSync.native(real);
  } catch {
    /* the walk already proved every segment exists; keep the walked spelling */
  }
  if (tail.length === 0 && realStat === null) {
    try {
      realStat = fs.statSync(real);
    } catch {
      realStat = null;
    }
  }
  return { ok: true, path: tail.length > 0 ? path.join(real, ...tail) : real, stat: tail.length > 0 ? null : realStat };
}

const UNICODE_SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;

/**
 * pi's own reading of a tool path (tools/path-utils.js resolveToCwd in 0.73.1; utils/paths.js
 * normalizePath in 1.x, which also reads a `file://` URL as the path it names, percent-decoded),
 * made absolute but with its `..` kept: pi then removes them as text (path.resolve), which is
 * `lexicalReading` of this, and the policy judges that reading beside the kernel's.
 * Throws for a file URL that names no local path (pi's write fails on it too).
 */
export function piReading(raw: string, cwd: string): string {
  let p = raw.startsWith('@') ? raw.slice(1) : raw;
  p = p.replace(UNICODE_SPACES, ' ');
  if (p === '~') p = os.homedir();
  else if (p.startsWith('~/')) p = os.homedir() + p.slice(1);
  else if (/^file:\/\//.test(p)) p = fileURLToPath(p);
  return literalReading(p, cwd);
}

/** A tool that hands the string to the OS unchanged (τ, or anything not pi). */
export function literalReading(raw: string, cwd: string): string {
  return path.isAbsolute(raw) ? raw : cwd + path.sep + raw;
}

/**
 * `abs` with its `..` removed as text, as Node's path.resolve does before pi or a Node-based ACP
 * agent writes it (the kernel instead climbs out of a symlink's target). null when no segment is
 * `..`: the two readings are then one place, and judging it needs no second walk.
 */
export function lexicalReading(abs: string): string | null {
  return splitPath(abs).segments.includes('..') ? path.resolve(abs) : null;
}

/** `~name/...`: a shell would expand it to another user's home; no tool here can say where. */
export function isOtherUsersHome(raw: string): boolean {
  return /^@?~[A-Za-z0-9._-]+(?:[\\/]|$)/.test(raw);
}

function swapCase(name: string): string {
  const upper = name.toUpperCase();
  return upper !== name ? upper : name.toLowerCase();
}

function sameFile(a: string, b: string): boolean | null {
  try {
    const sa = fs.statSync(a);
    const sb = fs.statSync(b);
    return sa.ino === sb.ino && sa.dev === sb.dev;
  } catch (err) {
    return isMissing(err) ? false : null;
  }
}

/**
 * Whether the volume holding `dir` ignores case, found by looking up a name with its case
 * swapped. null when nothing nearby has a letter to swap.
 */
export function probeCaseInsensitive(dir: string): boolean | null {
  let d = dir;
  while (!fs.existsSync(d) && path.dirname(d) !== d) d = path.dirname(d);
  const names: Array<[string, string]> = [];
  const base = path.basename(d);
  if (base && swapCase(base) !== base) names.push([d, path.join(path.dirname(d), swapCase(base))]);
  try {
    for (const entry of fs.readdirSync(d).slice(0, 64)) {
      if (swapCase(entry) !== entry) names.push([path.join(d, entry), path.join(d, swapCase(entry))]);
    }
  } catch {
    /* unreadable: fall through to what the name alone says */
  }
  for (const [a, b] of names) {
    const same = sameFile(a, b);
    if (same !== null) return same;
  }
  return null;
}

export function platformCaseInsensitive(): boolean {
  return process.platform === 'darwin' || process.platform === 'win32';
}
