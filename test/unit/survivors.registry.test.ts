// The survivor registry shared by several hosts (one per window): none loses another's entries,
// however their writes interleave, and a crashed host's live worker is found in the layout an
// older version wrote (one shared file) as in this one's (a file per host beside it).
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startStamp } from '../../src/core/worker/processTree';
import { findSurvivors, readRegistry, stopSurvivors, WorkerRegistry, type RegistryEntry } from '../../src/core/worker/survivors';
import { isAlive } from '../helpers/supervisor';

const SURVIVORS = path.resolve(__dirname, '../../src/core/worker/survivors.ts');
const launch = { command: 'x', args: [], cwd: '/' };

describe('the survivor registry, shared by several hosts', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'rpcw-registry-'));
    file = path.join(dir, 'workers.json');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('two registries writing alternately keep each other\'s entries', () => {
    const a = new WorkerRegistry(file);
    const b = new WorkerRegistry(file);
    for (let i = 0; i < 20; i++) {
      a.record(`a${i}`, process.pid, launch);
      b.record(`b${i}`, process.pid, launch);
    }
    a.remove('a0');
    b.remove('b0');
    const ids = readRegistry(file).map((e) => e.workerId);
    assert.equal(ids.length, 38);
    assert.ok(!ids.includes('a0') && !ids.includes('b0') && ids.includes('a19') && ids.includes('b19'));
  });

  it('two hosts recording 150 workers each at the same moment: all 300 are on record', async function () {
    this.timeout(20_000);
    // Both start writing at the same instant, once both have loaded the module.
    const at = Date.now() + 2_000;
    const code = `const { WorkerRegistry } = require(${JSON.stringify(SURVIVORS)});
      const reg = new WorkerRegistry(${JSON.stringify(file)});
      setTimeout(() => {
        for (let i = 0; i < 150; i++) reg.record('h' + process.pid + '-' + i, process.pid, { command: 'x', args: [], cwd: '/' });
        console.log('done');
      }, ${at} - Date.now());
      setTimeout(() => {}, 30000);`;
    const hosts = [0, 1].map(() => spawn(process.execPath, ['--import', 'tsx', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] }));
    try {
      await Promise.all(hosts.map((h) => new Promise<void>((resolve, reject) => {
        h.stdout!.on('data', (d) => String(d).includes('done') && resolve());
        h.once('exit', (c) => reject(new Error(`a host exited (${c}) before it was done`)));
      })));
      const byHost = new Map<number, number>();
      for (const e of readRegistry(file)) byHost.set(e.hostPid, (byHost.get(e.hostPid) ?? 0) + 1);
      assert.deepEqual([...byHost.values()], [150, 150]);
    } finally {
      for (const h of hosts) h.kill('SIGKILL');
    }
  });

  describe('a crashed host\'s live worker', () => {
    let worker: number;
    let entry: RegistryEntry;
    beforeEach(() => {
      const sleep = spawn('sleep', ['600'], { detached: true, stdio: 'ignore' });
      sleep.unref();
      worker = sleep.pid!;
      // A host that has exited: its pid and start stamp no longer name a live process.
      const host = spawnSync('sh', ['-c', 'echo $$; cut -d" " -f22 /proc/$$/stat']).stdout.toString().trim().split('\n');
      entry = { workerId: 'w1', pid: worker, start: startStamp(worker)!, pgid: worker, command: 'sleep', args: ['600'], cwd: dir, hostPid: Number(host[0]), hostStart: host[1], recordedAt: Date.now() };
    });
    afterEach(() => {
      try {
        process.kill(-worker, 'SIGKILL');
      } catch {
        // Stopped by the test.
      }
    });

    for (const layout of ['one shared file (older versions)', 'a file of its host']) {
      it(`is found in ${layout}, and once stopped is off the record`, async () => {
        const where = layout.startsWith('one') ? file : path.join(`${file}.d`, 'gone-host.json');
        mkdirSync(path.dirname(where), { recursive: true });
        writeFileSync(where, JSON.stringify({ version: 1, workers: [entry] }));
        assert.deepEqual(findSurvivors(file).map((e) => e.pid), [worker]);
        const [r] = await stopSurvivors(findSurvivors(file), { registryFile: file });
        assert.equal(r.status, 'stopped');
        assert.equal(isAlive(worker), false);
        assert.deepEqual(readRegistry(file), []);
        if (!layout.startsWith('one')) assert.deepEqual(readdirSync(`${file}.d`), [], 'the dead host\'s file is removed');
      });
    }
  });
});
