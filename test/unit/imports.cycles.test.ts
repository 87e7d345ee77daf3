// No module in src/ may reach itself through its imports. Type-only imports count: a cycle of
// types still ties two rooms together (commands ⇄ eventLogView was one), and esbuild's
// metafile would not show it because it erases them. TypeScript's own pre-parser lists every
// import, export-from and import() of a file.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(__dirname, '../..');
const SRC = join(ROOT, 'src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** The file a relative specifier names, or null for a package (`vscode`, `zod/mini`, `node:fs`). */
function resolveLocal(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const base = resolve(dirname(from), spec);
  for (const p of [base, `${base}.ts`, join(base, 'index.ts')]) if (existsSync(p) && statSync(p).isFile()) return p;
  throw new Error(`${relative(ROOT, from)} imports ${spec}, which is not a file`);
}

export function importGraph(files: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const f of files) {
    const info = ts.preProcessFile(readFileSync(f, 'utf8'), true, true);
    graph.set(f, [...new Set(info.importedFiles.map((i) => resolveLocal(f, i.fileName)).filter((p): p is string => p !== null))]);
  }
  return graph;
}

/** Every strongly connected group of more than one module (or a module importing itself), as a path through it. */
export function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(group.reverse());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('imports', () => {
  it('has no import cycle anywhere in src/', () => {
    const graph = importGraph(sources(SRC));
    assert.ok(graph.size > 50, `read ${graph.size} modules`);
    const found = cycles(graph).map((g) => g.map((f) => relative(ROOT, f)).join(' → '));
    assert.deepEqual(found, [], `import cycles:\n${found.join('\n')}`);
  });

  it('keeps the shared contracts and the page apart from the rooms that use them', () => {
    const graph = importGraph(sources(SRC));
    const local = (dir: string) => [...graph].filter(([f]) => f.startsWith(join(SRC, dir)));
    // src/protocol is imported by both bundles: it reaches nothing outside itself.
    for (const [f, deps] of local('protocol/')) for (const d of deps) assert.ok(d.startsWith(join(SRC, 'protocol/')), `${relative(ROOT, f)} imports ${relative(ROOT, d)}`);
    // The page reaches the extension only through src/protocol.
    for (const [f, deps] of local('webview/')) for (const d of deps) assert.ok(!d.startsWith(join(SRC, 'ui/')) && !d.startsWith(join(SRC, 'core/')), `${relative(ROOT, f)} imports ${relative(ROOT, d)}`);
    // The command ids and context keys are a leaf.
    assert.deepEqual(graph.get(join(SRC, 'ui/commands/ids.ts')), []);
  });

  it('finds a cycle when there is one, and a module importing itself', () => {
    const graph = new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']], ['e', ['e']]]);
    assert.deepEqual(cycles(graph).map((g) => [...g].sort()), [['a', 'b', 'c'], ['e']]);
  });

  it('counts a type-only import as an edge', () => {
    const commands = join(SRC, 'ui/commands/commands.ts');
    assert.match(readFileSync(commands, 'utf8'), /import type \{ EventLog \}/);
    assert.ok(importGraph([commands]).get(commands)!.includes(join(SRC, 'ui/eventLog/eventLogView.ts')));
  });
});
