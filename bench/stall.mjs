// 11. Does the editor stutter (issue 24, "Yield")? The event-loop delay of this process while
// the host reads full-speed floods (perf_hooks.monitorEventLoopDelay, 1 ms resolution), beside
// the bare reader (LF split + JSON.parse in one go per chunk) on the same flood, interleaved:
//   one     one flood at a time: the longest stall
//   eight   eight floods at once: delay p99 and max
// per dialect (τ 3.x as real τ 0.15.0 speaks it, pi 1.6.0, ACP), 90 B text deltas, from the
// prompt (every worker started) to the last event read.
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import * as acp from './acp.mjs';
import * as events from './events.mjs';
import { figure, loadCore, log, summary } from './lib/common.mjs';

const SIZE = 90;
const tau = events.STREAMS.find((s) => s.label.startsWith('τ 3.x'));
const pi = events.STREAMS.find((s) => s.label === 'pi 1.6.0');

/** A side: host or bare, per dialect. */
function sides(core, n) {
  return [
    { label: 'τ 3.x', host: (ready) => events.hostSide(core, tau, SIZE, n, {}, ready), bare: (ready) => events.bareSide(tau, SIZE, n, ready) },
    { label: 'pi 1.6.0', host: (ready) => events.hostSide(core, pi, SIZE, n, {}, ready), bare: (ready) => events.bareSide(pi, SIZE, n, ready) },
    { label: 'ACP', host: (ready) => acp.hostSide(core, SIZE, n, ready), bare: (ready) => acp.bareSide(SIZE, n, ready) },
  ];
}

/**
 * The event-loop delay while `width` copies of `run` flood at once: max and p99, ms. Measured
 * from when every worker has started (spawning is not reading) until every flood is read.
 */
async function delayed(run, width) {
  const h = monitorEventLoopDelay({ resolution: 1 });
  const waiting = [];
  const ready = () => new Promise((resolve) => {
    waiting.push(resolve);
    if (waiting.length < width) return;
    h.enable();
    for (const go of waiting) go();
  });
  const runs = await Promise.all(Array.from({ length: width }, () => run(ready)));
  h.disable();
  return { max: h.max / 1e6, p99: h.percentile(99) / 1e6, events: runs.map((m) => m.events) };
}

export async function run({ n = 60_000, rounds = 3, warmup = true, ...opts } = {}) {
  const core = loadCore(opts);
  const figures = [];
  const rows = [];
  for (const d of sides(core, n)) {
    if (warmup) for (const k of ['host', 'bare']) await d[k]();
    const r = { host1: [], bare1: [], host8: [], bare8: [] };
    for (let i = 0; i < rounds; i++) {
      for (const k of i % 2 ? ['bare', 'host'] : ['host', 'bare']) {
        r[`${k}1`].push(await delayed(d[k], 1));
        r[`${k}8`].push(await delayed(d[k], 8));
        log(`  stall ${d.label} ${i + 1}/${rounds} ${k.padEnd(4)} one: max ${r[`${k}1`].at(-1).max.toFixed(1)} ms  eight: p99 ${r[`${k}8`].at(-1).p99.toFixed(1)} ms max ${r[`${k}8`].at(-1).max.toFixed(1)} ms`);
      }
    }
    // Every side of every round must have read every event of its flood.
    const counts = new Set(Object.values(r).flat().flatMap((m) => m.events));
    if (counts.size !== 1) throw new Error(`${d.label}: sides saw different event counts: ${[...counts].join(', ')}`);
    const pairs = (w, key) => r[`host${w}`].map((m, i) => ({ product: m[key], baseline: r[`bare${w}`][i][key] }));
    const med = (k, key) => summary(r[k].map((m) => m[key])).median;
    const one = pairs(1, 'max');
    const p99 = pairs(8, 'p99');
    const max8 = pairs(8, 'max');
    figures.push(figure({ bench: 'stall', name: `${d.label}: longest event-loop stall, one flood`, unit: 'ms', better: 'lower', digits: 1, pairs: one, baselineName: 'bare reader, same flood', goal: '≤ 20 ms', met: med('host1', 'max') <= 20, note: `${n} events` }));
    figures.push(figure({ bench: 'stall', name: `${d.label}: event-loop delay p99, eight floods`, unit: 'ms', better: 'lower', digits: 1, pairs: p99, baselineName: 'bare reader, same floods', goal: '≤ 10 ms', met: med('host8', 'p99') <= 10 }));
    figures.push(figure({ bench: 'stall', name: `${d.label}: event-loop delay max, eight floods`, unit: 'ms', better: 'lower', digits: 1, pairs: max8, baselineName: 'bare reader, same floods', goal: '≤ 50 ms', met: med('host8', 'max') <= 50 }));
    rows.push([d.label, med('host1', 'max'), med('bare1', 'max'), med('host8', 'p99'), med('bare8', 'p99'), med('host8', 'max'), med('bare8', 'max')]);
  }
  const head = ['dialect', 'one flood: max stall host · bare (≤ 20)', 'eight floods: p99 host · bare (≤ 10)', 'eight floods: max host · bare (≤ 50)'];
  const f = (v) => v.toFixed(1);
  const table = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((x) => `| ${x[0]} | ${f(x[1])} · ${f(x[2])} | ${f(x[3])} · ${f(x[4])} | ${f(x[5])} · ${f(x[6])} |`), `load ${os.loadavg().map((v) => v.toFixed(2)).join(' ')}`].join('\n');
  return { figures, tables: [table], rows };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (k, d) => (process.argv.includes(k) ? process.argv[process.argv.indexOf(k) + 1] : d);
  const out = await run({ n: Number(arg('--n', 60000)), rounds: Number(arg('--rounds', 3)), dist: arg('--dist', undefined) });
  console.log(out.tables[0]);
}
