#!/usr/bin/env node
// The history store's own cost on the main thread, in memory: a τ flood's bytes read by the
// floor reader (framer and codec) alone, and again with the product's history store keeping
// every event with its line (its writes awaited), interleaved run by run.
//   node bench/lib/history-append.mjs [runs] [events]
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { buildFloorReader } from './build.mjs';
import { mainThreadMark, summary } from './common.mjs';
import { buildFlood, loadRecording } from './flood-worker.mjs';

const [runs = '4', events = '100000'] = process.argv.slice(2);
const root = mkdtempSync(path.join(os.tmpdir(), 'rpc-history-append-'));
try {
  const bundle = createRequire(import.meta.url)(await buildFloorReader(root));
  const flood = buildFlood(loadRecording('tau'), { events: 2000, size: 90 });
  const perBody = flood.body.filter((b) => b === 0x0a).length;
  const copies = Math.max(1, Math.round(Number(events) / perBody));
  const stream = Buffer.concat([flood.head, ...Array(copies).fill(flood.body)]);
  const chunks = [];
  for (let at = 0; at < stream.length; at += 65536) chunks.push(stream.subarray(at, at + 65536));
  let k = 0;
  const run = async (withHistory) => {
    const history = withHistory ? bundle.floorHistory(path.join(root, `h${k++}`), 'tau') : null;
    let n = 0;
    const read = bundle.floorReader('tau', history ? (event, _text, bytes) => { n++; history.append(event, bytes); } : () => { n++; }, () => {});
    const main0 = mainThreadMark().cpuUs;
    for (const chunk of chunks) read(chunk);
    if (history) await history.flush();
    const us = (mainThreadMark().cpuUs - main0) / n;
    await history?.close();
    return { us, n };
  };
  await run(false);
  await run(true);
  const pairs = [];
  for (let r = 0; r < Number(runs); r++) {
    // In turn first: whichever runs second meets a heap the first one left.
    const [a, b] = r % 2 ? [await run(false), await run(true)] : (([y, x]) => [x, y])([await run(true), await run(false)]);
    pairs.push([a.us, b.us]);
    console.log(`${a.n} events: framer + codec ${a.us.toFixed(3)} µs, with the history store ${b.us.toFixed(3)} µs an event on the main thread`);
  }
  const med = (i) => summary(pairs.map((p) => p[i])).median;
  console.log(`medians: ${med(0).toFixed(3)} → ${med(1).toFixed(3)} µs, the history store's share ${(med(1) - med(0)).toFixed(3)} µs an event`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
