// 2. Event throughput: the fake worker writes n events of realistic sizes and mix (`events <n>
// mix`: ~40-byte text deltas, every 20th a ~4 KiB tool update inside a real tool frame) as fast
// as the pipe takes them. Measured from the prompt to agent_end, for
//   product  the full host: createSupervisor → start → prompt → count onEvent until agent_end
//   raw      the same worker program read in this process: split stdout on LF, JSON.parse
//   rpc      pi's own RpcClient (pi dialect), its onEvent listener
// interleaved round by round (rotating the order), each run on a freshly started worker.
// The fake worker is usually the slower end of the pipe, so the same comparison is also run with
// the replay worker (bench/lib/replay-worker.mjs) writing the fake worker's recorded stream at
// no cost of its own: there the reading side is the bottleneck. CPU time of this process per
// event is reported for both (it is what the reader costs, whoever is slower).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { BareWorker, FAKE_WORKER, ROOT, bareRun, fakeArgs, figure, loadCore, log, measured, rpcClientRun } from './lib/common.mjs';
import { recordEvents } from './lib/record.mjs';

const REPLAY_WORKER = path.join(ROOT, 'bench/lib/replay-worker.mjs');

/** The worker program: the fake worker itself, or the replay of its recorded stream. */
function program(dialect, replayFile) {
  const script = replayFile ? REPLAY_WORKER : FAKE_WORKER;
  const extra = replayFile ? ['--file', replayFile] : [];
  return { command: process.execPath, script, extra };
}

const RPC_CLIENT = path.join(ROOT, 'node_modules/@mariozechner/pi-coding-agent/dist/modes/rpc/rpc-client.js');

/**
 * `hostOptions` for the host under test; `drain(host)` is awaited after the last event and before
 * CPU is read, so that work the host defers past the event path (history writes) is counted.
 */
export async function product(core, dialect, n, replayFile, { hostOptions, drain } = {}) {
  const host = core.createSupervisor(hostOptions);
  const p = program(dialect, replayFile);
  try {
    const started = await host.start({ dialect, command: p.command, args: [p.script, '--dialect', dialect, ...p.extra], cwd: ROOT });
    if (started.status !== 'started') throw new Error(`start failed: ${started.error}`);
    const id = started.workerId;
    let count = 0;
    let t0 = 0;
    let done;
    const ended = new Promise((r) => (done = r));
    host.onEvent((wid, e) => {
      // Only what the worker sent: not the host's own prompt_sent, nor the agent_settled it adds
      // after a 0.73.1 agent_end.
      if (wid !== id || e.type === 'prompt_sent' || e.data?.synthesized === true) return;
      count++;
      if (e.type === 'agent_end') done(performance.now());
    });
    const c0 = process.cpuUsage();
    t0 = performance.now();
    const r = await host.prompt(id, `events ${n}`);
    if (r.status !== 'accepted') throw new Error(`prompt: ${r.error}`);
    const t1 = await ended;
    if (!drain) return measured(count, t0, t1, c0);
    await drain(host);
    return { ...measured(count, t0, t1, c0), drainMs: performance.now() - t1 };
  } finally {
    await host.dispose();
  }
}

export async function raw(dialect, n, replayFile) {
  const p = program(dialect, replayFile);
  const w = new BareWorker(p.command, [...fakeArgs(dialect), ...p.extra].map((a) => (a === FAKE_WORKER ? p.script : a)));
  return bareRun(w, dialect, `events ${n}`);
}

export async function rpcClient(n, replayFile) {
  const p = program('pi', replayFile);
  // RpcClient runs `node <cliPath> --mode rpc <args>`: the worker program in the pi dialect.
  return rpcClientRun(RPC_CLIENT, { cliPath: p.script, args: ['--dialect', 'pi', '--no-session', '--no-extensions', ...p.extra], text: `events ${n}`, quiet: '[fake-worker' });
}

export async function run({ n = 200_000, rounds = 5, dialects = ['pi', 'tau'], rpc = true, sources = ['fake', 'replay'], warmup = true, ...opts } = {}) {
  const core = loadCore(opts);
  const figures = [];
  const detail = {};
  for (const source of sources) {
    for (const dialect of dialects) {
      let replayFile;
      if (source === 'replay') {
        const rec = await recordEvents(dialect, `events ${n}`);
        replayFile = rec.file;
      }
      const sides = { product: () => product(core, dialect, n, replayFile), raw: () => raw(dialect, n, replayFile) };
      if (dialect === 'pi' && rpc) sides.rpc = () => rpcClient(n, replayFile);
      const names = Object.keys(sides);
      const results = Object.fromEntries(names.map((k) => [k, []]));
      // One unrecorded run of each side first, so that no side pays for JIT warm-up in a round.
      if (warmup) for (const side of names) await sides[side]();
      for (let r = 0; r < rounds; r++) {
        // Rotate the order so no side always runs first (or right after the same other side).
        const order = names.map((_, i) => names[(i + r) % names.length]);
        for (const side of order) {
          const m = await sides[side]();
          results[side].push(m);
          log(`  throughput ${source} ${dialect} ${r + 1}/${rounds} ${side.padEnd(7)} ${String(Math.round(m.rate)).padStart(7)} events/s  ${m.cpuUsPerEvent.toFixed(2)} µs CPU/event  (${m.events} events, ${m.seconds.toFixed(2)} s)`);
        }
      }
      detail[`${source}/${dialect}`] = results;
      const label = source === 'replay' ? `${dialect}, replayed stream` : `${dialect}, fake worker`;
      const events = `${results.product[0].events} events/run, ${results.raw[0].events} seen raw${results.rpc ? `, ${results.rpc[0].events} by RpcClient` : ''}`;
      const pairs = (other, key) => results.product.map((p, i) => ({ product: p[key], baseline: results[other][i][key] }));
      const rawPairs = pairs('raw', 'rate');
      figures.push(figure({
        bench: 'throughput', name: `${label}: events/s, host vs raw`, unit: 'events/s', better: 'higher', digits: 0,
        pairs: rawPairs, baselineName: 'raw: LF split + JSON.parse, same pipe, same process',
        goal: '≥ 0.8× raw', met: median(rawPairs.map((p) => p.product / p.baseline)) >= 0.8, note: events,
      }));
      figures.push(figure({
        bench: 'throughput', name: `${label}: CPU µs/event in this process, host vs raw`, unit: 'µs', better: 'lower', digits: 2,
        pairs: pairs('raw', 'cpuUsPerEvent'), baselineName: 'raw: LF split + JSON.parse',
      }));
      if (results.rpc) {
        const rpcPairs = pairs('rpc', 'rate');
        figures.push(figure({
          bench: 'throughput', name: `${label}: events/s, host vs pi's RpcClient`, unit: 'events/s', better: 'higher', digits: 0,
          pairs: rpcPairs, baselineName: "pi's RpcClient (onEvent)",
          goal: "≥ RpcClient", met: median(rpcPairs.map((p) => p.product / p.baseline)) >= 1,
        }));
        figures.push(figure({
          bench: 'throughput', name: `${label}: CPU µs/event, host vs pi's RpcClient`, unit: 'µs', better: 'lower', digits: 2,
          pairs: pairs('rpc', 'cpuUsPerEvent'), baselineName: "pi's RpcClient",
        }));
      }
    }
  }
  return { figures, detail };
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (k, d) => (process.argv.includes(k) ? process.argv[process.argv.indexOf(k) + 1] : d);
  const out = await run({ n: Number(arg('--n', 200000)), rounds: Number(arg('--rounds', 3)), dialects: arg('--dialects', 'pi,tau').split(','), sources: arg('--sources', 'fake,replay').split(',') });
  for (const f of out.figures) console.log(`${f.name}: product ${f.product.median} (min ${f.product.min}, p95 ${f.product.p95}) baseline ${f.baseline.median}; ratio ${f.ratio.median} [${f.ratio.min}..${f.ratio.p95}]`);
}
