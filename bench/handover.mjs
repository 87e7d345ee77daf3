// 9. Decoding off the extension host's thread (issue 16's remaining proposal): a
// node:worker_threads Worker does the LF framing, JSON.parse and the dialect codec's decoding
// (bench/lib/decode-thread.ts: the product's own LineFramer and codec) and hands the events back
// by structured clone. The extension host's thread is what every extension shares, so what
// counts is that thread's cost per event, prompt to agent_end: its own CPU time (Linux
// schedstat) and its busy time (event-loop utilisation, wall time, so it also counts time the
// thread was preempted on a loaded machine); the process's CPU (all threads) and events/s go
// beside it. Sides, on bench/events.mjs's floods,
// interleaved round by round (rotating the order), each run on a freshly started flood worker:
//   bare          LF split + JSON.parse on the main thread, nothing else
//   thread        main forwards stdout chunks to the decode thread, counts the events it gets back
//   thread+lines  the same, each event with its line (what the product's store keeps)
//   host          the full product, as bench/events.mjs's host side
// Each thread run starts its own decode thread, so its JIT warm-up is in the process CPU (not in
// the main thread's figure).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { STREAMS, eventsFor, floodArgs, hostSide } from './events.mjs';
import { buildDecodeThread } from './lib/build.mjs';
import { BareWorker, bareRun, figure, loadCore, log, summary } from './lib/common.mjs';
import { buildFlood, loadRecording } from './lib/flood-worker.mjs';

/** The streams and delta sizes of the issue's closing note. */
export const CASES = [
  { stream: 'τ 3.x (real τ 0.15.0)', size: 90 },
  { stream: 'pi 1.6.0', size: 90 },
  { stream: 'pi 0.73.1', size: 'real' },
];

/** A bare reader whose stdout is read by the decode thread instead of on the main thread. */
class ThreadWorker extends BareWorker {
  constructor(bundle, dialect, args, lines) {
    super(process.execPath, args);
    // No 'error' listener: a decode thread that throws fails the run loudly instead of hanging it.
    this.thread = new Worker(bundle, { workerData: { dialect, lines } });
    this.thread.on('message', (out) => {
      for (let i = 0; i < out.length; i += 2) {
        if (out[i] !== null) this.onValue(out[i], true);
        else this.onValue(JSON.parse(out[i + 1])); // an answer, for the probe
      }
    });
  }

  onChunk(chunk) {
    // Copied (the stream may reuse the chunk's memory), then moved, not cloned a second time.
    const bytes = new Uint8Array(chunk);
    this.thread.postMessage(bytes, [bytes.buffer]);
  }

  async stop() {
    await super.stop();
    await this.thread.terminate();
  }
}

export async function run({ n = 150_000, rounds = 5, warmup = true, cases = CASES, ...opts } = {}) {
  const core = loadCore(opts);
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'rpc-workers-bench-handover-'));
  try {
    const bundle = await buildDecodeThread(tmp);
    const figures = [];
    const rows = [];
    for (const c of cases) {
      const s = STREAMS.find((x) => x.label === c.stream);
      const recording = loadRecording(s.recording);
      const events = eventsFor(recording, c.size, n);
      const flood = buildFlood(recording, { events, size: c.size });
      const args = floodArgs(s, c.size, events);
      const sides = {
        bare: () => bareRun(new BareWorker(process.execPath, args), s.dialect, 'flood'),
        thread: () => bareRun(new ThreadWorker(bundle, s.dialect, args, false), s.dialect, 'flood'),
        'thread+lines': () => bareRun(new ThreadWorker(bundle, s.dialect, args, true), s.dialect, 'flood'),
        host: () => hostSide(core, s, c.size, events),
      };
      const names = Object.keys(sides);
      const results = Object.fromEntries(names.map((k) => [k, []]));
      if (warmup) for (const side of names) await sides[side]();
      for (let r = 0; r < rounds; r++) {
        for (const side of names.map((_, i) => names[(i + r) % names.length])) {
          const m = await sides[side]();
          if (m.events !== flood.events) throw new Error(`${s.label}: ${side} saw ${m.events} events of ${flood.events}`);
          results[side].push(m);
          log(`  handover ${s.label} ${c.size} ${r + 1}/${rounds} ${side.padEnd(12)} main ${m.mainCpuUsPerEvent.toFixed(2)} µs CPU, ${m.activeUsPerEvent.toFixed(2)} µs busy · process ${m.cpuUsPerEvent.toFixed(2)} µs CPU /event · ${Math.round(m.rate)} events/s`);
        }
      }
      const label = `${s.label}, ${c.size === 'real' ? 'as recorded' : `${c.size} B deltas`} (${Math.round(flood.bytes / flood.events)} B/event)`;
      const ratio = (side, key) => summary(results[side].map((m, i) => m[key] / results.bare[i][key])).median;
      const med = (side, key) => summary(results[side].map((m) => m[key])).median;
      for (const side of names) {
        const row = { stream: label, side, events: flood.events };
        for (const key of Object.keys(METRICS)) row[key] = { median: med(side, key), ratio: ratio(side, key) };
        rows.push(row);
        if (side === 'bare') continue;
        for (const key of ['mainCpuUsPerEvent', 'activeUsPerEvent']) {
          const pairs = results[side].map((m, i) => ({ product: m[key], baseline: results.bare[i][key] }));
          figures.push(figure({ bench: 'handover', name: `${label}: ${METRICS[key]}, ${side} vs bare reader`, unit: 'µs', better: 'lower', digits: 2, pairs, baselineName: 'LF split + JSON.parse on the main thread', note: `${flood.events} events/run` }));
        }
      }
    }
    return { figures, tables: [handoverTable(rows)], rows };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

const METRICS = {
  mainCpuUsPerEvent: 'main-thread CPU µs/event',
  activeUsPerEvent: 'main-thread busy µs/event',
  cpuUsPerEvent: 'process CPU µs/event',
  rate: 'events/s',
};

/** One row per stream and side: medians of the rounds, and the median per-round ratio to bare. */
export function handoverTable(rows) {
  const cell = (x, key) => `${key === 'rate' ? Math.round(x.median).toLocaleString('en') : x.median.toFixed(2)} (${x.ratio.toFixed(2)}×)`;
  const head = ['stream', 'side', ...Object.values(METRICS).map((m) => `${m} (× bare)`)];
  const body = rows.map((r) => [r.stream, r.side, ...Object.keys(METRICS).map((k) => cell(r[k], k))]);
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...body.map((c) => `| ${c.join(' | ')} |`)].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (k, d) => (process.argv.includes(k) ? process.argv[process.argv.indexOf(k) + 1] : d);
  const out = await run({ n: Number(arg('--n', 150000)), rounds: Number(arg('--rounds', 5)) });
  console.log(out.tables[0]);
  console.log(`load ${os.loadavg().map((v) => v.toFixed(2)).join(' ')}`);
}
