// 10. The ACP event path: claude-agent-acp 0.101.0's recorded session/update lines (its text
// chunks, tool calls and usage) replayed as a flood by bench/lib/acp-flood-agent.mjs, read by
//   host    the full host: createSupervisor → start (initialize, session/new) → prompt → count
//           onEvent until the prompt's answer (agent_end)
//   bare    the same flood read in this process: LF split + JSON.parse, count until the answer
// interleaved round by round (rotating the order), each run on a freshly started agent, per
// text-chunk size. Reported: this process's main-thread CPU per event, host ÷ bare.
import path from 'node:path';
import { BareWorker, ROOT, figure, hostFloodRun, loadCore, log, mainThreadMark, measured } from './lib/common.mjs';

const AGENT = path.join(ROOT, 'bench/lib/acp-flood-agent.mjs');
const SIZES = [90, 500, 2048, 'real'];
const argsFor = (size, n) => [AGENT, '--events', String(n), '--size', String(size)];

export async function hostSide(core, size, n, ready) {
  const host = core.createSupervisor();
  const started = await host.start({ dialect: 'acp', command: process.execPath, args: argsFor(size, n), cwd: ROOT });
  if (started.status !== 'started') {
    await host.dispose();
    throw new Error(`start failed: ${started.error}`);
  }
  // What the agent sent: its updates and the prompt's answer (agent_end), not the host's own.
  return hostFloodRun(host, started.workerId, (e) => e.type !== 'prompt_sent' && e.type !== 'agent_start' && e.type !== 'stderr' && e.data?.synthesized !== true, ready);
}

export async function bareSide(size, n, ready) {
  // Started as the host starts a worker (a session of its own: bench/lib/common.mjs, BareWorker).
  const w = new BareWorker(process.execPath, argsFor(size, n), { detached: true });
  try {
    const send = (m) => w.send({ jsonrpc: '2.0', ...m });
    const init = w.next((v) => v.id === 1, 30_000, 'initialize');
    send({ id: 1, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: {} } });
    await init;
    const session = w.next((v) => v.id === 2, 30_000, 'session/new');
    send({ id: 2, method: 'session/new', params: { cwd: ROOT, mcpServers: [] } });
    const { result } = await session;
    let count = 0;
    const ended = new Promise((resolve) => {
      w.onValue = (v) => {
        if (v.method === 'session/update' || v.id === 3) count++;
        if (v.id === 3) resolve(performance.now());
      };
    });
    if (ready) await ready();
    const main0 = mainThreadMark();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    send({ id: 3, method: 'session/prompt', params: { sessionId: result.sessionId, prompt: [{ type: 'text', text: 'flood' }] } });
    const t1 = await ended;
    return measured(count, t0, t1, c0, main0);
  } finally {
    await w.stop();
  }
}

export async function run({ n = 150_000, rounds = 5, warmup = true, sizes = SIZES, ...opts } = {}) {
  const core = loadCore(opts);
  const figures = [];
  for (const size of sizes) {
    if (warmup) {
      await hostSide(core, size, Math.min(n, 5000));
      await bareSide(size, Math.min(n, 5000));
    }
    const pairs = [];
    for (let round = 0; round < rounds; round++) {
      const [first, second] = round % 2 ? [() => bareSide(size, n), () => hostSide(core, size, n)] : [() => hostSide(core, size, n), () => bareSide(size, n)];
      const a = await first();
      const b = await second();
      const [host, bare] = round % 2 ? [b, a] : [a, b];
      if (host.events !== bare.events) throw new Error(`the host saw ${host.events} events, the bare reader ${bare.events} (size ${size})`);
      pairs.push({ product: host.mainCpuUsPerEvent, baseline: bare.mainCpuUsPerEvent, events: host.events });
    }
    log(`  ACP ${size} B: host ${pairs.map((p) => p.product.toFixed(2)).join(' ')} µs/event, bare ${pairs.map((p) => p.baseline.toFixed(2)).join(' ')}`);
    figures.push(figure({
      bench: 'acp', name: `ACP (claude-agent-acp 0.101.0 recorded), ${size === 'real' ? 'as recorded' : `${size} B chunks`}: main-thread CPU per event, host vs bare reader`,
      unit: 'µs/event', better: 'lower', baselineName: 'bare reader (LF split + JSON.parse)', pairs,
      note: `${pairs[0]?.events ?? 0} events a run, every one counted on both sides`,
    }));
  }
  return { figures };
}
