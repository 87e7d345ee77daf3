// What a folder holds, for a delete or a move of it: those take everything inside along, so a
// folder that is itself allowed but holds a forbidden name (`pkg/.env`, a nested repo's `.git`)
// must be judged by that too. Links inside are removed or moved as links, so they are judged by
// their own name and never followed.
//
// The walk runs on the extension host's only thread, so it is asynchronous: each folder is read
// off the thread, and the matching yields the event loop every few milliseconds. The judgement
// that needs its findings (judgePath) is synchronous; judgedWithLooks runs it once to learn the
// folders it takes along, walks them, and runs it again with their findings.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathMatcher, type Pattern } from './match';

/**
 * How many entries a walk looks at before it gives up. A delete of a bigger tree is refused,
 * not passed unchecked: the person can delete it themselves, a leak cannot be undone. The walk
 * holds the thread a few milliseconds at a time (SLICE_MS), so the bound is what the agent waits
 * for its answer: 20,000 entries took 0.4-0.9 s on a 2-CPU machine, the editor running meanwhile.
 */
export const MAX_FOLDER_ENTRIES = 20_000;

/** The longest the walk holds the thread before it lets the event loop run. */
const SLICE_MS = 4;
/** How many names a folder's read brings at a time. */
const BATCH = 128;

function cannotList(rel: string, err: unknown): Inside {
  return { kind: 'unchecked', reason: `cannot list ${JSON.stringify(rel || '.')} inside it (${(err as NodeJS.ErrnoException).code ?? 'error'})` };
}

export type Inside =
  /** The first forbidden entry found (nearest the top first), relative to the folder, and under which of the bases. */
  | { kind: 'forbidden'; entry: string; pattern: string; base: number }
  | { kind: 'unchecked'; reason: string };

/**
 * The first entry under the real folder `dir` that a forbidden pattern matches, judged as if
 * under each of `bases` (its own place, or where a move puts it); null: none.
 */
export async function forbiddenInside(forbidden: readonly Pattern[], dir: string, { bases = [dir], limit = MAX_FOLDER_ENTRIES }: { bases?: readonly string[]; limit?: number } = {}): Promise<Inside | null> {
  // Breadth first: a forbidden name near the top (`web/node_modules`) is found, and said, before
  // the walk spends its bound on the rest of the tree.
  const queue: string[] = [''];
  let seen = 0;
  let since = performance.now();
  for (let i = 0; i < queue.length; i++) {
    const rel = queue[i] as string;
    let folder: fs.Dir;
    try {
      // Read a batch at a time, off the thread: a folder of 20,000 names is not one list built on it.
      folder = await fs.promises.opendir(path.join(dir, rel), { bufferSize: BATCH });
    } catch (err) {
      // Gone since it was listed: nothing of it is left to delete.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      return cannotList(rel, err);
    }
    try {
      for await (const entry of folder) {
        if (++seen > limit) return { kind: 'unchecked', reason: `the folder holds more than ${limit} entries, more than the guard walks to look for a forbidden one` };
        const child = rel === '' ? entry.name : path.join(rel, entry.name);
        for (const [base, place] of bases.entries()) {
          const pattern = forbidden.find(pathMatcher(path.join(place, child)));
          if (pattern) return { kind: 'forbidden', entry: child, pattern: pattern.text, base };
        }
        if (entry.isDirectory()) queue.push(child);
        if (performance.now() - since > SLICE_MS) {
          // A yield of the event loop, so the editor answers while a big folder is judged.
          await new Promise(setImmediate);
          since = performance.now();
        }
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return cannotList(rel, err);
    }
  }
  return null;
}

/** What the synchronous judgement asks of a folder a call takes along whole. */
export interface FolderLooks {
  inside(dir: string, bases?: readonly string[]): Inside | null;
}

/** For a judgement that was handed no looks: a folder it takes along is refused, not passed. */
export const NOT_LOOKED: FolderLooks = { inside: () => ({ kind: 'unchecked', reason: 'what the folder holds was not looked at' }) };

/** Said of a folder the judgement takes along that was not there to walk. */
const CHANGED: Inside = { kind: 'unchecked', reason: 'the folder changed while the guard looked at what it holds' };

/**
 * `judge` (synchronous) with what every folder it takes along holds. A first run, told that every
 * folder holds nothing forbidden, names them all (a finding only ever cuts a judgement short);
 * they are walked, and a second run judges with what the walks found. A folder the second run
 * names that the first did not appeared while the walks ran, and is refused.
 */
export async function judgedWithLooks<T>(forbidden: readonly Pattern[], judge: (looks: FolderLooks) => T): Promise<T> {
  const wanted = new Map<string, { dir: string; bases: readonly string[] }>();
  const first = judge({
    inside(dir, bases = [dir]) {
      wanted.set(JSON.stringify([dir, bases]), { dir, bases });
      return null;
    },
  });
  if (wanted.size === 0) return first;
  const found = new Map<string, Inside | null>();
  for (const [key, { dir, bases }] of wanted) found.set(key, await forbiddenInside(forbidden, dir, { bases }));
  return judge({
    inside(dir, bases = [dir]) {
      const key = JSON.stringify([dir, bases]);
      return found.has(key) ? (found.get(key) as Inside | null) : CHANGED;
    },
  });
}
