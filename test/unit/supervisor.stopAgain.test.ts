// A script that stops a worker twice prints the second answer's error: it says what every other
// verb says of a stopped worker, never nothing.
import assert from 'node:assert/strict';
import type { Supervisor } from '../../src/core/api';
import { createSupervisor } from '../../src/core/supervisor';
import { fakeSpec } from '../helpers/supervisor';

describe('supervisor stop, again', () => {
  let supervisor: Supervisor;
  beforeEach(() => { supervisor = createSupervisor({ watchdog: false }); });
  afterEach(() => supervisor.dispose());

  it('a second stop after the first ended: not_found, saying the worker was stopped', async () => {
    const r = await supervisor.start(fakeSpec('tau'));
    assert.equal(r.status, 'started', r.status === 'error' ? r.error : '');
    const id = r.status === 'started' ? r.workerId : '';
    assert.equal((await supervisor.stop(id)).status, 'stopped');
    const again = await supervisor.stop(id);
    assert.deepEqual(again, { status: 'not_found', workerId: id, error: `worker ${id} was stopped`, ms: 0 });
    assert.deepEqual(again, await supervisor.abort(id), 'the same words as any other verb');
  });

  it('two overlapping stops: the second answers with the first one\'s result', async () => {
    const r = await supervisor.start(fakeSpec('tau'));
    const id = r.status === 'started' ? r.workerId : '';
    const [first, second] = await Promise.all([supervisor.stop(id), supervisor.stop(id)]);
    assert.equal(first.status, 'stopped');
    assert.equal(second, first);
  });

  it('a stop of an id never seen: not_found, saying so', async () => {
    assert.deepEqual(await supervisor.stop('w-nope'), { status: 'not_found', workerId: 'w-nope', error: 'no worker with id w-nope', ms: 0 });
  });
});
