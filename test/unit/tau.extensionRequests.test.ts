// A τ extension request's dialogs and the worker's exit: the host asked them with no signal, so a
// dialog stayed on screen after its worker exited or was stopped, the next field was still asked,
// and an answer given then was sent to a worker that was gone. Now the dialogs carry the worker's
// exit as their signal (and `standing`: hidden unanswered, the request stands, nothing waits in
// the question queue), and what the person answered as the worker went is not sent.
import * as assert from 'node:assert/strict';
import { vscodeStub } from '../helpers/vscodeStub';
import { ExtensionRequests } from '../../src/core/worker/extensionRequests';
import { answerUiRequest } from '../../src/ui/host/extensionUi';
import type { QuestionQueue } from '../../src/ui/host/questionQueue';
import type { UiRequest } from '../../src/core/api';
import type { ExtensionRequest } from '../../src/core/wire/dialect';
import { NOTICES } from '../../src/webview/notices';

const request: ExtensionRequest = {
  id: 'r1', extension: 'review_gate', sentence: 'Review the last turn.', label: 'Extension review_gate requires a response', lock: true, release: null,
  ask: { title: 'Review', body: null, fields: [{ name: 'note', kind: 'text', label: 'Note', options: null, required: false }], actions: ['Approve', 'Reject'] },
};

describe('τ extension requests and the worker\'s exit', () => {
  beforeEach(() => vscodeStub.reset());

  it('ask with the worker\'s exit as signal, and send nothing answered once the worker is gone', async () => {
    const ended = new AbortController();
    const asked: Array<Omit<UiRequest, 'workerId'>> = [];
    const answered: string[] = [];
    const events: Array<{ type: string; error?: unknown; data?: Record<string, unknown> }> = [];
    const requests = new ExtensionRequests({
      pending: async () => request,
      answer: async (_id, action) => (answered.push(action), { handled: true, output: null }),
      // The person types the note just as the worker exits.
      ask: async (req) => (asked.push(req), ended.abort('the worker exited'), { value: 'looks good' }),
      emit: (e) => void events.push(e as (typeof events)[number]),
      ended: ended.signal,
    });
    await requests.check();
    assert.equal(asked.length, 1, 'no next dialog for a worker that is gone');
    assert.equal(asked[0]?.signal, ended.signal);
    assert.equal(asked[0]?.standing, true);
    assert.deepEqual(answered, []);
    const end = events.find((e) => e.type === 'extension_request_end');
    assert.equal(end?.data?.status, 'closed');
    assert.match(String(end?.error), /closed unanswered: the worker exited/);
    // The log does not say the request of a worker that is gone still stands.
    const entry = NOTICES.get('extension_request_end')!({ ...end, is_error: true } as never, 0);
    assert.deepEqual(entry && 'title' in entry ? entry.title : null, 'The extension\'s request was closed');
  });

  it('a dismissed request says the worker waits for the answer and when it asks again, in the log\'s words (issue: "the request stands", and nothing to do)', async () => {
    const events: Array<{ type: string; error?: unknown; data?: Record<string, unknown> }> = [];
    const requests = new ExtensionRequests({
      pending: async () => request,
      answer: async () => assert.fail('nothing is answered in the person\'s name'),
      ask: async () => ({ cancelled: true }),
      emit: (e) => void events.push(e as (typeof events)[number]),
    });
    await requests.check();
    const end = events.find((e) => e.type === 'extension_request_end');
    assert.equal(end?.data?.status, 'dismissed');
    assert.match(String(end?.error), /: you dismissed it; the worker waits for your answer and asks again at your next message$/);
    const entry = NOTICES.get('extension_request_end')!({ ...end, is_error: true } as never, 0);
    assert.deepEqual(entry && 'title' in entry ? entry.title : null, 'Still waiting for your answer');
  });

  it('an action picked as the worker exits (a request with no fields) is not sent either', async () => {
    const ended = new AbortController();
    const answered: string[] = [];
    const events: Array<{ type: string; data?: Record<string, unknown> }> = [];
    const actionsOnly: ExtensionRequest = { ...request, ask: { ...request.ask!, fields: [] } };
    const requests = new ExtensionRequests({
      pending: async () => actionsOnly,
      answer: async (_id, action) => (answered.push(action), { handled: true, output: null }),
      ask: async () => (ended.abort('the worker exited'), { value: 'Approve' }),
      emit: (e) => void events.push(e as (typeof events)[number]),
      ended: ended.signal,
    });
    await requests.check();
    assert.deepEqual(answered, []);
    assert.equal(events.find((e) => e.type === 'extension_request_end')?.data?.status, 'closed');
  });

  it('a standing request\'s dialog, hidden unanswered, is dismissed (τ asks again), not put aside in the queue', async () => {
    const queue = { ask: () => assert.fail('a standing request is not queued') } as unknown as QuestionQueue;
    vscodeStub.answers.push(undefined);
    const r = await answerUiRequest({ workerId: 'w1', id: 'r1:action', method: 'select', options: ['Approve'], signal: new AbortController().signal, standing: true }, 'gated τ', queue);
    assert.deepEqual(r, { cancelled: true });
  });
});
