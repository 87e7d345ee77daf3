// A worker's status changes in one place: listeners hear of a real change once, of a repeated
// value not at all, and of the events that came with a change before the change itself.
import assert from 'node:assert/strict';
import type { WorkerStatus } from '../../src/core/api';
import { createSupervisor } from '../../src/core/supervisor';
import { Status } from '../../src/core/worker/status';
import { fakeSpec } from '../helpers/supervisor';

describe('worker status', () => {
  it('a set to the same status announces nothing; a real change announces once, after what goes with it', () => {
    const said: string[] = [];
    const status = new Status('starting', () => said.push(`announced ${status.value}`));
    assert.equal(status.set('starting', () => said.push('alongside')), false);
    assert.equal(said.length, 0);
    assert.equal(status.set('running', () => said.push(`alongside ${status.value}`)), true);
    assert.deepEqual(said, ['alongside running', 'announced running']);
    assert.equal(status.set('running'), false);
    assert.deepEqual(said, ['alongside running', 'announced running']);
  });

  for (const dialect of ['tau', 'pi'] as const) {
    it(`a worker's life (${dialect}): each status is announced once, and stopped only after its worker_exit event`, async () => {
      const supervisor = createSupervisor();
      const heard: string[] = [];
      supervisor.onState((s) => heard.push(`state ${s.status}`));
      supervisor.onEvent((_id, e) => {
        if (e.type === 'worker_exit') heard.push('event worker_exit');
      });
      try {
        const r = await supervisor.start(fakeSpec(dialect));
        assert.equal(r.status, 'started', r.status === 'error' ? r.error : '');
        if (r.status !== 'started') return;
        assert.equal((await supervisor.stop(r.workerId)).status, 'stopped');
        const statuses = heard.filter((h) => h.startsWith('state ')).map((h) => h.slice(6) as WorkerStatus);
        // Runs of the same status collapse to one: other changes (model, turns) may repeat one.
        const changes = statuses.filter((s, i) => s !== statuses[i - 1]);
        assert.deepEqual(changes, ['starting', 'running', 'stopped']);
        assert.equal(statuses.filter((s) => s === 'stopped').length, 1, heard.join(', '));
        assert.ok(heard.indexOf('event worker_exit') < heard.indexOf('state stopped'), heard.join(', '));
      } finally {
        await supervisor.dispose();
      }
    });
  }
});
