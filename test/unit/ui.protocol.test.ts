// The messages between the extension and the Event Log page (src/protocol/messages.ts): what
// each side accepts, and what the host sends of an event.
import * as assert from 'node:assert/strict';
import { hostMessageSchema } from '../../src/protocol/hostMessages';
import { MAX_FIELD_CHARS, slimByJson, slimEvent, webviewMessageSchema } from '../../src/protocol/messages';

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
    // The events the host replays after a reset (the log so far): a count, which the page does not say as new rows.
    const replayed = hostMessageSchema.safeParse({ type: 'reset', worker: null, evicted: 0, storeLimit: 10, replay: 3 });
    assert.ok(replayed.success && replayed.data.type === 'reset' && replayed.data.replay === 3);
    assert.equal(hostMessageSchema.safeParse({ type: 'reset', worker: null, evicted: 0, storeLimit: 10, replay: -1 }).success, false);
  });

  it("host messages: a past log's page not given is said with why and whether asking again may work", () => {
    const said = { type: 'pastPageFailed', workerId: 'past:1', to: 'older', message: 'this log is no longer held', held: false };
    assert.equal(hostMessageSchema.safeParse(said).success, true);
    for (const bad of [{ ...said, held: undefined }, { ...said, to: 'sideways' }, { ...said, message: 3 }, { ...said, seq: -1 }, { ...said, seq: 1.5 }]) {
      assert.equal(hostMessageSchema.safeParse(bad).success, false, JSON.stringify(bad));
    }
    // The ask's number goes with the ask and comes back with its failure: a page answers only the ask it waits for.
    assert.equal(hostMessageSchema.safeParse({ ...said, seq: 2 }).success, true);
    assert.equal(webviewMessageSchema.safeParse({ type: 'pastPage', workerId: 'past:1', to: 'older', req: 2 }).success, true);
    assert.equal(webviewMessageSchema.safeParse({ type: 'pastPage', workerId: 'past:1', to: 'older', req: -1 }).success, false);
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

  it('slimEvent decides each field as stringifying it whole did, on 20,000 made-up events', () => {
    let seed = 24;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const pick = <T,>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)];
    // Strings around the cut, with characters JSON escapes to 2 or 6 (a quote, a control, a lone surrogate).
    let nodes = 0;
    const str = () => pick(['"', '\\', '\u0001', '\ud800', 'é', 'x', 'a b']).repeat(pick([0, 1, 10, 1000, 5000, 5462, 6000, 16000, MAX_FIELD_CHARS / 2, MAX_FIELD_CHARS - 2]));
    // An event of at most about 60 values, so that the 20,000 stay small.
    const value = (depth: number): unknown => {
      const kind = depth > 40 || ++nodes > 60 ? 0 : Math.floor(rnd() * 12);
      switch (kind) {
        case 0: return pick([1, -1.7976931348623157e308, 5e-324, NaN, 0, true, false, null, undefined]);
        case 1: case 2: return str();
        case 3: case 4: return Array.from({ length: pick([0, 1, 3, 40]) }, () => value(depth + 1));
        case 5: case 6: case 7: return Object.fromEntries(Array.from({ length: pick([0, 1, 3, 40]) }, (_, i) => [pick(['k', 'key"', 'é', 'long'.repeat(50)]) + i, value(depth + 1)]));
        case 8: return pick([new Date(0), { toJSON: () => 'x'.repeat(MAX_FIELD_CHARS + 1) }, { toJSON: () => undefined }, new Map(), [1n], () => 1, Symbol('s')]);
        case 9: {
          const cycle: Record<string, unknown> = { a: value(depth + 1) };
          cycle.self = pick([cycle, [cycle], { deeper: { still: cycle } }]);
          return cycle;
        }
        case 10: return Object.assign(Object.create(null) as object, { n: value(depth + 1) });
        default: {
          let deep: unknown = value(depth + 1);
          for (let i = 0; i < pick([10, 33, 100]); i++) deep = pick([[deep], { d: deep }]);
          return deep;
        }
      }
    };
    let cut = 0;
    for (let i = 0; i < 20_000; i++) {
      nodes = 0;
      const v = value(0);
      // What the bound decides is an object's fields; other values go by the rules they had.
      if (typeof v !== 'object' || v === null) continue;
      const got = slimEvent({ type: 'x', timestamp: 1, v } as Parameters<typeof slimEvent>[0]).v;
      // The rule before the bound (messages.ts, jsonBound): every object field stringified.
      const want = slimByJson(v);
      if (want !== v) cut++;
      if (typeof want === 'object' && want !== null && 'truncated' in want) assert.deepEqual(got, want, `event ${i}`);
      else assert.equal(got, want, `event ${i}`);
    }
    assert.ok(cut > 500, `fields cut or not serialisable: ${cut}`);
  });
});
