// The messages between the extension and the Event Log page (src/protocol/messages.ts): what
// each side accepts, and what the host sends of an event.
import * as assert from 'node:assert/strict';
import { hostMessageSchema } from '../../src/protocol/hostMessages';
import { MAX_FIELD_CHARS, slimEvent, webviewMessageSchema } from '../../src/protocol/messages';

describe('ui webview protocol', () => {
  it('accepts what the webview may send and rejects anything else', () => {
    assert.equal(webviewMessageSchema.safeParse({ type: 'send', workerId: 'w1', text: 'hi', mode: 'steer' }).success, true);
    for (const bad of [{ type: 'send', workerId: 'w1', text: 'hi', mode: 'shout' }, { type: 'eval', code: '1' }, { type: 'abort' }, { type: 'abort', workerId: '' }, null, 'ready']) {
      assert.equal(webviewMessageSchema.safeParse(bad).success, false, JSON.stringify(bad));
    }
  });

  it('host messages: events must have a type and a timestamp', () => {
    assert.equal(hostMessageSchema.safeParse({ type: 'events', workerId: 'w', events: [{ type: 'x', timestamp: 1, extra: { a: 1 } }] }).success, true);
    assert.equal(hostMessageSchema.safeParse({ type: 'events', workerId: 'w', events: [{ type: 'x' }] }).success, false);
    assert.equal(hostMessageSchema.safeParse({ type: 'reset', worker: null, evicted: -1, storeLimit: 10 }).success, false);
  });

  it('slimEvent drops transcripts and nulls, and cuts big fields to a preview', () => {
    const big = 'x'.repeat(MAX_FIELD_CHARS + 10);
    const e = slimEvent({ type: 'agent_end', timestamp: 1, messages: [{ role: 'user' }], tool_results: [], end_reason: 'done', error: null, is_error: false, result: { output: big }, delta: big });
    assert.equal('messages' in e, false);
    assert.equal('tool_results' in e, false);
    assert.equal('error' in e, false);
    assert.equal(e.is_error, false);
    assert.equal(e.end_reason, 'done');
    assert.deepEqual(Object.keys(e.result as object).sort(), ['chars', 'preview', 'truncated']);
    assert.match(String(e.delta), /more characters not shown\]$/);
    assert.equal(hostMessageSchema.safeParse({ type: 'events', workerId: 'w', events: [e] }).success, true);
  });
});
