// The offer to stop workers that outlived a crashed window, on real processes: a detached
// `sleep` recorded by a host that is gone is found, offered, and stopped only when asked.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findSurvivors, stopSurvivors } from '../../src/core/index';
import { startStamp } from '../../src/core/worker/processTree';
import { LEAVE, offerSurvivorStop, STOP, type SurvivorDeps } from '../../src/ui/host/survivors';
import { isAlive } from '../helpers/supervisor';

describe('survivors of a crashed window', () => {
  let dir: string;
  let file: string;
  let pid: number;

  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'rpcw-survivors-'));
    file = path.join(dir, 'workers.json');
    const worker = spawn('sleep', ['600'], { detached: true, stdio: 'ignore' });
    worker.unref();
    pid = worker.pid!;
    // A host that has exited: its pid and start stamp no longer name a live process.
    const host = spawnSync('sh', ['-c', 'echo $$; cat /proc/$$/stat | cut -d" " -f22']);
    const [hostPid, hostStart] = host.stdout.toString().trim().split('\n');
    writeFileSync(file, JSON.stringify({
      version: 1,
      workers: [{ workerId: 'w1', pid, start: startStamp(pid), pgid: pid, command: '/usr/bin/sleep', args: ['600'], cwd: dir, hostPid: Number(hostPid), hostStart, recordedAt: Date.now() }],
    }));
  });
  afterEach(() => {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Already stopped by the test.
    }
    rmSync(dir, { recursive: true, force: true });
  });

  const deps = (answer: string | undefined, told: string[]): SurvivorDeps => ({
    find: findSurvivors, stop: stopSurvivors, ask: async () => answer, tell: (m) => void told.push(m), log: () => {},
  });

  it('finds the survivor and stops it when the person says so', async () => {
    const told: string[] = [];
    const r = await offerSurvivorStop(file, deps(STOP, told));
    assert.ok(Array.isArray(r));
    assert.equal(r[0].status, 'stopped');
    assert.equal(isAlive(pid), false);
    assert.match(told[0], /stopped the worker/);
    assert.deepEqual(findSurvivors(file), []);
  });

  it('leaves it running when the person declines, and offers nothing for a clean registry', async () => {
    assert.equal(await offerSurvivorStop(file, deps(LEAVE, [])), 'left');
    assert.equal(isAlive(pid), true);
    process.kill(-pid, 'SIGKILL');
    await new Promise<void>((resolve) => {
      const check = () => (isAlive(pid) ? setImmediate(check) : resolve());
      check();
    });
    assert.equal(await offerSurvivorStop(file, deps(STOP, [])), 'none');
  });
});
