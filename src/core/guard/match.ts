// The only glob syntax a guard pattern has: `*` and `?` inside one segment, `**` for any number
// of segments. Everything else is literal (Next.js has directories named `[id]`). A pattern also
// covers everything beneath what it matches: forbidding `.git` forbids `.git/config`.
import { splitPath } from './paths';

export type Fold = (segment: string) => string;

/** Exact names: a case-sensitive volume. */
export const exactFold: Fold = (s) => s;

/** A case-insensitive volume (APFS, NTFS also ignore Unicode normalisation). */
export const caseFold: Fold = (s) => s.normalize('NFC').toLowerCase();

/** Code points HFS+ ignores in a name, so `.g\u200Cit` is `.git` there (git's CVE-2014-9390 list). */
const HFS_IGNORED = /[\u200C-\u200F\u202A-\u202E\u206A-\u206F\uFEFF]/g;

/**
 * For forbidden patterns: what Windows would make of a name (trailing dots and spaces dropped,
 * `name:stream` is `name`), what HFS+ would (the code points it ignores dropped), and case
 * ignored everywhere, since a repository copied to macOS makes `.GIT` the real `.git`.
 * Over-matching here only blocks a write; under-matching leaks one.
 */
const forbiddenFold: Fold = (s) => {
  const folded = caseFold(s.replace(HFS_IGNORED, '')).replace(/:.*$/s, '').replace(/[. ]+$/, '');
  return folded.length > 0 ? folded : caseFold(s);
};

/** forbiddenFold keeping what follows a `:`, which off Windows is part of the name. */
const streamKeptFold: Fold = (s) => {
  const folded = caseFold(s.replace(HFS_IGNORED, '')).replace(/[. ]+$/, '');
  return folded.length > 0 ? folded : caseFold(s);
};

export function hasGlob(segment: string): boolean {
  return segment.includes('*') || segment.includes('?');
}

export interface Pattern {
  text: string;
  root: string;
  segments: string[];
  fold: Fold;
  regexes: Array<RegExp | null>;
  /** Also refuses what this matches: a name is judged under each reading a volume may give it. */
  also?: Pattern;
}

function segmentRegex(segment: string): RegExp | null {
  if (segment === '**' || !hasGlob(segment)) return null;
  const body = segment.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${body}$`, 'su');
}

export function compilePattern(text: string, fold: Fold): Pattern {
  const { root, segments } = splitPath(text);
  const folded = segments.map((s) => (s === '**' ? s : fold(s)));
  return { text, root, segments: folded, fold, regexes: folded.map(segmentRegex) };
}

/**
 * Windows reads `name:stream` as `name`, Linux and macOS as a name holding a colon, so a
 * forbidden pattern refuses under both readings: `backups/*.sql` must still cover `T10:00.sql`.
 */
export function compileForbidden(text: string): Pattern {
  return { ...compilePattern(text, forbiddenFold), also: compilePattern(text, streamKeptFold) };
}

function matchFrom(p: Pattern, i: number, target: string[], j: number): boolean {
  if (i === p.segments.length) return true;
  if (p.segments[i] === '**') {
    for (let k = j; k <= target.length; k++) if (matchFrom(p, i + 1, target, k)) return true;
    return false;
  }
  if (j === target.length) return false;
  const seg = target[j] as string;
  const re = p.regexes[i];
  const ok = re ? re.test(seg) : seg === p.segments[i];
  return ok && matchFrom(p, i + 1, target, j + 1);
}

/**
 * `abs`, to be matched against many patterns (p => does p match it or one of its ancestors?).
 * Its segments are folded once for each fold, not at each place a `**` tries: a folder's walk
 * (contents.ts) asks this of every entry under every forbidden pattern.
 */
export function pathMatcher(abs: string): (p: Pattern) => boolean {
  const t = splitPath(abs);
  const root = caseFold(t.root);
  const folded = new Map<Fold, string[]>();
  const test = (p: Pattern): boolean => {
    if (root !== caseFold(p.root)) return false;
    let segments = folded.get(p.fold);
    if (segments === undefined) folded.set(p.fold, (segments = t.segments.map(p.fold)));
    return matchFrom(p, 0, segments, 0) || (p.also !== undefined && test(p.also));
  };
  return test;
}

/** Does the pattern match `abs` or one of its ancestors? */
export function matchesPath(p: Pattern, abs: string): boolean {
  return pathMatcher(abs)(p);
}
