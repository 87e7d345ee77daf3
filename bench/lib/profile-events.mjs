#!/usr/bin/env node
// The host side of bench/events.mjs alone, for a profiler: one stream, one size, a few runs.
//   node --cpu-prof --cpu-prof-dir=/tmp/prof bench/lib/profile-events.mjs "τ 3.x (real τ 0.15.0)" 90 [runs] [events]
//   node --trace-gc bench/lib/profile-events.mjs "pi 0.73.1" real
//   node --cpu-prof ... profile-events.mjs "τ 3.x (real τ 0.15.0)" real 2 22000 5500   (the last: events/s, one line per write)
//   PROFILE_HISTORY=1 node --cpu-prof ...   the host with a history (in a temporary folder), its writes awaited
// then `node bench/lib/profile-top.mjs /tmp/prof/*.cpuprofile` for where the time went.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { hostSide, STREAMS } from '../events.mjs';
import { loadCore } from './common.mjs';

const [label, sizeArg = '90', runs = '3', events = '100000', rate = '0'] = process.argv.slice(2);
const stream = STREAMS.find((s) => s.label === label);
if (!stream) throw new Error(`no stream ${label}; known: ${STREAMS.map((s) => s.label).join('; ')}`);
const size = sizeArg === 'real' ? 'real' : Number(sizeArg);
const core = loadCore();
for (let i = 0; i < Number(runs); i++) {
  const historyDir = process.env.PROFILE_HISTORY ? mkdtempSync(path.join(os.tmpdir(), 'rpc-profile-history-')) : undefined;
  const m = await hostSide(core, stream, size, Number(events), historyDir ? { historyDir } : {}, undefined, Number(rate));
  if (historyDir) rmSync(historyDir, { recursive: true, force: true });
  process.stderr.write(`${label} ${size}: ${Math.round(m.rate)} events/s, ${m.cpuUsPerEvent.toFixed(2)} µs CPU/event, main thread ${m.mainCpuUsPerEvent?.toFixed(2)}\n`);
}
