// A past session read newest first, a page at a time (core/history/pages.ts): every event comes
// once and in order whatever the page size and the slices' cuts, across the rotated segment and
// the sessions it resumed; torn and bad lines are counted as `read` counts them; a file replaced
// while it is read is said, not read as something else.
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AgentEvent } from '../../src/core/events/agentEvent';
import { HistoryStore, SessionPages, SLICE_BYTES, type HistoryLimits, type LogGaps } from '../../src/core/history';

let dir: string;
let stores: HistoryStore[] = [];
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'rpc-pages-'));
});
afterEach(async () => {
  await Promise.all(stores.map((s) => s.close()));
  stores = [];
  rmSync(dir, { recursive: true, force: true });
});

function makeStore(limits: Partial<HistoryLimits> = {}): HistoryStore {
  const made = HistoryStore.create({ dir, limits });
  if (!made.ok) throw new Error(made.error);
  stores.push(made.store);
  return made.store;
}
/** Events of uneven sizes (some far longer than others), so the slices cut lines anywhere. */
const ev = (seq: number): AgentEvent => ({ type: 'message_update', timestamp: 1_700_000_000_000 + seq, delta: 'x'.repeat((seq * 37) % 900), data: { seq } });
const seqs = (events: AgentEvent[]) => events.map((e) => e.data!.seq as number);

async function session(store: HistoryStore, from: number, count: number): Promise<string> {
  const r = store.open({ workerId: 'w1', name: 'one', dialect: 'pi', cwd: dir, command: 'node' });
  if (!r.ok) throw new Error(r.error);
  for (let i = from; i < from + count; i++) {
    store.append(r.sessionId, ev(i));
    if (i % 500 === 0) await new Promise((done) => setImmediate(done));
  }
  await store.end(r.sessionId, { reason: 'exited', code: 0 });
  return r.sessionId;
}

async function pagesOf(store: HistoryStore, id: string, earlier: string[] = []): Promise<{ pages: SessionPages; gaps: LogGaps }> {
  const r = await store.pages(id, earlier);
  if (r.status !== 'read') throw new Error(r.error);
  return r;
}

/** Every page until the last, put back in order (each page is oldest first, pages come newest first). */
async function readAll(pages: SessionPages, size: number): Promise<AgentEvent[][]> {
  const got: AgentEvent[][] = [];
  while (!pages.done) got.unshift(await pages.older(size));
  return got;
}

describe('history pages (a past session newest first)', () => {
  it('offers older events while the files hold them, though the record counts fewer (a crash before its count was written)', async () => {
    const store = makeStore();
    const id = await session(store, 0, 3000);
    // As a record written before the last events were counted would say.
    const pages = await SessionPages.open(dir, [{ id }], 1000);
    const got: AgentEvent[][] = [];
    while (!pages.done) {
      assert.ok(pages.notLoaded >= 1, `${pages.loaded} loaded: older events are still offered`);
      got.unshift(await pages.older(400));
    }
    assert.deepEqual(seqs(got.flat()), Array.from({ length: 3000 }, (_, i) => i));
    assert.equal(pages.notLoaded, 0);
  });

  it('gives the newest events first and every event once, in order, whatever the page size', async () => {
    const store = makeStore();
    const id = await session(store, 0, 6000);
    const whole = await store.read(id);
    assert.equal(whole.status, 'read');
    if (whole.status !== 'read') return;
    assert.ok(whole.session.bytes > 4 * SLICE_BYTES, `only ${whole.session.bytes} bytes: the slices are not exercised`);
    for (const size of [1, 777, 5000, 100_000]) {
      const { pages } = await pagesOf(store, id);
      assert.equal(pages.notLoaded, 6000);
      const first = await pages.older(size);
      assert.deepEqual(seqs(first), seqs(whole.events.slice(-size)), `first page of ${size}`);
      assert.equal(pages.notLoaded, Math.max(0, 6000 - size));
      if (size === 1) continue; // 6000 pages of one: the first is enough
      const rest = await readAll(pages, size);
      assert.deepEqual([...rest.flat(), ...first], whole.events);
      assert.ok(rest.every((p) => p.length === size) || rest.slice(1).every((p) => p.length === size), 'only the oldest page may be short');
      assert.equal(pages.loaded, 6000);
      assert.equal(pages.notLoaded, 0);
    }
  });

  it('reads the rotated segment after the current one, and says how many events the bound dropped', async () => {
    const store = makeStore({ maxSessionBytes: 600 * 1024 });
    const id = await session(store, 0, 6000);
    const whole = await store.read(id);
    if (whole.status !== 'read') throw new Error(whole.error);
    assert.ok(whole.session.evictedEvents, 'the bound evicted nothing: the test needs it to');
    const { pages, gaps } = await pagesOf(store, id);
    assert.equal(gaps.rotated, whole.session.evictedEvents!.events);
    assert.deepEqual((await readAll(pages, 1000)).flat(), whole.events);
  });

  it('a resumed session: the earlier sessions\' events come after its own, oldest session first', async () => {
    const store = makeStore();
    const a = await session(store, 0, 1500);
    const b = await session(store, 1500, 1500);
    const c = await session(store, 3000, 1500);
    const { pages } = await pagesOf(store, c, [a, b]);
    assert.equal(pages.notLoaded, 4500);
    const newest = await pages.older(2000);
    assert.deepEqual(seqs(newest), Array.from({ length: 2000 }, (_, i) => 2500 + i));
    assert.deepEqual(seqs([...(await readAll(pages, 999)).flat(), ...newest]), Array.from({ length: 4500 }, (_, i) => i));
  });

  it('a line longer than a slice is read whole; a torn last line and a bad line are counted as read counts them', async () => {
    const store = makeStore();
    const id = await session(store, 0, 300);
    const file = path.join(dir, `${id}.jsonl`);
    appendFileSync(file, JSON.stringify({ ...ev(300), delta: 'y'.repeat(SLICE_BYTES * 2) }) + '\n');
    appendFileSync(file, 'not json\n');
    appendFileSync(file, JSON.stringify(ev(301)) + '\n');
    appendFileSync(file, '{"type":"message_upd');
    const whole = await store.read(id);
    if (whole.status !== 'read') throw new Error(whole.error);
    const { pages } = await pagesOf(store, id);
    const all = (await readAll(pages, 100)).flat();
    assert.deepEqual(all, whole.events);
    assert.equal((all.at(-2)!.delta as string).length, SLICE_BYTES * 2);
    assert.equal(pages.badLines.count, whole.badLines.count);
    assert.equal(pages.badLines.count, 1);
    assert.equal(pages.tornBytes, whole.torn!.bytes);
  });

  it('a file replaced while its log is read is said, not read as the session', async () => {
    const store = makeStore();
    const id = await session(store, 0, 3000);
    const { pages } = await pagesOf(store, id);
    await pages.older(10);
    const file = path.join(dir, `${id}.jsonl`);
    writeFileSync(`${file}.new`, JSON.stringify(ev(9)) + '\n');
    renameSync(`${file}.new`, file);
    await assert.rejects(pages.older(10_000), /was replaced while its log was read/);
  });

  it('an evicted or unknown session is refused as read refuses it', async () => {
    const store = makeStore();
    assert.equal((await store.pages('s-nope-00000000')).status, 'not_found');
    assert.equal((await store.pages('../etc')).status, 'not_found');
  });
});
