// The event store packs its lines in blocks off the main thread (src/core/worker/eventBlocks.ts).
// Whatever state a block is in (open, waiting, being packed, packed, kept raw after a failure),
// the store gives back every kept event, in order; its bounds hold across blocks. The codec is
// the store's own (brotli), behind a gate the test opens; the store packs once no block has
// been sealed for a moment, and the tests wait for that (blocks.idle()) or ask for it (packNow).
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import type { AgentEvent } from '../../src/core/events/agentEvent';
import { EventStore, type EventStoreOptions } from '../../src/core/worker/eventStore';
import { MAX_PACKING, MAX_WAIT_MS, QUIET_MS, brotliCodec, type BlockCodec } from '../../src/core/worker/eventBlocks';

const decode = (l: string) => ({ ...JSON.parse(l), timestamp: -1 }) as AgentEvent;
/** τ-like lines: many null fields, and a delta that does not repeat. */
const line = (i: number) => JSON.stringify({ type: 'message_update', delta: `${i} ${(i * 7919).toString(36)} ${'x'.repeat(i % 13)}`, error: null, tool_call_id: null, leaf: null, reason: null });
const event = (i: number): AgentEvent => ({ ...JSON.parse(line(i)), timestamp: i });

/** brotli, each packing held until the test lets it go (or fails it). */
function gatedCodec() {
  const held: { raw: Uint8Array; go: () => void; fail: () => void }[] = [];
  const arrived: (() => void)[] = [];
  let inFlight = 0;
  let most = 0;
  let unpacked = 0;
  let packs = 0;
  const codec: BlockCodec = {
    pack: (raw) => {
      most = Math.max(most, ++inFlight);
      packs++;
      return new Promise((resolve, reject) => {
        const done = () => inFlight--;
        held.push({ raw, go: () => (done(), brotliCodec.pack(raw).then(resolve, reject)), fail: () => (done(), reject(new Error('injected packing failure'))) });
        for (const r of arrived.splice(0)) r();
      });
    },
    unpack: (packed) => (unpacked++, zlib.brotliDecompressSync(packed)),
  };
  const arrival = () => new Promise<void>((r) => arrived.push(r));
  return { codec, held, arrival, most: () => most, unpacked: () => unpacked, packs: () => packs };
}

/** Lets every held packing go, and those its completion starts, until the store is idle. */
async function packAll(store: EventStore, gate: ReturnType<typeof gatedCodec>, how: 'go' | 'fail' = 'go') {
  store.blocks.packNow();
  for (;;) {
    for (const h of gate.held.splice(0)) h[how]();
    const next = await Promise.race([store.blocks.idle().then(() => 'idle'), gate.arrival().then(() => 'more')]);
    if (next === 'idle') return;
  }
}

function pushAll(store: EventStore, from: number, to: number, into: AgentEvent[]) {
  for (let i = from; i < to; i++) {
    const e = event(i);
    into.push(e);
    store.push(e, Buffer.from(line(i)));
  }
}

/** A store whose blocks are packed by a gated codec, and the list of what was pushed into it. */
function gatedStore(capacity: number, maxLineBytes: number, wait?: EventStoreOptions['wait']) {
  const gate = gatedCodec();
  const store = new EventStore(capacity, decode, { maxLineBytes, codec: gate.codec, wait });
  return { gate, store, pushed: [] as AgentEvent[] };
}

describe('EventStore blocks', () => {
  it('reads in order across blocks: open, waiting, being packed, and packed', async () => {
    // 64 KiB bound: 8 KiB blocks of about 90 lines each.
    const { gate, store, pushed } = gatedStore(5000, 64 * 1024);
    pushAll(store, 0, 400, pushed);
    const rawBytes = store.blocks.bytes;
    assert.equal(gate.held.length, 0, 'nothing is packed while blocks keep coming (a flood): they wait for a quiet moment');
    assert.deepStrictEqual(store.toArray(), pushed, 'read while blocks wait');
    store.blocks.packNow();
    assert.equal(gate.held.length, MAX_PACKING, 'the newest sealed blocks are being packed, the rest wait');
    assert.deepStrictEqual(store.toArray(), pushed, 'read while blocks are being packed');
    await packAll(store, gate);
    // Raw now: only the open block.
    assert.ok(store.blocks.bytes - 8192 < rawBytes / 4, `packed: ${store.blocks.bytes} of ${rawBytes} bytes`);
    const before = gate.unpacked();
    assert.deepStrictEqual(store.toArray(), pushed, 'read after packing');
    // The last block is still open (raw); each packed one is unpacked once in a reading in order.
    assert.equal(gate.unpacked() - before, gate.packs(), 'each packed block unpacked once');
    pushAll(store, 400, 500, pushed);
    store.blocks.packNow();
    assert.deepStrictEqual(store.toArray(), pushed, 'packed blocks, then one being packed, then the open one');
    await packAll(store, gate);
    assert.deepStrictEqual(store.toArray(), pushed);
    assert.ok(gate.most() <= MAX_PACKING, `at most ${MAX_PACKING} blocks packed at once (${gate.most()})`);
  });

  it('evicts by count across packed blocks, and a block\'s bytes go with its last line', async () => {
    const { gate, store, pushed } = gatedStore(100, 64 * 1024, { quietMs: QUIET_MS, maxWaitMs: MAX_WAIT_MS, spareRestMs: 0 });
    for (let round = 0; round < 20; round++) {
      pushAll(store, round * 150, (round + 1) * 150, pushed);
      await packAll(store, gate);
    }
    assert.deepStrictEqual(store.toArray(), pushed.slice(-100));
    assert.equal(store.evicted, 2900);
    // 100 lines span at most three 8 KiB blocks: the open one raw, two packed. At rest no spare block is kept.
    assert.ok(store.blocks.bytes <= 8192 + 2 * 4096, `${store.blocks.bytes} bytes held`);
  });

  it('evicts by bytes, counting packed bytes: more lines are kept than their raw bytes would allow', async () => {
    const bound = 64 * 1024;
    const { gate, store, pushed } = gatedStore(100_000, bound);
    for (let round = 0; round < 40; round++) {
      pushAll(store, round * 200, (round + 1) * 200, pushed);
      await packAll(store, gate);
      assert.ok(store.blocks.bytes <= bound, `${store.blocks.bytes} bytes held`);
    }
    const kept = store.toArray();
    assert.deepStrictEqual(kept, pushed.slice(-kept.length));
    assert.equal(store.evicted + kept.length, 8000);
    const rawOfKept = kept.reduce((n, e) => n + line(e.timestamp).length, 0);
    assert.ok(rawOfKept > 2 * bound, `kept ${kept.length} lines, ${rawOfKept} raw bytes, under a ${bound}-byte bound`);
  });

  it('a packing that fails keeps its block raw and loses no event', async () => {
    // 1 MiB bound: 128 KiB blocks, room for every line raw. No spare kept at rest, to count packed bytes alone.
    const { gate, store, pushed } = gatedStore(10_000, 1024 * 1024, { quietMs: QUIET_MS, maxWaitMs: MAX_WAIT_MS, spareRestMs: 0 });
    pushAll(store, 0, 3000, pushed);
    const rawBytes = store.blocks.bytes;
    await packAll(store, gate, 'fail');
    assert.equal(store.blocks.bytes, rawBytes, 'every block stays raw');
    assert.deepStrictEqual(store.toArray(), pushed);
    // And the store goes on packing the blocks that come after.
    pushAll(store, 3000, 6000, pushed);
    await packAll(store, gate);
    // 3,000 more lines (over 300 KB raw, in two more blocks and a new open one) add less than
    // half a block: they were packed.
    assert.ok(store.blocks.bytes < rawBytes + 64 * 1024, `${store.blocks.bytes} bytes after packing the later blocks (${rawBytes} before)`);
    assert.deepStrictEqual(store.toArray(), pushed);
  });

  it('a stream that never pauses still has its blocks packed once the oldest has waited long enough', async () => {
    // A block every turn of the event loop, never a pause of 20 s; the oldest may wait 100 ms.
    const { gate, store, pushed } = gatedStore(100_000, 1024 * 1024, { quietMs: 20_000, maxWaitMs: 100 });
    const started = Date.now();
    // Bounded so that a store that never packs fails here rather than hanging: 5 s of pushes.
    while (gate.held.length === 0 && Date.now() - started < 5_000) {
      pushAll(store, pushed.length, pushed.length + 1300, pushed);
      await new Promise((r) => setImmediate(r));
    }
    assert.ok(gate.held.length > 0, 'blocks are being packed while the stream goes on');
    await packAll(store, gate);
    const kept = store.toArray();
    assert.deepStrictEqual(kept, pushed.slice(-kept.length));
  });

  it('a stream at rest between its blocks (a real pace) writes its next block into the memory of the last one packed', async () => {
    // 8 KiB blocks; each is packed in the quiet after it, as pi's blocks at 19,000 events/s are.
    const { gate, store, pushed } = gatedStore(100_000, 64 * 1024, { quietMs: 1, maxWaitMs: MAX_WAIT_MS, spareRestMs: 60_000 });
    const fillBlock = () => {
      const first = store.blocks.current;
      while (store.blocks.current === first) pushAll(store, pushed.length, pushed.length + 1, pushed);
    };
    pushAll(store, 0, 1, pushed);
    fillBlock();
    const sealed = store.blocks.current - 1;
    const memory = store.blocks.view(sealed).buffer;
    await packAll(store, gate);
    assert.notEqual(store.blocks.view(sealed).buffer, memory, 'the sealed block was packed');
    fillBlock();
    assert.equal(store.blocks.view(store.blocks.current).buffer, memory, 'the new open block is the packed one\'s memory, not a fresh allocation');
    assert.deepStrictEqual(store.toArray(), pushed);
  });

  it('the spare block is let go once the blocks stay at rest', async () => {
    const { gate, store, pushed } = gatedStore(100_000, 64 * 1024, { quietMs: 1, maxWaitMs: MAX_WAIT_MS, spareRestMs: 20 });
    pushAll(store, 0, 200, pushed);
    await packAll(store, gate);
    const atRest = store.blocks.bytes;
    await store.blocks.rested();
    assert.equal(atRest - store.blocks.bytes, 8192, 'the spare (one 8 KiB block) was let go');
    assert.deepStrictEqual(store.toArray(), pushed);
  });

  it('rested() also resolves when a new block took the spare and none came back', async () => {
    const { gate, store, pushed } = gatedStore(100_000, 64 * 1024, { quietMs: 1, maxWaitMs: MAX_WAIT_MS, spareRestMs: 20 });
    pushAll(store, 0, 200, pushed);
    await packAll(store, gate);
    let done = false;
    const rested = store.blocks.rested().then(() => (done = true));
    // Past idle(): rested() now waits on the spare.
    await new Promise((r) => setImmediate(r));
    assert.equal(done, false, 'a spare is held');
    // A new block takes the spare; its own packing fails, so it stays raw and no spare comes back.
    const first = store.blocks.current;
    while (store.blocks.current === first) pushAll(store, pushed.length, pushed.length + 1, pushed);
    await packAll(store, gate, 'fail');
    await rested;
    assert.deepStrictEqual(store.toArray(), pushed);
  });

  it('a worker that says little keeps little: the first blocks are small', () => {
    const store = new EventStore(10_000, decode);
    pushAll(store, 0, 10, []);
    assert.ok(store.blocks.bytes <= 64 * 1024, `${store.blocks.bytes} bytes for 10 short lines`);
  });

  it('packs with the real codec on the threadpool and reads back a line longer than a block', async () => {
    const store = new EventStore(1000, decode, { maxLineBytes: 64 * 1024 });
    const pushed: AgentEvent[] = [];
    pushAll(store, 0, 150, pushed);
    const long = JSON.stringify({ type: 'message_update', delta: 'é'.repeat(6000) });
    pushed.push({ ...JSON.parse(long), timestamp: 150 });
    store.push(pushed[150], Buffer.from(long));
    pushAll(store, 151, 300, pushed);
    store.blocks.sealOpen();
    await store.blocks.idle();
    assert.deepStrictEqual(store.toArray(), pushed);
  });
});
