import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import path from 'node:path';
import { tmpdir } from 'node:os';
import { buildBundles } from './lib/build.mjs';
const tmp = process.env.ABTMP;
const prod = path.join(tmp, "p");
const variants = Object.fromEntries(process.argv.slice(2).map((a) => a.split('=')));
let n = 0;
const once = (file, storage) => new Promise((res, rej) => {
  const p = spawn(process.execPath, ['bench/lib/activate-child.cjs', file], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ACTIVATE_STORAGE: storage ?? path.join(tmp, `s${n++}`) } });
  let out = ''; p.stdout.on('data', (d) => (out += d)); p.on('exit', (c) => c ? rej(new Error('exit ' + c)) : res(JSON.parse(out.trim().split('\n').pop())));
});
const files = { entry: path.join(prod, 'extension.js'), main: path.join(prod, 'extension-main.js'), ...variants };
const names = Object.keys(files);
const r = Object.fromEntries(names.map((k) => [k, []]));
const kept = path.join(tmp, 'kept');
await once(files.entry, kept);
for (let i = 0; i < 30; i++) {
  const order = i % 2 ? [...names].reverse() : names;
  for (const k of order) { const x = await once(files[k]); r[k].push(x.requireMs + x.activateMs); }
  const x = await once(files.entry, kept); (r.later ??= []).push(x.requireMs + x.activateMs);
}
const med = (a) => { const s = [...a].sort((x, y) => x - y); return s[s.length >> 1]; };
for (const [k, v] of Object.entries(r)) console.log(k, med(v).toFixed(2));
