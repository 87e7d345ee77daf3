// The host disposed while a start is still in its waits (the window closing or reloading just as
// a worker was asked for): the start spawns nothing, since dispose's Stop All did not see it and
// nothing after it would end that worker.
import assert from 'node:assert/strict';
import type { WorkerState } from '../../src/core/api';
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
});
