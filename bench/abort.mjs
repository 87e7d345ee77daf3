// 1. Abort → settled. Mid-tool aborts (a running `sleep`): the time from calling the host's
// `abort` to its `aborted` result, beside a bare script on the same worker program (write the
// abort line, wait for the agent_end line). Product and baseline workers run side by side and
// the aborts alternate between them (and in which goes first), so load hits both alike.
// The worker's own time to wind down varies far more than the host's share (real pi: 10 to
// 190 ms), so the host's own time is measured too, on the product side: from calling abort()
// to the abort line being written (the host's trace hook), plus from the agent_end event
// reaching the host's listeners to abort() resolving; the bare script's counterpart is the same
// two spans in it (write, and agent_end parsed to its wait resolved).
import { pathToFileURL } from 'node:url';
import { startMockLlm } from '../test/fixtures/mock-llm.mjs';
import { makePiAgentDir, PI_VERSIONS, piEnv, piRpcArgs, removePiAgentDir } from '../test/fixtures/pi-env.mjs';
import { BareWorker, ROOT, WIRE, fakeArgs, fakeSpec, figure, loadCore, log, nextHostEvent, sleep } from './lib/common.mjs';

/** How long the tool has been running when the abort is sent. */
const MID_TOOL_MS = 30;

/** A host whose trace hook notes when an abort line is written. */
export function tracedHost(core) {
  const marks = { written: 0 };
  const isAbort = (m) => m?.type === 'abort' || m?.method === 'abort';
  const host = core.createSupervisor({ trace: (_id, direction, message) => direction === 'send' && isAbort(message) && (marks.written = performance.now()) });
  return { host, marks };
}

/** The end of the aborted turn: agent_end, or pi 1.x's agent_settled (it follows agent_end). */
export function hostSide({ host, marks }, workerId, beforePrompt, endType = 'agent_end') {
  return async () => {
    beforePrompt?.();
    const tool = nextHostEvent(host, workerId, (e) => e.type === 'tool_execution_start', 60_000, 'tool_execution_start');
    const p = await host.prompt(workerId, 'bash sleep 30');
    if (p.status !== 'accepted') throw new Error(`prompt: ${p.error}`);
    await tool;
    await sleep(MID_TOOL_MS);
    let ended = 0;
    const off = host.onEvent((id, e) => id === workerId && e.type === endType && (ended = performance.now()));
    marks.written = 0;
    const t0 = performance.now();
    const r = await host.abort(workerId);
    const t1 = performance.now();
    off();
    if (r.status !== 'aborted') throw new Error(`abort: ${JSON.stringify(r)}`);
    return { ms: t1 - t0, own: marks.written - t0 + (t1 - ended) };
  };
}

export function bareSide(w, dialect, beforePrompt, endType = 'agent_end') {
  const wire = WIRE[dialect];
  let id = 100;
  const isEvent = (type) => (v) => wire.isEvent(v) && wire.eventType(v) === type;
  return async () => {
    beforePrompt?.();
    const tool = w.next(isEvent('tool_execution_start'), 60_000, 'tool_execution_start');
    const ended = w.next(isEvent(endType), 60_000, endType);
    w.send(wire.prompt(++id, 'bash sleep 30'));
    await tool;
    await sleep(MID_TOOL_MS);
    let parsed = 0;
    const onValue = w.onValue;
    w.onValue = (v) => {
      if (isEvent(endType)(v)) parsed = performance.now();
      onValue.call(w, v);
    };
    const t0 = performance.now();
    w.send(wire.abort(++id));
    const written = performance.now();
    await ended;
    const t1 = performance.now();
    w.onValue = onValue;
    return { ms: t1 - t0, own: written - t0 + (t1 - parsed) };
  };
}

export async function bareReady(w, dialect) {
  const wire = WIRE[dialect];
  const probed = w.next((v) => wire.isResponse(v, 1), 60_000, 'probe answer');
  w.send(wire.probe(1));
  await probed;
}

export async function pairs(count, product, baseline) {
  // One of each first, unrecorded (JIT warm-up, first tool spawn).
  await product();
  await baseline();
  const out = [];
  for (let i = 0; i < count; i++) {
    let p, b;
    if (i % 2 === 0) {
      p = await product();
      b = await baseline();
    } else {
      b = await baseline();
      p = await product();
    }
    out.push({ product: p.ms, baseline: b.ms, productOwn: p.own, baselineOwn: b.own });
  }
  return out;
}

const GOAL = 'host adds < 1 ms (median)';

export function abortFigures(label, ps, note, endType = 'agent_end') {
  const end = figure({
    bench: 'abort', name: `${label}: abort → aborted, mid-tool`, unit: 'ms', better: 'lower', pairs: ps,
    baselineName: `bare script: abort line → ${endType} line`, note,
  });
  const own = figure({
    bench: 'abort', name: `${label}: the host's own time in it (call → line written, ${endType} delivered → resolved)`, unit: 'ms', better: 'lower',
    pairs: ps.map((p) => ({ product: p.productOwn, baseline: p.baselineOwn })), baselineName: 'the bare script\'s same two spans', goal: GOAL,
  });
  own.met = own.product.median < 1;
  return [end, own];
}

export async function run({ fakeCount = 50, piCount = 10, dialects = ['pi', 'tau'], realPi = true, ...opts } = {}) {
  const core = loadCore(opts);
  const figures = [];
  for (const dialect of dialects) {
    const traced = tracedHost(core);
    const { host } = traced;
    const w = new BareWorker(process.execPath, fakeArgs(dialect));
    try {
      const started = await host.start(fakeSpec(dialect));
      if (started.status !== 'started') throw new Error(`start: ${started.error}`);
      await bareReady(w, dialect);
      const ps = await pairs(fakeCount, hostSide(traced, started.workerId), bareSide(w, dialect));
      const [f, own] = abortFigures(`fake worker (${dialect})`, ps, `${ps.length} aborts each`);
      figures.push(f, own);
      log(`  abort fake ${dialect}: host median ${f.product.median} ms, bare ${f.baseline.median} ms; host's own ${own.product.median} ms`);
    } finally {
      await host.dispose();
      await w.stop();
    }
  }
  // Each pi: 0.73.1 (ends a turn with agent_end) and 1.x (with agent_settled after it).
  for (const pi of realPi && piCount > 0 ? PI_VERSIONS : []) {
    const endType = pi.one ? 'agent_settled' : 'agent_end';
    const llm = await startMockLlm();
    const dir = await makePiAgentDir({ baseUrl: llm.baseUrl });
    const traced = tracedHost(core);
    const { host } = traced;
    const env = piEnv(dir);
    const w = new BareWorker(pi.command(), piRpcArgs(), { env });
    try {
      const started = await host.start({ dialect: 'pi', command: pi.command(), cwd: ROOT, model: 'mock/mock-1', env, name: 'bench pi' });
      if (started.status !== 'started') throw new Error(`start real pi ${pi.version}: ${started.error}`);
      await bareReady(w, 'pi');
      // Each side's next model reply is a `sleep 30` tool call (the replies are queued in order,
      // and only one side runs at a time).
      const script = () => llm.script([{ toolCalls: [{ name: 'bash', arguments: { command: 'sleep 30' } }] }]);
      const ps = await pairs(piCount, hostSide(traced, started.workerId, script, endType), bareSide(w, 'pi', script, endType));
      const [f, own] = abortFigures(`real pi ${pi.version} + mock LLM`, ps, `${ps.length} aborts each; seed 003's anchor: ~3 ms mid-tool`, endType);
      figures.push(f, own);
      log(`  abort real pi ${pi.version}: host median ${f.product.median} ms, bare ${f.baseline.median} ms; host's own ${own.product.median} ms`);
    } finally {
      await host.dispose();
      await w.stop();
      await llm.close();
      await removePiAgentDir(dir);
    }
  }
  return { figures };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (k, d) => (process.argv.includes(k) ? process.argv[process.argv.indexOf(k) + 1] : d);
  const out = await run({ fakeCount: Number(arg('--n', 50)), piCount: Number(arg('--pi', 10)) });
  for (const f of out.figures) console.log(`${f.name}: host ${JSON.stringify(f.product)} bare ${JSON.stringify(f.baseline)} added ${JSON.stringify(f.diff)} ratio ${JSON.stringify(f.ratio)}`);
}
