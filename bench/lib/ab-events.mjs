#!/usr/bin/env node
// Two builds of the host on the same floods, interleaved run by run in one process: the
// before/after figures of an optimisation (CPU µs per event and events/s, medians), less
// exposed to a shared machine's load than two separate runs. CPU is the process's (every thread)
// and the main thread's alone; the difference is the other threads' (the event store packs its
// blocks on libuv's threadpool).
//   node bench/lib/ab-events.mjs <distA> <distB> [rounds] [streams;...] [sizes,...]
//   AB_HISTORY=1 node bench/lib/ab-events.mjs ...   the host with a history (a new folder each run, its writes awaited)
// Streams: bench/events.mjs's labels, and 'ACP' (bench/acp.mjs's flood of claude-agent-acp 0.101.0's lines).
// Build a dist from a commit with: git worktree add /tmp/x <commit> && node -e "import('/tmp/x/bench/lib/build.mjs').then(m => m.buildBundles('/tmp/x/dist'))"
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { hostSide as acpHostSide } from '../acp.mjs';
import { EVENT_SIZES, STREAMS as EVENT_STREAMS, hostSide } from '../events.mjs';
import { summary } from './common.mjs';

const STREAMS = [...EVENT_STREAMS, { label: 'ACP', acp: true }];
const [distA, distB, rounds = '5', streams = STREAMS.map((s) => s.label).join(';'), sizes = '90,real'] = process.argv.slice(2);
const require = createRequire(import.meta.url);
const cores = { A: require(path.resolve(distA, 'core.js')), B: require(path.resolve(distB, 'core.js')) };
const n = 60_000;
/** One host run, with a history in a folder of its own when AB_HISTORY is set. */
async function hostRun(core, s, size) {
  const side = (options) => (s.acp ? acpHostSide(core, size, n, undefined, 0, options) : hostSide(core, s, size, n, options));
  if (!process.env.AB_HISTORY) return side({});
  const historyDir = mkdtempSync(path.join(os.tmpdir(), 'rpc-ab-history-'));
  try {
    return await side({ historyDir });
  } finally {
    rmSync(historyDir, { recursive: true, force: true });
  }
}
console.log(`A ${distA}  B ${distB}  load ${os.loadavg().map((v) => v.toFixed(1)).join(' ')}`);
console.log('| stream | deltas | A µs/event | B µs/event | B/A CPU | A main µs | B main µs | B/A main | other threads A / B µs | A ev/s | B ev/s |\n|---|---|---|---|---|---|---|---|---|---|---|');
for (const s of STREAMS.filter((x) => streams.split(';').includes(x.label))) {
  for (const size of sizes.split(',').map((x) => (x === 'real' ? x : Number(x))).filter((x) => EVENT_SIZES.includes(x))) {
    const r = { A: [], B: [] };
    for (const k of ['A', 'B']) await hostRun(cores[k], s, size); // warm-up
    for (let i = 0; i < Number(rounds); i++) for (const k of i % 2 ? ['B', 'A'] : ['A', 'B']) r[k].push(await hostRun(cores[k], s, size));
    const med = (k, f) => summary(r[k].map(f)).median;
    const ratio = (f) => summary(r.A.map((a, i) => f(r.B[i]) / f(a))).median.toFixed(2);
    const us = (k, f) => med(k, f).toFixed(2);
    const other = (m) => m.cpuUsPerEvent - m.mainCpuUsPerEvent;
    const main = (m) => m.mainCpuUsPerEvent;
    console.log(`| ${s.label} | ${size} | ${us('A', (m) => m.cpuUsPerEvent)} | ${us('B', (m) => m.cpuUsPerEvent)} | ${ratio((m) => m.cpuUsPerEvent)} | ${us('A', main)} | ${us('B', main)} | ${ratio(main)} | ${us('A', other)} / ${us('B', other)} | ${Math.round(med('A', (m) => m.rate))} | ${Math.round(med('B', (m) => m.rate))} |`);
  }
}
console.log(`load ${os.loadavg().map((v) => v.toFixed(1)).join(' ')}`);
