// What the host keeps of an event from a very long line (src/core/events/cutEvent.ts): bounded
// whatever its shape, every cut named, and nothing cut from an event of a normal line.
import assert from 'node:assert/strict';
import type { AgentEvent } from '../../src/core/events/agentEvent';
import { CUT_LINE_CHARS, cutEvent, EVENT_BUDGET_CHARS } from '../../src/core/events/cutEvent';

const size = (e: unknown) => JSON.stringify(e).length;
const ev = (fields: Partial<AgentEvent>): AgentEvent => ({ type: 'tool_execution_update', timestamp: 1, ...fields });

describe('cutEvent', () => {
  it('an event from a line under the threshold is returned as it is', () => {
    const e = ev({ result: 'x'.repeat(100_000) });
    assert.equal(cutEvent(e, CUT_LINE_CHARS).event, e);
    assert.equal(cutEvent(e, CUT_LINE_CHARS).cut, null);
  });

  it('bounded whatever the shape: one huge string, many long strings, a wide array, deep nesting', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 10_000; i++) deep = { d: deep };
    const shapes: Array<[string, Partial<AgentEvent>]> = [
      ['one string', { result: 'y'.repeat(5_000_000) }],
      ['200 strings of 15 Ki', { args: Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`k${i}`, 'z'.repeat(15_000)])) }],
      ['a million short items', { result: Array.from({ length: 1_000_000 }, () => 'abc') }],
      ['deep nesting', { details: deep as Record<string, unknown> }],
    ];
    for (const [what, fields] of shapes) {
      const { event, cut } = cutEvent(ev(fields), 10 * CUT_LINE_CHARS);
      assert.ok(cut && cut.fields.length > 0, what);
      assert.ok(size(event) < EVENT_BUDGET_CHARS + 2_000 * 300, `${what}: kept ${size(event)}`);
      assert.deepEqual(event.cut, cut);
      assert.equal(event.type, 'tool_execution_update');
    }
  });

  it('a "__proto__" key stays a field; short fields, the type, time and turn stamp are kept whole', () => {
    const turn = { index: 3 };
    const raw = JSON.parse('{"type":"x","timestamp":5,"data":{"__proto__":{"polluted":1},"big":"' + 'q'.repeat(300_000) + '"}}') as AgentEvent;
    raw.turn = turn;
    const { event, cut } = cutEvent(raw, 300_100);
    assert.deepEqual(cut!.fields, [{ path: 'data.big', chars: 300_000 }]);
    assert.deepEqual(Object.keys(event.data!), ['__proto__', 'big']);
    assert.deepEqual((event.data as Record<string, unknown>)['__proto__'], { polluted: 1 });
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(event.turn, turn);
    assert.equal(event.timestamp, 5);
  });
});
