// 6. Real τ (ffwf-tau-coding-agent 0.15.0, protocol 3.1) driven by the mock LLM, each figure the
// host beside a bare script on the same program in the same run, alternating:
//   abort → settled   mid-tool abort of a real `sleep 30`: host.abort() → `aborted`, beside
//                     writing the abort line and reading agent_end (bench/abort.mjs's two sides)
//   start → ready     host.start() → `started`, beside a bare spawn + get_capabilities + get_state
//   stream            a long streamed reply (many small text deltas): events per second seen by
//                     the host's listeners, beside a bare LF-split + JSON.parse reader. τ itself
//                     produces them (Python, one event per model chunk), so both sides mostly wait
//                     on τ; the CPU this process spends per event says what each reader costs.
import { pathToFileURL } from 'node:url';
import { startMockLlm } from '../test/fixtures/mock-llm.mjs';
import { makeTauHome, removeTauHome, requireTau, tauEnv, tauRpcArgs, tauSessionDir } from '../test/fixtures/tau-env.mjs';
import { abortFigures, bareReady, bareSide, hostSide, pairs, tracedHost } from './abort.mjs';
import { alternate, bareStart, hostStart } from './startup.mjs';
import { BareWorker, ROOT, WIRE, figure, loadCore, log, nextHostEvent, round } from './lib/common.mjs';

const sleepCall = { toolCalls: [{ name: 'bash', arguments: { command: 'sleep 30' } }] };

/** A reply of `words` words, streamed by the mock three words a chunk: one text delta each. */
const longReply = (words) => ({ text: Array.from({ length: words }, (_, i) => `w${i}`).join(' ') });

async function hostStream(host, id, llm, words) {
  llm.script(longReply(words));
  let count = 0;
  const off = host.onEvent((wid, e) => wid === id && e.type !== 'prompt_sent' && count++);
  const ended = nextHostEvent(host, id, (e) => e.type === 'agent_end', 120_000, 'agent_end');
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const r = await host.prompt(id, 'say a lot');
  if (r.status !== 'accepted') throw new Error(`prompt: ${r.error}`);
  await ended;
  const t1 = performance.now();
  const cpu = process.cpuUsage(c0);
  off();
  return { rate: count / ((t1 - t0) / 1000), cpuUs: (cpu.user + cpu.system) / count, count };
}

function bareStream(w, llm, words) {
  let id = 1000;
  return async () => {
    llm.script(longReply(words));
    let count = 0;
    const onValue = w.onValue;
    w.onValue = (v) => {
      if (WIRE.tau.isEvent(v)) count++;
      onValue.call(w, v);
    };
    const ended = w.next((v) => WIRE.tau.isEvent(v) && WIRE.tau.eventType(v) === 'agent_end', 120_000, 'agent_end');
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    w.send(WIRE.tau.prompt(++id, 'say a lot'));
    await ended;
    const t1 = performance.now();
    const cpu = process.cpuUsage(c0);
    w.onValue = onValue;
    return { rate: count / ((t1 - t0) / 1000), cpuUs: (cpu.user + cpu.system) / count, count };
  };
}

export async function run({ abortCount = 10, startCount = 5, streamRounds = 5, words = 3000, ...opts } = {}) {
  const command = requireTau();
  const core = loadCore(opts);
  const figures = [];
  const llm = await startMockLlm();
  const home = await makeTauHome({ baseUrl: llm.baseUrl });
  const env = tauEnv(home);
  const spec = { dialect: 'tau', command, cwd: ROOT, env, name: 'bench τ', sessionDir: tauSessionDir(home) };
  try {
    // abort → settled
    {
      const traced = tracedHost(core);
      const w = new BareWorker(command, tauRpcArgs(home), { env });
      try {
        const started = await traced.host.start(spec);
        if (started.status !== 'started') throw new Error(`start real τ: ${started.error}`);
        await bareReady(w, 'tau');
        const script = () => llm.script(sleepCall);
        const ps = await pairs(abortCount, hostSide(traced, started.workerId, script), bareSide(w, 'tau', script));
        const [f, own] = abortFigures('real τ 0.15.0 + mock LLM', ps, `${ps.length} aborts each`);
        figures.push(f, own);
        log(`  abort real τ: host median ${f.product.median} ms, bare ${f.baseline.median} ms; host's own ${own.product.median} ms`);
      } finally {
        await traced.host.dispose();
        await w.stop();
      }
    }
    // start → ready
    {
      const host = core.createSupervisor();
      try {
        const ps = await alternate(startCount, () => hostStart(host, spec), () => bareStart(command, tauRpcArgs(home), 'tau', env));
        figures.push(figure({
          bench: 'tau', name: 'real τ 0.15.0: spawn → started', unit: 'ms', better: 'lower', pairs: ps,
          baselineName: 'bare spawn + get_capabilities + get_state', note: `${ps.length} starts each`,
        }));
        log(`  startup real τ: host ${round(figures.at(-1).product.median, 1)} ms, bare ${round(figures.at(-1).baseline.median, 1)} ms`);
      } finally {
        await host.dispose();
      }
    }
    // stream
    {
      const host = core.createSupervisor();
      const w = new BareWorker(command, tauRpcArgs(home), { env });
      try {
        const started = await host.start(spec);
        if (started.status !== 'started') throw new Error(`start real τ: ${started.error}`);
        await bareReady(w, 'tau');
        const ps = await alternate(streamRounds, () => hostStream(host, started.workerId, llm, words), bareStream(w, llm, words));
        const n = ps[0].product.count;
        figures.push(figure({
          bench: 'tau', name: `real τ 0.15.0: a streamed reply, events/s (${n} events a reply)`, unit: 'events/s', better: 'higher',
          pairs: ps.map((p) => ({ product: p.product.rate, baseline: p.baseline.rate })), baselineName: 'bare LF-split + JSON.parse reader',
          goal: '≥ 0.8× the bare reader', digits: 0,
        }));
        figures.at(-1).met = figures.at(-1).ratio.median >= 0.8;
        figures.push(figure({
          bench: 'tau', name: 'real τ 0.15.0: this process\'s CPU per event while streaming', unit: 'µs', better: 'lower',
          pairs: ps.map((p) => ({ product: p.product.cpuUs, baseline: p.baseline.cpuUs })), baselineName: 'bare reader',
        }));
        log(`  stream real τ: host ${round(figures.at(-2).product.median, 0)} ev/s, bare ${round(figures.at(-2).baseline.median, 0)} ev/s`);
      } finally {
        await host.dispose();
        await w.stop();
      }
    }
  } finally {
    await llm.close();
    await removeTauHome(home);
  }
  return { figures };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (k, d) => Number(process.argv.includes(k) ? process.argv[process.argv.indexOf(k) + 1] : d);
  const out = await run({ abortCount: arg('--n', 10), startCount: arg('--starts', 5), streamRounds: arg('--rounds', 5) });
  for (const f of out.figures) console.log(`${f.name}: host ${JSON.stringify(f.product)} bare ${JSON.stringify(f.baseline)} ratio ${JSON.stringify(f.ratio)}`);
}
