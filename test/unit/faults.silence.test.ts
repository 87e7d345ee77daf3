// Hostile workers, silence: a worker that does not answer, one that never settles after an
// abort, one that ignores SIGTERM. Each wait ends at its bound with an honest `error`, and stop
// still ends the worker.
import assert from 'node:assert/strict';
import type { Supervisor } from '../../src/core/api';
import { fakeSpec, groupMembers, ofType, waitFor } from '../helpers/supervisor';
import { alive, childrenOf, cmdline, describePids, killAll, tracedHost, treeOf, until, verbOf, within } from '../fixtures/faults-helpers';

const ONE_S = 1_000;

for (const dialect of ['pi', 'tau'] as const) {
  describe(`faults: the worker goes silent (${dialect})`, () => {
    let supervisor: Supervisor;
    let sent: ReturnType<typeof tracedHost>['sent'];
    let next: ReturnType<typeof tracedHost>['next'];
    const pids: number[] = [];
    beforeEach(() => {
      ({ host: supervisor, sent, next } = tracedHost({ limits: { commandTimeoutMs: ONE_S, settleTimeoutMs: ONE_S, resyncMs: 200 } }));
    });
    afterEach(async () => {
      await supervisor.dispose();
      killAll(pids.splice(0));
    });

    async function start(flags: string[]) {
      const r = await supervisor.start(fakeSpec(dialect, flags));
      if (r.status !== 'started') throw new Error(`start failed: ${r.error}`);
      pids.push(r.pid);
      return r;
    }

    it('no answer to a request: error after the command timeout; the worker is still running and stoppable', async () => {
      const r = await start(['--silent', 'prompt']);
      const p = await within(supervisor.prompt(r.workerId, 'say anyone there?'), 10_000, 'the prompt');
      assert.equal(p.status, 'error');
      assert.equal(p.status === 'error' && p.error, 'prompt: no answer from the worker within 1 s');
      assert.ok(p.ms >= ONE_S, `gave up after ${p.ms} ms, before the 1 s timeout`);
      assert.equal(supervisor.state(r.workerId).status, 'running');
      const s = await supervisor.stop(r.workerId);
      assert.equal(s.status, 'stopped');
      assert.equal(s.status === 'stopped' && s.killed, false);
      assert.deepEqual(groupMembers(r.pid), []);
    });

    it('no answer to the readiness probe: start fails after the command timeout and nothing is left', async () => {
      const before = childrenOf().map((p) => p.pid);
      const r = await within(supervisor.start(fakeSpec(dialect, ['--hang-probe'])), 15_000, 'start');
      assert.equal(r.status, 'error');
      assert.match(r.status === 'error' ? r.error : '', /^the worker did not become ready: the readiness probe: no answer from the worker within 1 s/);
      assert.deepEqual(supervisor.list(), []);
      const left = childrenOf().filter((p) => !before.includes(p.pid) && cmdline(p.pid).includes('fake-worker'));
      assert.deepEqual(left, []);
    });

    // A Stop lands while the start waits for the worker: during the probe, or (τ, asked again
    // right after it) while its session is read. Both starts fail alike; neither is ever running.
    const unanswered = [
      { when: 'during the readiness probe', flags: ['--hang-probe'], verb: dialect === 'pi' ? 'get_state' : 'get_capabilities', nth: 1 },
      ...(dialect === 'tau' ? [{ when: 'while the session is read after the probe', flags: ['--silent', 'get_state@2'], verb: 'get_state', nth: 2 }] : []),
    ];
    for (const { when, flags, verb, nth } of unanswered) {
      it(`Stop ${when}: start fails saying it was stopped (not as a worker that died), the worker ends stopped and is never running`, async () => {
        const statuses: string[] = [];
        const removed: string[] = [];
        supervisor.onState((s) => statuses.push(s.status));
        supervisor.onRemoved((id) => removed.push(id));
        const starting = supervisor.start(fakeSpec(dialect, flags));
        const asked = await next((t) => t.direction === 'send' && verbOf(t.message) === verb && sent(t.workerId, verb).length === nth, 10_000, `${verb} request ${nth}`);
        const stopped = await within(supervisor.stop(asked.workerId), 10_000, 'the stop');
        const r = await within(starting, 15_000, 'start');
        assert.equal(stopped.status, 'stopped');
        assert.equal(r.status, 'error', JSON.stringify(r));
        // The Stop is why it failed, whichever the worker saw first (the SIGTERM or its stdin's
        // end): "did not become ready: … killed by SIGTERM" read as an agent that died starting.
        assert.equal(r.status === 'error' && r.error, 'the worker was stopped before its start was complete');
        assert.deepEqual(statuses, ['starting', 'stopped']);
        assert.deepEqual(removed, [asked.workerId]);
        assert.deepEqual(supervisor.list(), []);
      });
    }

    it('never settling after abort: abort fails after the settle timeout; a redirect does not send its prompt', async () => {
      const r = await start(['--no-settle']);
      const tool = waitFor(supervisor, r.workerId, ofType('tool_execution_start'));
      await supervisor.prompt(r.workerId, 'bash sleep 30');
      await tool;
      const a = await within(supervisor.abort(r.workerId), 10_000, 'the abort');
      assert.equal(a.status, 'error');
      assert.equal(a.status === 'error' && a.error, 'settling after abort: no answer from the worker within 1 s');
      assert.ok(a.ms >= ONE_S, `took ${a.ms} ms`);
      const d = await within(supervisor.redirect(r.workerId, 'say the new plan'), 10_000, 'the redirect');
      assert.equal(d.status, 'error');
      assert.equal(d.status === 'error' && d.error, 'settling after abort: no answer from the worker within 1 s; the new instruction was not sent');
      assert.equal(sent(r.workerId, 'abort').length, 2);
      assert.equal(sent(r.workerId, 'prompt').length, 1, 'the redirect must not send its prompt');
      const s = await supervisor.stop(r.workerId);
      assert.equal(s.status, 'stopped');
      assert.deepEqual(groupMembers(r.pid), []);
    });

    it('a prompt accepted and no turn after it: the host asks the worker, finds it idle and says so; abort then has nothing to abort', async () => {
      const r = await start(['--no-turn']);
      const probes = sent(r.workerId, 'get_state').length;
      const corrected = waitFor(supervisor, r.workerId, ofType('state_resync'), 10_000, 'the state correction');
      const p = await supervisor.prompt(r.workerId, 'say hello');
      assert.equal(p.status, 'accepted');
      const before = supervisor.state(r.workerId);
      assert.equal(before.status !== 'not_found' && before.state.streaming, true, 'an accepted prompt is a turn on its way');
      const e = await corrected;
      assert.equal(e.error, 'the host took the worker for busy, but it is idle: it accepted a prompt and no turn began');
      assert.ok(sent(r.workerId, 'get_state').length > probes, 'the host did not ask the worker');
      const after = supervisor.state(r.workerId);
      if (after.status === 'not_found') return assert.fail('worker vanished');
      assert.equal(after.state.streaming, false);
      assert.equal(after.state.lastError, e.error);
      const a = await supervisor.abort(r.workerId);
      assert.equal(a.status, 'not_streaming');
    });

    if (dialect === 'tau') {
      it('ignoring SIGTERM (and a turn that will not end): SIGKILL after the 2 s grace, stopped, nothing left', async () => {
        // τ, on stdin EOF, waits for the turn (1 s), aborts it and waits again (5 s): with a turn
        // that cannot end and SIGTERM ignored, only the host's SIGKILL ends it.
        const r = await start(['--ignore-sigterm']);
        const started = waitFor(supervisor, r.workerId, ofType('agent_start'));
        await supervisor.prompt(r.workerId, 'say stuck\nhang');
        await started;
        const s = await within(supervisor.stop(r.workerId), 10_000, 'stop');
        assert.equal(s.status, 'stopped');
        if (s.status !== 'stopped') return;
        assert.equal(s.killed, true);
        assert.equal(s.signal, 'SIGKILL');
        assert.ok(s.ms >= 2_000, `SIGKILL came after ${s.ms} ms, before the 2 s grace`);
        assert.equal(alive(r.pid), false);
        assert.deepEqual(groupMembers(r.pid), []);
      });

      it('verbs sent while a stop waits out the grace are refused at once, saying so; nothing is sent or logged as sent', async () => {
        const r = await start(['--ignore-sigterm']);
        const started = waitFor(supervisor, r.workerId, ofType('agent_start'));
        await supervisor.prompt(r.workerId, 'say stuck\nhang');
        await started;
        const stop = supervisor.stop(r.workerId);
        const answers = await within(Promise.all([
          supervisor.prompt(r.workerId, 'say more', { streamingBehavior: 'followUp' }),
          supervisor.abort(r.workerId),
          supervisor.redirect(r.workerId, 'say the new plan'),
        ]), 1_000, 'the verbs sent during the stop');
        for (const a of answers) assert.deepEqual([a.status, a.status === 'error' && a.error], ['error', 'the worker is being stopped'], JSON.stringify(a));
        assert.deepEqual([sent(r.workerId, 'prompt').length, sent(r.workerId, 'abort').length], [1, 0]);
        assert.deepEqual(supervisor.events(r.workerId).filter((e) => e.type === 'prompt_sent').length, 1);
        assert.equal((await within(stop, 10_000, 'stop')).status, 'stopped');
      });

      it('a second Stop while the first waits out the grace: the same answer, and the worker is said removed once', async () => {
        const r = await start(['--ignore-sigterm']);
        const started = waitFor(supervisor, r.workerId, ofType('agent_start'));
        await supervisor.prompt(r.workerId, 'say stuck\nhang');
        await started;
        const removed: string[] = [];
        supervisor.onRemoved((id) => removed.push(id));
        const first = supervisor.stop(r.workerId);
        const second = supervisor.stop(r.workerId);
        const [a, b] = await within(Promise.all([first, second]), 10_000, 'the two stops');
        assert.equal(a.status, 'stopped');
        assert.deepEqual({ ...b, ms: 0 }, { ...a, ms: 0 });
        if (a.status !== 'stopped') return;
        assert.deepEqual([a.killed, a.signal], [true, 'SIGKILL']);
        assert.deepEqual(removed, [r.workerId]);
        assert.equal(alive(r.pid), false);
      });
    } else {
      it('ignoring SIGTERM: pi also exits when its stdin closes, so stop needs no SIGKILL', async () => {
        const r = await start(['--ignore-sigterm']);
        const tool = waitFor(supervisor, r.workerId, ofType('tool_execution_start'));
        await supervisor.prompt(r.workerId, 'bash sleep 30');
        await tool;
        // The tool's process is forked just after its start event is written.
        await until(() => treeOf(r.pid).length >= 2, 5_000, () => `the tool never appeared under ${r.pid}`);
        const tree = treeOf(r.pid).map((p) => p.pid);
        const s = await within(supervisor.stop(r.workerId), 10_000, 'stop');
        assert.equal(s.status, 'stopped');
        if (s.status !== 'stopped') return;
        assert.equal(s.killed, false);
        assert.equal(s.exitCode, 0);
        // pi leaves its tool running when stdin closes (its own process group); stop ends it anyway.
        assert.deepEqual(groupMembers(r.pid), []);
        assert.equal(tree.filter(alive).length, 0, `left: ${describePids(tree.filter(alive))}`);
      });
    }
  });
}
