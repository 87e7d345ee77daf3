// A guarded τ worker that no longer reads its input (the fake closes its stdin and runs on): the
// audit's abort of a turn with a violation cannot be written to it, nor can the call's arguments
// be read. With `onViolation: "abort"` the guard's promise is that such a turn does not go on, so
// the host stops the worker, and the violation's row says it was stopped and why. Before, the
// abort failed unsaid and the turn (and its write) went on.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Supervisor, WorkerState } from '../../src/core/api';
import { createSupervisor } from '../../src/core/supervisor';
import { fakeSpec, ofType, waitFor } from '../helpers/supervisor';

const STOPPED = /; the worker could not be told to abort its turn \(it no longer reads its input\), so it was stopped$/;

describe('guard: a τ worker that no longer reads its input, a violation', function () {
  this.timeout(60_000);
  let supervisor: Supervisor;
  let ws: string;
  let outside: string;
  beforeEach(() => {
    supervisor = createSupervisor({ limits: { settleTimeoutMs: 600_000, commandTimeoutMs: 600_000 } });
    ws = mkdtempSync(path.join(tmpdir(), 'rpcw-guard-deaf-'));
    outside = mkdtempSync(path.join(tmpdir(), 'rpcw-outside-'));
  });
  afterEach(async () => {
    await supervisor.dispose();
    rmSync(ws, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  /** A guarded fake τ whose write outside waits far longer than the test: only a stop keeps it from landing. */
  async function run(closeStdinOn: string, onViolation: 'abort' | 'flag' = 'abort') {
    const target = path.join(outside, 'x.txt');
    const started = await supervisor.start({ ...fakeSpec('tau', ['--close-stdin-on', closeStdinOn, '--tool-delay-ms', '600000']), cwd: ws, guard: true, onViolation });
    if (started.status !== 'started') throw new Error(started.error);
    const id = started.workerId;
    const violation = waitFor(supervisor, id, ofType('guard_violation'), 30_000, 'the violation');
    const p = await supervisor.prompt(id, `tool write ${JSON.stringify({ path: target, content: 'y' })}`);
    assert.equal(p.status, 'accepted', JSON.stringify(p));
    return { id, target, violation: await violation };
  }

  /** Resolves once the supervisor lists the worker no more (its Stop is over). */
  const removed = (id: string) => new Promise<void>((resolve) => {
    const off = supervisor.onRemoved((gone) => {
      if (gone !== id) return;
      off();
      resolve();
    });
  });

  it("its call's arguments cannot be read (its stdin closed as it took the prompt): it is stopped, and the row says why", async () => {
    const last = new Map<string, WorkerState>();
    supervisor.onState((s) => void last.set(s.workerId, s));
    const told: string[] = [];
    supervisor.onEvent((_, e) => void (e.type === 'guard_violation' && e.data?.action === 'stop' && told.push('guard stop')));
    supervisor.onState((s) => void (s.inputLost && !told.includes('input lost') && told.push('input lost')));
    const { id, target, violation } = await run('prompt');
    const exited = waitFor(supervisor, id, ofType('worker_exit'), 30_000, 'the exit');
    const gone = removed(id);
    assert.match(violation.error ?? '', /^the guard could not read the call's arguments; /);
    assert.match(violation.error ?? '', STOPPED);
    assert.equal(violation.data?.action, 'stop');
    assert.equal((await exited).data?.status, 'stopped');
    // Stopped as the person's Stop does it: gone from the lists, its last state says how.
    await gone;
    assert.equal(supervisor.state(id).status, 'not_found');
    assert.equal(last.get(id)?.status, 'stopped');
    assert.match(last.get(id)?.turns[0]?.tools[0]?.violation ?? '', STOPPED);
    assert.equal(existsSync(target), false, 'the call must not have written');
    // The guard's own read found the loss: its stop is said first, as after its abort.
    assert.deepEqual(told, ['guard stop', 'input lost']);
  });

  it('its call was judged, but the abort cannot be written (its stdin closed as the guard read the call): it is stopped, and the row says why', async () => {
    // What the person is told in turn: the guard's stop, said before the state that says the loss,
    // so its one notification stands for both (workerAttention.ts), not "stop it" then "stopped".
    const told: string[] = [];
    supervisor.onEvent((_, e) => void (e.type === 'guard_violation' && e.data?.action === 'stop' && told.push('guard stop')));
    supervisor.onState((s) => void (s.inputLost && !told.includes('input lost') && told.push('input lost')));
    const { id, target, violation } = await run('get_messages');
    const stopped = waitFor(supervisor, id, (e) => e.type === 'guard_violation' && e.data?.action === 'stop', 30_000, 'the stop');
    const exited = waitFor(supervisor, id, ofType('worker_exit'), 30_000, 'the exit');
    const gone = removed(id);
    // The violation is said as found, with the abort it asks for; the abort's failure is said next.
    assert.match(violation.error ?? '', /^write ".*": /);
    assert.equal(violation.data?.action, 'abort');
    assert.match((await stopped).error ?? '', STOPPED);
    assert.equal((await exited).data?.status, 'stopped');
    await gone;
    assert.equal(supervisor.state(id).status, 'not_found');
    assert.equal(existsSync(target), false, 'the call must not have written');
    assert.deepEqual(told, ['guard stop', 'input lost']);
  });

  it('with onViolation "flag" it is only flagged, as on any worker', async () => {
    const { id, violation } = await run('prompt', 'flag');
    assert.equal(violation.data?.action ?? null, null);
    assert.doesNotMatch(violation.error ?? '', /stopped/);
    assert.equal(supervisor.state(id).status, 'running');
  });
});
