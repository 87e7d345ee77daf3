// Hostile workers, death: a worker that exits or is killed while calls wait on it. Every pending
// call resolves with `error` naming the exit code or signal and the stderr tail, the state says
// `failed` (or `exited` for code 0), and no promise is left pending.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Supervisor, WorkerState } from '../../src/core/api';
import type { AgentEvent } from '../../src/core/events/agentEvent';
import { fakeSpec, ofType, stateOf as liveState, waitFor } from '../helpers/supervisor';
import { alive, childrenOf, cmdline, killAll, MINI_WORKER, tracedHost, until, verbOf, within } from '../fixtures/faults-helpers';
import { existsSync } from 'node:fs';

let dir: string;
before(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'rpc-faults-death-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

for (const dialect of ['pi', 'tau'] as const) {
  describe(`faults: the worker dies (${dialect})`, () => {
    let supervisor: Supervisor;
    let next: ReturnType<typeof tracedHost>['next'];
    let sent: ReturnType<typeof tracedHost>['sent'];
    const pids: number[] = [];
    beforeEach(() => {
      ({ host: supervisor, next, sent } = tracedHost());
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

    const stateOf = (id: string): WorkerState => liveState(supervisor, id);

    /**
     * A turn held in a tool until the test opens the gate, then `last` (exit N / kill). The
     * worker ignores abort, so an abort and a redirect sent meanwhile stay pending until it dies.
     */
    async function dieWithCallsPending(last: string) {
      const gate = path.join(dir, `gate-${dialect}-${Math.random().toString(36).slice(2)}`);
      const r = await start(['--silent', 'abort']);
      const tool = waitFor(supervisor, r.workerId, ofType('tool_execution_start'));
      const exited = waitFor(supervisor, r.workerId, ofType('worker_exit'));
      assert.equal((await supervisor.prompt(r.workerId, `bash while [ ! -e ${gate} ]; do sleep 0.02; done\n${last}`)).status, 'accepted');
      await tool;
      assert.equal(stateOf(r.workerId).streaming, true);
      const abort = supervisor.abort(r.workerId);
      const redirect = supervisor.redirect(r.workerId, 'say the new plan');
      // Both aborts are on the wire (and go unanswered) before the worker is let go.
      await next((t) => t.workerId === r.workerId && t.direction === 'send' && verbOf(t.message) === 'abort' && sent(r.workerId, 'abort').length === 2, 10_000, 'two abort requests');
      writeFileSync(gate, '');
      const [a, d] = await within(Promise.all([abort, redirect]), 15_000, 'the calls pending when the worker died');
      return { r, a, d, exit: await exited };
    }

    for (const [script, code] of [['exit 1', 1], ['exit 0', 0]] as const) {
      it(`${script} mid-turn: the pending abort and redirect fail naming code ${code} and the stderr tail; state ${code ? 'failed' : 'exited'}`, async () => {
        const { r, a, d, exit } = await dieWithCallsPending(script);
        const tail = new RegExp(`exited with code ${code}; stderr:\\n(.|\\n)*\\[fake-worker ${r.pid}\\]`);
        assert.equal(a.status, 'error');
        assert.match(a.status === 'error' ? a.error : '', new RegExp(`^abort failed: the worker exited with code ${code}; stderr:`));
        assert.match(a.status === 'error' ? a.error : '', tail);
        assert.equal(d.status, 'error');
        assert.match(d.status === 'error' ? d.error : '', tail);
        assert.match(d.status === 'error' ? d.error : '', /the new instruction was not sent$/);
        assert.equal(sent(r.workerId, 'prompt').length, 1, 'the redirect must not have sent its prompt');
        const s = stateOf(r.workerId);
        assert.equal(s.status, code ? 'failed' : 'exited');
        assert.equal(s.exitCode, code);
        assert.equal(s.signal, null);
        assert.equal(s.streaming, false);
        assert.equal(exit.is_error, code !== 0);
        assert.deepEqual((exit.data as { code: number }).code, code);
        // What comes after is refused with the same reason; stop reports the exit it saw.
        const late = await supervisor.prompt(r.workerId, 'say hello?');
        assert.equal(late.status, 'error');
        // Said once, in words: not "the worker is exited: the worker exited with code 3".
        assert.match(late.status === 'error' ? late.error : '', new RegExp(`^the worker exited with code ${code}; stderr:`));
        const stopped = await supervisor.stop(r.workerId);
        assert.deepEqual([stopped.status, stopped.status === 'stopped' && stopped.exitCode, stopped.status === 'stopped' && stopped.killed], ['stopped', code, false]);
      });
    }

    it('SIGKILL mid-turn: the pending calls fail naming SIGKILL and the stderr tail; state failed', async () => {
      const { r, a, d, exit } = await dieWithCallsPending('kill');
      for (const result of [a, d]) {
        assert.equal(result.status, 'error');
        assert.match(result.status === 'error' ? result.error : '', new RegExp(`the worker was killed by SIGKILL; stderr:\\n(.|\\n)*\\[fake-worker ${r.pid}\\]`));
      }
      const s = stateOf(r.workerId);
      assert.deepEqual([s.status, s.exitCode, s.signal, s.streaming], ['failed', null, 'SIGKILL', false]);
      assert.equal(exit.is_error, true);
      assert.match(String(exit.error), /killed by SIGKILL/);
      assert.equal(alive(r.pid), false);
    });

    it('exit during the readiness probe: start fails naming the code and the stderr tail, nothing is left', async () => {
      const before = childrenOf().map((p) => p.pid);
      const r = await within(supervisor.start(fakeSpec(dialect, ['--exit-on-probe', '1'])), 20_000, 'start');
      assert.equal(r.status, 'error');
      if (r.status !== 'error') return;
      assert.match(r.error, /^the worker did not become ready: the readiness probe failed: the worker exited with code 1; stderr:\n/);
      assert.match(r.error, /--exit-on-probe: exiting with 1/);
      assert.ok(r.stderrTail?.some((l) => l.includes('--exit-on-probe')), JSON.stringify(r.stderrTail));
      assert.deepEqual(supervisor.list(), []);
      assert.equal(supervisor.state(r.workerId!).status, 'not_found');
      const left = childrenOf().filter((p) => !before.includes(p.pid) && cmdline(p.pid).includes('fake-worker'));
      assert.deepEqual(left, []);
    });

    // pi names its session in the probe's answer; τ is asked (get_state) again right after it.
    if (dialect === 'tau') {
      it('exit right after the readiness probe, while the session is read: start fails as during the probe; never running', async () => {
        const statuses: string[] = [];
        supervisor.onState((s) => statuses.push(s.status));
        const exits: AgentEvent[] = [];
        supervisor.onEvent((_, e) => { if (e.type === 'worker_exit') exits.push(e); });
        const r = await within(supervisor.start(fakeSpec(dialect, ['--exit-on', 'get_state@2'])), 20_000, 'start');
        assert.equal(r.status, 'error', JSON.stringify(r));
        if (r.status !== 'error') return;
        assert.match(r.error, /^the worker did not become ready: the readiness probe failed: the worker exited with code 1; stderr:\n/);
        assert.match(r.error, /--exit-on: exiting with 1 on get_state \(request 2\)/);
        assert.equal(sent(r.workerId!, 'get_state').length, 2, 'the probe was answered');
        assert.deepEqual(statuses, ['starting', 'failed']);
        assert.deepEqual(exits.map((e) => e.data), [{ code: 1, signal: null, status: 'failed', started: false }]);
        assert.deepEqual(supervisor.list(), []);
      });
    }

    it('a verb sent once the worker\'s output is over and before its exit: it fails with the exit\'s reason, not as the worker\'s refusal', async () => {
      const r = await supervisor.start({ dialect, command: process.execPath, args: [MINI_WORKER, '--dialect', dialect], cwd: dir });
      if (r.status !== 'started') throw new Error(`start failed: ${r.error}`);
      pids.push(r.pid);
      const settled = waitFor(supervisor, r.workerId, ofType('agent_settled'));
      assert.equal((await supervisor.prompt(r.workerId, 'close stdout')).status, 'accepted');
      await settled;
      await until(() => !existsSync(`/proc/${r.pid}/fd/1`), 5_000, () => `the worker ${r.pid} kept its stdout`);
      const late = supervisor.prompt(r.workerId, 'say hello?');
      process.kill(r.pid, 'SIGKILL');
      const p = await within(late, 10_000, 'the prompt');
      assert.equal(p.status, 'error');
      assert.match(p.status === 'error' ? p.error : '', /^prompt failed: the worker was killed by SIGKILL/);
    });

    it('exit while a redirect waits for settlement: the redirect fails naming the code, its prompt is not sent', async () => {
      const r = await start(['--no-settle']);
      const tool = waitFor(supervisor, r.workerId, ofType('tool_execution_start'));
      await supervisor.prompt(r.workerId, 'bash sleep 30');
      await tool;
      const redirect = supervisor.redirect(r.workerId, 'say the new plan');
      // The abort is answered; the turn never settles; then the worker goes (SIGTERM: it exits 143).
      const abortSent = await next((t) => t.workerId === r.workerId && t.direction === 'send' && verbOf(t.message) === 'abort', 10_000, 'the abort');
      await next((t) => t.workerId === r.workerId && t.direction === 'receive' && (dialect === 'pi' ? t.message.type === 'response' && t.message.command === 'abort' : t.message.id === abortSent.message.id), 10_000, 'the abort\'s answer');
      assert.equal(stateOf(r.workerId).streaming, true);
      process.kill(r.pid, 'SIGTERM');
      const d = await within(redirect, 15_000, 'the redirect');
      assert.equal(d.status, 'error');
      if (d.status !== 'error') return;
      assert.match(d.error, /^settling after abort failed: the worker exited with code 143; stderr:\n/);
      assert.match(d.error, /SIGTERM: killing tool processes, exiting 143/);
      assert.match(d.error, /the new instruction was not sent$/);
      assert.equal(sent(r.workerId, 'prompt').length, 1);
      const s = stateOf(r.workerId);
      assert.deepEqual([s.status, s.exitCode], ['failed', 143]);
    });
  });
}
