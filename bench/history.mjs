// 7. Persisted history (issue 14): the same full host, with `historyDir` (every delivered event
// written to disk) and without, on the fake worker writing `events <n> mix` as fast as the pipe
// takes them, interleaved round by round. Measured from the prompt to agent_end:
//   events/s     the event path: what persistence costs the delivery of events
//   CPU µs/event this process's CPU until the history has written every event (its flush is
//                awaited before CPU is read, so the deferred writes are counted too)
// The history runs at its shipped defaults (32 MiB per session: a run of 200,000 mixed events
// is larger, so its oldest-first eviction runs during the measurement).
//   node bench/run.mjs --only history [--quick]
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { figure, loadCore, log, summary } from './lib/common.mjs';
import { product } from './throughput.mjs';

export async function run({ n = 200_000, rounds = 5, dialects = ['pi', 'tau'], warmup = true, ...opts } = {}) {
  const core = loadCore(opts);
  const root = mkdtempSync(path.join(os.tmpdir(), 'rpc-bench-history-'));
  const figures = [];
  const detail = {};
  let k = 0;
  try {
    for (const dialect of dialects) {
      const sides = {
        on: async () => {
          const historyDir = path.join(root, `run-${k++}`);
          try {
            return await product(core, dialect, n, undefined, { hostOptions: { historyDir }, drain: (host) => host.history.store.flush() });
          } finally {
            rmSync(historyDir, { recursive: true, force: true });
          }
        },
        off: () => product(core, dialect, n),
      };
      const names = Object.keys(sides);
      const results = { on: [], off: [] };
      if (warmup) for (const side of names) await sides[side]();
      for (let r = 0; r < rounds; r++) {
        const order = r % 2 ? [...names].reverse() : names;
        for (const side of order) {
          const m = await sides[side]();
          results[side].push(m);
          log(`  history ${dialect} ${r + 1}/${rounds} ${side.padEnd(3)} ${String(Math.round(m.rate)).padStart(7)} events/s  ${m.cpuUsPerEvent.toFixed(2)} µs CPU/event${m.drainMs !== undefined ? `  (disk caught up ${m.drainMs.toFixed(0)} ms after the last event)` : ''}`);
        }
      }
      detail[dialect] = results;
      const pairs = (key) => results.on.map((p, i) => ({ product: p[key], baseline: results.off[i][key] }));
      const ratePairs = pairs('rate');
      const drain = results.on.map((m) => m.drainMs).sort((a, b) => a - b);
      figures.push(figure({
        bench: 'history', name: `${dialect}, fake worker: events/s, history on vs off`, unit: 'events/s', better: 'higher', digits: 0,
        pairs: ratePairs, baselineName: 'the same host without historyDir',
        goal: '≥ 0.9× off', met: summary(ratePairs.map((p) => p.product / p.baseline)).median >= 0.9,
        note: `${results.on[0].events} events/run; disk caught up ${Math.round(drain[Math.floor(drain.length / 2)])} ms (median) after the last event`,
      }));
      figures.push(figure({
        bench: 'history', name: `${dialect}, fake worker: CPU µs/event incl. the writes, history on vs off`, unit: 'µs', better: 'lower', digits: 2,
        pairs: pairs('cpuUsPerEvent'), baselineName: 'the same host without historyDir',
      }));
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return { figures, detail };
}
