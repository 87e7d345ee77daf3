// τ 1.x's field names on the event path: the renaming the copy of an event's fields does
// (currentKey) says what renaming the parsed object in place (currentNames) says, for every mix of
// old and new names, so that the event path need not `delete` from the parsed object.
import assert from 'node:assert/strict';
import { currentKey, currentNames } from '../../src/core/wire/tauProtocols';

describe('τ protocol names: currentKey renames as currentNames does', () => {
  const values = [undefined, null, 'e-1', 7];
  const raws: Array<Record<string, unknown>> = [];
  for (const cursor of values) for (const leaf of values) for (const lane of values) for (const cursorId of values) {
    const raw: Record<string, unknown> = { type: 'turn_start' };
    if (cursor !== undefined) raw.cursor = cursor;
    if (leaf !== undefined) raw.leaf = leaf;
    if (lane !== undefined) raw.lane = lane;
    if (cursorId !== undefined) raw.cursor_id = cursorId;
    raws.push(raw);
  }

  it('gives the same fields and values on all 256 mixes', () => {
    for (const raw of raws) {
      const inPlace = { ...raw };
      currentNames(inPlace);
      const copied: Record<string, unknown> = {};
      for (const key in raw) copied[currentKey(raw, key)] = raw[key];
      assert.deepStrictEqual(copied, inPlace, JSON.stringify(raw));
    }
  });

  it('renames a 1.x cursor and lane, and leaves 2.x and later names alone', () => {
    assert.equal(currentKey({ cursor: 'e-1' }, 'cursor'), 'leaf');
    assert.equal(currentKey({ lane: 'l' }, 'lane'), 'cursor_id');
    assert.equal(currentKey({ cursor: 'e-1', leaf: 'e-2' }, 'cursor'), 'cursor');
    assert.equal(currentKey({ leaf: 'e-2' }, 'leaf'), 'leaf');
  });
});
