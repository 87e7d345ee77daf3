// Run by bench/memory.mjs as `node --expose-gc memory-child.mjs <json options>`: streams n
// events from one fake worker into the product (the host, with its event store) or into a raw
// reader, and samples the heap after a full GC at checkpoints. Prints one JSON line.
import { BareWorker, WIRE, fakeArgs, fakeSpec, loadCore } from './common.mjs';

const opts = JSON.parse(process.argv[2]);
const { side, dialect, n, every, storeSize } = opts;
const MB = 1024 * 1024;

function sample(events) {
  globalThis.gc();
  globalThis.gc();
  const m = process.memoryUsage();
  return { events, heapUsedMB: m.heapUsed / MB, rssMB: m.rss / MB, externalMB: m.external / MB };
}

const samples = [];
let next = every;
let count = 0;
let done;
const ended = new Promise((r) => (done = r));
const onEvent = (type) => {
  count++;
  if (count >= next) {
    samples.push(sample(count));
    next += every;
  }
  if (type === 'agent_end') done();
};

let stop;
/** Before the last sample: the product's store packs its sealed blocks off the main thread; let it finish. */
let settle = async () => {};
let heldByStore = null;
/** The raw side: the bytes of the worker's event lines (LF included), what a store of lines cannot go below. */
let streamBytes = null;
if (side === 'product') {
  const core = loadCore(opts);
  const host = core.createSupervisor(storeSize ? { limits: { eventStoreSize: storeSize } } : {});
  const started = await host.start(fakeSpec(dialect));
  if (started.status !== 'started') throw new Error(started.error);
  host.onEvent((id, e) => {
    if (e.type !== 'prompt_sent') onEvent(e.type);
  });
  samples.push(sample(0));
  const r = await host.prompt(started.workerId, `events ${n}`);
  if (r.status !== 'accepted') throw new Error(r.error);
  settle = () => host.eventsPacked?.(started.workerId);
  stop = async () => {
    heldByStore = host.events(started.workerId).length;
    await host.dispose();
  };
} else {
  const wire = WIRE[dialect];
  const w = new BareWorker(process.execPath, fakeArgs(dialect));
  const probed = w.next((v) => wire.isResponse(v, 1));
  w.send(wire.probe(1));
  await probed;
  w.onValue = (v) => {
    if (wire.isEvent(v)) onEvent(wire.eventType(v));
  };
  samples.push(sample(0));
  streamBytes = 0;
  w.child.stdout.on('data', (chunk) => (streamBytes += chunk.length));
  w.send(wire.prompt(2, `events ${n}`));
  stop = () => w.stop();
}
await ended;
await settle();
samples.push(sample(count));
await stop();
process.stdout.write(JSON.stringify({ side, dialect, n, events: count, storeSize: storeSize ?? null, heldByStore, streamBytes, samples }) + '\n');
process.exit(0);
