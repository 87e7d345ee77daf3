// Load: four workers streaming at once while a fifth is refused with the max-workers error, and
// the verbs used concurrently on each. Every result is the honest one: what the state was when
// the verb was called decides it, and each worker's outcome is its own.
import assert from 'node:assert/strict';
import type { Supervisor } from '../../src/core/api';
import type { AgentEvent } from '../../src/core/events/agentEvent';
import { createSupervisor } from '../../src/core/supervisor';
import { fakeSpec, groupMembers, text, waitFor } from '../helpers/supervisor';
import { childrenOf, cmdline, killAll, within } from '../fixtures/faults-helpers';

const LONG = `say ${Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ')}`;
const LIMIT = '4 workers are running; the limit is 4 (stop one first)';

for (const dialect of ['pi', 'tau'] as const) {
  describe(`faults: load, four workers at once (${dialect})`, function () {
    this.timeout(120_000);
    let supervisor: Supervisor;
    const pids: number[] = [];
    before(() => {
      supervisor = createSupervisor({ limits: { maxWorkers: 4 } });
    });
    after(async () => {
      await supervisor.dispose();
      killAll(pids);
    });

    it('five concurrent starts: four start, the fifth is refused with the max-workers error', async () => {
      const results = await Promise.all(Array.from({ length: 5 }, (_, i) => supervisor.start(fakeSpec(dialect, ['--delta-ms', '10'], { name: `load-${i}` }))));
      for (const r of results) if (r.status === 'started') pids.push(r.pid);
      assert.deepEqual(results.map((r) => r.status), ['started', 'started', 'started', 'started', 'error']);
      assert.equal(results[4].status === 'error' && results[4].error, LIMIT);
      assert.equal(results[4].status === 'error' && results[4].atLimit, true, 'the UI is told it was the limit (it names the setting)');
      assert.equal(supervisor.list().length, 4);
    });

    it('while all four stream, a fifth start is refused and nothing is spawned; the verbs at once on each give honest results', async () => {
      const ids = supervisor.list().map((s) => s.workerId);
      assert.equal(ids.length, 4);
      const events = new Map<string, AgentEvent[]>(ids.map((id) => [id, []]));
      const off = supervisor.onEvent((id, e) => events.get(id)?.push(e));
      const streaming = ids.map((id) => waitFor(supervisor, id, (e) => e.type === 'message_update' && e.delta === 'word0 ', 20_000, `${id} streaming`));
      const prompts = await Promise.all(ids.map((id) => supervisor.prompt(id, LONG, { source: 'load' })));
      assert.deepEqual(prompts.map((p) => p.status), ['accepted', 'accepted', 'accepted', 'accepted']);
      await Promise.all(streaming);
      assert.ok(supervisor.list().every((s) => s.streaming), 'all four stream');

      const before = childrenOf().map((p) => p.pid);
      const fifth = await supervisor.start(fakeSpec(dialect));
      assert.deepEqual([fifth.status, fifth.status === 'error' && fifth.error], ['error', LIMIT]);
      assert.deepEqual(childrenOf().map((p) => p.pid).filter((p) => !before.includes(p) && cmdline(p).includes('fake-worker')), []);

      // A steer first (in pi it must be queued before the abort lands, or pi, idle by then, would
      // run it as a turn of its own), then all the other verbs at once on every worker, in one tick.
      const steers = await Promise.all(ids.map((id) => supervisor.prompt(id, 'say steered', { streamingBehavior: 'steer' })));
      const calls = ids.map((id, i) => {
        const state = supervisor.state(id);
        return {
          id,
          state,
          plain: supervisor.prompt(id, 'say plain'),
          steer: Promise.resolve(steers[i]),
          compact: supervisor.compact(id),
          abort: supervisor.abort(id),
          redirect: supervisor.redirect(id, 'say redirected here', { source: 'load-redirect' }),
          ended: waitFor(supervisor, id, (e) => e.type === 'agent_end' && e.end_reason === 'done', 30_000, `${id}'s redirected turn`),
        };
      });
      for (const c of calls) {
        assert.equal(c.state.status, 'running');
        assert.equal('state' in c.state && c.state.state.streaming, true);
        const [plain, steer, compact, abort, redirect] = await within(Promise.all([c.plain, c.steer, c.compact, c.abort, c.redirect]), 30_000, `the verbs on ${c.id}`);
        assert.equal(plain.status, 'error');
        assert.match(plain.status === 'error' ? plain.error : '', /^the worker is streaming a turn: send the message as steer/);
        assert.equal(steer.status, 'accepted', JSON.stringify(steer));
        assert.equal(steer.status === 'accepted' && steer.streamingBehavior, 'steer');
        assert.deepEqual([compact.status, compact.status === 'error' && compact.error], ['error', 'the worker is streaming a turn; abort it or wait for it to end before compacting']);
        assert.equal(abort.status, 'aborted', JSON.stringify(abort));
        assert.equal(redirect.status, 'redirected', JSON.stringify(redirect));
        assert.equal(redirect.status === 'redirected' && redirect.aborted, true);
        await c.ended;
      }
      off();
      // Each worker's history is its own: one aborted turn, then the redirected one.
      for (const id of ids) {
        const s = supervisor.state(id);
        if (s.status === 'not_found') return assert.fail(`${id} vanished`);
        assert.equal(s.state.status, 'running');
        assert.equal(s.state.streaming, false);
        assert.equal(s.state.turns[0].endReason, 'aborted');
        assert.equal(s.state.turns[0].source, 'load');
        assert.equal(s.state.turns.at(-1)!.source, 'load-redirect');
        assert.equal(s.state.turns.at(-1)!.endReason, 'done');
        const said = text(events.get(id)!);
        assert.ok(said.startsWith('word0 '), said.slice(0, 40));
        assert.ok(!said.includes('word399'), 'the long turn was cut short');
        assert.ok(said.endsWith('redirected here'), said.slice(-60));
        assert.ok(!said.includes('plain'), 'the refused prompt never ran');
      }
    });

    if (dialect === 'pi') {
      it('an abort with a steer still queued settles at agent_end (pi keeps the queue and does not go on)', async () => {
        const [id] = supervisor.list().map((s) => s.workerId);
        const streaming = waitFor(supervisor, id, (e) => e.type === 'message_update' && e.delta === 'word0 ', 20_000, 'streaming');
        assert.equal((await supervisor.prompt(id, LONG)).status, 'accepted');
        await streaming;
        const queued = waitFor(supervisor, id, (e) => e.type === 'queue_update' && Array.isArray(e.data?.steering) && (e.data.steering as unknown[]).length === 1, 10_000, 'the queued steer');
        assert.equal((await supervisor.prompt(id, 'say steered', { streamingBehavior: 'steer' })).status, 'accepted');
        await queued;
        const a = await within(supervisor.abort(id), 30_000, 'the abort');
        assert.equal(a.status, 'aborted', JSON.stringify(a));
        const s = supervisor.state(id);
        assert.equal(s.status !== 'not_found' && s.state.streaming, false);
        // The queued steer rides along with the next prompt, as pi does.
        const next = waitFor(supervisor, id, (e) => e.type === 'agent_end' && e.end_reason === 'done', 20_000, 'the next turn');
        assert.equal((await supervisor.prompt(id, 'say next')).status, 'accepted');
        await next;
      });
    }

    it('stopping all four at once: each stopped, nothing of any tree is left, and a new start is allowed', async () => {
      const results = await within(supervisor.stopAll(), 20_000, 'stopAll');
      assert.deepEqual(results.map((r) => r.status), ['stopped', 'stopped', 'stopped', 'stopped']);
      for (const pid of pids) assert.deepEqual(groupMembers(pid), []);
      const again = await supervisor.start(fakeSpec(dialect));
      assert.equal(again.status, 'started', again.status === 'error' ? again.error : '');
      if (again.status === 'started') pids.push(again.pid);
    });
  });
}
