// Shared by the benchmarks: paths, the product under test (dist/core.js), a bare wire client for
// baselines, statistics, and interleaved pairing. Nothing here asserts a speed.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const FAKE_WORKER = path.join(ROOT, 'test/fixtures/fake-worker.mjs');
const require = createRequire(import.meta.url);

/** The product: the built core bundle (`dist/core.js`, or `$BENCH_DIST/core.js`). */
export function distDir(opts = {}) {
  return opts.dist ?? process.env.BENCH_DIST ?? path.join(ROOT, 'dist');
}
export function loadCore(opts = {}) {
  return require(path.join(distDir(opts), 'core.js'));
}

/** The fake worker's argv as the host launches it for a dialect (pi gets its hermetic flags). */
export function fakeArgs(dialect, flags = []) {
  const args = [FAKE_WORKER, '--dialect', dialect, ...flags];
  if (dialect === 'pi') args.push('--mode', 'rpc', '--no-session', '--no-extensions');
  return args;
}
export function fakeSpec(dialect, flags = []) {
  return { dialect, command: process.execPath, args: [FAKE_WORKER, '--dialect', dialect, ...flags], cwd: ROOT };
}

// ---- statistics

export function quantile(sorted, q) {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i];
}
/** min / median / p95 (nearest rank) of a list of numbers. */
export function summary(values) {
  const s = [...values].filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  const median = s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  return { n: s.length, min: s[0] ?? NaN, median, p95: quantile(s, 0.95), max: s[s.length - 1] ?? NaN };
}
export const round = (v, d = 3) => (Number.isFinite(v) ? Math.round(v * 10 ** d) / 10 ** d : v);
export function roundSummary(s, d = 3) {
  return { n: s.n, min: round(s.min, d), median: round(s.median, d), p95: round(s.p95, d), max: round(s.max, d) };
}

/**
 * A figure: product beside baseline, paired by round. `pairs` is [{product, baseline}] measured
 * back to back (alternating order), so load on the shared machine hits both sides alike.
 */
export function figure({ bench, name, unit, better, product, baseline, baselineName, pairs, goal, met, note, digits = 3 }) {
  const ratios = pairs ? pairs.map((p) => p.product / p.baseline) : [];
  const diffs = pairs ? pairs.map((p) => p.product - p.baseline) : [];
  return {
    bench, name, unit, better,
    product: roundSummary(summary(product ?? pairs.map((p) => p.product)), digits),
    baselineName,
    baseline: baseline || pairs ? roundSummary(summary(baseline ?? pairs.map((p) => p.baseline)), digits) : null,
    ratio: pairs ? roundSummary(summary(ratios), 3) : null,
    diff: pairs ? roundSummary(summary(diffs), digits) : null,
    goal: goal ?? null, met: met ?? null, note: note ?? null,
  };
}

// ---- a bare wire client (the baselines): spawn, split stdout on LF, JSON.parse, nothing else

export class BareWorker {
  /**
   * `detached`: the worker in a session of its own, as the host starts workers. Where the kernel
   * groups scheduling by session (autogroup), that decides how a paced writer's lines arrive: in
   * the reader's session they come in bursts, one read each; in their own, nearly a read a line.
   */
  constructor(command, args, { cwd = ROOT, env, detached = false } = {}) {
    this.child = spawn(command, args, { cwd, env: env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'], detached });
    this.child.stderr.resume();
    this.child.stdin.on('error', () => {});
    this.waiters = [];
    this.exited = new Promise((resolve) => this.child.once('exit', (code, signal) => resolve({ code, signal })));
    this.decoder = new StringDecoder('utf8');
    this.rest = '';
    this.child.stdout.on('data', (chunk) => this.onChunk(chunk));
  }

  /** One stdout chunk: LF split + JSON.parse (a subclass may read it elsewhere, bench/handover.mjs). */
  onChunk(chunk) {
    const text = this.rest + this.decoder.write(chunk);
    let from = 0;
    for (let lf = text.indexOf('\n'); lf !== -1; lf = text.indexOf('\n', from)) {
      const line = text.slice(from, lf);
      from = lf + 1;
      let value;
      try {
        value = JSON.parse(line);
      } catch {
        continue;
      }
      this.onValue(value);
    }
    this.rest = text.slice(from);
  }

  onValue(value) {
    for (let i = 0; i < this.waiters.length; i++) {
      const w = this.waiters[i];
      if (w.match(value)) {
        this.waiters.splice(i, 1);
        w.resolve(value);
        return;
      }
    }
  }

  /** The next value `match` accepts (registered before the write that causes it). */
  next(match, timeoutMs = 30_000, what = 'a line') {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`bare worker: no ${what} within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push({ match, resolve: (v) => (clearTimeout(timer), resolve(v)) });
    });
  }

  send(obj) {
    this.child.stdin.write(JSON.stringify(obj) + '\n');
  }

  async stop() {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGTERM');
    const t = setTimeout(() => this.child.kill('SIGKILL'), 2000);
    await this.exited;
    clearTimeout(t);
  }
}

/** The wire shapes of the two dialects, for bare clients. */
export const WIRE = {
  pi: {
    probe: (id) => ({ id: String(id), type: 'get_state' }),
    prompt: (id, text) => ({ id: String(id), type: 'prompt', message: text }),
    abort: (id) => ({ id: String(id), type: 'abort' }),
    isResponse: (v, id) => v.type === 'response' && v.id === String(id),
    isEvent: (v) => v.type !== 'response' && v.type !== 'extension_ui_request',
    eventType: (v) => v.type,
  },
  tau: {
    probe: (id) => ({ jsonrpc: '2.0', id, method: 'get_capabilities', params: {} }),
    prompt: (id, text) => ({ jsonrpc: '2.0', id, method: 'prompt', params: { text } }),
    abort: (id) => ({ jsonrpc: '2.0', id, method: 'abort', params: {} }),
    isResponse: (v, id) => v.id === id && v.method === undefined,
    isEvent: (v) => v.id === undefined && (v.method === 'event' || v.method === 'compaction_end'),
    eventType: (v) => (v.method === 'event' ? v.params?.type : v.method),
  },
};

/**
 * The main thread's own CPU time in µs (Linux: its schedstat, in ns; NaN elsewhere). Unlike
 * event-loop utilisation, which is wall time, it does not count time the thread was preempted.
 */
function mainThreadCpuUs() {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1000;
  } catch {
    return NaN;
  }
}

/** Where the main thread stood at a run's start, for `measured`. */
export const mainThreadMark = () => ({ elu: performance.eventLoopUtilization(), cpuUs: mainThreadCpuUs() });

/**
 * Events/s from the prompt to agent_end, and meanwhile this process's CPU per event (every
 * thread) and, given a `mainThreadMark()` from the start, the main thread's own cost per event
 * (what a worker takes from the editor's extension host thread): its CPU, and its busy time.
 */
export function measured(count, t0, t1, c0, main0) {
  const cpu = process.cpuUsage(c0);
  const seconds = (t1 - t0) / 1000;
  const out = { events: count, seconds, rate: count / seconds, cpuUsPerEvent: (cpu.user + cpu.system) / count };
  if (main0) {
    out.mainCpuUsPerEvent = (mainThreadCpuUs() - main0.cpuUs) / count;
    out.activeUsPerEvent = (performance.eventLoopUtilization(main0.elu).active * 1000) / count;
  }
  return out;
}

/**
 * A bare reader's run (the throughput baselines): probe, prompt, count the events until
 * agent_end. Stops the worker afterwards. A reader that decodes events itself (bench/handover.mjs)
 * calls `onValue(event, true)` with the host's event instead of the wire object.
 */
/**
 * `ready`, if given, is awaited just before the prompt: a benchmark's measuring starts there.
 * `last`: the stream's own last event type (pi 1.x: agent_settled, after agent_end), waited for
 * before the count is final, as hostFloodRun does; the measuring ends at agent_end.
 */
export async function bareRun(w, dialect, text, ready, last = 'agent_end', drain = undefined) {
  const wire = WIRE[dialect];
  try {
    const probed = w.next((v) => wire.isResponse(v, 1), 30_000, 'probe answer');
    w.send(wire.probe(1));
    await probed;
    let count = 0;
    let lastSeen;
    const tail = new Promise((r) => (lastSeen = r));
    const ended = new Promise((resolve) => {
      w.onValue = (v, decoded = false) => {
        if (!decoded && !wire.isEvent(v)) return;
        count++;
        const type = decoded ? v.type : wire.eventType(v);
        if (type === 'agent_end') resolve(performance.now());
        if (type === last) lastSeen();
      };
    });
    if (ready) await ready();
    const main0 = mainThreadMark();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    w.send(wire.prompt(2, text));
    const t1 = await ended;
    // What the reader queued for later (the history floor's writes) is its work too.
    if (drain) await drain();
    const out = measured(count, t0, t1, c0, main0);
    await tail;
    out.events = count;
    return out;
  } finally {
    await w.stop();
  }
}

/**
 * pi's own RpcClient (a module path: each pi ships its own) reading `node <cliPath> --mode rpc
 * <args>`: start, get_state, prompt, count onEvent until agent_end. The worker's stderr lines
 * starting with `quiet` are not copied to ours.
 */
export async function rpcClientRun(modulePath, { cliPath, args, text, quiet }) {
  const { RpcClient } = await import(pathToFileURL(modulePath).href);
  const client = new RpcClient({ cliPath, cwd: ROOT, args });
  const write = process.stderr.write;
  process.stderr.write = function (chunk, ...rest) {
    return String(chunk).startsWith(quiet) ? true : write.call(this, chunk, ...rest);
  };
  await client.start();
  try {
    await client.getState(); // the same readiness probe
    let count = 0;
    const ended = new Promise((resolve) => {
      client.onEvent((e) => {
        count++;
        if (e.type === 'agent_end') resolve(performance.now());
      });
    });
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await client.prompt(text);
    const t1 = await ended;
    return measured(count, t0, t1, c0);
  } finally {
    await client.stop();
    process.stderr.write = write;
  }
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A benchmark side that runs in a new folder of `root` each time (`run(dir)`), removed after it. */
export function inFolder(root, name, run) {
  let k = 0;
  return async () => {
    const dir = path.join(root, `${name}-${k++}`);
    try {
      return await run(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

/** `run(history)` with the floor reader bundle's history store (floor-reader.ts's floorHistory) in `dir`, closed after it. */
export async function withFloorHistory(bundle, dir, dialect, run) {
  const history = bundle.floorHistory(dir, dialect);
  try {
    return await run(history);
  } finally {
    await history.close();
  }
}

/** Waits on the product's event stream. */
export function nextHostEvent(host, workerId, match, timeoutMs = 30_000, what = 'event') {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`host: no ${what} within ${timeoutMs} ms`));
    }, timeoutMs);
    const off = host.onEvent((id, e) => {
      if (id !== workerId || !match(e)) return;
      clearTimeout(timer);
      off();
      resolve(e);
    });
  });
}

/** Progress, on stderr; `BENCH_QUIET=1` silences it (the smoke test). */
export const log = (...a) => {
  if (process.env.BENCH_QUIET !== '1') process.stderr.write(a.join(' ') + '\n');
};

/**
 * A started worker's flood, read by the host: prompt it, count the events `counts` accepts until
 * its agent_end, and measure this process meanwhile (`last`: the flood's own last event type, waited
 * for before the count is final). `drain(host)`, if given, is awaited after
 * the last event and before CPU is read, so that work the host defers (history writes) counts.
 * `host` is disposed afterwards.
 */
export async function hostFloodRun(host, workerId, counts, ready, drain, last = 'agent_end') {
  try {
    let count = 0;
    let done;
    let lastSeen;
    const ended = new Promise((r) => (done = r));
    const tail = new Promise((r) => (lastSeen = r));
    host.onEvent((wid, e) => {
      if (wid !== workerId || !counts(e)) return;
      count++;
      if (e.type === 'agent_end') done(performance.now());
      if (e.type === last) lastSeen();
    });
    if (ready) await ready();
    const main0 = mainThreadMark();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const r = await host.prompt(workerId, 'flood');
    if (r.status !== 'accepted') throw new Error(`prompt: ${r.error}`);
    const t1 = await ended;
    if (drain) await drain(host);
    const out = measured(count, t0, t1, c0, main0);
    // The flood's lines after its agent_end (pi 1.x's agent_settled) may wait for the reader's
    // next turn: the caller's check that nothing was lost counts to the flood's own last event.
    await tail;
    out.events = count;
    return out;
  } finally {
    await host.dispose();
  }
}
