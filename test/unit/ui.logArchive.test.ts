// The logs the event log keeps with no worker behind them (ui/eventLog/logArchive.ts): one bound
// for each kind, what a page is given of a log, and `evicted` as the count its store dropped.
import * as assert from 'node:assert/strict';
import type { StateResult, WorkerState } from '../../src/core/api';
import type { AgentEvent } from '../../src/core/events/agentEvent';
import { BoundedMap, LOGS_KEPT, LogArchive } from '../../src/ui/eventLog/logArchive';
import { NO_GAPS, PastLog } from '../../src/ui/eventLog/pastLog';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HistoryStore, type HistoryLimits } from '../../src/core/history';

function st(workerId: string, over: Partial<WorkerState> = {}): WorkerState {
  return {
    workerId,
    name: workerId,
    dialect: 'tau',
    status: 'running',
    streaming: false,
    compacting: false,
    pid: 1,
    model: null,
    cwd: '/w',
    lastEndReason: null,
    lastError: null,
    exitCode: null,
    signal: null,
    startedAt: 0,
    protocolErrors: 0,
    eventsDropped: 0,
    stderrTail: [],
    stdoutTail: [],
    filesTouched: [],
    turns: [],
    pendingInput: [],
    ...over,
  } as WorkerState;
}
const ev = (n: number): AgentEvent => ({ type: 'message_update', timestamp: n, delta: `e${n}` });
/** The words for events the per-session size bound rotated out. */
const SIZE_BOUND = "the history's size limit (rpcWorkers.history.maxSessionMiB)";

/** A supervisor's two reads, over workers the test adds and removes. */
function liveLogs() {
  const workers = new Map<string, { state: WorkerState; events: AgentEvent[] }>();
  return {
    workers,
    state: (id: string): StateResult => {
      const w = workers.get(id);
      return (w ? { status: w.state.status, state: w.state } : { status: 'not_found', workerId: id }) as StateResult;
    },
    events: (id: string) => workers.get(id)?.events ?? [],
  };
}

describe('ui event log archive', () => {
  it('a bounded map keeps the newest entries by when they were last set', () => {
    const m = new BoundedMap<string, number>(3);
    for (const k of ['a', 'b', 'c']) m.set(k, 1);
    m.set('a', 2); // set again: now the newest
    m.set('d', 1);
    assert.deepEqual(
      ['a', 'b', 'c', 'd'].filter((k) => m.has(k)),
      ['a', 'c', 'd'],
    );
    assert.equal(m.get('a'), 2);
    assert.equal(m.size, 3);
  });

  it("a log an open tab shows is kept beyond the bound: a ninth past session does not empty the first one's tab", () => {
    const shown = new Set(['past:0']);
    const archive = new LogArchive(liveLogs(), (key) => shown.has(key));
    for (let i = 0; i <= LOGS_KEPT; i++) archive.addPast(`past:${i}`, st(`past:${i}`, { status: 'stopped' }), [ev(i)], 'a past session');
    assert.ok(archive.lookup('past:0'), 'the log its tab shows was let go');
    assert.equal(archive.lookup('past:1'), undefined, 'the oldest not shown goes instead');
    assert.ok(archive.lookup(`past:${LOGS_KEPT}`));
    // Once its tab is closed it is bounded again.
    shown.clear();
    archive.addPast('past:new', st('past:new', { status: 'stopped' }), [ev(99)], 'a past session');
    assert.equal(archive.lookup('past:0'), undefined);
  });

  it("evicted is the number of events the worker's store dropped, live or stopped; the earlier sessions a resumed worker carries come first", () => {
    const live = liveLogs();
    const archive = new LogArchive(live);
    live.workers.set('w1', { state: st('w1', { eventsDropped: 492 }), events: [ev(3), ev(4)] });
    archive.setEarlier('w1', [ev(1), ev(2)]);
    const shown = archive.lookup('w1')!;
    assert.equal(shown.evicted, 492);
    assert.deepEqual(
      shown.events.map((e) => e.timestamp),
      [1, 2, 3, 4],
    );
    assert.equal(archive.lookup('w2'), undefined);
    // Stopped and forgotten by the supervisor: the log kept at its stop is shown, with its count.
    const stopped = st('w1', { status: 'stopped', eventsDropped: 500 });
    live.workers.get('w1')!.state = stopped;
    archive.retire(stopped);
    live.workers.delete('w1');
    assert.equal(archive.lookup('w1')!.evicted, 500);
    assert.deepEqual(
      archive.lookup('w1')!.events.map((e) => e.timestamp),
      [1, 2, 3, 4],
    );
    assert.equal(archive.stateOf('w1')?.status, 'stopped');
    assert.deepEqual(archive.retiredList(), [{ workerId: 'w1', name: 'w1', status: 'stopped' }]);
  });

  it('a past session is read-only, named "history" in the picker, and shadows a worker of the same key', () => {
    const live = liveLogs();
    const archive = new LogArchive(live);
    archive.addPast('past:1', st('past:1', { status: 'stopped', name: 'Yesterday', eventsDropped: 9 }), [ev(1)], 'a past session');
    assert.equal(archive.isPast('past:1'), true);
    assert.deepEqual(archive.lookup('past:1'), { state: archive.stateOf('past:1'), events: [ev(1)], evicted: 0, note: 'a past session' });
    assert.deepEqual(archive.pastEntry('past:1'), { workerId: 'past:1', name: 'Yesterday', status: 'history' });
    assert.equal(archive.pastEntry('w1'), undefined);
    assert.equal(archive.pastEntry(undefined), undefined);
  });

  it('a log read a page at a time gives the page its window, and says what is older and what the history dropped', async () => {
    const older = [ev(1), ev(2), ev(3)];
    const source = {
      older: async () => older.splice(0),
      get notLoaded() {
        return older.length;
      },
      get done() {
        return older.length === 0;
      },
    };
    const live = liveLogs();
    live.workers.set('w1', { state: st('w1'), events: [ev(9)] });
    const archive = new LogArchive(live);
    archive.addPast('past:1', st('past:1', { status: 'stopped' }), new PastLog([ev(4), ev(5)], source, { ...NO_GAPS, rotated: 7 }), 'a past session');
    assert.deepEqual(archive.lookup('past:1')!.past, { before: 3, after: 0, dropped: 7, droppedBy: SIZE_BOUND });
    assert.deepEqual(archive.lookup('past:1')!.events, [ev(4), ev(5)]);
    // A resumed worker: the earlier sessions' newest page, then its own; Load older reads further back.
    const earlier = new PastLog([ev(4), ev(5)], source, { ...NO_GAPS, rotated: 7 });
    archive.setEarlier('w1', earlier);
    assert.deepEqual(archive.lookup('w1')!.past, { before: 3, after: 0, dropped: 7, droppedBy: SIZE_BOUND });
    assert.equal(archive.pastLogOf('w1')!.earlier, true);
    await archive.pastLogOf('w1')!.log.readMore();
    assert.deepEqual(archive.lookup('w1')!.events, [ev(1), ev(2), ev(3), ev(4), ev(5), ev(9)]);
    assert.deepEqual(archive.lookup('w1')!.past, { before: 0, after: 0, dropped: 7, droppedBy: SIZE_BOUND });
  });

  describe('what the history could not keep of a past log is said, with its cause (nothing left out unsaid)', () => {
    let dir: string;
    let opened: HistoryStore | undefined;
    beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'rpc-archive-gaps-'))));
    afterEach(async () => {
      await opened?.close();
      opened = undefined;
      rmSync(dir, { recursive: true, force: true });
    });

    /** A store in `dir`, closed after the test. */
    const storeOf = (limits: Partial<HistoryLimits> = {}) => {
      const made = HistoryStore.create({ dir, limits });
      if (!made.ok) throw new Error(made.error);
      return (opened = made.store);
    };
    /** A session of `count` events, ended. */
    async function session(store: HistoryStore, name: string, count: number): Promise<string> {
      const started = store.open({ workerId: name, name, dialect: 'pi', cwd: dir, command: 'node' });
      if (!started.ok) throw new Error(started.error);
      for (let i = 0; i < count; i++) store.append(started.sessionId, ev(i));
      await store.end(started.sessionId, { reason: 'exited', code: 0 });
      return started.sessionId;
    }
    /** What the page is given of `id`'s log, read after the sessions it resumed (`earlier`). */
    async function shown(store: HistoryStore, id: string, earlier: string[] = []) {
      const r = await store.pages(id, earlier);
      if (r.status !== 'read') throw new Error(r.error);
      const archive = new LogArchive(liveLogs());
      archive.addPast('past:1', st('past:1', { status: 'stopped' }), await PastLog.open(r.pages, r.gaps), 'a past session');
      return archive.lookup('past:1')!;
    }

    it('an earlier session of a resumed chain whose record cannot be read: named, not silently left out', async () => {
      const store = storeOf();
      const a = await session(store, 'A', 100);
      const b = await session(store, 'B', 10);
      // A crash or a disk error cut the earlier session's record short.
      const meta = path.join(dir, `${a}.meta.json`);
      writeFileSync(meta, readFileSync(meta, 'utf8').slice(0, 40));
      const page = await shown(store, b, [a]);
      assert.equal(page.events.length, 10);
      assert.equal(page.past?.unread?.sessions, 1, JSON.stringify(page.past));
      assert.ok(page.past!.unread!.first.startsWith(`${a}: `), page.past!.unread!.first);
    });

    it('an earlier session deleted in another window: said as no longer in the history', async () => {
      const store = storeOf();
      const a = await session(store, 'A', 100);
      const b = await session(store, 'B', 10);
      await store.delete(a);
      const page = await shown(store, b, [a]);
      assert.deepEqual(page.past?.unread, { sessions: 1, first: `${a}: it is no longer in the history` });
    });

    it('events that never reached the disk (its queue was full) are counted, with why', async () => {
      const store = storeOf({ maxPendingEvents: 5 });
      const a = await session(store, 'A', 50);
      const page = await shown(store, a);
      assert.equal(page.events.length, 5);
      assert.deepEqual(page.past?.lost, { events: 45, why: 'events came faster than the disk took them' });
    });

    it('an earlier session removed whole by the count bound names that bound, not the per-session size', async () => {
      const store = storeOf({ maxSessions: 1 });
      const a = await session(store, 'A', 20);
      const b = await session(store, 'B', 20);
      await store.flush();
      const page = await shown(store, b, [a]);
      assert.equal(page.past?.dropped, 20);
      assert.equal(page.past?.droppedBy, 'the history removing earlier sessions whole (more than 1 session was kept; rpcWorkers.history.maxSessions, rpcWorkers.history.maxTotalMiB)');
    });
  });

  it('a past log whose file holds a line that is not an event, and a torn last line, says so (nothing read is left out unsaid)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rpc-archive-'));
    const made = HistoryStore.create({ dir });
    if (!made.ok) throw new Error(made.error);
    const store = made.store;
    try {
      const opened = store.open({ workerId: 'w1', name: 'one', dialect: 'pi', cwd: dir, command: 'node' });
      if (!opened.ok) throw new Error(opened.error);
      store.append(opened.sessionId, ev(1));
      store.append(opened.sessionId, ev(2));
      await store.end(opened.sessionId, { reason: 'exited', code: 0 });
      // A line another program (or a disk error) left in the file, then a crash mid-line.
      appendFileSync(path.join(dir, `${opened.sessionId}.jsonl`), 'not json\n' + JSON.stringify(ev(3)) + '\n{"type":"message_upd');
      const r = await store.pages(opened.sessionId);
      if (r.status !== 'read') throw new Error(r.error);
      const archive = new LogArchive(liveLogs());
      archive.addPast('past:1', st('past:1', { status: 'stopped' }), await PastLog.open(r.pages, r.gaps), 'a past session');
      const shown = archive.lookup('past:1')!;
      assert.deepEqual(shown.events, [ev(1), ev(2), ev(3)]);
      assert.equal(shown.past?.unreadable?.lines, 2, JSON.stringify(shown.past));
      assert.match(shown.past!.unreadable!.first, /the line at byte \d+: not JSON/);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it(`each kind keeps its newest ${LOGS_KEPT}`, () => {
    const live = liveLogs();
    const archive = new LogArchive(live);
    for (let i = 0; i <= LOGS_KEPT; i++) {
      archive.retire(st(`r${i}`, { status: 'stopped' }));
      archive.addPast(`p${i}`, st(`p${i}`), [], 'past');
      live.workers.set(`e${i}`, { state: st(`e${i}`), events: [] });
      archive.setEarlier(`e${i}`, [ev(i)]);
    }
    assert.equal(archive.stateOf('r0'), undefined, 'the oldest stopped worker is still kept');
    assert.ok(archive.stateOf('r1'));
    assert.equal(archive.retiredList().length, LOGS_KEPT);
    assert.equal(archive.retiredList()[0].workerId, `r${LOGS_KEPT}`, 'newest first');
    assert.equal(archive.isPast('p0'), false);
    assert.equal(archive.isPast('p1'), true);
    assert.deepEqual(archive.lookup('e0')!.events, [], 'the oldest earlier events are still kept');
    assert.deepEqual(archive.lookup('e1')!.events, [ev(1)]);
  });
});
