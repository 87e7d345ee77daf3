#!/usr/bin/env node
// The bare reader's side of bench/events.mjs alone (LF split + JSON.parse), to set beside
// profile-events.mjs under a profiler or `strace -c` (the same arguments).
//   strace -c node bench/lib/profile-bare.mjs "τ 3.x (real τ 0.15.0)" real 1 22000 5500
import { bareSide, STREAMS } from '../events.mjs';

const [label, sizeArg = '90', runs = '3', events = '100000', rate = '0'] = process.argv.slice(2);
const stream = STREAMS.find((s) => s.label === label);
if (!stream) throw new Error(`no stream ${label}; known: ${STREAMS.map((s) => s.label).join('; ')}`);
const size = sizeArg === 'real' ? 'real' : Number(sizeArg);
for (let i = 0; i < Number(runs); i++) {
  const m = await bareSide(stream, size, Number(events), undefined, Number(rate));
  process.stderr.write(`${label} ${size} bare: ${Math.round(m.rate)} events/s, main thread ${m.mainCpuUsPerEvent?.toFixed(2)} µs CPU/event\n`);
}
