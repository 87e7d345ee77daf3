// Hostile workers, an input lost while idle: the worker closes its stdin with nothing asked of it
// and lives on. Node says nothing of a pipe's reader gone until something is written to it, so the
// host probes a running worker's stdin with a write of no bytes (limits.inputProbeMs): the worker
// is found deaf without the person's next message, as a failed write finds it; one that reads is
// probed all along without reading any of it; one on its way out is not called deaf.
import assert from 'node:assert/strict';
import path from 'node:path';
import type { WorkerState } from '../../src/core/api';
import { AttentionBoard } from '../../src/core/attention/board';
import { decideNotification } from '../../src/core/attention/notify';
import { WorkerProcess } from '../../src/core/worker/workerProcess';
import { PiCodec } from '../../src/core/wire/pi';
import { alive, lostStreamSuite, ROOT, within } from '../fixtures/faults-helpers';
import { stateOf as liveState } from '../helpers/supervisor';
import type { Supervisor } from '../../src/core/api';

const LOST = /the worker no longer reads its input \(its stdin closed\) while its process \d+ runs on: nothing sent can reach it; stop it$/;

/** The worker's first state that `match` accepts, as the listeners are told it. */
function stateWhere(supervisor: Supervisor, workerId: string, match: (s: WorkerState) => boolean): Promise<WorkerState> {
  return new Promise((resolve) => {
    const off = supervisor.onState((s) => {
      if (s.workerId !== workerId || !match(s)) return;
      off();
      resolve(s);
    });
  });
}

/** The worker's first output line that matches `re`. */
function outputLine(supervisor: Supervisor, workerId: string, re: RegExp): Promise<string> {
  return new Promise((resolve) => {
    const off = supervisor.onOutput((id, _kind, text) => {
      if (id !== workerId || !re.test(text)) return;
      off();
      resolve(text);
    });
  });
}

for (const dialect of ['pi', 'tau'] as const) {
  describe(`faults: an idle worker that closes its input is found by the probe of its stdin (${dialect})`, () => {
    // Probed often, so that the test waits on the finding, not on the period.
    const suite = lostStreamSuite({ inputProbeMs: 20 });

    it('its state says it no longer reads its input with no message sent to it; its attention says so once; the next verb is refused', async () => {
      const { supervisor, r, sent } = await suite.start(dialect, ['--on-sigusr2', 'close-stdin']);
      // The Sessions view's board, fed each state as the UI's is (workerAttention.ts), from the ready worker on.
      const board = new AttentionBoard();
      board.update(liveState(supervisor, r.workerId));
      const notified: string[] = [];
      supervisor.onState((s) => {
        if (s.workerId !== r.workerId) return;
        const { change } = board.update(s);
        const d = change && decideNotification('all', change, false);
        if (d?.notify) notified.push(`${d.level}: ${d.message}`);
      });
      const deaf = stateWhere(supervisor, r.workerId, (s) => s.inputLost === true);
      const before = sent().length;
      process.kill(r.pid, 'SIGUSR2');
      const s = await within(deaf, 20_000, 'the state saying the input is lost');
      assert.equal(sent().length, before, 'nothing was written to find it');
      assert.deepEqual([s.status, s.streaming, alive(r.pid)], ['running', false, true]);
      assert.deepEqual(board.get(r.workerId), { attention: 'failed', reason: 'not reading its input: stop it' });
      assert.deepEqual(notified, [`error: ${s.name} not reading its input: stop it`]);
      const p = await within(supervisor.prompt(r.workerId, 'say hello'), 20_000, 'the prompt');
      assert.match(p.status === 'error' ? p.error : JSON.stringify(p), LOST);
      assert.equal(sent().length, before, 'the refused prompt was not sent');
    });
  });

  describe(`faults: the probe of a worker's stdin, where nothing is lost (${dialect})`, () => {
    const suite = lostStreamSuite({ inputProbeMs: 1 });

    it('a worker probed all along reads exactly the lines sent to it, none blank, and stays ready', async () => {
      const { supervisor, r, next, sent } = await suite.start(dialect, ['--on-sigusr2', 'report-stdin']);
      const settled = next('agent_settled');
      const p = await within(supervisor.prompt(r.workerId, 'wait 200\nsay done'), 20_000, 'the prompt');
      assert.equal(p.status, 'accepted', JSON.stringify(p));
      await settled;
      const report = outputLine(supervisor, r.workerId, /stdin: \d+ bytes/);
      process.kill(r.pid, 'SIGUSR2');
      const [, bytes, lines, blank] = (/stdin: (\d+) bytes, (\d+) lines, (\d+) blank/.exec(await within(report, 20_000, 'the report')) ?? []).map(Number);
      // A line the host sent after the report was asked for may not be read yet: the read ones are the first sent.
      const read = sent().slice(0, lines);
      assert.ok(lines! >= 3, `lines read: ${lines}`);
      assert.deepEqual([bytes, blank], [read.reduce((n, m) => n + Buffer.byteLength(JSON.stringify(m)) + 1, 0), 0]);
      const s = liveState(supervisor, r.workerId);
      assert.deepEqual([s.inputLost, s.status], [undefined, 'running']);
    });

    it('a worker that closes its stdin on its way out is said to have exited, never to no longer read its input', async () => {
      const { supervisor, r, next } = await suite.start(dialect, ['--on-sigusr2', 'close-stdin-exit']);
      const deafStates: WorkerState[] = [];
      supervisor.onState((s) => void (s.workerId === r.workerId && s.inputLost && deafStates.push(s)));
      const said: string[] = [];
      supervisor.onOutput((id, _kind, text) => void (id === r.workerId && said.push(text)));
      const exit = next('worker_exit');
      process.kill(r.pid, 'SIGUSR2');
      const e = await exit;
      assert.equal((e.data as { code?: unknown }).code, 1, JSON.stringify(e));
      assert.ok(said.some((t) => /closed stdin: on SIGUSR2/.test(t)), said.join('\n'));
      assert.deepEqual([deafStates, said.filter((t) => /no longer reads its input/.test(t))], [[], []]);
    });
  });
}

describe("faults: the probe of a worker's stdin keeps no host alive", () => {
  it('its timer is not among what holds the event loop', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const launch = { command: process.execPath, args: [path.join(ROOT, 'test/fixtures/fake-worker.mjs'), '--dialect', 'pi'], env: {}, guarded: false, tools: null, agent: null, audit: null };
    const none = () => {};
    const worker = new WorkerProcess(launch, { cwd: ROOT, codec: new PiCodec(), maxLineBytes: 1 << 20, ringLines: 10, killGraceMs: 2_000, inputProbeMs: 1 }, {
      onEvent: none, onProtocolError: none, onRequest: () => Promise.resolve(null), onNotification: none, onStderr: none,
      onConnectionError: none, onExit: none, onOutputLost: none, onInputLost: none,
    });
    try {
      assert.equal(timers(), before);
    } finally {
      await worker.stop();
    }
  });
});
