// The host with `historyDir`: every event a listener was given is read back, whole and in order,
// and the session's summary is the worker's own (turns, touched files, end), in both dialects.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Supervisor } from '../../src/core/api';
import type { AgentEvent } from '../../src/core/events/agentEvent';
import { createSupervisor } from '../../src/core/supervisor';
import { fakeSpec, ofType, ROOT, waitFor } from '../helpers/supervisor';

for (const dialect of ['pi', 'tau'] as const) {
  describe(`host with a persisted history (${dialect}, fake worker)`, function () {
    this.timeout(60_000);
    let dir: string;
    let supervisor: Supervisor;
    beforeEach(() => {
      dir = mkdtempSync(path.join(tmpdir(), 'rpc-history-host-'));
    });
    afterEach(async () => {
      await supervisor?.dispose();
      rmSync(dir, { recursive: true, force: true });
    });

    it('events delivered == events read back; the session ends with the worker, with its turns and files', async () => {
      const historyDir = path.join(dir, 'history');
      supervisor = createSupervisor({ historyDir });
      assert.ok(supervisor.history, supervisor.historyError ?? '');
      const started = await supervisor.start(fakeSpec(dialect, [], { cwd: dir }));
      assert.equal(started.status, 'started', started.status === 'error' ? started.error : '');
      if (started.status !== 'started') return;
      const id = started.workerId;
      const delivered: AgentEvent[] = [];
      supervisor.onEvent((wid, e) => {
        if (wid === id) delivered.push(e);
      });
      const sessionId = supervisor.history!.sessionOf(id);
      assert.ok(sessionId);

      const settled = waitFor(supervisor, id, ofType('agent_settled'));
      await supervisor.prompt(id, `say first words\ntool write ${JSON.stringify({ path: 'notes.txt', content: 'x' })}\nsay done`);
      await settled;
      // Read while live: what was delivered so far, no more, no less.
      const midway = await supervisor.history!.store.read(sessionId);
      assert.equal(midway.status, 'read');
      if (midway.status !== 'read') return;
      assert.equal(midway.session.status, 'live');
      assert.deepEqual(midway.events.slice(-delivered.length), delivered);

      const again = waitFor(supervisor, id, ofType('agent_settled'));
      await supervisor.prompt(id, 'events 500');
      await again;
      const live = supervisor.state(id);
      if (live.status === 'not_found') return assert.fail('the worker vanished');
      await supervisor.stop(id);
      await supervisor.history!.store.flush();

      const r = await supervisor.history!.store.read(sessionId);
      assert.equal(r.status, 'read');
      if (r.status !== 'read') return;
      // Those before the listener was added (the start) come first; then exactly what it got.
      assert.deepEqual(r.events.slice(r.events.length - delivered.length), delivered);
      assert.ok(delivered.length > 500);
      assert.equal(r.events.at(-1)!.type, 'worker_exit');
      assert.equal(r.torn, null);
      assert.equal(r.session.status, 'ended');
      assert.equal(r.session.endReason, 'stopped');
      assert.equal(r.session.turns, 2);
      // The worker's own account (τ's events carry no arguments, so unguarded τ names no file).
      assert.deepEqual(r.session.filesTouched, live.state.filesTouched);
      if (dialect === 'pi') assert.deepEqual(r.session.filesTouched, [path.join(dir, 'notes.txt')]);
      assert.equal(r.session.dialect, dialect);
      assert.equal(r.session.workerId, id);
    });

    it('a bad history directory leaves the host working, and says why history is off', async () => {
      supervisor = createSupervisor({ historyDir: 'not/absolute' });
      assert.equal(supervisor.history, null);
      assert.match(supervisor.historyError ?? '', /absolute/);
      const started = await supervisor.start(fakeSpec(dialect));
      assert.equal(started.status, 'started');
    });
  });
}

describe('host with a persisted history (ACP, fake agent)', function () {
  this.timeout(60_000);
  let dir: string;
  let supervisor: Supervisor;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'rpc-history-acp-'));
  });
  afterEach(async () => {
    await supervisor?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('an agent that dies with a host terminal running: the terminals it left, ended after its exit, are in the session too', async () => {
    supervisor = createSupervisor({ historyDir: path.join(dir, 'history'), onPermission: async (req) => ({ optionId: req.options[0].optionId }) });
    const started = await supervisor.start({ dialect: 'acp', command: process.execPath, args: [path.join(ROOT, 'test/fixtures/fake-acp-agent.mjs')], cwd: dir });
    assert.equal(started.status, 'started', started.status === 'error' ? started.error : '');
    if (started.status !== 'started') return;
    const id = started.workerId;
    const sessionId = supervisor.history!.sessionOf(id)!;
    const running = waitFor(supervisor, id, (e) => e.type === 'tool_execution_start');
    await supervisor.prompt(id, 'term: sleep 600');
    await running;
    const ended = waitFor(supervisor, id, (e) => e.type === 'terminal' && e.data?.op === 'ended');
    const s = supervisor.state(id);
    if (s.status === 'not_found' || !s.state.pid) return assert.fail('no agent process');
    process.kill(s.state.pid, 'SIGKILL');
    assert.equal((await ended).data?.reason, 'exit');
    await supervisor.history!.store.flush();
    const r = await supervisor.history!.store.read(sessionId);
    if (r.status !== 'read') return assert.fail(r.status);
    const types = r.events.map((e) => e.type);
    assert.ok(types.indexOf('worker_exit') !== -1, 'the exit is in the session');
    assert.ok(types.lastIndexOf('terminal') > types.indexOf('worker_exit'), `the terminals ended after the exit are in the session: ${types.slice(-4).join(', ')}`);
    assert.equal(r.session.status, 'ended');
  });

  // codex-acp says a command's output only in chunks; the host's end of the call carries it
  // whole. Its line alone says only the end: the log read again (the live store, read more than
  // once) and the past session paged newest first (Open Log: its chunks in an earlier 256 KiB
  // slice than the end) must give the end as it was delivered.
  it('a command\'s output joined from chunks: the call\'s end reads back whole from the live store read while it ran, and from Open Log\'s pages', async () => {
    supervisor = createSupervisor({ historyDir: path.join(dir, 'history'), onPermission: async () => ({ cancelled: true }) });
    const started = await supervisor.start({ dialect: 'acp', command: process.execPath, args: [path.join(ROOT, 'test/fixtures/fake-acp-agent.mjs')], cwd: dir, name: 'Chunked' });
    assert.equal(started.status, 'started', started.status === 'error' ? started.error : '');
    if (started.status !== 'started') return;
    const id = started.workerId;
    const whole = 400 * 1001;
    const gate = path.join(dir, 'gate');
    let chunks = 0;
    const allChunks = waitFor(supervisor, id, (e) => e.type === 'tool_execution_update' && ++chunks === 400);
    const ended = waitFor(supervisor, id, (e) => e.type === 'tool_execution_end');
    const settled = waitFor(supervisor, id, ofType('agent_settled'));
    assert.equal((await supervisor.prompt(id, `chunks 400 until ${gate}`)).status, 'accepted');
    await allChunks;
    // The log opened twice while the command runs (two tabs, or an export).
    supervisor.events(id);
    supervisor.events(id);
    writeFileSync(gate, '');
    assert.equal(((await ended).result as { output: string }).output.length, whole, 'delivered whole');
    await settled;
    const endIn = (events: AgentEvent[]) => (events.find((e) => e.type === 'tool_execution_end')?.result as { output?: string } | undefined)?.output?.length;
    assert.equal(endIn(supervisor.events(id)), whole, 'the live store, read once the command ended');
    const sessionId = supervisor.history!.sessionOf(id)!;
    await supervisor.history!.store.flush();
    const paged = await supervisor.history!.store.pages(sessionId);
    assert.equal(paged.status, 'read', paged.status === 'read' ? '' : paged.error);
    if (paged.status !== 'read') return;
    assert.equal(endIn(await paged.pages.older(50)), whole, 'Open Log\'s newest page');
  });
});
