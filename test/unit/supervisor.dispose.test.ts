// The host disposed while a start is still in its waits (the window closing or reloading just as
// a worker was asked for): the start spawns nothing, since dispose's Stop All did not see it and
// nothing after it would end that worker.
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Supervisor, WorkerState } from '../../src/core/api';
import { createSupervisor } from '../../src/core/supervisor';
import { HOST_SHUT_DOWN, SHUT_DOWN_ERROR } from '../../src/core/shutDownWords';
import { fakeSpec } from '../helpers/supervisor';

describe('supervisor dispose', () => {
  it('a start still in its waits when the host is disposed starts no worker, and says why', async () => {
    const supervisor = createSupervisor({ watchdog: false });
    const states: WorkerState[] = [];
    supervisor.onState((s) => void states.push(s));
    // Asked for, then the host disposed before the start's waits (preflight, the names) are over.
    const starting = supervisor.start(fakeSpec('tau'));
    await supervisor.dispose();
    const r = await starting;
    if (r.status === 'started') process.kill(-r.pid, 'SIGKILL');
    assert.equal(r.status, 'error');
    assert.match('error' in r ? r.error : '', /^the supervisor was disposed before the worker started; nothing was started$/);
    assert.deepEqual(states.map((s) => s.status), [], 'no worker was made');
    assert.deepEqual(supervisor.list(), []);
  });

  // A script has no window: the words of the extension's close or reload are its own to pass.
  it('a start after dispose says the supervisor was disposed; the extension passes its window words', async () => {
    const script = createSupervisor({ watchdog: false });
    await script.dispose();
    const r = await script.start(fakeSpec('tau'));
    assert.equal(r.status, 'error');
    assert.equal('error' in r ? r.error : '', 'the supervisor was disposed before the worker started; nothing was started');
    const host = createSupervisor({ watchdog: false, disposedReason: HOST_SHUT_DOWN });
    await host.dispose();
    const h = await host.start(fakeSpec('tau'));
    assert.equal('error' in h ? h.error : '', SHUT_DOWN_ERROR);
  });

  // A script that disposes a supervisor and keeps it (a field of a long-lived object) must not keep
  // every listener it gave, and all they hold, alive with it.
  it('dispose lets go of every listener, onRemoved\'s too', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const supervisor = createSupervisor({ watchdog: false });
    const held = listenTo(supervisor);
    await supervisor.dispose();
    // A WeakRef's target lives until the job that made it ends.
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    assert.deepEqual([...held].filter(([, ref]) => ref.deref() !== undefined).map(([on]) => on), []);
    assert.equal(typeof supervisor.list, 'function', 'the supervisor itself is still held');
  });
});

/** A listener on each of the supervisor's fan-outs, held only weakly here (made in a frame of its own, which no await keeps). */
function listenTo(supervisor: Supervisor): Map<string, WeakRef<object>> {
  const held = new Map<string, WeakRef<object>>();
  for (const on of ['onRemoved', 'onEvent', 'onState', 'onOutput'] as const) {
    const listener = () => undefined;
    held.set(on, new WeakRef(listener));
    supervisor[on](listener);
  }
  return held;
}
