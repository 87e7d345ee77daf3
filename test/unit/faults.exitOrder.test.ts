// A worker that writes its last lines and exits at once: Node's 'exit' can come while those lines
// are still in the pipe or held by the reader between slices. Every line the worker wrote comes
// before its worker_exit, in order: a log that showed output after "the worker exited" would be
// out of order, and a turn's end read after the exit would be lost to the turn.
import assert from 'node:assert/strict';
import type { Supervisor } from '../../src/core/api';
import { createSupervisor } from '../../src/core/supervisor';
import { fakeSpec, text } from '../helpers/supervisor';
import type { AgentEvent } from '../../src/core/events/agentEvent';

const DELTAS = 3000;

function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

for (const dialect of ['pi', 'tau'] as const) {
  describe(`faults: output right before the exit (${dialect})`, () => {
    let supervisor: Supervisor;
    beforeEach(() => {
      supervisor = createSupervisor();
    });
    afterEach(() => supervisor.dispose());

    it(`${DELTAS} deltas then exit 0: every delta is delivered before worker_exit`, async () => {
      const r = await supervisor.start(fakeSpec(dialect));
      if (r.status !== 'started') throw new Error(`start failed: ${r.error}`);
      const events: AgentEvent[] = [];
      const exited = new Promise<number>((resolve) => {
        supervisor.onEvent((id, e) => {
          if (id !== r.workerId) return;
          events.push(e);
          // A busy editor: each event costs the thread a little, so the reader's slices end
          // early and the worker's last lines are still waiting when its exit is seen; in all
          // (1.5 s) longer than the exit's grace, which is of silence, not of reading.
          busy(0.5);
          if (e.type === 'worker_exit') resolve(events.length);
        });
      });
      assert.equal((await supervisor.prompt(r.workerId, `events ${DELTAS} text\nexit 0`)).status, 'accepted');
      const at = await exited;
      const deltas = events.slice(0, at).filter((e) => e.type === 'message_update' && e.block_type === 'text').length;
      assert.equal(deltas, DELTAS, `deltas delivered before worker_exit (${text(events).length} characters in all)`);
    });
  });
}
