// The host with `historyDir`: every event a listener was given is read back, whole and in order,
// and the session's summary is the worker's own (turns, touched files, end), in both dialects.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { WorkerHost } from '../../src/core/api';
import type { AgentEvent } from '../../src/core/events/agentEvent';
import { createSupervisor } from '../../src/core/supervisor';
import { fakeSpec, ofType, waitFor } from '../helpers/host';

for (const dialect of ['pi', 'tau'] as const) {
  describe(`host with a persisted history (${dialect}, fake worker)`, function () {
    this.timeout(60_000);
    let dir: string;
    let host: WorkerHost;
    beforeEach(() => {
      dir = mkdtempSync(path.join(tmpdir(), 'rpc-history-host-'));
    });
    afterEach(async () => {
      await host?.dispose();
      rmSync(dir, { recursive: true, force: true });
    });

    it('events delivered == events read back; the session ends with the worker, with its turns and files', async () => {
      const historyDir = path.join(dir, 'history');
      host = createSupervisor({ historyDir });
      assert.ok(host.history, host.historyError ?? '');
      const started = await host.start(fakeSpec(dialect, [], { cwd: dir }));
      assert.equal(started.status, 'started', started.status === 'error' ? started.error : '');
      if (started.status !== 'started') return;
      const id = started.workerId;
      const delivered: AgentEvent[] = [];
      host.onEvent((wid, e) => {
        if (wid === id) delivered.push(e);
      });
      const sessionId = host.history!.sessionOf(id);
      assert.ok(sessionId);

      const settled = waitFor(host, id, ofType('agent_settled'));
      await host.prompt(id, `say first words\ntool write ${JSON.stringify({ path: 'notes.txt', content: 'x' })}\nsay done`);
      await settled;
      // Read while live: what was delivered so far, no more, no less.
      const midway = await host.history!.store.read(sessionId);
      assert.equal(midway.status, 'read');
      if (midway.status !== 'read') return;
      assert.equal(midway.session.status, 'live');
      assert.deepEqual(midway.events.slice(-delivered.length), delivered);

      const again = waitFor(host, id, ofType('agent_settled'));
      await host.prompt(id, 'events 500');
      await again;
      const live = host.state(id);
      if (live.status === 'not_found') return assert.fail('the worker vanished');
      await host.stop(id);
      await host.history!.store.flush();

      const r = await host.history!.store.read(sessionId);
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
      host = createSupervisor({ historyDir: 'not/absolute' });
      assert.equal(host.history, null);
      assert.match(host.historyError ?? '', /absolute/);
      const started = await host.start(fakeSpec(dialect));
      assert.equal(started.status, 'started');
    });
  });
}
