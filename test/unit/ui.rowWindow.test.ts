// The event log's row window: which entries are rows, built a bounded number per frame, always
// a contiguous run in order, never more than the window holds.
import * as assert from 'node:assert/strict';
import type { Entry } from '../../src/webview/entries';
import { RowWindow, type RowSink } from '../../src/webview/rowWindow';

interface Row { id: number; version: number }

/** A sink that keeps rows in an array, as the DOM keeps them, and counts what was done. */
function arraySink() {
  const dom: Row[] = [];
  const counts = { created: 0, updated: 0 };
  const sink: RowSink<Row> = {
    create: (e) => { counts.created++; return { id: e.id, version: e.version }; },
    update: (row, e) => { counts.updated++; row.version = e.version; },
    append: (rows) => { dom.push(...rows); },
    prepend: (rows) => { dom.unshift(...rows); },
    remove: (row) => {
      const i = dom.indexOf(row);
      assert.ok(i >= 0, `row ${row.id} removed but not in the DOM`);
      dom.splice(i, 1);
    },
    insert: (row, before) => {
      const i = dom.indexOf(before);
      assert.ok(i >= 0, `row ${row.id} put before row ${before.id}, not in the DOM`);
      dom.splice(i, 0, row);
    },
    clear: () => { dom.length = 0; },
  };
  return { dom, counts, sink, ids: () => dom.map((r) => r.id) };
}

const entry = (id: number, version = 0) => ({ id, version, kind: 'other', time: 0, type: 'x', text: '' }) as Entry;
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => entry(from + i));
const ids = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

function assertContiguous(list: number[]): void {
  for (let i = 1; i < list.length; i++) assert.equal(list[i], list[i - 1] + 1, `rows out of order or with a gap: ${list.join(',')}`);
}

describe('ui event log row window', () => {
  it('a redraw keeps the newest `max` entries and builds them newest first, a bounded number per step', () => {
    const s = arraySink();
    const w = new RowWindow(s.sink, 100);
    w.reset(range(1, 1000));
    assert.equal(w.size, 100);
    assert.equal(w.built, 0);
    assert.equal(w.step(30), 30);
    assert.deepEqual(s.ids(), ids(971, 1000), 'the first step did not build the newest rows');
    let steps = 1;
    while (w.waiting) {
      assert.ok(w.step(30) <= 30);
      assertContiguous(s.ids());
      assert.equal(s.ids().at(-1), 1000, 'the newest row moved');
      steps++;
    }
    assert.equal(steps, 4);
    assert.deepEqual(s.ids(), ids(901, 1000));
    assert.equal(s.counts.created, 100, 'rows outside the window were built');
  });

  it('new entries are appended in order; the oldest rows leave so the window never holds more than `max`', () => {
    const s = arraySink();
    const w = new RowWindow(s.sink, 10);
    w.reset(range(1, 10));
    while (w.waiting) w.step(100);
    for (let next = 11; next <= 40; next += 3) {
      w.add(range(next, next + 2));
      assert.ok(w.size <= 10, `${w.size} entries kept`);
      w.step(100);
      assertContiguous(s.ids());
      assert.equal(s.ids().length, 10);
      assert.equal(s.ids().at(-1), next + 2);
    }
  });

  it('a burst bigger than one step starts from the newest entry and never builds rows that would leave at once', () => {
    const s = arraySink();
    const w = new RowWindow(s.sink, 50);
    w.reset(range(1, 50));
    while (w.waiting) w.step(10);
    const before = s.counts.created;
    w.add(range(51, 2050));
    assert.equal(w.size, 50, 'the window grew past its bound');
    w.step(10);
    assert.deepEqual(s.ids(), ids(2041, 2050), 'after a burst the log did not show its newest rows');
    while (w.waiting) {
      w.step(10);
      assertContiguous(s.ids());
    }
    assert.deepEqual(s.ids(), ids(2001, 2050));
    assert.equal(s.counts.created - before, 50, 'rows were built for entries that left the window');
  });

  it('rows built while a redraw fills in above stay in order with entries that arrive meanwhile', () => {
    const s = arraySink();
    const w = new RowWindow(s.sink, 20);
    w.reset(range(1, 20));
    w.step(5); // 16..20
    w.add(range(21, 23));
    w.step(5); // appends 21..23, then fills 14..15 above
    assertContiguous(s.ids());
    assert.deepEqual(s.ids(), ids(14, 23));
    while (w.waiting) w.step(5);
    assert.deepEqual(s.ids(), ids(4, 23), 'the window is not the newest 20');
  });

  it('a step makes progress even with no time left, and stops when told to', () => {
    const s = arraySink();
    const w = new RowWindow(s.sink, 10);
    w.reset(range(1, 10));
    assert.equal(w.step(10, () => false), 1);
    let budget = 3;
    assert.equal(w.step(10, () => --budget > 0), 3);
    assert.equal(w.built, 4);
  });

  it('only built rows whose entry changed are redrawn', () => {
    const s = arraySink();
    const w = new RowWindow(s.sink, 10);
    w.reset(range(1, 10));
    w.step(3); // 8..10 built
    w.refresh(entry(9, 0));
    assert.equal(s.counts.updated, 0, 'an unchanged entry was redrawn');
    w.refresh(entry(9, 1));
    w.refresh(entry(2, 1)); // not built yet: drawn as it is when built
    assert.equal(s.counts.updated, 1);
    assert.equal(s.dom.find((r) => r.id === 9)!.version, 1);
  });

  it('a larger window (Show more) keeps more on the next redraw', () => {
    const s = arraySink();
    const w = new RowWindow(s.sink, 10);
    w.reset(range(1, 100));
    w.max = 30;
    w.reset(range(1, 100));
    while (w.waiting) w.step(100);
    assert.deepEqual(s.ids(), ids(71, 100));
  });

  it('an entry that comes to match goes in its place by id, built only if it falls among the built rows', () => {
    const s = arraySink();
    const w = new RowWindow(s.sink, 10);
    w.reset([1, 3, 5, 7, 9].map((id) => entry(id)));
    w.step(2); // 7, 9 built; 1, 3, 5 wait behind
    w.insert(entry(8));
    assert.deepEqual(s.ids(), [7, 8, 9], 'among the built rows: built in its place');
    w.insert(entry(4));
    w.insert(entry(11));
    assert.equal(s.counts.created, 3, 'an entry that waits was built');
    while (w.waiting) w.step(10);
    assert.deepEqual(s.ids(), [1, 3, 4, 5, 7, 8, 9, 11]);
    w.delete(entry(8));
    w.delete(entry(3));
    assert.deepEqual(s.ids(), [1, 4, 5, 7, 9, 11]);
    assert.equal(w.size, 6);
  });

  it('a full window keeps its newest entries when one comes to match: the oldest leaves', () => {
    const s = arraySink();
    const w = new RowWindow(s.sink, 4);
    w.reset([2, 4, 6, 8].map((id) => entry(id)));
    while (w.waiting) w.step(10);
    w.insert(entry(5));
    assert.deepEqual(s.ids(), [4, 5, 6, 8]);
    w.insert(entry(1));
    assert.deepEqual(s.ids(), [4, 5, 6, 8], 'an entry older than the window was kept');
    assert.equal(w.size, 4);
  });

  it('entries the log drops (its cap) leave the window, built or waiting', () => {
    const s = arraySink();
    const w = new RowWindow(s.sink, 10);
    w.reset(range(1, 6));
    w.step(3); // 4..6 built; 1..3 wait behind
    w.add(range(7, 8));
    w.dropThrough(4);
    assert.deepEqual(s.ids(), [5, 6]);
    assert.equal(w.size, 4);
    w.dropThrough(7);
    while (w.waiting) w.step(10);
    assert.deepEqual(s.ids(), [8]);
  });
});
