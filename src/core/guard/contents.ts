// What a folder holds, for a delete or a move of it: those take everything inside along, so a
// folder that is itself allowed but holds a forbidden name (`pkg/.env`, a nested repo's `.git`)
// must be judged by that too. Links inside are removed or moved as links, so they are judged by
// their own name and never followed.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathMatcher, type Pattern } from './match';

/**
 * How many entries a walk looks at before it gives up. A delete of a bigger tree is refused,
 * not passed unchecked: the person can delete it themselves, a leak cannot be undone. The walk
 * holds the extension host's thread (the wall's verdict is synchronous): 5,000 entries took
 * 125-130 ms on a quiet 2-CPU machine, 20,000 took 480-600 ms.
 */
export const MAX_FOLDER_ENTRIES = 5_000;

export type Inside =
  /** The first forbidden entry found (nearest the top first), relative to the folder, and under which of the bases. */
  | { kind: 'forbidden'; entry: string; pattern: string; base: number }
  | { kind: 'unchecked'; reason: string };

/**
 * The first entry under the real folder `dir` that a forbidden pattern matches, judged as if
 * under each of `bases` (its own place, or where a move puts it); null: none.
 */
export function forbiddenInside(forbidden: readonly Pattern[], dir: string, { bases = [dir], limit = MAX_FOLDER_ENTRIES }: { bases?: readonly string[]; limit?: number } = {}): Inside | null {
  // Breadth first: a forbidden name near the top (`web/node_modules`) is found, and said, before
  // the walk spends its bound on the rest of the tree.
  const queue: string[] = [''];
  let seen = 0;
  for (let i = 0; i < queue.length; i++) {
    const rel = queue[i] as string;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(dir, rel), { withFileTypes: true });
    } catch (err) {
      // Gone since it was listed: nothing of it is left to delete.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      return { kind: 'unchecked', reason: `cannot list ${JSON.stringify(rel || '.')} inside it (${(err as NodeJS.ErrnoException).code ?? 'error'})` };
    }
    for (const entry of entries) {
      if (++seen > limit) return { kind: 'unchecked', reason: `the folder holds more than ${limit} entries, more than the guard walks to look for a forbidden one` };
      const child = rel === '' ? entry.name : path.join(rel, entry.name);
      for (const [base, place] of bases.entries()) {
        const pattern = forbidden.find(pathMatcher(path.join(place, child)));
        if (pattern) return { kind: 'forbidden', entry: child, pattern: pattern.text, base };
      }
      if (entry.isDirectory()) queue.push(child);
    }
  }
  return null;
}
