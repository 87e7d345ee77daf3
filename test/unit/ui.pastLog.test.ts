// A past session's log as the event log shows it (src/ui/eventLog/pastLog.ts), on a real
// history session read a page at a time: the newest page first, a window the person moves back
// page by page until every event was shown, and forward to the newest again.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AgentEvent } from '../../src/core/events/agentEvent';
import { HistoryStore } from '../../src/core/history';
import { PAGE_EVENTS, PastLog, TURN_SLACK, VIEW_EVENTS, type OlderSource } from '../../src/ui/eventLog/pastLog';

const N = 12_345;
let dir: string;
let store: HistoryStore;
let sessionId: string;

const seqs = (events: AgentEvent[]) => events.map((e) => e.data!.seq as number);
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

async function open(): Promise<PastLog> {
  const r = await store.pages(sessionId);
  if (r.status !== 'read') throw new Error(r.error);
  return PastLog.open(r.pages, r.gaps);
}

describe('past log (a past session shown a window at a time)', () => {
  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'rpc-pastlog-'));
    const made = HistoryStore.create({ dir });
    if (!made.ok) throw new Error(made.error);
    store = made.store;
    const r = store.open({ workerId: 'w1', name: 'long', dialect: 'pi', cwd: dir, command: 'node' });
    if (!r.ok) throw new Error(r.error);
    sessionId = r.sessionId;
    for (let i = 0; i < N; i++) store.append(sessionId, { type: 'message_update', timestamp: 1_700_000_000_000 + i, delta: `d${i}`, data: { seq: i } });
    await store.end(sessionId, { reason: 'exited', code: 0 });
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows the newest page first and says how many older events there are', async () => {
    const log = await open();
    const v = log.view();
    assert.deepEqual(seqs(v.events), range(N - PAGE_EVENTS, N));
    assert.equal(v.before, N - PAGE_EVENTS);
    assert.equal(v.after, 0);
    assert.equal(v.dropped, 0);
  });

  it('goes back a page at a time, never showing more than VIEW_EVENTS, until the first event; then to the newest again', async () => {
    const log = await open();
    const seen = new Set<number>(seqs(log.view().events));
    for (let step = 0; log.view().before > 0; step++) {
      assert.ok(step < 20, 'the first event is never reached');
      await log.older();
      const v = log.view();
      const got = seqs(v.events);
      assert.ok(got.length <= VIEW_EVENTS + TURN_SLACK, `a window of ${got.length}`);
      // One contiguous run, with exactly `before` events older and `after` newer.
      assert.deepEqual(got, range(v.before, v.before + got.length));
      assert.equal(v.before + got.length + v.after, N, `step ${step}: ${v.before} + ${got.length} + ${v.after}, ${log.loaded.length} loaded, ${log.notLoaded} not`);
      for (const s of got) seen.add(s);
    }
    assert.equal(seen.size, N, 'some events were never shown');
    assert.equal(seqs(log.view().events)[0], 0);
    log.newest();
    assert.deepEqual(seqs(log.view().events), range(N - PAGE_EVENTS, N));
    assert.equal(log.view().after, 0);
  });

  it('two requests at once read two pages in turn, not the same page twice', async () => {
    const log = await open();
    await Promise.all([log.older(), log.older()]);
    const v = log.view();
    assert.equal(v.events.length + v.after, 3 * PAGE_EVENTS);
    assert.equal(v.before, N - 3 * PAGE_EVENTS);
    assert.equal(log.loaded.length, 3 * PAGE_EVENTS);
  });

  it('a resumed worker\'s earlier sessions: each read goes a page further back, all of it kept in order', async () => {
    const log = await open();
    await log.readMore();
    await log.readMore();
    assert.deepEqual(seqs(log.loaded), range(N - 3 * PAGE_EVENTS, N));
    assert.equal(log.notLoaded, N - 3 * PAGE_EVENTS);
  });

  /** Turns of 9 events (prompt_sent, then the turn's own), read from the newest as the history does. */
  function turnsOf9(turns: number): { all: AgentEvent[]; source: OlderSource } {
    const all: AgentEvent[] = Array.from({ length: 9 * turns }, (_, i) => ({ type: i % 9 ? 'message_update' : 'prompt_sent', timestamp: i, data: { seq: i }, ...(i % 9 === 1 ? { turn: { index: i, opens: true } } : {}) }) as AgentEvent);
    let left = all.length;
    const source: OlderSource = {
      older: async (max) => {
        const from = Math.max(0, left - max);
        const page = all.slice(from, left);
        left = from;
        return page;
      },
      get notLoaded() { return left; },
      get done() { return left === 0; },
    };
    return { all, source };
  }

  it('a window starts where a turn starts, so its oldest entry is not the tail of a reply; the tail is older, for Load older', async () => {
    const { source } = turnsOf9(2000);
    const log = await PastLog.open(source);
    const first = log.view();
    assert.notEqual(PAGE_EVENTS % 9, 0, 'the newest page would start mid-turn');
    assert.equal(first.events[0].type, 'prompt_sent', 'the first page starts with a turn');
    assert.equal(first.before + first.events.length, 9 * 2000, 'nothing is lost: the tail cut off is counted as older');
    await log.older();
    assert.equal(log.view().events[0].type, 'prompt_sent', 'so does the window a page back');
    while (log.view().before > 0) await log.older();
    assert.equal(seqs(log.view().events)[0], 0, 'the session\'s first event is shown at last');
  });

  it('a window cut short ends where a turn starts, so its last turn is not shown as still streaming', async () => {
    const { all, source } = turnsOf9(2000);
    const log = await PastLog.open(source);
    await log.older();
    await log.older();
    const v = log.view();
    assert.ok(v.after > 0, 'the window was not cut');
    assert.equal(all[all.length - v.after].type, 'prompt_sent', 'the first event after the window does not start a turn');
    assert.equal(seqs(v.events).at(-1)! % 9, 8, 'the window does not end with a whole turn');
  });
});
