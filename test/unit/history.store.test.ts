// The history store in this process: readback order, the bounds and their visible eviction,
// the person's edits, and failures reported instead of thrown. (Crashes and two windows at
// once, with real processes: history.processes.test.ts.)
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AgentEvent } from '../../src/core/events/agentEvent';
import { HistoryStore, parseEvents, type HistoryError, type HistoryLimits } from '../../src/core/history';
import { DEFAULT_HISTORY_LIMITS, type SessionMeta } from '../../src/core/history/format';
import { SessionWriter } from '../../src/core/history/sessionWriter';

let dir: string;
let stores: HistoryStore[] = [];
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'rpc-history-'));
});
afterEach(async () => {
  await Promise.all(stores.map((s) => s.close()));
  stores = [];
  rmSync(dir, { recursive: true, force: true });
});

function makeStore(limits: Partial<HistoryLimits> = {}, onError?: (e: HistoryError) => void): HistoryStore {
  const made = HistoryStore.create({ dir, limits, onError });
  if (!made.ok) throw new Error(made.error);
  stores.push(made.store);
  return made.store;
}
function openSession(store: HistoryStore, name = 'one'): string {
  const r = store.open({ workerId: 'w1', name, dialect: 'pi', cwd: dir, command: 'node' });
  if (!r.ok) throw new Error(r.error);
  return r.sessionId;
}
const ev = (seq: number, extra: Partial<AgentEvent> = {}): AgentEvent => ({ type: 'message_update', timestamp: 1_700_000_000_000 + seq, delta: `d${seq}`, data: { seq }, ...extra });
async function readOk(store: HistoryStore, id: string) {
  const r = await store.read(id);
  assert.equal(r.status, 'read', 'error' in r ? r.error : '');
  if (r.status !== 'read') throw new Error('unreachable');
  return r;
}
const seqs = (events: AgentEvent[]) => events.map((e) => e.data!.seq as number);

describe('history store', () => {
  it('reads events back whole and in delivery order, across many ticks and batches', async () => {
    const store = makeStore();
    const id = openSession(store);
    const delivered: AgentEvent[] = [];
    for (let i = 0; i < 3000; i++) {
      // Fields the store does not know (the lead's `turn` stamp among them) are kept as they are.
      const e = ev(i, { turn: { index: Math.floor(i / 100) + 1 }, nested: { a: [i, 'ü\u2028'], b: null } } as Partial<AgentEvent>);
      delivered.push(e);
      store.append(id, e);
      if (i % 250 === 0) await new Promise((r) => setImmediate(r));
    }
    await store.end(id, { reason: 'stopped', code: null, signal: 'SIGTERM' });
    const r = await readOk(store, id);
    assert.deepEqual(r.events, delivered);
    assert.equal(r.torn, null);
    assert.equal(r.badLines.count, 0);
    assert.equal(r.session.status, 'ended');
    assert.equal(r.session.endReason, 'stopped');
    assert.equal(r.session.exit?.signal, 'SIGTERM');
    assert.equal(r.session.events, 3000);
  });

  it('append is a queue push: nothing is on disk until a later tick', async () => {
    const store = makeStore();
    const id = openSession(store);
    store.append(id, ev(0));
    assert.equal(readdirSync(dir).some((f) => f.endsWith('.jsonl')), false, 'no write happened on the event path');
    await store.flush();
    assert.equal(readFileSync(path.join(dir, `${id}.jsonl`), 'utf8'), JSON.stringify(ev(0)) + '\n');
  });

  it('a live session\'s record on disk counts the events written, not only once it ends (what a crash leaves)', async () => {
    const store = makeStore({ metaIntervalMs: 0 });
    const id = openSession(store);
    for (let i = 0; i < 100; i++) store.append(id, ev(i));
    await store.flush();
    const onDisk = JSON.parse(readFileSync(path.join(dir, `${id}.meta.json`), 'utf8')) as { events: number; ended: unknown };
    assert.equal(onDisk.ended, null, 'still live');
    assert.equal(onDisk.events, 100);
  });

  it('an event queued while the pump writes the session\'s record is written by that pump (no later tick may come)', async () => {
    let queuedDuringRecord = false;
    const meta = {
      version: 1, id: 's-pump-1', workerId: 'w1', name: 'one', dialect: 'pi', cwd: dir, command: 'node', model: null, workerVersion: null, writer: null,
      startedAt: 0, updatedAt: 0, ended: null, turns: 0, lastTurnEndReason: null, filesTouched: [], events: 0, lost: 0, lastError: null, evictedEvents: null, removed: null,
    } as unknown as SessionMeta;
    const writer: SessionWriter = new SessionWriter(meta, dir, { ...DEFAULT_HISTORY_LIMITS, metaIntervalMs: 0 }, () => {
      // Read as the record is written: the worker's last event of its turn comes just then.
      if (!queuedDuringRecord) {
        queuedDuringRecord = true;
        writer.append(ev(1));
      }
      return { turns: 0, lastTurnEndReason: null, filesTouched: [], model: null, workerVersion: null };
    }, (e) => assert.fail(e.error));
    writer.append(ev(0));
    await writer.pump();
    assert.ok(queuedDuringRecord);
    assert.equal(writer.hasPending, false, 'the pump wrote what was queued while it wrote the record');
    assert.deepEqual(readFileSync(path.join(dir, 's-pump-1.jsonl'), 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as AgentEvent).data!.seq), [0, 1]);
    await writer.end(null);
  });

  it('a tick writes what was queued when it came; what is queued during its write waits for the next tick (one write per interval under a flood)', async () => {
    const meta = {
      version: 1, id: 's-due-1', workerId: 'w1', name: 'one', dialect: 'pi', cwd: dir, command: 'node', model: null, workerVersion: null, writer: null,
      startedAt: 0, updatedAt: 0, ended: null, turns: 0, lastTurnEndReason: null, filesTouched: [], events: 0, lost: 0, lastError: null, evictedEvents: null, removed: null,
    } as unknown as SessionMeta;
    const writer = new SessionWriter(meta, dir, DEFAULT_HISTORY_LIMITS, null, (e) => assert.fail(e.error));
    writer.append(ev(0));
    const writing = writer.writeDue();
    writer.append(ev(1));
    await writing;
    assert.equal(writer.hasPending, true, 'the event queued during the write is left for the next tick');
    const seqs = () => readFileSync(path.join(dir, 's-due-1.jsonl'), 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as AgentEvent).data!.seq);
    assert.deepEqual(seqs(), [0]);
    await writer.pump();
    assert.deepEqual(seqs(), [0, 1]);
    await writer.end(null);
  });

  it('an event queued while a tick writes is written by a later tick with no append after it (no flush needed)', async () => {
    const store = makeStore({ writeIntervalMs: 0, metaIntervalMs: 0 });
    let reads = 0;
    let id = '';
    const secondWrite = new Promise<void>((resolve) => {
      const r = store.open({
        workerId: 'w1', name: 'one', dialect: 'pi', cwd: dir, command: 'node',
        // Read as each write's record is written: the first time, the worker's next event comes just then.
        snapshot: () => {
          if (++reads === 1) store.append(id, ev(1));
          if (reads === 2) resolve();
          return { turns: 0, lastTurnEndReason: null, filesTouched: [], model: null, workerVersion: null };
        },
      });
      if (!r.ok) throw new Error(r.error);
      id = r.sessionId;
    });
    store.append(id, ev(0));
    await secondWrite;
    assert.deepEqual(readFileSync(path.join(dir, `${id}.jsonl`), 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as AgentEvent).data!.seq), [0, 1]);
  });

  it('a session starts at the wall clock\'s time, not the host\'s start plus a monotonic clock that stood still while the machine slept', async () => {
    const store = makeStore();
    // A laptop that slept 8 hours after the host started: the monotonic clock (performance.now,
    // which does not count a suspend) is 8 hours behind the wall clock the person reads.
    const realNow = Date.now;
    const woke = realNow() + 8 * 3600_000;
    Date.now = () => woke;
    let a: string;
    let b: string;
    try {
      a = openSession(store, 'first');
      b = openSession(store, 'second');
    } finally {
      Date.now = realNow;
    }
    const { sessions } = await store.list();
    const started = new Map(sessions.map((s) => [s.id, s.startedAt]));
    assert.ok(started.get(a)! >= woke, `started ${woke - started.get(a)!} ms before the clock said`);
    assert.ok(started.get(b)! > started.get(a)!, 'two sessions opened in one millisecond keep their order');
    assert.deepEqual(sessions.map((s) => s.name), ['second', 'first']);
  });

  it('a live session is listed as live; once ended, with its end reason; newest first', async () => {
    const store = makeStore();
    const a = openSession(store, 'first');
    const b = openSession(store, 'second');
    await store.end(a, { reason: 'failed', code: 3, error: 'the worker exited with code 3' });
    const { sessions } = await store.list();
    assert.deepEqual(sessions.map((s) => [s.name, s.status, s.endReason]), [['second', 'live', null], ['first', 'ended', 'failed']]);
    assert.equal(sessions[1].exit?.code, 3);
    assert.equal(sessions[0].id, b);
  });

  it('per-session bound: the oldest events are evicted, the newest kept in order, and the readback says how many and when', async () => {
    const store = makeStore({ maxSessionBytes: 8 * 1024 });
    const id = openSession(store);
    const before = Date.now();
    for (let i = 0; i < 2000; i++) {
      store.append(id, ev(i));
      if (i % 500 === 499) await new Promise((r) => setImmediate(r));
    }
    await store.end(id, { reason: 'exited', code: 0 });
    const r = await readOk(store, id);
    const kept = seqs(r.events);
    assert.ok(kept.length > 0 && kept.length < 2000, `kept ${kept.length}`);
    // The newest are kept, contiguous, ending with the last one delivered.
    assert.deepEqual(kept, Array.from({ length: kept.length }, (_, i) => 2000 - kept.length + i));
    const evicted = r.session.evictedEvents;
    assert.ok(evicted, 'the eviction is recorded');
    assert.equal(evicted.events, 2000 - kept.length);
    assert.ok(evicted.firstAt >= before && evicted.lastAt >= evicted.firstAt);
    assert.equal(r.session.events, kept.length);
    // Between half the bound and the bound (a batch is cut where the file reaches half of it,
    // so even a batch of 500 events, ≈ 40 KB, cannot overshoot by more than a line).
    assert.ok(r.session.bytes >= 4 * 1024 && r.session.bytes <= 8 * 1024 + 100, `${r.session.bytes} bytes on disk: ${readdirSync(dir)}`);
  });

  it('total bound: the oldest finished sessions are evicted whole, a live one never; the listing says how many and when', async () => {
    const store = makeStore({ maxTotalBytes: 20 * 1024, maxSessionBytes: 16 * 1024 });
    const live = openSession(store, 'live');
    store.append(live, ev(0));
    const ended: string[] = [];
    for (let s = 0; s < 6; s++) {
      const id = openSession(store, `s${s}`);
      ended.push(id);
      for (let i = 0; i < 80; i++) store.append(id, ev(i)); // ≈ 6 KiB each
      await store.end(id, { reason: 'exited', code: 0 });
    }
    await store.flush();
    const listing = await store.list();
    const byId = new Map(listing.sessions.map((s) => [s.id, s]));
    assert.equal(byId.get(live)!.status, 'live');
    const total = listing.sessions.filter((s) => s.status !== 'evicted').reduce((n, s) => n + s.bytes, 0);
    assert.ok(total <= 20 * 1024, `total ${total}`);
    const statuses = ended.map((id) => byId.get(id)!.status);
    // Oldest first: every evicted one started before every kept one.
    const firstKept = statuses.indexOf('ended');
    assert.ok(firstKept > 0, `some were evicted: ${statuses}`);
    assert.deepEqual(statuses, [...Array(firstKept).fill('evicted'), ...Array(6 - firstKept).fill('ended')]);
    assert.equal(listing.evictedSessions.count, firstKept);
    const gone = byId.get(ended[0])!;
    assert.match(gone.removed!.reason, /more than 20480 bytes/);
    assert.equal(gone.removed!.events, 80);
    assert.equal(listing.evictedSessions.lastAt, Math.max(...listing.sessions.filter((s) => s.removed).map((s) => s.removed!.at)));
    assert.ok(!readdirSync(dir).includes(`${ended[0]}.jsonl`), 'its events file is gone');
    const r = await store.read(ended[0]);
    assert.equal(r.status, 'evicted');
  });

  it('a bound on the number of sessions; evicted records themselves are bounded', async () => {
    const store = makeStore({ maxSessions: 2, maxEvictedRecords: 1 });
    for (let s = 0; s < 5; s++) {
      const id = openSession(store, `s${s}`);
      store.append(id, ev(s));
      await store.end(id, { reason: 'exited', code: 0 });
    }
    await store.flush();
    const { sessions, evictedSessions } = await store.list();
    assert.deepEqual(sessions.map((s) => [s.name, s.status]), [['s4', 'ended'], ['s3', 'ended'], ['s2', 'evicted']]);
    assert.equal(evictedSessions.count, 1);
  });

  it('rename and archive keep each other (separate files), survive a new store, and delete removes every file', async () => {
    const first = makeStore();
    const id = openSession(first, 'worker name');
    first.append(id, ev(0));
    await first.end(id, { reason: 'exited', code: 0 });
    assert.equal((await first.rename(id, '  my session ')).status, 'renamed');
    assert.equal((await first.archive(id)).status, 'archived');
    const second = makeStore();
    let s = (await second.list()).sessions[0];
    assert.equal(s.name, 'my session');
    assert.equal(s.archived, true);
    assert.equal((await second.archive(id, false)).status, 'unarchived');
    s = (await second.list()).sessions[0];
    assert.equal(s.archived, false);
    assert.equal(s.name, 'my session');
    assert.equal((await second.rename(id, '   ')).status, 'error');
    assert.equal((await second.delete(id)).status, 'deleted');
    assert.deepEqual(readdirSync(dir), []);
    assert.equal((await second.read(id)).status, 'not_found');
    assert.equal((await second.rename(id, 'x')).status, 'not_found');
    assert.equal((await second.delete('../../etc/passwd')).status, 'not_found');
  });

  it('a live session cannot be deleted', async () => {
    const store = makeStore();
    const id = openSession(store);
    const r = await store.delete(id);
    assert.equal(r.status, 'live');
    assert.ok(readdirSync(dir).includes(`${id}.meta.json`));
  });

  it('a write that fails is reported (onError, the session record), never thrown into the event path', async () => {
    const errors: HistoryError[] = [];
    const store = makeStore({}, (e) => errors.push(e));
    const id = openSession(store);
    store.append(id, ev(0));
    await store.flush();
    // The events file's place taken by a directory: every later open or append fails.
    rmSync(path.join(dir, `${id}.jsonl`));
    const { mkdirSync } = await import('node:fs');
    mkdirSync(path.join(dir, `${id}.jsonl`));
    // End first so the open file is closed and the next write must reopen it.
    await store.end(id, { reason: 'exited', code: 0 });
    const id2 = openSession(store);
    rmSync(path.join(dir, `${id2}.meta.json`));
    mkdirSync(path.join(dir, `${id2}.jsonl`));
    assert.doesNotThrow(() => store.append(id2, ev(1)));
    await store.flush();
    assert.ok(errors.some((e) => e.sessionId === id2 && e.op === 'write'), JSON.stringify(errors));
    assert.equal(store.errors.at(-1)?.sessionId, id2);
  });

  it('a full queue (the disk behind the events) counts each event it cannot take as lost, keeps the ones it took, and the session says so', async () => {
    const store = makeStore({ maxPendingEvents: 10 });
    const id = openSession(store);
    // Delivered in one tick: nothing is written before the last, so the queue fills at 10.
    for (let i = 0; i < 25; i++) store.append(id, ev(i));
    await store.flush();
    await store.end(id, { reason: 'exited', code: 0 });
    const { sessions } = await store.list();
    const s = sessions.find((x) => x.id === id)!;
    assert.deepEqual([s.events, s.lost], [10, 15]);
    assert.deepEqual(seqs((await readOk(store, id)).events), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('a write the disk refuses (ENOSPC) counts every event of its batches as lost, across batches written together', async function () {
    if (process.platform !== 'linux') this.skip();
    const errors: HistoryError[] = [];
    const store = makeStore({}, (e) => errors.push(e));
    const id = openSession(store);
    // The events file is /dev/full: it opens, and every write to it fails with ENOSPC.
    symlinkSync('/dev/full', path.join(dir, `${id}.jsonl`));
    // Enough for many batches (the first is 4 KiB), written in one go.
    for (let i = 0; i < 2000; i++) store.append(id, ev(i));
    await store.flush();
    assert.ok(errors.some((e) => e.sessionId === id && e.op === 'write' && /ENOSPC|no space/i.test(e.error)), JSON.stringify(errors.slice(0, 2)));
    await store.end(id, { reason: 'exited', code: 0 });
    const { sessions } = await store.list();
    const s = sessions.find((x) => x.id === id)!;
    assert.equal(s.lost, 2000);
    assert.equal(s.events, 0);
  });

  it('refuses bad limits and a relative directory in plain words', () => {
    const bad = HistoryStore.create({ dir, limits: { maxSessionBytes: -1 } });
    assert.equal(bad.ok, false);
    assert.match(!bad.ok ? bad.error : '', /maxSessionBytes/);
    const rel = HistoryStore.create({ dir: 'relative/dir' });
    assert.match(!rel.ok ? rel.error : '', /absolute/);
  });

  it('an unreadable session record is named in the listing; the others are listed regardless', async () => {
    const store = makeStore();
    const id = openSession(store);
    await store.end(id, { reason: 'exited', code: 0 });
    writeFileSync(path.join(dir, 's-zzz-0123abcd.meta.json'), '{"version": 1, "id": ');
    const listing = await store.list();
    assert.equal(listing.sessions.length, 1);
    assert.deepEqual(listing.unreadable.map((u) => u.file), ['s-zzz-0123abcd.meta.json']);
    assert.match(listing.unreadable[0].error, /not JSON/);
  });
});

describe('history readback of a damaged file', () => {
  it('a torn last line is left out and reported with its size and place; every whole line is kept', async () => {
    const store = makeStore();
    const id = openSession(store);
    for (let i = 0; i < 5; i++) store.append(id, ev(i));
    await store.end(id, { reason: 'exited', code: 0 });
    const file = path.join(dir, `${id}.jsonl`);
    const whole = readFileSync(file).length;
    appendFileSync(file, '{"type":"message_up');
    const r = await readOk(store, id);
    assert.deepEqual(seqs(r.events), [0, 1, 2, 3, 4]);
    assert.deepEqual(r.torn, { bytes: 19, offset: whole });
    assert.equal(readFileSync(file).length, whole + 19, 'reading changes nothing');
  });

  it('a bad line in the middle is skipped and counted; the lines around it are kept', () => {
    const text = [JSON.stringify(ev(0)), 'garbage', JSON.stringify({ type: 'x' }), JSON.stringify(ev(1)), ''].join('\n');
    const r = parseEvents(Buffer.from(text));
    assert.deepEqual(seqs(r.events), [0, 1]);
    assert.equal(r.badLines.count, 2);
    assert.match(r.badLines.first!, /byte \d+: not JSON/);
    assert.equal(r.torn, null);
  });
});
