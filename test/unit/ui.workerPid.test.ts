// An exited worker's process is gone and its number may be another process's by now: its tooltip
// and the worker pickers (Export's offers exited workers) said "PID: N" for it as for a live one.
import assert from 'node:assert/strict';
import type { WorkerState } from '../../src/core/api';
import { pidWords, workerPickDetail } from '../../src/ui/views/describe';

const worker = (status: WorkerState['status'], pid: number | null) => ({ status, pid, cwd: '/w' });

describe('UI a worker\'s pid', () => {
  it('is shown while the worker lives, "none" before it has one', () => {
    assert.equal(pidWords(worker('running', 4242)), '4242');
    assert.equal(pidWords(worker('starting', null)), 'none');
    assert.equal(workerPickDetail(worker('running', 4242)), 'pid 4242 · /w');
  });

  for (const status of ['stopped', 'exited', 'failed'] as const) {
    it(`is left out once the worker is ${status}: the tooltip has no PID row, the picker only the folder`, () => {
      assert.equal(pidWords(worker(status, 4242)), null);
      assert.equal(workerPickDetail(worker(status, 4242)), '/w');
    });
  }
});
