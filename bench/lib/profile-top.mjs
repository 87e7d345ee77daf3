#!/usr/bin/env node
// Self time by function (and by file) of a .cpuprofile, highest first.
//   node bench/lib/profile-top.mjs <file.cpuprofile> [rows]
import { readFileSync } from 'node:fs';

const [file, rows = '30'] = process.argv.slice(2);
const prof = JSON.parse(readFileSync(file, 'utf8'));
const dt = new Map();
for (let i = 0; i < prof.samples.length; i++) dt.set(prof.samples[i], (dt.get(prof.samples[i]) ?? 0) + (prof.timeDeltas[i] ?? 0));
const total = [...dt.values()].reduce((a, b) => a + b, 0);
const byFn = new Map();
const byFile = new Map();
for (const n of prof.nodes) {
  const t = dt.get(n.id) ?? 0;
  const f = n.callFrame;
  const where = (f.url || '(native)').replace(/^.*\/(node_modules\/[^/]+|dist|src|bench)\//, '$1/');
  const key = `${f.functionName || '(anonymous)'}  ${where}:${f.lineNumber + 1}`;
  byFn.set(key, (byFn.get(key) ?? 0) + t);
  byFile.set(where, (byFile.get(where) ?? 0) + t);
}
// Inclusive time: a function's own samples and its callees' (counted once per stack).
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const inclusive = new Map();
const walk = (n, open) => {
  const f = n.callFrame;
  const key = `${f.functionName || '(anonymous)'}  ${(f.url || '(native)').replace(/^.*\/(node_modules\/[^/]+|dist|src|bench)\//, '$1/')}:${f.lineNumber + 1}`;
  const fresh = !open.has(key);
  if (fresh) open.add(key);
  let t = dt.get(n.id) ?? 0;
  for (const c of n.children ?? []) t += walk(byId.get(c), open);
  if (fresh) {
    inclusive.set(key, (inclusive.get(key) ?? 0) + t);
    open.delete(key);
  }
  return t;
};
walk(prof.nodes[0], new Set());
const show = (m, n) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, t]) => `${((100 * t) / total).toFixed(1).padStart(5)}%  ${(t / 1000).toFixed(0).padStart(6)} ms  ${k}`).join('\n');
console.log(`total ${(total / 1000).toFixed(0)} ms\n-- by function (self)\n${show(byFn, Number(rows))}\n-- by file (self)\n${show(byFile, 12)}\n-- by function (inclusive)\n${show(inclusive, Number(rows))}`);
