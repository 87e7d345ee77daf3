// The host going away. A Node program embedding the core bundle runs workers whose tools forked
// grandchildren, and is killed with SIGKILL. pi (and the fake in pi's dialect) exits when its
// stdin closes but leaves its running tool alive, in a process group of its own, re-parented to
// init; only something that outlives the host can end it: the host's watchdog. Then survivors:
// workers that outlived a crashed host without a watchdog are found through the registry file
// (checked to be the same processes) and stopped.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import type { SupervisorOptions, WorkerSpec } from '../../src/core/api';
import { createSupervisor } from '../../src/core/supervisor';
import { findSurvivors, readRegistry, stopSurvivors, type RegistryEntry } from '../../src/core/worker/survivors';
import { startStamp } from '../../src/core/worker/processTree';
import { cgroupSupport } from '../../src/core/worker/cgroup';
import { fakeSpec } from '../helpers/supervisor';
import { alive, childrenOf, cmdline, describePids, HOST_PROCESS, killAll, MINI_WORKER, ROOT, stat, table, treeOf, until } from '../fixtures/faults-helpers';

let dir: string;
let core: string;
const strays = new Set<number>();

before(async function () {
  this.timeout(120_000);
  dir = mkdtempSync(path.join(tmpdir(), 'rpc-faults-hostkill-'));
  // A fresh build of dist/core.js from the sources under test, as esbuild.mjs --production makes it.
  core = path.join(dir, 'core.js');
  await esbuild.build({ entryPoints: [path.join(ROOT, 'src/core/index.ts')], outfile: core, bundle: true, platform: 'node', target: 'node20', format: 'cjs', minify: true, logLevel: 'silent' });
});
after(() => {
  killAll(strays);
  rmSync(dir, { recursive: true, force: true });
});

interface Ready {
  hostPid: number;
  workers: Array<{ workerId: string; pid: number }>;
}

/** Runs test/fixtures/host-process.mjs until it prints READY; resolves with what it started. */
function runHost(workers: Array<{ spec: WorkerSpec; prompt?: string; treeSize?: number }>, host: Partial<SupervisorOptions> = {}, env: NodeJS.ProcessEnv = {}) {
  const child: ChildProcess = spawn(process.execPath, [HOST_PROCESS, JSON.stringify({ core, host, workers })], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const ready = new Promise<Ready>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`host-process not ready after 60 s; stderr: ${stderr}`)), 60_000);
    child.stdout!.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('READY ') || l.startsWith('FAILED '));
      if (!line) return;
      clearTimeout(timer);
      if (line.startsWith('FAILED ')) reject(new Error(`host-process: ${line}; stderr: ${stderr}`));
      else resolve(JSON.parse(line.slice(6)) as Ready);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`host-process exited (${code ?? signal}) before READY; stderr: ${stderr}`));
    });
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, ready, exited };
}

/** The watchdog's state file (RPC_WORKERS_WATCHDOG_STATE) lists every one of `pids`. */
function watchdogKnows(state: string, pids: number[]): boolean {
  try {
    const known = new Set((JSON.parse(readFileSync(state, 'utf8')) as { pids: number[] }).pids);
    return pids.every((p) => known.has(p));
  } catch {
    return false;
  }
}

const FOUR_GRANDCHILDREN = Array.from({ length: 4 }, () => ({ spec: fakeSpec('pi'), prompt: 'grandchild', treeSize: 4 }));

describe('faults: the host goes away', () => {
  afterEach(() => {
    killAll(strays);
    strays.clear();
  });

  it('a host embedding the core with 4 workers, each with a grandchild, killed with SIGKILL: all of them gone within 5 s', async function () {
    this.timeout(120_000);
    const state = path.join(dir, 'watchdog-state.json');
    const { child, ready, exited } = runHost(FOUR_GRANDCHILDREN, {}, { RPC_WORKERS_WATCHDOG_STATE: state });
    const { hostPid, workers } = await ready;
    const trees = workers.map((w) => treeOf(w.pid));
    const all = trees.flat().map((p) => p.pid);
    for (const pid of all) strays.add(pid);
    assert.ok(trees.every((t) => t.length >= 4), trees.map((t) => describePids(t.map((p) => p.pid))).join('\n'));
    const tools = trees.flat().filter((p) => !workers.some((w) => w.pid === p.pid));
    assert.ok(tools.every((p) => !workers.some((w) => w.pid === p.pgid)), 'each tool runs in a process group of its own');
    const watchdog = childrenOf(hostPid).filter((p) => !workers.some((w) => w.pid === p.pid));
    assert.equal(watchdog.length, 1, `one watchdog: ${describePids(watchdog.map((p) => p.pid))}`);
    strays.add(watchdog[0].pid);
    assert.notEqual(watchdog[0].pgid, stat(hostPid)!.pgid, 'the watchdog is not in the host\'s process group');
    // The watchdog reads the trees every 250 ms; what it knows is what it can end.
    await until(() => watchdogKnows(state, all), 5_000, () => `the watchdog never knew the whole tree: ${readFileSync(state, 'utf8')}`);

    const t0 = performance.now();
    child.kill('SIGKILL');
    await exited;
    const ms = await until(() => all.every((p) => !alive(p)) && !alive(watchdog[0].pid), 5_000, () => {
      const left = all.filter(alive);
      return `still alive after the host's SIGKILL: ${describePids(left)}${alive(watchdog[0].pid) ? `; the watchdog ${watchdog[0].pid}` : ''}`;
    }, 10);
    console.log(`      host SIGKILL → ${workers.length} workers and ${all.length - workers.length} tool processes gone in ${(performance.now() - t0).toFixed(0)} ms (last seen ${ms.toFixed(0)} ms)`);
  });

  it('a host SIGKILLed while an ACP agent\'s command runs in a host terminal (the host\'s child, not the worker\'s): the watchdog ends it', async function () {
    this.timeout(120_000);
    const token = `rpc-hostkill-terminal-${process.pid}`;
    const state = path.join(dir, 'watchdog-terminal.json');
    const spec: WorkerSpec = { dialect: 'acp', command: process.execPath, args: [path.join(ROOT, 'test/fixtures/fake-acp-agent.mjs')], cwd: dir };
    const { child, ready, exited } = runHost([{ spec, prompt: `term: python3 -c "import time; time.sleep(600)" ${token}` }], {}, { RPC_WORKERS_WATCHDOG_STATE: state });
    const { hostPid, workers } = await ready;
    for (const p of treeOf(workers[0].pid)) strays.add(p.pid);
    // The host's own command line holds the prompt, so the token too.
    const command = () => table().filter((p) => p.pid !== hostPid && cmdline(p.pid).includes(token) && p.state !== 'Z').map((p) => p.pid);
    await until(() => command().length > 0, 10_000, () => 'the terminal\'s command never ran');
    let pids = command();
    for (const pid of pids) strays.add(pid);
    assert.ok(pids.every((pid) => !treeOf(workers[0].pid).some((p) => p.pid === pid)), 'the command is not in the worker\'s tree');
    // Read again at each look: a process seen once that is gone by now (a fork on its way to the
    // command, seen under load) is nothing for the watchdog to know.
    await until(() => (pids = command()).length > 0 && watchdogKnows(state, pids), 5_000, () => `the watchdog never knew the terminal's command ${pids.join(', ')}: ${readFileSync(state, 'utf8')}`);
    for (const pid of pids) strays.add(pid);
    child.kill('SIGKILL');
    await exited;
    await until(() => pids.every((p) => !alive(p)), 5_000, () => `the terminal's command is alive after the host's SIGKILL: ${describePids(pids.filter(alive))}`, 10);
  });

  it('a host SIGKILLed while a tool\'s job has double-forked into a session of its own: the watchdog kills the worker\'s cgroup', async function () {
    this.timeout(120_000);
    const support = cgroupSupport();
    if (!support.ok) {
      // Where no cgroup v2 is writable the job escapes: README "Known limits" says so.
      assert.ok(support.reason.length > 0);
      return;
    }
    const { child, ready, exited } = runHost([{ spec: fakeSpec('pi'), prompt: `bash setsid sh -c 'sleep 600 & echo "bg $!"'; sleep 600`, treeSize: 3 }]);
    const { hostPid, workers } = await ready;
    for (const p of treeOf(workers[0].pid)) strays.add(p.pid);
    // The escaped sleep: in the worker's cgroup, out of its tree and its groups.
    const inCgroup = (pid: number) => {
      try {
        return readFileSync(`/proc/${pid}/cgroup`, 'utf8').includes(`/rpc-workers-${hostPid}-`);
      } catch {
        return false;
      }
    };
    const escaped = () => table().filter((p) => p.comm === 'sleep' && inCgroup(p.pid) && !treeOf(workers[0].pid).some((q) => q.pid === p.pid));
    await until(() => escaped().length === 1, 5_000, () => `no escaped sleep in the cgroup of ${describePids(treeOf(workers[0].pid).map((p) => p.pid))}`);
    const [job] = escaped();
    strays.add(job.pid);
    assert.notEqual(job.pgid, workers[0].pid);
    child.kill('SIGKILL');
    await exited;
    await until(() => !alive(job.pid) && !alive(workers[0].pid), 5_000, () => `alive after the host's SIGKILL: ${describePids([job.pid, workers[0].pid].filter(alive))}`, 10);
    // The watchdog removes the cgroups it killed, and the host's folder of them.
    const root = path.dirname(support.root);
    await until(() => !readdirSync(root).some((n) => n.startsWith(`rpc-workers-${hostPid}-`)), 5_000, () => `left in ${root}: ${readdirSync(root).filter((n) => n.includes(String(hostPid)))}`);
  });

  it('without the watchdog the same crash leaves the tools running (what it is there for)', async function () {
    this.timeout(120_000);
    const { child, ready, exited } = runHost(FOUR_GRANDCHILDREN, { watchdog: false });
    const { hostPid, workers } = await ready;
    const all = workers.flatMap((w) => treeOf(w.pid)).map((p) => p.pid);
    for (const pid of all) strays.add(pid);
    assert.deepEqual(childrenOf(hostPid).map((p) => p.pid).sort(), workers.map((w) => w.pid).sort(), 'no watchdog');
    child.kill('SIGKILL');
    await exited;
    // The workers see their stdin close and exit.
    await until(() => workers.every((w) => !alive(w.pid)), 5_000, () => `workers alive: ${describePids(workers.map((w) => w.pid).filter(alive))}`);
    const left = all.filter(alive);
    console.log(`      without the watchdog: the workers exited on stdin EOF; left running: ${describePids(left)}`);
    assert.equal(left.length, all.length - workers.length, 'every tool process outlives the crash');
    assert.ok(left.every((p) => cmdline(p).startsWith('sleep 600') || cmdline(p).startsWith('sh -c')));
    // The tools' shells were the workers' children; now they are init's (or a subreaper's).
    const shells = left.filter((p) => cmdline(p).startsWith('sh -c'));
    assert.equal(shells.length, workers.length);
    // (A Node worker shows as a zombie while its other threads still exit; its children move
    // to init only when the last one has.)
    const parents = () => shells.map((p) => stat(p)?.ppid ?? 0);
    await until(() => parents().every((pp) => !workers.some((w) => w.pid === pp) && pp !== hostPid), 5_000, () => `parents ${parents().join(', ')} (workers ${workers.map((w) => w.pid).join(', ')}, host ${hostPid})`);
  });

  it('a watchdog that dies is replaced at once and told of every worker; after dispose it exits', async function () {
    this.timeout(60_000);
    const state = path.join(dir, 'respawn-state.json');
    const watchdogs = () => childrenOf().filter((p) => cmdline(p.pid).includes('rpc-workers-watchdog')).map((p) => p.pid);
    const earlier = watchdogs();
    process.env.RPC_WORKERS_WATCHDOG_STATE = state;
    const supervisor = createSupervisor();
    try {
      const spec: WorkerSpec = { dialect: 'tau', command: process.execPath, args: [MINI_WORKER, '--dialect', 'tau'], cwd: ROOT };
      const a = await supervisor.start(spec);
      if (a.status !== 'started') throw new Error(a.error);
      strays.add(a.pid);
      const [first] = watchdogs().filter((p) => !earlier.includes(p));
      assert.ok(first, 'a watchdog was spawned at the first start');
      const knows = (pids: number[]) => () => {
        try {
          const known = (JSON.parse(readFileSync(state, 'utf8')) as { pids: number[] }).pids;
          return pids.every((p) => known.includes(p)) && known.length === pids.length;
        } catch {
          return false;
        }
      };
      process.kill(first, 'SIGKILL');
      await until(() => !alive(first), 5_000, () => `the watchdog ${first} lives`);
      assert.equal(supervisor.state(a.workerId).status, 'running', 'its death does not touch the workers');
      rmSync(state, { force: true });
      const b = await supervisor.start(spec);
      if (b.status !== 'started') throw new Error(b.error);
      strays.add(b.pid);
      const [second] = watchdogs().filter((p) => !earlier.includes(p) && p !== first);
      assert.ok(second, 'a new watchdog runs');
      await until(knows([a.pid, b.pid]), 5_000, () => `the new watchdog knows ${readFileSync(state, 'utf8')}`);
      await supervisor.dispose();
      await until(() => !alive(second), 5_000, () => `the watchdog ${second} outlived dispose`);
      assert.ok(!alive(a.pid) && !alive(b.pid));
    } finally {
      delete process.env.RPC_WORKERS_WATCHDOG_STATE;
      await supervisor.dispose();
    }
  });

  describe('survivors after a crash', () => {
    const spec = (flags: string[]): WorkerSpec => ({ dialect: 'tau', command: process.execPath, args: [MINI_WORKER, '--dialect', 'tau', '--linger', ...flags], cwd: ROOT });

    it('the registry names the workers that outlived a crashed host; stopSurvivors ends their trees and clears them', async function () {
      this.timeout(120_000);
      const registryFile = path.join(dir, 'survivors', 'workers.json');
      // Workers that do not exit when their stdin closes, and no watchdog: they outlive the host.
      const { child, ready, exited } = runHost([
        { spec: spec(['--child']), treeSize: 2 },
        { spec: spec(['--child', '--ignore-sigterm']), treeSize: 2 },
      ], { watchdog: false, registryFile });
      const { hostPid, workers } = await ready;
      const trees = workers.map((w) => treeOf(w.pid).map((p) => p.pid));
      for (const pid of trees.flat()) strays.add(pid);
      const recorded = readRegistry(registryFile);
      assert.deepEqual(recorded.map((e) => e.pid).sort(), workers.map((w) => w.pid).sort());
      for (const e of recorded) {
        assert.equal(e.hostPid, hostPid);
        assert.equal(e.start, startStamp(e.pid));
        assert.equal(e.pgid, e.pid, 'each worker leads its own group');
        assert.equal(e.command, process.execPath);
        assert.ok(workers.some((w) => w.workerId === e.workerId));
      }
      // While the host lives, nothing is a survivor.
      assert.deepEqual(findSurvivors(registryFile), []);

      child.kill('SIGKILL');
      await exited;
      const survivors = findSurvivors(registryFile);
      assert.deepEqual(survivors.map((e) => e.pid).sort(), workers.map((w) => w.pid).sort());
      assert.ok(trees.flat().every(alive), 'everything outlived the host');

      const t0 = performance.now();
      const results = await stopSurvivors(survivors, { registryFile });
      const ms = performance.now() - t0;
      const byPid = new Map(results.map((r) => [r.pid, r]));
      assert.deepEqual(results.map((r) => r.status), ['stopped', 'stopped']);
      assert.equal(byPid.get(workers[0].pid)!.killed, false, 'SIGTERM ended the first');
      assert.equal(byPid.get(workers[1].pid)!.killed, true, 'the one ignoring SIGTERM needed SIGKILL');
      const left = trees.flat().filter(alive);
      assert.deepEqual(left, [], `left: ${describePids(left)}`);
      assert.deepEqual(readRegistry(registryFile), [], 'the stopped survivors are gone from the registry');
      assert.deepEqual(findSurvivors(registryFile), []);
      console.log(`      survivors: ${results.length} workers + ${trees.flat().length - results.length} children stopped in ${ms.toFixed(0)} ms`);
    });

    it('a reused pid, a live host, a missing or corrupt file: no survivors, and stopSurvivors refuses a live host\'s worker', async () => {
      const file = path.join(dir, 'checks.json');
      // A live process that is not the recorded one (its start stamp differs): a reused pid.
      const other = spawn('sleep', ['30'], { stdio: 'ignore' });
      strays.add(other.pid!);
      await until(() => alive(other.pid!), 5_000, () => 'sleep never started');
      const deadHost = { hostPid: 999_999_99, hostStart: '1' };
      const entry = (over: Partial<RegistryEntry>): RegistryEntry => ({
        workerId: 'w', pid: other.pid!, start: startStamp(other.pid!)!, pgid: other.pid!, command: 'sleep', args: ['30'], cwd: '/', recordedAt: Date.now(), ...deadHost, ...over,
      });
      writeFileSync(file, JSON.stringify({ version: 1, workers: [
        entry({ workerId: 'reused', start: 'not-its-start' }),
        entry({ workerId: 'live-host', hostPid: process.pid, hostStart: startStamp(process.pid)! }),
        entry({ workerId: 'dead', pid: 999_999_98 }),
        { workerId: 'malformed' },
        entry({ workerId: 'real' }),
      ] }));
      assert.deepEqual(findSurvivors(file).map((e) => e.workerId), ['real']);
      const [refused] = await stopSurvivors([entry({ workerId: 'live-host', hostPid: process.pid, hostStart: startStamp(process.pid)! })]);
      assert.equal(refused.status, 'refused');
      const [reused] = await stopSurvivors([entry({ workerId: 'reused', start: 'not-its-start' })]);
      assert.equal(reused.status, 'gone');
      assert.ok(alive(other.pid!), 'a process that is not the recorded one is never signalled');
      assert.deepEqual(findSurvivors(path.join(dir, 'no-such-file.json')), []);
      writeFileSync(file, '{"version":1,"workers":[');
      assert.deepEqual(findSurvivors(file), []);
      other.kill('SIGKILL');
    });
  });
});
