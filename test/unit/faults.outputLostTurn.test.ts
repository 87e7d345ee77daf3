// Hostile workers, an output lost mid-turn: the worker's stdout closes right after it took a
// prompt, and its process lives on. The turn cannot be heard ending: the state stops saying
// streaming (as it stops saying compacting), the log ends the turn saying why, and what waits on
// the turn is released, instead of a row that streams until the process goes.
import assert from 'node:assert/strict';
import { record, stateOf as liveState } from '../helpers/supervisor';
import { alive, lostStreamSuite, within } from '../fixtures/faults-helpers';

for (const dialect of ['pi', 'tau'] as const) {
  describe(`faults: the worker's output is lost while it runs a turn (${dialect})`, () => {
    const suite = lostStreamSuite({ settleTimeoutMs: 600_000 });

    it('the turn ends in the log with the reason, the state stops saying streaming; the process still runs', async () => {
      const { supervisor, r, next } = await suite.start(dialect, ['--close-stdout-on', 'prompt']);
      const events = record(supervisor, () => r.workerId);
      const said: string[] = [];
      supervisor.onOutput((id, kind, text) => id === r.workerId && kind === 'protocol' && said.push(text));
      const settled = next('agent_settled');
      await within(supervisor.prompt(r.workerId, 'wait 600000'), 20_000, 'the prompt');
      const e = await settled;
      const s = liveState(supervisor, r.workerId);
      assert.deepEqual([s.streaming, s.status], [false, 'running'], JSON.stringify(events.map((x) => x.type)));
      assert.match(s.lastError ?? '', /the worker's output ended/);
      assert.equal(e.type, 'agent_settled');
      assert.equal(alive(r.pid), true, 'the worker lives on');
      // The settled turn asks the worker nothing more (its usage): the answer could not be heard,
      // and its failure would say the loss again.
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(said.filter((l) => /output ended/.test(l)).length, 1, said.join('\n'));
    });
  });
}
