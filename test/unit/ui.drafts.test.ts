// The composer's drafts: one per worker, kept in the page's state, bounded, and checked when read
// back (the state is whatever the page saved, or nothing).
import * as assert from 'node:assert/strict';
import { Drafts, MAX_DRAFTS } from '../../src/webview/drafts';

describe('ui composer drafts', () => {
  it('keeps each worker\'s text apart, saves on change only, and forgets an emptied one', () => {
    const saves: Record<string, string>[] = [];
    const d = new Drafts(undefined, (x) => saves.push(x));
    d.set('a', 'for a');
    d.set('b', 'for b');
    d.set('b', 'for b');
    assert.deepEqual([d.get('a'), d.get('b'), d.get('c')], ['for a', 'for b', '']);
    assert.equal(saves.length, 2, 'the same text again saves nothing');
    d.set('a', '');
    assert.deepEqual(saves.at(-1), { b: 'for b' });
  });

  it('reads back what the page saved, skipping what is not text', () => {
    const d = new Drafts({ a: 'kept', b: 3, c: null, d: '' }, () => {});
    assert.deepEqual([d.get('a'), d.get('b'), d.get('c')], ['kept', '', '']);
    assert.equal(new Drafts('garbage', () => {}).get('a'), '');
  });

  it(`holds at most ${MAX_DRAFTS}: the one least recently written goes`, () => {
    let saved: Record<string, string> = {};
    const d = new Drafts(undefined, (x) => (saved = x));
    for (let i = 0; i <= MAX_DRAFTS; i++) d.set(`w${i}`, `text ${i}`);
    assert.equal(Object.keys(saved).length, MAX_DRAFTS);
    assert.equal(d.get('w0'), '');
    d.set('w1', 'written again');
    d.set('new', 'x');
    assert.equal(d.get('w1'), 'written again', 'rewritten, it is the newest');
    assert.equal(d.get('w2'), '');
  });
});
