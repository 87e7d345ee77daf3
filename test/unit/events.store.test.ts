// The worker's event store keeps what a worker sent as its line and reads it back on demand
// (src/core/worker/eventStore.ts). What it gives back must be exactly what listeners were
// given: the same events, in order, with the same timestamps and turn stamps.
import assert from 'node:assert/strict';
import path from 'node:path';
import type { AgentEvent } from '../../src/core/events/agentEvent';
import { EventStore } from '../../src/core/worker/eventStore';
import { lineStandsFor } from '../../src/core/events/workerLine';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { createSupervisor } from '../../src/core/supervisor';
import { ROOT, fakeSpec, ofType, waitFor } from '../helpers/supervisor';
import { CUT_LINE_CHARS } from '../../src/core/events/cutEvent';

const FLOOD = path.join(ROOT, 'bench/lib/flood-worker.mjs');

describe('EventStore', () => {
  it('keeps the newest events in order, objects as they are and lines read back with their stamp and time', () => {
    const reads: string[] = [];
    const store = new EventStore(3, (line) => {
      reads.push(line);
      return { ...JSON.parse(line), timestamp: -1 } as AgentEvent;
    });
    const stamp = Object.freeze({ index: 4 });
    const own: AgentEvent = { type: 'prompt_sent', timestamp: 1 };
    store.push(own);
    store.push({ type: 'message_update', timestamp: 2, turn: stamp, delta: 'a' }, Buffer.from('{"type":"message_update","delta":"a"}'));
    assert.deepEqual(reads, [], 'nothing is decoded before it is read');
    const first = store.toArray();
    assert.equal(first[0], own, 'the host\'s own event is the object it was');
    assert.deepEqual(first[1], { type: 'message_update', delta: 'a', timestamp: 2, turn: stamp });
    assert.equal(first[1].turn, stamp, 'the turn\'s shared stamp, not a copy');
    store.push({ type: 'message_update', timestamp: 3, delta: 'b' }, Buffer.from('{"type":"message_update","delta":"b"}'));
    store.push({ type: 'message_update', timestamp: 4, delta: 'é\u2028' }, Buffer.from('{"type":"message_update","delta":"é\u2028"}'));
    assert.equal(store.length, 3);
    assert.equal(store.evicted, 1);
    const last = store.toArray();
    assert.deepEqual(last.map((e) => [e.delta, e.timestamp, e.turn]), [['a', 2, stamp], ['b', 3, undefined], ['é\u2028', 4, undefined]]);
  });

  it('events kept as objects are bounded in bytes too, not only in count: the oldest give way', () => {
    // A worker's turns open and end (events kept as objects) with a 200 KB text each: 1,000 of
    // them under a 10,000-event bound would be 200 MB kept.
    const store = new EventStore(10_000, () => assert.fail('no line to read'), { maxLineBytes: 64 * 1024 * 1024, maxObjectChars: 16 * 1024 * 1024 });
    const text = 'z'.repeat(200_000);
    for (let i = 0; i < 1_000; i++) store.push({ type: 'agent_end', timestamp: i, turn: { index: i, ends: true }, error: `${i} ${text}` });
    const kept = store.toArray();
    const chars = kept.reduce((n, e) => n + (e.error?.length ?? 0), 0);
    assert.ok(chars <= 16 * 1024 * 1024, `kept ${chars} characters in ${kept.length} events`);
    assert.ok(kept.length >= 50, `kept only ${kept.length}`);
    assert.equal(store.evicted, 1_000 - kept.length);
    assert.equal(kept.at(-1)!.timestamp, 999, 'the newest is kept');
    // One event over the whole bound is still kept (the newest always is), alone.
    store.push({ type: 'agent_end', timestamp: 1_000, error: 'w'.repeat(17 * 1024 * 1024) });
    assert.deepEqual(store.toArray().map((e) => e.timestamp), [1_000]);
  });

  it('wraps and grows its arena, and gives way early only at its byte bound', () => {
    const line = (i: number, pad: number) => JSON.stringify({ type: 'message_update', delta: `${i}:${'é'.repeat(pad)}` });
    const decode = (l: string) => ({ ...JSON.parse(l), timestamp: 0 }) as AgentEvent;
    const ev = (l: string, i: number): AgentEvent => ({ ...JSON.parse(l), timestamp: i });
    // A small arena that must wrap many times: every read back is the event, in order.
    const small = new EventStore(8, decode, { maxLineBytes: 4096 });
    const pushed: AgentEvent[] = [];
    for (let i = 0; i < 500; i++) {
      const l = line(i, (i * 37) % 90);
      const e = ev(l, i);
      pushed.push(e);
      small.push(e, Buffer.from(l));
      assert.deepStrictEqual(small.toArray(), pushed.slice(-8), `after ${i + 1} events`);
    }
    assert.equal(small.evicted, 492);
    // An arena that starts at 256 KiB and must grow twice to hold 3,000 lines of about 320 bytes.
    const growing = new EventStore(3000, decode, { maxLineBytes: 4 << 20 });
    const many: AgentEvent[] = [];
    for (let i = 0; i < 4000; i++) {
      const l = line(i, 100 + (i % 50));
      many.push(ev(l, i));
      growing.push(many[i], Buffer.from(l));
    }
    assert.deepStrictEqual(growing.toArray(), many.slice(-3000));
    assert.equal(growing.evicted, 1000, 'only the count bound evicted');
    // A line too long for the whole arena is kept as its event, among lines.
    const mixed = new EventStore(5, decode, { maxLineBytes: 4096 });
    const long = line(1, 3000);
    const longEvent = ev(long, 1);
    mixed.push(ev(line(0, 1), 0), Buffer.from(line(0, 1)));
    mixed.push(longEvent, Buffer.from(long));
    mixed.push(ev(line(2, 1), 2), Buffer.from(line(2, 1)));
    assert.equal(mixed.toArray()[1], longEvent, 'the long line\'s event object itself');
    assert.deepStrictEqual(mixed.toArray()[2], ev(line(2, 1), 2));
    // At its byte bound the store keeps fewer events than its count bound, newest last, and counts the rest.
    const bounded = new EventStore(100, decode, { maxLineBytes: 2048 });
    const all: AgentEvent[] = [];
    for (let i = 0; i < 60; i++) {
      const l = line(i, 200);
      all.push(ev(l, i));
      bounded.push(all[i], Buffer.from(l));
    }
    const kept = bounded.toArray();
    assert.ok(kept.length < 10 && kept.length > 0, `a few ${kept.length}`);
    assert.deepStrictEqual(kept, all.slice(-kept.length));
    assert.equal(bounded.evicted + kept.length, 60);
  });

  it('a worker line stands for its event only when the host added nothing and it is not much longer', () => {
    const line = '{"type":"message_update"}';
    assert.equal(lineStandsFor({ type: 'message_update', timestamp: 1, turn: { index: 1 } }, line), true);
    assert.equal(lineStandsFor({ type: 'agent_start', timestamp: 1, turn: { index: 1, opens: true } }, line), false, 'the opening event carries the origin the host recorded');
    assert.equal(lineStandsFor({ type: 'agent_settled', timestamp: 1, turn: { index: 1, ends: true } }, line), false, 'the ending event says how the turn ended');
    const snapshot = `{"type":"message_update","message":"${'x'.repeat(5000)}"}`;
    assert.equal(lineStandsFor({ type: 'message_update', timestamp: 1, delta: 'y' }, snapshot), false, 'pi 0.73.1\'s snapshot of the whole message');
    assert.equal(lineStandsFor({ type: 'message_update', timestamp: 1, delta: 'y'.repeat(3000) }, `{"delta":"${'y'.repeat(3000)}"}`), true, 'a long delta is its own line');
    assert.equal(lineStandsFor({ type: 'tool_execution_end', timestamp: 1, result: 'z'.repeat(5000) }, `{"result":"${'z'.repeat(5000)}"}`), true, 'a tool\'s result is in its event too');
  });

  for (const [recording, dialect] of [['tau', 'tau'], ['pi-0.73', 'pi'], ['pi-1.x', 'pi']] as const) {
    it(`gives back exactly the events listeners were given: the recorded ${recording} stream, two turns, and after eviction`, async function () {
      this.timeout(60_000);
      for (const eventStoreSize of [10_000, 37]) {
        const historyDir = mkdtempSync(path.join(os.tmpdir(), 'rpcw-store-'));
        const supervisor = createSupervisor({ limits: { eventStoreSize }, historyDir });
        try {
          const started = await supervisor.start({ dialect, command: process.execPath, args: [FLOOD, '--recording', recording, '--events', '400', '--size', 'real'], cwd: ROOT });
          assert.equal(started.status, 'started', started.status === 'started' ? '' : started.error);
          const id = started.workerId;
          const delivered: AgentEvent[] = [];
          supervisor.onEvent((wid, e) => {
            if (wid === id) delivered.push(e);
          });
          for (let turn = 0; turn < 2; turn++) {
            const settled = new Promise<void>((resolve) => supervisor.onEvent((wid, e) => e.type === 'agent_settled' && wid === id && resolve()));
            assert.equal((await supervisor.prompt(id, `flood ${turn}`)).status, 'accepted');
            await settled;
          }
          const stored = supervisor.events(id);
          assert.ok(delivered.length > 800, `two floods delivered (${delivered.length})`);
          assert.ok(delivered.some((e) => e.turn?.opens) && delivered.some((e) => e.turn?.ends) && delivered.some((e) => e.turn && !e.turn.opens && !e.turn.ends));
          const tail = delivered.slice(-stored.length);
          assert.equal(stored.length, Math.min(eventStoreSize, delivered.length));
          for (let i = 0; i < stored.length; i++) assert.deepStrictEqual(stored[i], tail[i], `event ${i} of ${stored.length} (${tail[i].type})`);
          // The history keeps the same lines and reads them back into the same events, all of them.
          const session = supervisor.history!.sessionOf(id)!;
          const read = await supervisor.history!.store.read(session);
          assert.equal(read.status, 'read');
          if (read.status !== 'read') return;
          assert.equal(read.badLines.count, 0, read.badLines.first ?? '');
          const lines = readFileSync(path.join(historyDir, `${session}.jsonl`), 'utf8').split('\n').filter(Boolean);
          const kept = lines.filter((l) => l.startsWith('{"timestamp":') && l.includes(',"raw":')).length;
          // Not all: a turn's opening and ending events are the host's; pi 0.73.1's longer deltas are kept as events.
          assert.ok(kept > lines.length / 4 && kept < lines.length, `events kept as the worker's lines: ${kept} of ${lines.length}`);
          const persisted = read.events.slice(-delivered.length);
          assert.equal(persisted.length, delivered.length);
          for (let i = 0; i < delivered.length; i++) assert.deepStrictEqual(persisted[i], { ...delivered[i], ...(delivered[i].turn ? { turn: { ...delivered[i].turn } } : {}) }, `history event ${i} (${delivered[i].type})`);
        } finally {
          await supervisor.dispose();
          rmSync(historyDir, { recursive: true, force: true });
        }
      }
    });
  }
  it('an event the host cut is kept as the host\'s reading, in the store and the history, not as the worker\'s bytes', async function () {
    this.timeout(60_000);
    const historyDir = mkdtempSync(path.join(os.tmpdir(), 'rpcw-store-cut-'));
    const supervisor = createSupervisor({ historyDir });
    try {
      const r = await supervisor.start(fakeSpec('pi'));
      assert.equal(r.status, 'started', r.status === 'started' ? '' : r.error);
      const id = r.status === 'started' ? r.workerId : '';
      const delivered: AgentEvent[] = [];
      supervisor.onEvent((wid, e) => wid === id && e.type === 'tool_execution_update' && delivered.push(e));
      const settled = waitFor(supervisor, id, ofType('agent_settled'), 30_000, 'the end of the turn');
      assert.equal((await supervisor.prompt(id, `bigupdate ${CUT_LINE_CHARS + 1000} 2`)).status, 'accepted');
      await settled;
      assert.equal(delivered.length, 2);
      assert.ok(delivered.every((e) => e.cut), 'both updates were cut');
      const stored = supervisor.events(id).filter(ofType('tool_execution_update'));
      assert.deepStrictEqual(stored, delivered, 'the store gives the cut events back');
      const session = supervisor.history!.sessionOf(id)!;
      await supervisor.history!.store.flush();
      const read = await supervisor.history!.store.read(session);
      assert.equal(read.status, 'read');
      const persisted = read.status === 'read' ? read.events.filter(ofType('tool_execution_update')) : [];
      assert.deepStrictEqual(persisted, delivered.map((e) => ({ ...e, turn: { ...e.turn! } })), 'the history gives the cut events back');
      const longest = Math.max(...readFileSync(path.join(historyDir, `${session}.jsonl`), 'utf8').split('\n').map((l) => l.length));
      assert.ok(longest < CUT_LINE_CHARS, `no line of the worker's as it came (${longest} characters)`);
    } finally {
      await supervisor.dispose();
      rmSync(historyDir, { recursive: true, force: true });
    }
  });
  it('the history keeps every event of a flood, in order, as delivered: its byte batches are reused only once written', async function () {
    this.timeout(120_000);
    const historyDir = mkdtempSync(path.join(os.tmpdir(), 'rpcw-store-flood-'));
    const supervisor = createSupervisor({ historyDir });
    try {
      const started = await supervisor.start({ dialect: 'tau', command: process.execPath, args: [FLOOD, '--recording', 'tau', '--events', '30000', '--size', '90'], cwd: ROOT });
      assert.equal(started.status, 'started', started.status === 'started' ? '' : started.error);
      const id = started.status === 'started' ? started.workerId : '';
      const delivered: string[] = [];
      supervisor.onEvent((wid, e) => wid === id && delivered.push(JSON.stringify(e)));
      const settled = waitFor(supervisor, id, ofType('agent_settled'), 60_000, 'the end of the flood');
      assert.equal((await supervisor.prompt(id, 'flood')).status, 'accepted');
      await settled;
      await supervisor.history!.store.flush();
      const read = await supervisor.history!.store.read(supervisor.history!.sessionOf(id)!);
      assert.equal(read.status, 'read');
      const persisted = read.status === 'read' ? read.events.slice(-delivered.length).map((e) => JSON.stringify(e)) : [];
      assert.ok(delivered.length > 30_000, `${delivered.length} events`);
      assert.equal(persisted.length, delivered.length);
      const differ = persisted.findIndex((e, i) => e !== delivered[i]);
      assert.equal(differ, -1, differ === -1 ? '' : `event ${differ}: ${persisted[differ].slice(0, 300)} ≠ ${delivered[differ].slice(0, 300)}`);
    } finally {
      await supervisor.dispose();
      rmSync(historyDir, { recursive: true, force: true });
    }
  });
});
