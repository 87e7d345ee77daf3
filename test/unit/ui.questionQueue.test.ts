// The queue of the workers' questions: what a stale notification says once its question is moot.
import { vscodeStub } from '../helpers/vscodeStub';
import assert from 'node:assert/strict';
import { QuestionQueue } from '../../src/ui/host/questionQueue';

describe('ui question queue', () => {
  beforeEach(() => vscodeStub.reset());

  /** A question put aside (hidden unanswered), then moot with `reason`; then Answer… on its notification. */
  async function staleAnswer(reason: unknown): Promise<string[]> {
    let click!: (choice: string | undefined) => void;
    const clicked = new Promise<string | undefined>((resolve) => (click = resolve));
    let putAside!: () => void;
    const notified = new Promise<void>((resolve) => (putAside = resolve));
    const queue = new QuestionQueue(() => (putAside(), clicked));
    const end = new AbortController();
    const answered = queue.ask({ title: 'Which?', workerName: 'W', signal: end.signal, show: async () => 'aside' as const, unanswered: 'cancelled' });
    await notified;
    assert.equal(queue.asideCount, 1);
    end.abort(reason);
    assert.equal(await answered, 'cancelled');
    // The notification's click lands after the question ended; the queue's reaction to it runs first.
    click('Answer…');
    await clicked;
    queue.dispose();
    return vscodeStub.messages;
  }

  it("a dialog whose own time ran out says so, not the DOMException's words", async () => {
    // What AbortSignal.timeout aborts with (a pi dialog's `timeout`, extensionUi.ts).
    const messages = await staleAnswer(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
    assert.deepEqual(messages, ['No answer needed: its time ran out (W: Which?).']);
  });

  it("the core's reason is said as it is, and one without a reason as cancelled", async () => {
    assert.deepEqual(await staleAnswer('the turn was aborted'), ['No answer needed: the turn was aborted (W: Which?).']);
    vscodeStub.reset();
    assert.deepEqual(await staleAnswer(undefined), ['No answer needed: the question was cancelled (W: Which?).']);
  });
});
