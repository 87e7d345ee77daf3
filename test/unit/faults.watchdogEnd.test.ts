// A Stop names the process the watchdog watched, pid and start stamp. A worker that exited stays
// listed, and its pid may go to a later worker meanwhile; the Stop of the exited one must not
// end the live one's tree, which stays watched (a host that dies still ends it).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startStamp } from '../../src/core/worker/processTree';
import { Watchdog } from '../../src/core/worker/watchdog';
import { alive, killAll, until } from '../fixtures/faults-helpers';

describe('faults: the watchdog ends only the process it watched', () => {
  let dir: string;
  let watchdog: Watchdog;
  const strays = new Set<number>();
  before(function () {
    if (process.platform === 'win32') this.skip();
  });
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'rpc-watchdog-end-'));
    process.env.RPC_WORKERS_WATCHDOG_STATE = path.join(dir, 'state.json');
    watchdog = new Watchdog(50);
  });
  afterEach(() => {
    watchdog.close();
    delete process.env.RPC_WORKERS_WATCHDOG_STATE;
    killAll(strays);
    strays.clear();
    rmSync(dir, { recursive: true, force: true });
  });

  const knows = (pid: number) => {
    try {
      return (JSON.parse(readFileSync(process.env.RPC_WORKERS_WATCHDOG_STATE!, 'utf8')) as { pids: number[] }).pids.includes(pid);
    } catch {
      return false;
    }
  };

  it('an end naming the pid with another start kills nothing and forgets nothing; the one watched still ends it', async () => {
    const sleep = spawn('sleep', ['30'], { stdio: 'ignore' });
    const pid = sleep.pid!;
    strays.add(pid);
    watchdog.watch(pid);
    const start = startStamp(pid)!;
    // Another watched process, whose end is answered after every message sent before it.
    const marker = spawn('sleep', ['30'], { stdio: 'ignore' }).pid!;
    strays.add(marker);
    const markerStart = watchdog.watch(marker)!;
    await until(() => knows(pid) && knows(marker), 5_000, () => 'the watchdog never knew the sleeps');

    await watchdog.end(pid, `${start}0`, 1_000);
    // The watchdog program too: a message of an earlier process with this pid.
    (watchdog as unknown as { send(m: object): void }).send({ end: pid, start: `${start}0` });
    (watchdog as unknown as { send(m: object): void }).send({ forget: pid, start: `${start}0` });
    // The watchdog reads its messages in order: once the marker's end is answered, those were read.
    await watchdog.end(marker, markerStart);
    assert.ok(alive(pid), 'a Stop of an earlier process with this pid killed the one now watched');
    assert.ok(knows(pid), 'the watchdog forgot the process it still watches');

    await watchdog.end(pid, start);
    await until(() => !alive(pid), 5_000, () => `the sleep ${pid} outlived its own end`);
  });
});
