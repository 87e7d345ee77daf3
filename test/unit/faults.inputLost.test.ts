// Hostile workers, an input lost: the worker closes its stdin right after it took a prompt, while
// its stdout stays open and its process lives on. What it says is still heard (the turn it runs
// ends on its own), but nothing sent reaches it: each verb says so at once, with the reason, and
// none is left waiting for an answer to a message the worker never read (a compaction, a
// follow-up: no time bound holds them), nor answers "no answer within N s" or a bare protocol error;
// what it took before (a compaction) is still followed to its end.
import assert from 'node:assert/strict';
import path from 'node:path';
import { ROOT, stateOf as liveState } from '../helpers/supervisor';
import { alive, lostStreamSuite, within } from '../fixtures/faults-helpers';
import type { UiRequest } from '../../src/core/api';
import { AttentionBoard } from '../../src/core/attention/board';
import { decideNotification } from '../../src/core/attention/notify';

const LOST = /the worker no longer reads its input \(its stdin closed\) while its process \d+ runs on: nothing sent can reach it; stop it$/;

for (const dialect of ['pi', 'tau'] as const) {
  describe(`faults: the worker's input is lost while its output goes on (${dialect})`, () => {
    // The bounds are far beyond the test's own: only the input's loss can end a wait. The probe
    // of its stdin too (faults.inputProbe.test.ts): here a write finds the loss.
    const suite = lostStreamSuite({ settleTimeoutMs: 600_000, commandTimeoutMs: 600_000, inputProbeMs: 60_000 });

    it('the turn ends on its own; the next prompt and a compaction answer the reason at once; the process still runs', async () => {
      const { supervisor, r, next } = await suite.start(dialect, ['--close-stdin-on', 'prompt']);
      const settled = next('agent_settled');
      const first = await within(supervisor.prompt(r.workerId, 'say hello'), 20_000, 'the first prompt');
      assert.equal(first.status, 'accepted', JSON.stringify(first));
      const e = await settled;
      assert.equal(e.is_error ?? false, false, JSON.stringify(e));
      const p = await within(supervisor.prompt(r.workerId, 'say again'), 20_000, 'the next prompt');
      assert.match(p.status === 'error' ? p.error : JSON.stringify(p), LOST);
      const c = await within(supervisor.compact(r.workerId), 20_000, 'the compact');
      assert.match(c.status === 'error' ? c.error : JSON.stringify(c), LOST);
      const s = liveState(supervisor, r.workerId);
      assert.deepEqual([s.compacting, s.streaming, s.status], [false, false, 'running']);
      assert.equal(alive(r.pid), true, 'the worker lives on');
    });

    it('its state says it no longer reads its input, and its attention says so once (one notification), not at each verb it refuses', async () => {
      const { supervisor, r, next } = await suite.start(dialect, ['--close-stdin-on', 'prompt']);
      // The Sessions view's board, fed each state as the UI's is (workerAttention.ts).
      const board = new AttentionBoard();
      const notified: string[] = [];
      const off = supervisor.onState((s) => {
        if (s.workerId !== r.workerId) return;
        const { change } = board.update(s);
        const d = change && decideNotification('all', change, false);
        if (d?.notify) notified.push(`${d.level}: ${d.message}`);
      });
      const settled = next('agent_settled');
      await within(supervisor.prompt(r.workerId, 'say hello'), 20_000, 'the first prompt');
      await settled;
      // Nothing was written since, and no probe has come: the loss is not known yet (Node tells nothing of a closed reader until a write).
      assert.equal(liveState(supervisor, r.workerId).inputLost, undefined);
      for (const verb of [() => supervisor.prompt(r.workerId, 'say again'), () => supervisor.compact(r.workerId), () => supervisor.prompt(r.workerId, 'and again')] as Array<() => Promise<{ status: string; error?: string }>>) {
        const v = await within(verb(), 20_000, 'a verb');
        assert.match(v.status === 'error' ? v.error ?? '' : JSON.stringify(v), LOST);
      }
      off();
      const s = liveState(supervisor, r.workerId);
      assert.deepEqual([s.inputLost, s.status], [true, 'running']);
      assert.deepEqual(board.get(r.workerId), { attention: 'failed', reason: 'not reading its input: stop it' });
      // The turn that ended is news too ("done"), said before the loss; the loss is said once.
      assert.deepEqual(notified.filter((n) => /input/.test(n)), [`error: ${s.name} not reading its input: stop it`]);
    });

    it('a compaction it took before its stdin closed is still followed to its end', async () => {
      const { supervisor, r, next } = await suite.start(dialect, ['--close-stdin-on', 'compact', '--compact-ms', '300']);
      // Listened for before the prompt: τ's turn may settle before the prompt's answer is read.
      const settled = next('agent_settled');
      await within(supervisor.prompt(r.workerId, 'say hello'), 20_000, 'the prompt');
      await settled;
      const c = await within(supervisor.compact(r.workerId), 20_000, 'the compact');
      assert.equal(c.status, 'compacted', JSON.stringify(c));
      const p = await within(supervisor.prompt(r.workerId, 'say again'), 20_000, 'the next prompt');
      assert.match(p.status === 'error' ? p.error : JSON.stringify(p), LOST);
    });

    it('mid-turn, a follow-up answers the reason at once, and the turn is not ended for it', async () => {
      const { supervisor, r, next } = await suite.start(dialect, ['--close-stdin-on', 'prompt']);
      const started = next('agent_start');
      await within(supervisor.prompt(r.workerId, 'wait 600000'), 20_000, 'the prompt');
      await started;
      const f = await within(supervisor.prompt(r.workerId, 'then this', { streamingBehavior: 'followUp' }), 20_000, 'the follow-up');
      assert.match(f.status === 'error' ? f.error : JSON.stringify(f), LOST);
      // Its stdout is open: the turn may yet end on its own, so it is still followed.
      assert.deepEqual([liveState(supervisor, r.workerId).streaming, alive(r.pid)], [true, true]);
    });
  });
}

describe("faults: a question open when the worker's input is found lost (pi)", () => {
  // The person's dialogs: each resolves only when the host says it is moot (its signal aborts).
  const asked: UiRequest[] = [];
  const suite = lostStreamSuite({ settleTimeoutMs: 600_000, commandTimeoutMs: 600_000, inputProbeMs: 60_000 }, {
    onUiRequest: (req) => {
      asked.push(req);
      return new Promise((resolve) => req.signal?.addEventListener('abort', () => resolve({ cancelled: true }), { once: true }));
    },
  });
  beforeEach(() => void (asked.length = 0));

  it('is closed with the reason (no answer can reach the worker), and the worker waits on no one', async () => {
    const { supervisor, r, next } = await suite.start('pi', ['--close-stdin-on', 'prompt', '--ui']);
    // The prompt's confirm dialog is up; the worker's stdin closed as it took the prompt.
    const dialogOpen = new Promise<void>((resolve) => {
      const off = supervisor.onState((s) => {
        if (s.workerId !== r.workerId || !s.pendingInput.length) return;
        off();
        resolve();
      });
    });
    void supervisor.prompt(r.workerId, 'say hello');
    await within(dialogOpen, 20_000, 'the dialog');
    // A write finds the loss.
    const closed = next('ui_dialog_end');
    const c = await within(supervisor.compact(r.workerId), 20_000, 'the compact');
    assert.match(c.status === 'error' ? c.error : JSON.stringify(c), LOST);
    const end = await closed;
    assert.match(String((end.data as { note?: unknown }).note), /^closed: .*no longer reads its input/);
    assert.equal(asked[0]!.signal!.aborted, true);
    assert.deepEqual(liveState(supervisor, r.workerId).pendingInput, []);
  });
});

describe("faults: an extension's request put to the person when the worker's input is found lost (τ)", () => {
  // The fake τ loads the review gate (test/fixtures/tau-ext/review_gate.py, held to real τ by
  // fixtures.real-tau.test.ts): after the turn its request is read (get_pending_request, the
  // second: the first is read after the start), and its stdin closes as it answers that read.
  const gate = path.join(ROOT, 'test', 'fixtures', 'tau-ext', 'review_gate.py');
  const asked: UiRequest[] = [];
  /** Called as a dialog comes up. */
  let shown = () => {};
  const suite = lostStreamSuite({ settleTimeoutMs: 600_000, commandTimeoutMs: 600_000 }, {
    onUiRequest: (req) => {
      asked.push(req);
      shown();
      return new Promise((resolve) => req.signal?.addEventListener('abort', () => resolve({ cancelled: true }), { once: true }));
    },
  });
  beforeEach(() => void (asked.length = 0));

  it('its dialogs are closed with the reason (no answer can reach the worker), not left for an answer that would fail', async () => {
    const { supervisor, r, next } = await suite.start('tau', ['--review-gate', gate, '--close-stdin-on', 'get_pending_request@2']);
    const dialog = new Promise<void>((resolve) => (shown = resolve));
    const raised = next('extension_request');
    const settled = next('agent_settled');
    await within(supervisor.prompt(r.workerId, 'say hello'), 20_000, 'the prompt');
    await settled;
    assert.equal((await raised).data?.sentence, 'Review the last turn before the next prompt.');
    // Its first field's dialog is up.
    await within(dialog, 20_000, 'the dialog');
    // A write finds the loss.
    const closed = next('extension_request_end');
    const c = await within(supervisor.compact(r.workerId), 20_000, 'the compact');
    assert.match(c.status === 'error' ? c.error : JSON.stringify(c), LOST);
    assert.equal(asked[0]!.signal!.aborted, true, 'the dialog is closed');
    const end = await closed;
    assert.equal(end.data?.status, 'closed');
    assert.match(end.error ?? '', /^Extension review_gate requires a response: closed unanswered: it cannot be answered: the worker no longer reads its input/);
    // No next dialog was asked (the actions' choice).
    assert.equal(asked.length, 1);
  });
});
