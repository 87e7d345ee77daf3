// Hostile workers, an output lost: the worker's stdout closes while it compacts and its process
// lives on. Nothing it says can be heard any more, so the compaction cannot be followed to its
// end: the verb answers so, the log ends the compaction saying why, the state stops saying
// compacting (it is not left so until the process goes), and a later verb is not left waiting.
import assert from 'node:assert/strict';
import { record, stateOf as liveState } from '../helpers/supervisor';
import { alive, lostStreamSuite, within } from '../fixtures/faults-helpers';

for (const dialect of ['pi', 'tau'] as const) {
  describe(`faults: the worker's output is lost while it compacts (${dialect})`, () => {
    // The settle bound is far beyond the test's own: only the output's loss can end the wait.
    const suite = lostStreamSuite({ settleTimeoutMs: 600_000 });

    it('the compact answers with the reason, the log ends the compaction, the state stops saying compacting; the process still runs', async () => {
      const { supervisor, r, next } = await suite.start(dialect, ['--close-stdout-on', 'compact', '--compact-ms', '600000']);
      const events = record(supervisor, () => r.workerId);
      const ended = next('compaction_end');
      const c = await within(supervisor.compact(r.workerId), 20_000, 'the compact');
      assert.equal(c.status, 'error', JSON.stringify(c));
      assert.match(c.status === 'error' ? c.error : '', new RegExp(`failed: the worker's output ended \\(its stdout closed\\) while its process ${r.pid} runs on`));
      const e = await ended;
      assert.equal(e.is_error, true);
      assert.match(e.error ?? '', /^the compaction cannot be followed to its end: the worker's output ended/);
      const s = liveState(supervisor, r.workerId);
      assert.deepEqual([s.compacting, s.status], [false, 'running']);
      assert.equal(alive(r.pid), true, 'the worker lives on');
      // Said once: the compaction the host ends is not ended again by the verb's failure.
      assert.equal(events.filter((x) => x.type === 'compaction_end').length, 1);
      // What is sent now is not heard either: the verb says so at once, not after its bound.
      const p = await within(supervisor.prompt(r.workerId, 'say hello?'), 20_000, 'the prompt');
      assert.match(p.status === 'error' ? p.error : '', /^prompt failed: the worker's output ended/);
    });
  });
}
