import * as assert from 'node:assert/strict';
import { keepNewest } from '../../src/core/keepNewest';

describe('keepNewest', () => {
  it('forgets the oldest entries of a set or a map down to the bound, and nothing under it', () => {
    const seen = new Set(['a', 'b', 'c', 'd']);
    keepNewest(seen, 2);
    assert.deepEqual([...seen], ['c', 'd']);
    keepNewest(seen, 5);
    assert.deepEqual([...seen], ['c', 'd']);
    const held = new Map([['x', 1], ['y', 2], ['z', 3]]);
    keepNewest(held, 1);
    assert.deepEqual([...held], [['z', 3]]);
  });
});
