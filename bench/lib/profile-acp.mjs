#!/usr/bin/env node
// The host side of bench/acp.mjs alone, for a profiler: the recorded claude-agent-acp flood, a few runs.
//   node --cpu-prof --cpu-prof-dir=/tmp/prof bench/lib/profile-acp.mjs [size] [runs] [events]
//   PROFILE_HISTORY=1 node --cpu-prof ...   the host with a history (in a temporary folder), its writes awaited
// then `node bench/lib/profile-top.mjs /tmp/prof/*.cpuprofile` for where the time went.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { hostSide } from '../acp.mjs';
import { loadCore } from './common.mjs';

const [sizeArg = '90', runs = '3', events = '150000'] = process.argv.slice(2);
const size = sizeArg === 'real' ? 'real' : Number(sizeArg);
const core = loadCore();
for (let i = 0; i < Number(runs); i++) {
  const historyDir = process.env.PROFILE_HISTORY ? mkdtempSync(path.join(os.tmpdir(), 'rpc-profile-history-')) : undefined;
  const m = await hostSide(core, size, Number(events), undefined, 0, historyDir ? { historyDir } : {});
  if (historyDir) rmSync(historyDir, { recursive: true, force: true });
  process.stderr.write(`ACP ${size}: ${Math.round(m.rate)} events/s, main thread ${m.mainCpuUsPerEvent?.toFixed(2)} µs CPU/event\n`);
}
