// Load and leaks: 1,000 start / stop cycles. Open file descriptors, child processes, listeners,
// active handles and the heap return to their starting level; the figures are printed. The
// worker is test/fixtures/tau-responder.sh (a τ responder in POSIX sh that answers the readiness
// probe at once), so the cycles measure the host and not a thousand Node start-ups; the host is
// the real one, with its watchdog and a registry file.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Supervisor, WorkerSpec } from '../../src/core/api';
import { createSupervisor } from '../../src/core/supervisor';
import { readRegistry } from '../../src/core/worker/survivors';
import { childrenOf, cmdline, describePids, fdCount, fdTargets, ROOT, TAU_RESPONDER, until } from '../fixtures/faults-helpers';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const CYCLES = Number(process.env.CYCLES ?? 1_000);
const WARM_UP = 20;
const spec: WorkerSpec = { dialect: 'tau', command: TAU_RESPONDER, cwd: ROOT };

interface Figures {
  fds: number;
  children: number;
  processListeners: number;
  resources: string;
  heap: number;
}

function resources(): string {
  const counts = new Map<string, number>();
  for (const r of process.getActiveResourcesInfo()) counts.set(r, (counts.get(r) ?? 0) + 1);
  return [...counts].sort().map(([k, v]) => `${k}:${v}`).join(' ');
}

const vmRss = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);

describe('faults: 1,000 start / stop cycles', function () {
  this.timeout(600_000);
  let supervisor: Supervisor;
  let dir: string;
  let stateCalls = 0;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'rpc-faults-cycles-'));
    process.env.RPC_WORKERS_WATCHDOG_STATE = path.join(dir, 'watchdog.json');
    supervisor = createSupervisor({ registryFile: path.join(dir, 'workers.json') });
  });
  after(async () => {
    await supervisor.dispose();
    delete process.env.RPC_WORKERS_WATCHDOG_STATE;
    rmSync(dir, { recursive: true, force: true });
  });

  const processListeners = () => process.eventNames().reduce((n, e) => n + process.listenerCount(e), 0);
  async function figures(): Promise<Figures> {
    gc();
    gc();
    return { fds: fdCount(), children: childrenOf().length, processListeners: processListeners(), resources: resources(), heap: process.memoryUsage().heapUsed };
  }

  async function cycle(i: number) {
    const r = await supervisor.start(spec);
    if (r.status !== 'started') throw new Error(`cycle ${i}: start failed: ${r.error}`);
    // A listener per cycle, as a view would add and remove one per worker: once removed, it is
    // never called again.
    let removed = false;
    const off = supervisor.onState(() => {
      if (removed) stateCalls++;
    });
    const s = await supervisor.stop(r.workerId);
    off();
    removed = true;
    if (s.status !== 'stopped' || s.killed) throw new Error(`cycle ${i}: ${JSON.stringify(s)}`);
  }

  it(`${CYCLES} cycles: fds, child processes, listeners, handles and heap return to their starting level`, async () => {
    for (let i = 0; i < WARM_UP; i++) await cycle(i);
    // By its title: tsx's esbuild service is a child of this process too, and was once taken for it.
    const watchdog = childrenOf().find((p) => cmdline(p.pid).includes('rpc-workers-watchdog'));
    assert.ok(watchdog, 'the watchdog runs');
    const watchdogRssBefore = vmRss(watchdog.pid);
    // The last stop's pipes close a moment after its exit event.
    const start = await figures();
    const t0 = performance.now();
    for (let i = 0; i < CYCLES; i++) await cycle(i);
    const ms = performance.now() - t0;
    // Not above the starting level (the runner's own pipes may close meanwhile, never open).
    const count = (list: string, kind: string) => Number(list.split(' ').find((r) => r.startsWith(`${kind}:`))?.split(':')[1] ?? 0);
    const resourcesBack = () => resources().split(' ').filter(Boolean).every((r) => Number(r.split(':')[1]) <= count(start.resources, r.split(':')[0]));
    // Handles of the last stops close a moment after their exit events: wait for them (bounded).
    const settledFds = () => fdCount() <= start.fds && childrenOf().length <= start.children && resourcesBack();
    await until(settledFds, 5_000, () => `fds ${fdCount()} (start ${start.fds}): ${fdTargets().join(' ')}; children ${describePids(childrenOf().map((p) => p.pid))}; resources ${resources()} (start ${start.resources})`);
    const end = await figures();
    await until(() => (JSON.parse(readFileSync(process.env.RPC_WORKERS_WATCHDOG_STATE!, 'utf8')) as { pids: number[] }).pids.length === 0, 5_000, () => 'the watchdog still watches workers');
    const watchdogRssAfter = vmRss(watchdog.pid);

    console.log(`      ${CYCLES} cycles in ${(ms / 1000).toFixed(1)} s (${(ms / CYCLES).toFixed(1)} ms each, after ${WARM_UP} to warm up)`);
    console.log(`      fds ${start.fds} → ${end.fds}; child processes ${start.children} → ${end.children} (${childrenOf().map((p) => p.comm).join(', ')}); process listeners ${start.processListeners} → ${end.processListeners}; removed state listeners called ${stateCalls} times`);
    console.log(`      active resources: ${start.resources} → ${end.resources}`);
    console.log(`      heap after GC ${(start.heap / 1024 / 1024).toFixed(2)} MiB → ${(end.heap / 1024 / 1024).toFixed(2)} MiB (${((end.heap - start.heap) / 1024).toFixed(0)} KiB); watchdog RSS ${watchdogRssBefore} → ${watchdogRssAfter} KiB`);

    assert.ok(end.fds <= start.fds, `fds ${start.fds} → ${end.fds}`);
    assert.ok(end.children <= start.children, `children ${start.children} → ${end.children}`);
    assert.equal(end.processListeners, start.processListeners);
    assert.equal(stateCalls, 0);
    for (const [kind, n] of end.resources.split(' ').map((r) => r.split(':'))) {
      const before = Number(start.resources.split(' ').find((r) => r.startsWith(`${kind}:`))?.split(':')[1] ?? 0);
      assert.ok(Number(n) <= before, `${kind}: ${before} → ${n}`);
    }
    assert.ok(end.heap - start.heap < 4 * 1024 * 1024, `heap grew by ${((end.heap - start.heap) / 1024).toFixed(0)} KiB`);
    assert.ok(watchdogRssAfter - watchdogRssBefore < 16 * 1024, `the watchdog grew by ${watchdogRssAfter - watchdogRssBefore} KiB`);
    assert.deepEqual(supervisor.list(), []);
    assert.deepEqual(readRegistry(path.join(dir, 'workers.json')), [], 'every stopped worker left the registry');
  });
});
