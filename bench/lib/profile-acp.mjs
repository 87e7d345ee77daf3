#!/usr/bin/env node
// The host side of bench/acp.mjs alone, for a profiler: the recorded claude-agent-acp flood, a few runs.
//   node --cpu-prof --cpu-prof-dir=/tmp/prof bench/lib/profile-acp.mjs [size] [runs] [events]
//   PROFILE_HISTORY=1 node --cpu-prof ...   the host with a history (in a temporary folder), its writes awaited
//   PROFILE_FLOOR=1 PROFILE_HISTORY=1 ...   the floor with the store and the history instead (bench/acp.mjs's), to profile beside the host
// then `node bench/lib/profile-top.mjs /tmp/prof/*.cpuprofile` for where the time went.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { bareSide, hostSide } from '../acp.mjs';
import { buildFloorReader } from './build.mjs';
import { loadCore, withFloorHistory } from './common.mjs';

const [sizeArg = '90', runs = '3', events = '150000'] = process.argv.slice(2);
const size = sizeArg === 'real' ? 'real' : Number(sizeArg);
const core = loadCore();
const root = mkdtempSync(path.join(os.tmpdir(), 'rpc-profile-'));
const bundle = process.env.PROFILE_FLOOR ? createRequire(import.meta.url)(await buildFloorReader(root)) : null;
/** The floor with the store (and the history, in `historyDir`): framer, codec and stores, nothing stamped or delivered. */
const floorSide = (historyDir) => (historyDir
  ? withFloorHistory(bundle, historyDir, 'acp', (history) => bareSide(size, Number(events), undefined, { floor: bundle.floorReader, history, store: bundle.floorStore() }))
  : bareSide(size, Number(events), undefined, { floor: bundle.floorReader, store: bundle.floorStore() }));
for (let i = 0; i < Number(runs); i++) {
  const historyDir = process.env.PROFILE_HISTORY ? mkdtempSync(path.join(root, 'history-')) : undefined;
  const m = bundle ? await floorSide(historyDir) : await hostSide(core, size, Number(events), undefined, 0, historyDir ? { historyDir } : {});
  if (historyDir) rmSync(historyDir, { recursive: true, force: true });
  process.stderr.write(`ACP ${size}${bundle ? ' (floor)' : ''}: ${Math.round(m.rate)} events/s, main thread ${m.mainCpuUsPerEvent?.toFixed(2)} µs CPU/event\n`);
}
rmSync(root, { recursive: true, force: true });
