// 10. The ACP event path: claude-agent-acp 0.101.0's recorded session/update lines (its text
// chunks, tool calls and usage) replayed as a flood by bench/lib/acp-flood-agent.mjs, read by
//   host    the full host: createSupervisor → start (initialize, session/new) → prompt → count
//           onEvent until the prompt's answer (agent_end)
//   bare    the same flood read in this process: LF split + JSON.parse, count until the answer
// interleaved round by round (rotating the order), each run on a freshly started agent, per
// text-chunk size. Reported: this process's main-thread CPU per event, host ÷ bare.
// And at real agents' pace (ACP_RATES, measured by scripts/acp-pace.mjs): the recorded lines one
// per write, read by the host, the bare reader and the floor (the product's framer and codec
// alone, bench/events.mjs's), as events.mjs plays τ's and pi's.
//   node bench/acp.mjs [--n 150000] [--rounds 5] [--sizes 90,real | --no-flood] [--no-rates]
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildFloorReader } from './lib/build.mjs';
import { BareWorker, ROOT, figure, hostFloodRun, inFolder, loadCore, log, mainThreadMark, measured, withFloorHistory } from './lib/common.mjs';
import { buildFlood } from './lib/acp-flood-agent.mjs';
import { FLOOR_DELIVERY_NAME, FLOOR_DELIVERY_NOTE, FLOOR_HISTORY_NAME, FLOOR_HISTORY_NOTE, FLOOR_HISTORY_STORE_NAME, FLOOR_HISTORY_STORE_NOTE, FLOOR_NAME, FLOOR_NOTE, FLOOR_SIZES, FloorWorker, pacedRounds, ratesTable, STORE_FLOOR_NAME, STORE_FLOOR_NOTE } from './events.mjs';

const AGENT = path.join(ROOT, 'bench/lib/acp-flood-agent.mjs');
const SIZES = [90, 500, 2048, 'real'];
const argsFor = (size, n, rate = 0) => [AGENT, '--events', String(n), '--size', String(size), ...(rate ? ['--rate', String(rate)] : [])];

/**
 * The real agents' pace while streaming a long reply from the mock model (session/update lines a
 * second, medians: scripts/acp-pace.mjs, docs/real-workers.md): claude-agent-acp's, whose lines
 * these are, and the fastest agent's.
 */
export const ACP_RATES = [
  { label: 'ACP claude-agent-acp 0.101.0', rate: 17_000 },
  { label: "ACP claude-agent-acp 0.101.0's lines at OpenCode 1.18.33's pace", rate: 24_000 },
];

/** `hostOptions.historyDir`: the host keeps a history there, its writes awaited before CPU is read. */
export async function hostSide(core, size, n, ready, rate = 0, hostOptions = {}) {
  const host = core.createSupervisor(hostOptions);
  const started = await host.start({ dialect: 'acp', command: process.execPath, args: argsFor(size, n, rate), cwd: ROOT });
  if (started.status !== 'started') {
    await host.dispose();
    throw new Error(`start failed: ${started.error}`);
  }
  // What the agent sent: its updates and the prompt's answer (agent_end), not the host's own.
  const drain = hostOptions.historyDir ? (h) => h.history.store.flush() : undefined;
  return hostFloodRun(host, started.workerId, (e) => e.type !== 'prompt_sent' && e.type !== 'agent_start' && e.type !== 'stderr' && e.data?.synthesized !== true, ready, drain);
}

/** The floor's reader, told of the requests sent as the host's codec is (an answer is read by its request). */
class AcpFloorWorker extends FloorWorker {
  send(message) {
    this.read.encode(message);
    super.send(message);
  }
}

/**
 * `floor`: read with the product's framer and codec (bench/lib/floor-reader.ts) instead of LF
 * split + JSON.parse; `history` (floor-reader.ts's floorHistory): the floor keeps a history too,
 * its writes awaited before CPU is read; `store` (its floorStore): the floor keeps every event in
 * the product's event store; `delivery` (its floorDelivery): the floor stamps each event and hands it
 * to its listener too (bench/events.mjs, FLOOR_DELIVERY_NAME).
 */
export async function bareSide(size, n, ready, { rate = 0, floor, history, store, delivery } = {}) {
  // Started as the host starts a worker (a session of its own: bench/lib/common.mjs, BareWorker).
  const w = floor ? new AcpFloorWorker(floor, 'acp', argsFor(size, n, rate), { history, store, delivery }) : new BareWorker(process.execPath, argsFor(size, n, rate), { detached: true });
  try {
    const send = (m) => w.send({ jsonrpc: '2.0', ...m });
    const init = w.next((v) => v.id === 1, 30_000, 'initialize');
    send({ id: 1, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: {} } });
    await init;
    const session = w.next((v) => v.id === 2, 30_000, 'session/new');
    send({ id: 2, method: 'session/new', params: { cwd: ROOT, mcpServers: [] } });
    const { result } = await session;
    let count = 0;
    const ended = new Promise((resolve) => {
      // The floor hands each update as the host's event (`decoded`), the answer as it came.
      w.onValue = (v, decoded = false) => {
        if (decoded || v.method === 'session/update' || v.id === 3) count++;
        if (!decoded && v.id === 3) resolve(performance.now());
      };
    });
    if (ready) await ready();
    const main0 = mainThreadMark();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    send({ id: 3, method: 'session/prompt', params: { sessionId: result.sessionId, prompt: [{ type: 'text', text: 'flood' }] } });
    const t1 = await ended;
    if (history) await history.flush();
    return measured(count, t0, t1, c0, main0);
  } finally {
    await w.stop();
  }
}

export async function run({ n = 150_000, rounds = 5, warmup = true, sizes = SIZES, rates = ACP_RATES, ...opts } = {}) {
  const core = loadCore(opts);
  const figures = [];
  const rateRows = [];
  const root = mkdtempSync(path.join(os.tmpdir(), 'rpc-bench-acp-'));
  try {
    const bundle = createRequire(import.meta.url)(await buildFloorReader(root));
    const floor = bundle.floorReader;
    await runFloods({ core, n, rounds, warmup, sizes, figures, bundle, root });
    for (const { label, rate } of rates) {
      // About four seconds a run; every update and the prompt's answer counted.
      const events = Math.min(n, rate * 4);
      const sides = { host: () => hostSide(core, 'real', events, undefined, rate), bare: () => bareSide('real', events, undefined, { rate }), floor: () => bareSide('real', events, undefined, { rate, floor }),
        storeFloor: () => bareSide('real', events, undefined, { rate, floor, store: bundle.floorStore() }) };
      await pacedRounds({ bench: 'acp', label, rate, sides, expected: buildFlood(events).events + 1, rounds, warmup, figures, rateRows });
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return { figures, rateRows, tables: rateRows.length ? [ratesTable(rateRows)] : [] };
}

/**
 * Host, bare reader and, for FLOOR_SIZES, the floor, the floor with the store, the host with a
 * history, the floor with the history, the floor with the store and the history, and that floor
 * with delivery too (as bench/events.mjs has them for τ and pi), interleaved round by round in a
 * rotating order.
 */
async function runFloods({ core, n, rounds, warmup, sizes, figures, bundle, root }) {
  for (const size of sizes) {
    const sides = { host: () => hostSide(core, size, n), bare: () => bareSide(size, n) };
    if (FLOOR_SIZES.includes(size)) {
      sides.floor = () => bareSide(size, n, undefined, { floor: bundle.floorReader });
      sides.storeFloor = () => bareSide(size, n, undefined, { floor: bundle.floorReader, store: bundle.floorStore() });
      sides.hist = inFolder(root, 'hist', (historyDir) => hostSide(core, size, n, undefined, 0, { historyDir }));
      sides.histFloor = inFolder(root, 'hist-floor', (dir) => withFloorHistory(bundle, dir, 'acp', (history) => bareSide(size, n, undefined, { floor: bundle.floorReader, history })));
      sides.histStoreFloor = inFolder(root, 'hist-store-floor', (dir) => withFloorHistory(bundle, dir, 'acp', (history) => bareSide(size, n, undefined, { floor: bundle.floorReader, history, store: bundle.floorStore() })));
      sides.deliveryFloor = inFolder(root, 'delivery-floor', (dir) => withFloorHistory(bundle, dir, 'acp', (history) => bareSide(size, n, undefined, { floor: bundle.floorReader, history, store: bundle.floorStore(), delivery: bundle.floorDelivery })));
    }
    if (warmup) {
      await hostSide(core, size, Math.min(n, 5000));
      await bareSide(size, Math.min(n, 5000));
    }
    const results = Object.fromEntries(Object.keys(sides).map((side) => [side, []]));
    const order = Object.keys(sides);
    for (let round = 0; round < rounds; round++) {
      for (const side of order.map((_, i) => order[(i + round) % order.length])) results[side].push(await sides[side]());
      const counts = order.map((side) => results[side][round].events);
      if (new Set(counts).size !== 1) throw new Error(`${order.join(', ')} saw ${counts.join(', ')} events (size ${size})`);
    }
    const pairs = (side) => results[side].map((m, i) => ({ product: m.mainCpuUsPerEvent, baseline: results.bare[i].mainCpuUsPerEvent, events: m.events }));
    log(`  ACP ${size} B: host ${pairs('host').map((p) => p.product.toFixed(2)).join(' ')} µs/event, bare ${pairs('host').map((p) => p.baseline.toFixed(2)).join(' ')}`);
    const what = `ACP (claude-agent-acp 0.101.0 recorded), ${size === 'real' ? 'as recorded' : `${size} B chunks`}`;
    const note = `${results.host[0]?.events ?? 0} events a run, every one counted on each side`;
    figures.push(figure({ bench: 'acp', name: `${what}: main-thread CPU per event, host vs bare reader`, unit: 'µs/event', better: 'lower', baselineName: 'bare reader (LF split + JSON.parse)', pairs: pairs('host'), note }));
    if (!sides.floor) continue;
    const common = { bench: 'acp', unit: 'µs/event', better: 'lower', baselineName: 'bare reader (LF split + JSON.parse)' };
    figures.push(figure({ ...common, name: `${what}: ${FLOOR_NAME}`, pairs: pairs('floor'), note: FLOOR_NOTE }));
    figures.push(figure({ ...common, name: `${what}: ${STORE_FLOOR_NAME}`, pairs: pairs('storeFloor'), note: STORE_FLOOR_NOTE }));
    figures.push(figure({ ...common, name: `${what}: main thread's CPU µs/event incl. the history's writes, host with history vs bare reader`, pairs: pairs('hist'), note }));
    figures.push(figure({ ...common, name: `${what}: ${FLOOR_HISTORY_NAME}`, pairs: pairs('histFloor'), note: FLOOR_HISTORY_NOTE }));
    figures.push(figure({ ...common, name: `${what}: ${FLOOR_HISTORY_STORE_NAME}`, pairs: pairs('histStoreFloor'), note: FLOOR_HISTORY_STORE_NOTE }));
    figures.push(figure({ ...common, name: `${what}: ${FLOOR_DELIVERY_NAME}`, pairs: pairs('deliveryFloor'), note: FLOOR_DELIVERY_NOTE }));
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (k, d) => (process.argv.includes(k) ? process.argv[process.argv.indexOf(k) + 1] : d);
  const out = await run({
    n: Number(arg('--n', 150000)), rounds: Number(arg('--rounds', 5)),
    sizes: process.argv.includes('--no-flood') ? [] : arg('--sizes', SIZES.join(',')).split(',').map((x) => (x === 'real' ? x : Number(x))),
    rates: process.argv.includes('--no-rates') ? [] : ACP_RATES,
  });
  for (const f of out.figures) console.log(`${f.name}: ${f.ratio.median}× (${f.product.median} vs ${f.baseline.median} ${f.unit})`);
  for (const t of out.tables) console.log(`\n${t}`);
  console.log(`\nload ${os.loadavg().map((v) => v.toFixed(2)).join(' ')}`);
}
