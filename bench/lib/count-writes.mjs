#!/usr/bin/env node
// How many writes the history makes under a flood (writev calls, buffers, bytes), the host's or the
// floor's: a per-interval write is one call for many events, so a rise here is a rise in work on
// the pool and in callbacks on the main thread.
//   node bench/lib/count-writes.mjs            the host with a history (dist/core.js)
//   PROFILE_FLOOR=1 node bench/lib/count-writes.mjs   the floor with the store and the history
import fs, { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
const stats = { calls: 0, bufs: 0, bytes: 0 };
const orig = fs.writev;
fs.writev = function (fd, bufs, ...rest) { stats.calls++; stats.bufs += bufs.length; for (const b of bufs) stats.bytes += b.length; return orig.call(this, fd, bufs, ...rest); };
const { bareSide, hostSide } = await import('../acp.mjs');
const { buildFloorReader } = await import('./build.mjs');
const { loadCore, withFloorHistory } = await import('./common.mjs');
const core = loadCore();
const root = mkdtempSync(path.join(os.tmpdir(), 'rpc-count-'));
const bundle = process.env.PROFILE_FLOOR ? createRequire(import.meta.url)(await buildFloorReader(root)) : null;
for (let i = 0; i < 2; i++) {
  const historyDir = mkdtempSync(path.join(root, 'history-'));
  Object.assign(stats, { calls: 0, bufs: 0, bytes: 0 });
  const m = bundle ? await withFloorHistory(bundle, historyDir, 'acp', (history) => bareSide(90, 150000, undefined, { floor: bundle.floorReader, history, store: bundle.floorStore() }))
    : await hostSide(core, 90, 150000, undefined, 0, { historyDir });
  console.log(bundle ? 'floor' : 'host', m.mainCpuUsPerEvent.toFixed(2), JSON.stringify(stats));
}
rmSync(root, { recursive: true, force: true });
