// A resumed conversation numbers its turns on from the session's: the log of a resumed session
// shows Turn 1 (before the reload), the Resumed mark, then Turn 2, not a second Turn 1.
import assert from 'node:assert/strict';
import { createSupervisor } from '../../src/core/supervisor';
import { fakeSpec, ofType, waitFor } from '../helpers/supervisor';

describe('turn numbers across a resume', () => {
  for (const dialect of ['pi', 'tau'] as const) {
    it(`${dialect}: with turnsBefore 2 the worker's first turn is turn 3, in its stamps and its state`, async () => {
      const supervisor = createSupervisor();
      try {
        const r = await supervisor.start(fakeSpec(dialect, [], { turnsBefore: 2 }));
        if (r.status !== 'started') return assert.fail(r.error);
        const opened = waitFor(supervisor, r.workerId, (e) => e.turn?.opens === true, 15_000, 'the opening event');
        const settled = waitFor(supervisor, r.workerId, ofType('agent_settled'), 15_000);
        assert.equal((await supervisor.prompt(r.workerId, 'hello')).status, 'accepted');
        assert.equal((await opened).turn?.index, 3);
        assert.deepEqual((await settled).turn, { index: 3, ends: true });
        const s = supervisor.state(r.workerId);
        if (s.status === 'not_found') return assert.fail('gone');
        assert.deepEqual(s.state.turns.map((t) => t.index), [3]);
        assert.equal(s.state.turnCount, 3);
      } finally {
        await supervisor.dispose();
      }
    });
  }

  it('a negative or fractional turnsBefore is refused as an invalid spec', async () => {
    const supervisor = createSupervisor();
    try {
      const r = await supervisor.start(fakeSpec('pi', [], { turnsBefore: -1 }));
      assert.equal(r.status, 'error');
      assert.match(r.status === 'error' ? r.error : '', /turnsBefore/);
    } finally {
      await supervisor.dispose();
    }
  });
});
