// One reading of "is this path inside that folder", for every place that confines or shortens a
// path. `path.relative` starting with ".." is not enough: `..env` is a file inside.
import path from 'node:path';

/** `p` relative to `root` ('' for `root` itself), or null when it is outside (above, or on another drive). */
export function pathWithin(root: string, p: string): string | null {
  const rel = path.relative(root, p);
  return rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel) ? null : rel;
}
