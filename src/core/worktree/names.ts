// A branch and a folder name for a worker: its name made safe for git's ref rules and for file
// systems, then made unique against the repository's branches and the folders already there.
import { existsSync } from 'node:fs';
import path from 'node:path';

const MAX_SLUG = 40;

/** "Fix the tests!" → "fix-the-tests"; empty or unusable names become "worker". */
export function slugFor(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/-{2,}/g, '-')
    .slice(0, MAX_SLUG)
    .replace(/^[-.]+|[-.]+$/g, '')
    .replace(/\.lock$/, '');
  return slug || 'worker';
}

/**
 * A ref `refs/heads/<candidate>` can be made unless a branch has that name, lies below it
 * (`a/b` blocks `a`) or above it (`a` blocks `a/b`): git keeps refs as files and folders.
 */
export function branchFree(candidate: string, branches: ReadonlySet<string>): boolean {
  if (branches.has(candidate)) return false;
  for (const b of branches) {
    if (b.startsWith(`${candidate}/`) || candidate.startsWith(`${b}/`)) return false;
  }
  return true;
}

/**
 * A branch whose name is a folder of `prefix` (`worker` for `worker/`): git can then make no
 * branch under the prefix at all, whatever the number after the name, so none is looked for.
 */
export function prefixBlocker(prefix: string, branches: ReadonlySet<string>): string | null {
  for (const b of branches) if (prefix.startsWith(`${b}/`)) return b;
  return null;
}

/**
 * The first of `slug`, `slug-2`, `slug-3`, ... whose branch and folder are both free (a folder
 * git still has registered as a worktree counts as taken even when it is gone from the disk).
 */
export function uniqueName(slug: string, prefix: string, branches: ReadonlySet<string>, dir: string, registered: ReadonlySet<string>): { name: string; branch: string; path: string } {
  for (let n = 1; ; n++) {
    const name = n === 1 ? slug : `${slug}-${n}`;
    const branch = `${prefix}${name}`;
    const where = path.join(dir, name);
    if (branchFree(branch, branches) && !existsSync(where) && !registered.has(where)) return { name, branch, path: where };
  }
}
