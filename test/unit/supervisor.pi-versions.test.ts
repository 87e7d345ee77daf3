// What differs between pi 0.73.1 and pi 1.x, decided in one place (the pi dialect's traits) and
// seen through the host: the turn's one end, post-turn work, compaction abort, the version.
// The fake pi speaks either version (--pi-version); a launcher script makes it a command the
// host can ask for `--version`, as it asks real pi.
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PromptResult, Supervisor } from '../../src/core/api';
import type { AgentEvent } from '../../src/core/events/agentEvent';
import { createSupervisor } from '../../src/core/supervisor';
import { compareVersions, explainLoadFailure, minimumOf, nodeTooOld, piTraits } from '../../src/core/wire/piVersion';
import { TurnTracker, type Settlement } from '../../src/core/worker/turns';
import { FAKE_WORKER, ROOT, waitFor } from '../helpers/supervisor';

const ev = (type: string, extra: Partial<AgentEvent> = {}): AgentEvent => ({ type, timestamp: 1, ...extra });

describe('pi versions: the dialect decides', () => {
  it('compares versions and reads an engines range', () => {
    assert.ok(compareVersions('1.6.0', '1.0.0') > 0);
    assert.ok(compareVersions('0.73.1', '1.0.0') < 0);
    assert.ok(compareVersions('v20.20.2', '22.19.0') < 0);
    assert.equal(compareVersions('22.19.0', '22.19'), 0);
    assert.equal(minimumOf('>=22.19.0'), '22.19.0');
    assert.equal(minimumOf('^22'), null);
  });

  it('pi 1.x sends agent_settled and its abort reaches a compaction; 0.73.1 neither; an unknown pi is promised nothing', () => {
    assert.deepEqual(piTraits('1.6.0'), { sendsSettled: true, abortCancelsCompaction: true });
    assert.deepEqual(piTraits('0.73.1'), { sendsSettled: null, abortCancelsCompaction: false });
    assert.deepEqual(piTraits(null), { sendsSettled: null, abortCancelsCompaction: false });
  });

  it('says a too-old Node in plain words, and explains pi\'s SyntaxError at load', () => {
    assert.equal(nodeTooOld('1.6.0', '>=22.19.0', 'v20.20.2', null).split(';')[0], 'pi 1.6.0 needs Node ≥ 22.19.0');
    const stderr = "SyntaxError: The requested module 'node:module' does not provide an export named 'enableCompileCache'";
    assert.match(explainLoadFailure(stderr) ?? '', /needs a newer Node.*no enableCompileCache in node:module/);
    assert.equal(explainLoadFailure('SyntaxError: Unexpected token'), null);
  });
});

describe('the turn tracker: one end of a turn, post-turn work said as such', () => {
  function tracker(sendsSettled: boolean | null) {
    const settled: Settlement[] = [];
    const t = new TurnTracker((s) => settled.push(s), '/w');
    t.setSendsSettled(sendsSettled);
    return { t, settled };
  }

  it('pi 1.x: agent_end opens the after-turn phase (retry, then compaction, then settling); agent_settled alone ends the turn', () => {
    const { t, settled } = tracker(true);
    t.observe(ev('agent_start'));
    assert.deepEqual([t.streaming, t.afterTurn], [true, null]);
    t.observe(ev('agent_end', { end_reason: 'error', is_error: true, error: '429', will_retry: true }));
    assert.deepEqual([t.streaming, t.afterTurn, settled.length], [true, 'retry', 0]);
    t.observe(ev('agent_start'));
    assert.deepEqual([t.afterTurn, t.turnCount], [null, 1], 'a retry is the same turn');
    t.observe(ev('agent_end', { end_reason: 'done', will_retry: false }));
    assert.equal(t.afterTurn, 'settling');
    t.observe(ev('compaction_start'));
    assert.equal(t.afterTurn, 'compaction');
    t.observe(ev('compaction_end'));
    assert.deepEqual([t.afterTurn, t.streaming, settled.length], ['settling', true, 0]);
    t.observe(ev('agent_settled'));
    assert.deepEqual([t.streaming, t.afterTurn], [false, null]);
    assert.deepEqual(settled.map((s) => [s.endReason, s.error]), [['done', null]]);
    assert.equal(t.turns[0].endedAt, 1);
  });

  it('pi 1.x: an abort while it waits to retry ends the turn aborted (agent_settled says so), not with the failed run\'s error', () => {
    const { t, settled } = tracker(true);
    t.observe(ev('agent_start'));
    t.observe(ev('agent_end', { end_reason: 'error', is_error: true, error: 'overloaded', will_retry: true }));
    t.observe(ev('auto_retry_start', { data: { attempt: 1, delay_ms: 2000 } }));
    t.observe(ev('auto_retry_end', { data: { success: false, attempt: 1 }, error: 'Retry cancelled' }));
    const end = ev('agent_settled', { data: { aborted: true } });
    t.observe(end);
    assert.deepEqual(settled.map((s) => [s.endReason, s.error]), [['aborted', null]]);
    assert.deepEqual([end.end_reason, t.turns[0].endReason, t.lastEndReason, t.streaming], ['aborted', 'aborted', 'aborted', false]);
  });

  it('pi 1.x: a queued follow-up after agent_end is a continuation of the same turn', () => {
    const { t, settled } = tracker(true);
    t.observe(ev('agent_start'));
    t.observe(ev('queue_update', { data: { steering: [], followUp: ['next'] } }));
    t.observe(ev('agent_end', { end_reason: 'done' }));
    assert.equal(t.afterTurn, 'continuation');
    t.observe(ev('queue_update', { data: { steering: [], followUp: [] } }));
    t.observe(ev('agent_start'));
    t.observe(ev('agent_end', { end_reason: 'done' }));
    t.observe(ev('agent_settled'));
    assert.deepEqual([settled.length, t.turnCount, t.streaming], [1, 1, false]);
  });

  it('pi 0.73.1: agent_end without retry or queue ends the turn at once; with willRetry it waits for the retry\'s end', () => {
    const { t, settled } = tracker(null);
    t.observe(ev('agent_start'));
    t.observe(ev('agent_end', { end_reason: 'error', is_error: true, error: '429', will_retry: true }));
    assert.deepEqual([t.afterTurn, settled.length], ['retry', 0]);
    t.observe(ev('agent_start'));
    t.observe(ev('agent_end', { end_reason: 'done' }));
    assert.deepEqual([t.streaming, t.afterTurn, settled.length], [false, null, 1]);
  });

  it('pi 0.73.1: auto_retry_start after the turn settled begins the retry\'s turn, busy while pi waits; an abort\'s "Retry cancelled" ends it aborted, with one host agent_settled', () => {
    const { t, settled } = tracker(piTraits('0.73.1').sendsSettled);
    const ends: Array<AgentEvent | null> = [];
    t.observe(ev('agent_start'));
    ends.push(t.observe(ev('agent_end', { end_reason: 'error', is_error: true, error: 'overloaded', will_retry: false })));
    const retry = ev('auto_retry_start', { data: { attempt: 1, delay_ms: 2000 } });
    ends.push(t.observe(retry));
    assert.deepEqual([t.streaming, t.afterTurn, t.turnCount, t.agentStarts], [true, 'retry', 2, 1], 'the wait is the retry turn\'s; no prompt\'s run started');
    assert.deepEqual(retry.turn, { index: 2, opens: true, origin: 'retry' });
    const cancelled = ev('auto_retry_end', { data: { success: false, attempt: 1 }, error: 'Retry cancelled' });
    ends.push(t.observe(cancelled));
    assert.deepEqual(cancelled.turn, { index: 2 });
    assert.deepEqual(ends.map((e) => e && [e.type, e.turn, e.end_reason, e.data?.aborted]), [
      ['agent_settled', { index: 1, ends: true }, 'error', false], null, ['agent_settled', { index: 2, ends: true }, 'aborted', true],
    ]);
    assert.deepEqual(settled.map((s) => [s.endReason, s.error]), [['error', 'overloaded'], ['aborted', null]]);
    assert.deepEqual([t.streaming, t.afterTurn, t.turns.map((x) => [x.source, x.endReason])], [false, null, [[null, 'error'], ['retry', 'aborted']]]);
  });

  it('pi 0.73.1: a retry that runs is the turn its auto_retry_start began, settled once by its agent_end', () => {
    const { t, settled } = tracker(piTraits('0.73.1').sendsSettled);
    t.observe(ev('agent_start'));
    t.observe(ev('agent_end', { end_reason: 'error', is_error: true, error: 'overloaded' }));
    t.observe(ev('auto_retry_start', { data: { attempt: 1, delay_ms: 2000 } }));
    const start = ev('agent_start');
    t.observe(start);
    assert.deepEqual([start.turn, t.afterTurn, t.streaming], [{ index: 2 }, null, true]);
    t.observe(ev('auto_retry_end', { data: { success: true, attempt: 1 } }));
    assert.equal(settled.length, 1);
    const end = ev('agent_end', { end_reason: 'done' });
    assert.equal(t.observe(end)?.type, 'agent_settled');
    assert.deepEqual([settled.map((s) => s.endReason), t.turnCount, t.streaming], [['error', 'done'], 2, false]);
    // Given up after the last retry's run: its turn has ended already; nothing more settles.
    t.observe(ev('auto_retry_end', { data: { success: false, attempt: 2 }, error: 'still overloaded' }));
    assert.equal(settled.length, 2);
  });
});

describe('the turn tracker: a worker that stamps its turns (τ)', () => {
  it('an unstamped pair is a compaction only once the worker was seen stamping: one that never stamps keeps its turns', () => {
    const never = new TurnTracker(() => {}, '/w');
    never.setStampsTurns(true);
    for (let i = 0; i < 2; i++) {
      never.observe(ev('agent_start'));
      never.observe(ev('agent_end', { end_reason: 'done' }));
    }
    assert.equal(never.turnCount, 2, 'a τ-speaking program that stamps nothing');
    const tau = new TurnTracker(() => {}, '/w');
    tau.setStampsTurns(true);
    tau.observe(ev('agent_start', { submission_id: 's1' }));
    tau.observe(ev('agent_end', { submission_id: 's1', end_reason: 'done' }));
    tau.observe(ev('agent_start'));
    assert.equal(tau.compacting, true, 'τ compacting on its own');
    tau.observe(ev('agent_end'));
    assert.deepEqual([tau.turnCount, tau.compacting], [1, false]);
  });
});

describe('the host and the fake pi of each version', function () {
  this.timeout(30_000);
  let dir: string;
  let supervisor: Supervisor;
  before(() => (dir = mkdtempSync(path.join(tmpdir(), 'pi-versions-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));
  beforeEach(() => (supervisor = createSupervisor()));
  afterEach(() => supervisor.dispose());

  /** A command that is the fake pi of a version, as `pi` is: no arguments of its own, `--version` answers. */
  function launcher(version: string, flags: string[] = []): string {
    const file = path.join(dir, `pi-${version}${flags.join('')}`);
    writeFileSync(file, `#!/bin/sh\nexec "${process.execPath}" "${FAKE_WORKER}" --dialect pi --pi-version ${version} ${flags.join(' ')} "$@"\n`);
    chmodSync(file, 0o755);
    return file;
  }

  for (const version of ['0.73.1', '1.6.0']) {
    const one = version.startsWith('1.');

    it(`pi ${version}: the host asks the version, and every turn ends with one agent_settled that a prompt may follow at once`, async () => {
      const started = await supervisor.start({ dialect: 'pi', command: launcher(version), cwd: ROOT });
      if (started.status !== 'started') return assert.fail(started.error);
      const id = started.workerId;
      assert.equal(started.state.workerVersion, version);
      const TURNS = 5;
      const ends: AgentEvent[] = [];
      const answers: Array<Promise<PromptResult>> = [];
      const off = supervisor.onEvent((workerId, e) => {
        if (workerId !== id || e.type !== 'agent_settled') return;
        ends.push(e);
        if (ends.length < TURNS) answers.push(supervisor.prompt(id, `say reply ${ends.length + 1}`));
      });
      let n = 0;
      const last = waitFor(supervisor, id, (e) => e.type === 'agent_settled' && ++n === TURNS, 20_000, `${TURNS} turns`);
      answers.push(supervisor.prompt(id, 'say reply 1'));
      try {
        await last;
      } finally {
        off();
      }
      assert.deepEqual((await Promise.all(answers)).map((r) => r.status), Array(TURNS).fill('accepted'));
      assert.deepEqual(ends.map((e) => [e.end_reason, e.data?.synthesized === true]), Array(TURNS).fill(['done', !one]));
      assert.equal(supervisor.events(id).filter((e) => e.type === 'agent_settled').length, TURNS);
    });

    it(`pi ${version}: ${one ? 'abort cancels a running compaction; compact answers aborted' : 'abort of a running compaction is an error naming the version; the compaction goes on'}`, async () => {
      const started = await supervisor.start({ dialect: 'pi', command: launcher(version, ['--compact-ms', '20000']), cwd: ROOT });
      if (started.status !== 'started') return assert.fail(started.error);
      const id = started.workerId;
      for (const text of ['say one', 'say two']) {
        const end = waitFor(supervisor, id, (e) => e.type === 'agent_settled');
        await supervisor.prompt(id, text);
        await end;
      }
      const running = waitFor(supervisor, id, (e) => e.type === 'compaction_start');
      const compacting = supervisor.compact(id);
      await running;
      const aborted = await supervisor.abort(id);
      if (one) {
        assert.deepEqual(aborted.status === 'aborted' && aborted.compactionCancelled, true, JSON.stringify(aborted));
        assert.equal((await compacting).status, 'aborted');
      } else {
        assert.equal(aborted.status, 'error');
        assert.match(aborted.status === 'error' ? aborted.error : '', /^pi 0\.73\.1's abort does not reach a running compaction/);
        // Not waited for: the fake's compaction takes 20 s; stopping the worker ends the call.
        await supervisor.stop(id);
        assert.equal((await compacting).status, 'error');
      }
    });

    if (one) {
      it(`pi ${version}: a prompt the worker handles without a turn ("handled") leaves it idle, with nothing to resync`, async () => {
        const started = await supervisor.start({ dialect: 'pi', command: launcher(version), cwd: ROOT });
        if (started.status !== 'started') return assert.fail(started.error);
        const id = started.workerId;
        const r = await supervisor.prompt(id, '/handled by an extension');
        assert.deepEqual([r.status, r.status === 'accepted' && r.handled], ['accepted', true]);
        const s = supervisor.state(id);
        assert.equal(s.status !== 'not_found' && s.state.streaming, false);
        // The next prompt is accepted at once and its turn carries its own provenance.
        const end = waitFor(supervisor, id, (e) => e.type === 'agent_settled');
        assert.equal((await supervisor.prompt(id, 'say next', { source: 'api' })).status, 'accepted');
        await end;
        const after = supervisor.state(id);
        if (after.status === 'not_found') return assert.fail('gone');
        assert.deepEqual([after.state.turnCount, after.state.turns[0].source], [1, 'api']);
        assert.equal(supervisor.events(id).some((e) => e.type === 'state_resync'), false);
      });
    }

    it(`pi ${version}: a manual compact of a one-turn session ${one ? 'is not performed (Nothing to compact), not an error' : 'compacts it'}`, async () => {
      const started = await supervisor.start({ dialect: 'pi', command: launcher(version, ['--compact-ms', '0']), cwd: ROOT });
      if (started.status !== 'started') return assert.fail(started.error);
      const end = waitFor(supervisor, started.workerId, (e) => e.type === 'agent_settled');
      await supervisor.prompt(started.workerId, 'say one');
      await end;
      const c = await supervisor.compact(started.workerId);
      assert.equal(c.status, 'compacted', JSON.stringify(c));
      assert.equal(c.status === 'compacted' && c.performed, !one);
      // The log says what the verb says: pi 1.x's compaction_end names "Nothing to compact" as a
      // failure (errorMessage), which is no failure of the compaction: the log's row reads
      // "Nothing to compact", not "Compaction failed".
      const ended = supervisor.events(started.workerId).filter((e) => e.type === 'compaction_end').at(-1);
      assert.deepEqual([ended?.is_error === true, ended?.data?.performed], [false, one ? false : undefined], JSON.stringify(ended));
    });
  }

  it('a Stop while the version is read (the probe has answered): the start answers error saying the worker was stopped, not started', async () => {
    // A launcher whose `--version` answers only once the test lets it: the Stop lands meanwhile.
    const gate = path.join(dir, 'version-gate');
    const file = path.join(dir, 'pi-slow-version');
    writeFileSync(file, `#!/bin/sh\nif [ "$1" = --version ]; then while [ ! -e "${gate}" ]; do sleep 0.02; done; fi\nexec "${process.execPath}" "${FAKE_WORKER}" --dialect pi "$@"\n`);
    chmodSync(file, 0o755);
    // Once the probe's answer is in (the worker is not `running` before its version is read).
    let answered!: (id: string) => void;
    const probeAnswered = new Promise<string>((resolve) => (answered = resolve));
    supervisor.dispose();
    supervisor = createSupervisor({ trace: (id, direction, message) => {
      if (direction === 'receive' && (message as { command?: unknown }).command === 'get_state') answered(id);
    } });
    const starting = supervisor.start({ dialect: 'pi', command: file, cwd: ROOT });
    const id = await probeAnswered;
    assert.equal((await supervisor.stop(id)).status, 'stopped');
    writeFileSync(gate, '');
    const r = await starting;
    assert.equal(r.status, 'error', JSON.stringify(r));
    assert.equal(r.status === 'error' && r.error, 'the worker was stopped before its start was complete (while its version was read)');
    assert.equal(r.workerId, id);
    assert.equal(supervisor.state(id).status, 'not_found');
  });

  it('an exit while the version is read (the probe has answered) fails the start as a failed probe does: never running, not listed', async () => {
    // The worker is killed once its probe's answer is in; its `--version` answers only after the exit is seen.
    const gate = path.join(dir, 'version-gate-exit');
    const file = path.join(dir, 'pi-slow-version-exit');
    writeFileSync(file, `#!/bin/sh\nif [ "$1" = --version ]; then while [ ! -e "${gate}" ]; do sleep 0.02; done; fi\nexec "${process.execPath}" "${FAKE_WORKER}" --dialect pi "$@"\n`);
    chmodSync(file, 0o755);
    let pid: number | null = null;
    const statuses: string[] = [];
    supervisor.dispose();
    supervisor = createSupervisor({ trace: (_id, direction, message) => {
      if (direction === 'receive' && (message as { command?: unknown }).command === 'get_state' && pid !== null) process.kill(pid, 'SIGKILL');
    } });
    const exited = new Promise<void>((resolve) => supervisor.onState((s) => {
      pid = s.pid ?? pid;
      statuses.push(s.status);
      if (s.status === 'failed' || s.status === 'exited') resolve();
    }));
    const starting = supervisor.start({ dialect: 'pi', command: file, cwd: ROOT });
    await exited;
    writeFileSync(gate, '');
    const r = await starting;
    assert.equal(r.status, 'error', JSON.stringify(r));
    assert.ok(r.workerId);
    assert.equal(supervisor.state(r.workerId).status, 'not_found', 'no row stays for a start that failed');
    // Never `running`: the exit is a start that failed (its own error says so), not a running worker's exit to notify.
    assert.ok(!statuses.includes('running'), statuses.join(' '));
  });
});
