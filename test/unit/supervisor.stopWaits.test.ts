// A verb still waiting on the worker when the caller stops it answers that the worker was
// stopped, not only "exited with code 143" as if it had ended on its own.
import assert from 'node:assert/strict';
import type { Supervisor } from '../../src/core/api';
import { createSupervisor } from '../../src/core/supervisor';
import { fakeSpec, ofType, waitFor } from '../helpers/supervisor';

for (const dialect of ['tau', 'pi'] as const) {
  describe(`a verb waiting when its worker is stopped (${dialect})`, () => {
    let supervisor: Supervisor;
    beforeEach(() => { supervisor = createSupervisor(); });
    afterEach(() => supervisor.dispose());

    async function start(flags: string[]): Promise<string> {
      const r = await supervisor.start(fakeSpec(dialect, flags));
      assert.equal(r.status, 'started', r.status === 'error' ? r.error : '');
      return r.status === 'started' ? r.workerId : '';
    }

    it('a compaction the worker never answers: error, saying it was stopped', async () => {
      const id = await start(['--silent', 'compact']);
      const compacting = supervisor.compact(id);
      const s = supervisor.state(id);
      assert.ok(s.status !== 'not_found' && s.state.compacting, 'the compaction was sent');
      assert.equal((await supervisor.stop(id)).status, 'stopped');
      const r = await compacting;
      assert.equal(r.status, 'error');
      assert.match(r.status === 'error' ? r.error : '', /^the compaction failed: the worker was stopped: the worker /);
    });

    it('a redirect waiting for its turn to settle: error, saying it was stopped', async () => {
      const id = await start(['--no-settle']);
      const tool = waitFor(supervisor, id, ofType('tool_execution_start'));
      assert.equal((await supervisor.prompt(id, 'bash sleep 20')).status, 'accepted');
      await tool;
      const sent = waitFor(supervisor, id, ofType('abort_sent'));
      const redirecting = supervisor.redirect(id, 'something else');
      await sent;
      assert.equal((await supervisor.stop(id)).status, 'stopped');
      const r = await redirecting;
      assert.equal(r.status, 'error');
      assert.match(r.status === 'error' ? r.error : '', /^settling after abort failed: the worker was stopped: .*; the new instruction was not sent$/s);
    });
  });
}
