// The event log's model on τ's extension requests: the request is a warning a person must act on;
// its answer is news, not a problem; a request left standing stays a warning and says why.
import * as assert from 'node:assert/strict';
import type { PageEvent } from '../../src/protocol/messages';
import { LogModel } from '../../src/webview/model';

const T = 1_700_000_000_000;
const ev = (type: string, fields: Partial<PageEvent> = {}): PageEvent => ({ type, timestamp: T, ...fields } as PageEvent);
const about = { request_id: 'e1', extension: '/x/review_gate.py', label: 'Extension review_gate requires a response', lock: true, release: null };

describe('ui event log model: τ extension requests', () => {
  it('a request, then its answer: a warning with the extension\'s own sentence, then a neutral line with the action and output', () => {
    const m = new LogModel();
    m.apply([
      ev('extension_request', { data: { ...about, sentence: 'Review the last turn.', ask: null } }),
      ev('extension_request_end', { is_error: false, error: null, data: { ...about, status: 'answered', action: 'Approve', handled: true, output: 'approved: e1' } }),
    ]);
    const [req, end] = m.all();
    assert.deepEqual([req.kind, 'title' in req && req.title, 'text' in req && req.text], ['warning', 'Extension review_gate requires a response', 'Review the last turn.']);
    assert.deepEqual([end.kind, 'type' in end && end.type, 'text' in end && end.text], ['other', 'Request answered', 'Approve → approved: e1']);
  });

  it('a request left standing (headless, or dismissed) is a warning that says why', () => {
    const m = new LogModel();
    m.apply([ev('extension_request_end', { is_error: true, error: 'Extension review_gate requires a response: Review the last turn. — no one to ask', data: { ...about, status: 'unanswered' } })]);
    const [end] = m.all();
    assert.equal(end.kind, 'warning');
    assert.match('text' in end ? end.text : '', /no one to ask/);
  });

  it('a request the person dismissed says that the worker still waits, and when it asks again (issue: "The extension\'s request stands", and nothing to do)', () => {
    const m = new LogModel();
    m.apply([ev('extension_request_end', { is_error: true, error: 'Demo question: you dismissed it; the worker waits for your answer and asks again at your next message', data: { ...about, label: 'Demo question', status: 'dismissed' } })]);
    const [end] = m.all();
    assert.deepEqual([end.kind, 'title' in end && end.title], ['warning', 'Still waiting for your answer']);
    assert.match('text' in end ? end.text : '', /asks again at your next message/);
  });
});
