// The lint habit: a rule is switched off only on its line, with the reason after ` -- ` (ESLint's
// own place for a directive's description), so a reader sees why without asking. ESLint itself
// reports a directive that no longer silences anything (reportUnusedDisableDirectives).
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');
const SKIP = new Set(['node_modules', 'dist', 'dist-test', '.vscode-test', 'workspace']);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    if (SKIP.has(n)) return [];
    const p = join(dir, n);
    return statSync(p).isDirectory() ? sources(p) : /\.(ts|mts|mjs|cjs|js)$/.test(n) ? [p] : [];
  });
}

/** Each eslint-disable directive without a reason, as file:line. */
export function unexplainedDisables(files: string[]): string[] {
  const found: string[] = [];
  for (const f of files) {
    readFileSync(f, 'utf8').split('\n').forEach((line, i) => {
      const m = /(?:\/\/|\/\*)\s*eslint-disable(?:-next-line|-line)?\b(.*)$/.exec(line);
      if (m && !/\s--\s+\S/.test(m[1])) found.push(`${relative(ROOT, f)}:${i + 1}`);
    });
  }
  return found;
}

describe('lint habits', () => {
  it('every eslint-disable in src/, test/, scripts/ and bench/ says why', () => {
    const files = ['src', 'test', 'scripts', 'bench'].flatMap((d) => sources(join(ROOT, d)));
    assert.ok(files.length > 100, `read ${files.length} files`);
    assert.deepEqual(unexplainedDisables(files), []);
  });
});
