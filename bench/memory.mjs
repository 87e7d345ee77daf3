// 3. Memory bound: n events (default 1,000,000, `events n mix`) through one worker, the host
// with its default event-store bound, beside a raw reader of the same stream; each in a child
// process of its own (`--expose-gc`, heap sampled after a full GC at checkpoints). Bounded
// means the memory stops growing once the store is full: growth from the first checkpoint after
// the store filled to the end is the figure, and the store's own size is read off the memory.
// Memory is the JavaScript heap plus external memory (array buffers): the store keeps the
// worker's lines outside the heap, in blocks packed off the main thread (eventBlocks.ts); the
// product side waits for that packing before its last sample. The fake worker's text does not
// repeat (test/fixtures/fake-worker/prose.mjs), so the packing is not flattered; the real
// recordings (bench/recordings) are packed too, each line once, in the store's blocks.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { distDir, figure, loadCore, log, round } from './lib/common.mjs';
import { loadRecording } from './lib/flood-worker.mjs';

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'lib/memory-child.mjs');

function child(options) {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--expose-gc', CHILD, JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err = (err + d).slice(-4000)));
    p.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`memory child exited ${code}: ${err}`));
      resolve(JSON.parse(out.trim().split('\n').pop()));
    });
  });
}

const mem = (s) => s.heapUsedMB + s.externalMB;

/** Memory (heap + external) and RSS growth from the first sample taken with the store full to the last. */
function growth(r, storeSize) {
  const full = r.samples.find((s) => s.events >= Math.max(storeSize ?? 0, 1) * 2) ?? r.samples[1] ?? r.samples[0];
  const last = r.samples[r.samples.length - 1];
  const start = r.samples[0];
  return {
    from: full.events, to: last.events,
    memMB: mem(last) - mem(full), rssMB: last.rssMB - full.rssMB,
    memOverStartMB: mem(last) - mem(start), rssOverStartMB: last.rssMB - start.rssMB,
  };
}

/** Each recording's event lines, once each, packed as the store packs them: bytes per line raw and packed. */
async function recordingFigures(core) {
  const out = [];
  for (const name of ['tau', 'pi-0.73', 'pi-1.x']) {
    const { received } = loadRecording(name);
    const lines = received.filter((l) => {
      const v = JSON.parse(l);
      return v.jsonrpc === '2.0' ? v.method === 'event' : v.type !== 'response' && v.type !== 'extension_ui_request';
    }).map((l) => Buffer.from(l));
    const raw = lines.reduce((n, l) => n + l.length, 0);
    let packed = 0;
    for (let i = 0; i < lines.length;) {
      let end = i;
      for (let bytes = 0; end < lines.length && (end === i || bytes + lines[end].length <= core.EVENT_BLOCK_BYTES); end++) bytes += lines[end].length;
      packed += (await core.eventBlockCodec.pack(Buffer.concat(lines.slice(i, end)))).length;
      i = end;
    }
    out.push(figure({
      bench: 'memory', name: `event store: packed bytes per line, the recorded ${name} stream (${lines.length} event lines, each once)`, unit: 'B', better: 'lower', digits: 0,
      pairs: [{ product: packed / lines.length, baseline: raw / lines.length }], baselineName: 'the recorded line\'s own bytes',
      note: `${(raw / packed).toFixed(1)}× packed; a recording is one short session (under one block), so a long session's ratio may differ`,
    }));
  }
  return out;
}

export async function run({ n = 1_000_000, dialect = 'tau', rounds = 1, every, ...opts } = {}) {
  const core = loadCore(opts);
  const storeSize = core.DEFAULT_LIMITS.eventStoreSize;
  const step = every ?? Math.max(1, Math.floor(n / 10));
  const dist = distDir(opts);
  const results = { product: [], raw: [] };
  for (let r = 0; r < rounds; r++) {
    for (const side of r % 2 ? ['raw', 'product'] : ['product', 'raw']) {
      const res = await child({ side, dialect, n, every: step, dist });
      results[side].push(res);
      const g = growth(res, side === 'product' ? storeSize : 0);
      log(`  memory ${side} (${res.events} events): heap + external ${round(mem(res.samples[0]), 1)} → ${round(mem(res.samples.at(-1)), 1)} MB, growth after ${g.from} events ${round(g.memMB, 2)} MB, ${round(g.rssMB, 1)} MB RSS`);
    }
  }
  const pairs = (key) => results.product.map((p, i) => ({ product: growth(p, storeSize)[key], baseline: growth(results.raw[i], 0)[key] }));
  const p0 = results.product[0];
  const storeMB = pairs('memOverStartMB').map((x) => x.product - x.baseline);
  const perEventBytes = storeMB.map((mb) => (mb * 1024 * 1024) / storeSize);
  // The last sample taken during the flood, before the store packed (it packs once the stream pauses).
  const inFlood = results.product.map((p, i) => ((mem(p.samples.at(-2)) - mem(p.samples[0]) - (mem(results.raw[i].samples.at(-2)) - mem(results.raw[i].samples[0]))) * 1024 * 1024) / storeSize);
  const figures = [
    figure({
      bench: 'memory', name: `${n.toLocaleString('en')} events (${dialect}, mix): heap + external growth once the store is full`, unit: 'MB', better: 'lower', digits: 2,
      pairs: pairs('memMB'), baselineName: 'raw reader of the same stream',
      goal: `bounded by the store (${storeSize.toLocaleString('en')} events), not by the event count`,
      met: pairs('memMB').every((x) => x.product < Math.max(2, Math.abs(x.baseline) * 2 + 2)),
      note: `heap + external after GC, from event ${growth(p0, storeSize).from.toLocaleString('en')} to ${p0.events.toLocaleString('en')}; the store held ${p0.heldByStore} events at the end`,
    }),
    figure({
      bench: 'memory', name: `${n.toLocaleString('en')} events (${dialect}, mix): RSS growth once the store is full`, unit: 'MB', better: 'lower', digits: 1,
      pairs: pairs('rssMB'), baselineName: 'raw reader of the same stream',
    }),
    figure({
      bench: 'memory', name: `event store at its bound (${storeSize.toLocaleString('en')} events): heap + external over the raw reader`, unit: 'MB', better: 'lower', digits: 2,
      product: storeMB, note: `≈ ${Math.round(perEventBytes[0])} bytes per stored event (heap + external at the end over before the prompt, minus the raw reader's; with the open block and any block still being packed raw)`,
    }),
    figure({
      bench: 'memory', name: 'event store: bytes per stored event — vs the worker\'s own line bytes per event, the same mix', unit: 'B', better: 'lower', digits: 0,
      pairs: perEventBytes.map((product, i) => ({ product, baseline: results.raw[i].streamBytes / Math.max(1, results.raw[i].events) })),
      baselineName: 'the worker\'s lines as they came (the raw side\'s stdout bytes ÷ its events)',
      goal: '≤ 600 B', met: perEventBytes.every((b) => b <= 600),
      note: `the store keeps each event as the line it came in, packed in blocks off the main thread (brotli, quality 1) once the stream pauses for 50 ms; the baseline is the lines themselves, measured in the same run, their text not repeating. During the full-speed flood, before it paused, the store's blocks were raw: ≈ ${Math.round(inFlood[0])} B per stored event`,
    }),
    ...(core.eventBlockCodec ? await recordingFigures(core) : []),
  ];
  return { figures, detail: results };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (k, d) => (process.argv.includes(k) ? process.argv[process.argv.indexOf(k) + 1] : d);
  const out = await run({ n: Number(arg('--n', 1000000)), dialect: arg('--dialect', 'tau') });
  for (const f of out.figures) console.log(JSON.stringify(f));
}
