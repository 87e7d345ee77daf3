// 7. The event path at the cost of parsing (issue 16): real programs' recorded streams
// (bench/recordings, by scripts/record-streams.mjs) replayed as a flood by
// bench/lib/flood-worker.mjs, per dialect (τ 1.x, τ 3.x as real τ 0.15.0 speaks it, pi 0.73.1,
// pi 1.6.0) and text-delta size, read by
//   host    the full host: createSupervisor → start → prompt → count onEvent until agent_end
//   bare    the same flood read in this process: LF split + JSON.parse, nothing else
//   rpc     pi's own RpcClient (0.73.1's for pi 0.73, 1.6.0's for pi 1.x), its onEvent
//   hist    the full host with a history (historySizes only), its writes awaited before CPU is read
// interleaved round by round (rotating the order), each run on a freshly started worker, and
//   parse   JSON.parse alone on the same lines, in memory (no pipe): the floor.
// Reported: events/s (host vs bare, host vs RpcClient), this process's CPU per event, and the
// main thread's own CPU per event (host vs bare, and with history vs bare).
// And at real programs' pace, one line per write (REAL_RATES): the main thread's CPU per event.
//   node bench/events.mjs [--n 150000] [--rounds 5] [--streams 'τ 1.x;pi 1.6.0'] [--sizes 90,real] [--history-sizes 90] [--no-rpc]
//                         [--rates 'τ 3.x (real τ 0.15.0);pi 1.6.0' | --no-rates]
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { buildFloorReader } from './lib/build.mjs';
import { BareWorker, ROOT, bareRun, figure, hostFloodRun, inFolder, loadCore, log, rpcClientRun, summary, withFloorHistory } from './lib/common.mjs';
import { buildFlood, loadRecording } from './lib/flood-worker.mjs';

const FLOOD = path.join(ROOT, 'bench/lib/flood-worker.mjs');
const RPC_CLIENTS = {
  'pi-0.73': path.join(ROOT, 'node_modules/@mariozechner/pi-coding-agent/dist/modes/rpc/rpc-client.js'),
  'pi-1.x': path.join(os.homedir(), '.cache/rpc-workers/pi-1.6.0/node_modules/@earendil-works/pi-coding-agent/dist/modes/rpc/rpc-client.js'),
};

/** The rows: a recording, how it is told, and its label. */
export const STREAMS = [
  { label: 'τ 1.x', recording: 'tau', dialect: 'tau', extra: ['--tau-protocol', '1'] },
  { label: 'τ 3.x (real τ 0.15.0)', recording: 'tau', dialect: 'tau', extra: [] },
  { label: 'pi 0.73.1', recording: 'pi-0.73', dialect: 'pi', extra: [] },
  { label: 'pi 1.6.0', recording: 'pi-1.x', dialect: 'pi', extra: [] },
];
export const EVENT_SIZES = [90, 500, 2048, 'real'];

/** `rate`: events per second, one line per write (0: a flood). */
export const floodArgs = (s, size, n, rate = 0) => [FLOOD, '--recording', s.recording, '--events', String(n), '--size', String(size), ...s.extra, ...(rate ? ['--rate', String(rate)] : [])];

export async function hostSide(core, s, size, n, hostOptions = {}, ready = undefined, rate = 0) {
  const host = core.createSupervisor(hostOptions);
  const started = await host.start({ dialect: s.dialect, command: process.execPath, args: floodArgs(s, size, n, rate), cwd: ROOT });
  if (started.status !== 'started') {
    await host.dispose();
    throw new Error(`start failed: ${started.error}`);
  }
  // Only what the worker sent on stdout: not the host's prompt_sent, its stderr, nor an agent_settled the host adds.
  // With a history, its writes are awaited before CPU is read: they are the host's work too.
  const drain = hostOptions.historyDir ? (h) => h.history.store.flush() : undefined;
  return hostFloodRun(host, started.workerId, (e) => e.type !== 'prompt_sent' && e.type !== 'stderr' && e.data?.synthesized !== true, ready, drain, lastOf(s));
}

const lasts = new Map();
/** The type of the last event of the stream's flood (the same whatever its size). */
function lastOf(s) {
  if (!lasts.has(s.recording)) lasts.set(s.recording, buildFlood(loadRecording(s.recording), { events: 1, size: 'real' }).last);
  return lasts.get(s.recording);
}

// Started as the host starts a worker (a session of its own), so both read the same pattern of writes.
export const bareSide = (s, size, n, ready, rate = 0) => bareRun(new BareWorker(process.execPath, floodArgs(s, size, n, rate), { detached: true }), s.dialect, 'flood', ready, lastOf(s));

/**
 * The floor under the host: a bare reader that frames, parses and validates with the product's
 * own LineFramer and codec (bench/lib/floor-reader.ts) and delivers nothing: the host does this
 * much for every event before anything else, so its ratio cannot go below this one; beside the
 * host's ratio, it shows how much of that ratio is left to the rest (turn stamps, store, delivery).
 */
export class FloorWorker extends BareWorker {
  /**
   * `history`: floor-reader.ts's floorHistory, given each event and its line as the host's history
   * is; `store`: its floorStore, given them as a worker's event store is.
   */
  constructor(reader, dialect, args, { history, store, delivery } = {}) {
    super(process.execPath, args, { detached: true });
    const keep = history && store ? (event, bytes) => {
      store(event, bytes);
      history.append(event, bytes);
    } : history ? (event, bytes) => history.append(event, bytes) : store;
    let onEvent = keep ? (event, _text, bytes) => {
      keep(event, bytes);
      this.onValue(event, true);
    } : (event) => this.onValue(event, true);
    if (delivery) {
      // floor-reader.ts's floorDelivery: stamped before it is kept, then handed to its one listener, the count.
      const { stamp, deliver } = delivery([(event) => this.onValue(event, true)]);
      onEvent = (event, _text, bytes) => {
        stamp(event);
        keep?.(event, bytes);
        deliver(event);
      };
    }
    this.read = reader(dialect, onEvent, (value) => this.onValue(value));
  }

  onChunk(chunk) {
    this.read(chunk);
  }
}
/**
 * `store` (floor-reader.ts's floorStore, a new one each run): the floor with the store, the
 * product's event store keeping every event as a worker's does. Still no turn stamp or delivery.
 */
const floorSide = (reader, s, size, n, rate = 0, store = undefined) => bareRun(new FloorWorker(reader, s.dialect, floodArgs(s, size, n, rate), { store }), s.dialect, 'flood', undefined, lastOf(s));
/**
 * The floor with the history: the framer and codec as above, and the product's history store
 * keeping each event (its line where the line stands for it) in a session of its own, its writes
 * awaited before CPU is read, as the host's with history are. No turn stamp, event store or
 * delivery: the least the host with a history can cost while it validates and writes as it does.
 */
const floorHistorySide = (bundle, s, size, n, root, withStore = false, delivery = false) => inFolder(root, delivery ? 'floor-delivery' : withStore ? 'floor-history-store' : 'floor-history', (dir) => withFloorHistory(bundle, dir, s.dialect,
  (history) => bareRun(new FloorWorker(bundle.floorReader, s.dialect, floodArgs(s, size, n), { history, store: withStore ? bundle.floorStore() : undefined, delivery: delivery ? bundle.floorDelivery : undefined }), s.dialect, 'flood', undefined, lastOf(s), () => history.flush())));
export const FLOOR_HISTORY_NAME = "main thread's CPU µs/event with the history's writes, floor with the history (the product's framer, codec and history store alone, nothing delivered) vs bare reader";
export const FLOOR_HISTORY_NOTE = 'frame + JSON.parse + validate + the history store\'s append and writes: no turn stamp, event store or delivery';
/** The floor with the history, and the event store too: the host with a history keeps every event in both. */
export const FLOOR_HISTORY_STORE_NAME = "main thread's CPU µs/event with the history's writes, floor with the store and the history (the product's framer, codec, event store and history store alone, nothing delivered) vs bare reader";
export const FLOOR_HISTORY_STORE_NOTE = 'frame + JSON.parse + validate + the event store + the history store\'s append and writes: no turn stamp or delivery';
/**
 * The floor with the store, the history and delivery: the floor with the store and the history,
 * plus the least the host must do for each event after it has read, checked and kept it: stamp
 * it with its turn (one shared frozen stamp, as the host stamps every event inside a turn) and
 * hand it to its listeners, each in a try/catch (bench/lib/floor-reader.ts, floorDelivery). The
 * host does all of this for every event (turns.ts stamps before the stores; supervisorFanout.ts
 * calls each listener so), and more besides: the turn fold's own bookkeeping (tool calls,
 * settling), the worker's bus, its file and terminal bookkeeping, and its reader's yield (a 2 ms
 * slice per turn of the event loop). So this floor is a lower bound of the host with a history,
 * and what lies between the two is those steps alone.
 */
export const FLOOR_DELIVERY_NAME = "main thread's CPU µs/event with the history's writes, floor with the store, the history and delivery (the product's framer, codec, event store and history store, a turn stamp and one listener) vs bare reader";
export const FLOOR_DELIVERY_NOTE = 'frame + JSON.parse + validate + turn stamp + the event store + the history store\'s append and writes + a listener: no turn fold, bus, bookkeeping or yield';

/** The sizes whose flood rows get the floor beside them (each side costs a run per round). */
export const FLOOR_SIZES = [90];
export const FLOOR_NAME = "main thread's CPU µs/event, floor (the product's framer and codec alone, nothing delivered) vs bare reader";
export const FLOOR_NOTE = 'frame + JSON.parse + validate with the product\'s own LineFramer and codec, no turn stamp, store or delivery: the least the host can cost while it frames and validates as it does';
export const STORE_FLOOR_NAME = "main thread's CPU µs/event, floor with the store (the product's framer, codec and event store alone, nothing delivered) vs bare reader";
export const STORE_FLOOR_NOTE = 'frame + JSON.parse + validate + keep in the product\'s event store (its line where it stands for the event), no turn stamp or delivery: the least the host can cost while it validates and keeps every event as it does';

/**
 * Real programs write one event per write, at their own pace (τ 0.15.0 about 5,500 events/s,
 * pi 1.6.0 16,000-22,000): the per-read costs then count, not the per-line ones. The recorded
 * lines as they are, at those rates; the main thread's CPU per event, host vs bare reader.
 */
export const REAL_RATES = [
  { label: 'τ 3.x (real τ 0.15.0)', rate: 5_500 },
  { label: 'pi 1.6.0', rate: 19_000 },
];

async function runRates({ core, n, rounds, warmup, rates, figures, rateRows, floor, bundle }) {
  for (const { label, rate } of rates) {
    const s = STREAMS.find((x) => x.label === label);
    // About four seconds a run.
    const events = Math.min(n, rate * 4);
    const expected = buildFlood(loadRecording(s.recording), { events, size: 'real', tau1: s.extra.includes('1') }).events;
    const sides = { host: () => hostSide(core, s, 'real', events, {}, undefined, rate), bare: () => bareSide(s, 'real', events, undefined, rate), floor: () => floorSide(floor, s, 'real', events, rate),
      storeFloor: () => floorSide(floor, s, 'real', events, rate, bundle.floorStore()) };
    await pacedRounds({ bench: 'events', label, rate, sides, expected, rounds, warmup, figures, rateRows });
  }
}

/**
 * One real-pace run (bench/events.mjs's and bench/acp.mjs's): `sides` host, bare, floor and the
 * floor with the store, each a run of `expected` events at `rate`, interleaved round by round in a
 * rotating order. Pushes the host's and the floors' figures (main thread's CPU per event, vs the
 * bare reader) and the table's row. Throws when a side counted other than `expected` events.
 */
export async function pacedRounds({ bench, label, rate, sides, expected, rounds, warmup, figures, rateRows }) {
  const names = Object.keys(sides);
  const results = Object.fromEntries(names.map((side) => [side, []]));
  if (warmup) for (const side of names) await sides[side]();
  for (let r = 0; r < rounds; r++) {
    for (const side of names.map((_, i) => names[(i + r) % names.length])) {
      const m = await sides[side]();
      if (m.events !== expected) throw new Error(`${label} at ${rate}/s: ${side} saw ${m.events} events of ${expected}`);
      results[side].push(m);
      log(`  ${bench} ${label} at ${rate}/s ${r + 1}/${rounds} ${side.padEnd(10)} ${String(Math.round(m.rate)).padStart(7)} events/s  main thread ${m.mainCpuUsPerEvent.toFixed(2)} µs CPU/event`);
    }
  }
  const pairs = (side) => results[side].map((p, i) => ({ product: p.mainCpuUsPerEvent, baseline: results.bare[i].mainCpuUsPerEvent }));
  const ratio = (ps) => summary(ps.map((p) => p.product / p.baseline)).median;
  const name = `${label}, as recorded, at ${rate.toLocaleString('en')} events/s one line per write`;
  const common = { bench, unit: 'µs', better: 'lower', digits: 2, baselineName: 'LF split + JSON.parse, same pace' };
  const hostRatio = ratio(pairs('host'));
  figures.push(figure({ ...common, name: `${name}: main thread's CPU µs/event, host vs bare reader`, pairs: pairs('host'), goal: '≤ 1.2×', met: hostRatio <= 1.2, note: `${expected} events/run` }));
  figures.push(figure({ ...common, name: `${name}: ${FLOOR_NAME}`, pairs: pairs('floor'), note: FLOOR_NOTE }));
  if (sides.storeFloor) figures.push(figure({ ...common, name: `${name}: ${STORE_FLOOR_NAME}`, pairs: pairs('storeFloor'), note: STORE_FLOOR_NOTE }));
  const med = (side) => summary(results[side].map((m) => m.mainCpuUsPerEvent)).median;
  rateRows.push({ label, rate, events: expected, host: med('host'), bare: med('bare'), ratio: hostRatio, floorRatio: ratio(pairs('floor')), storeFloorRatio: sides.storeFloor ? ratio(pairs('storeFloor')) : null });
}

function rpcSide(s, size, n) {
  // RpcClient runs `node <cliPath> --mode rpc <args>`.
  const [cliPath, ...args] = floodArgs(s, size, n);
  return rpcClientRun(RPC_CLIENTS[s.recording], { cliPath, args, text: 'flood', quiet: '[flood-worker' });
}

/** JSON.parse of the flood's lines, in memory: CPU µs per event (the floor). */
function parseAlone(flood) {
  const lines = [...flood.head.toString().split('\n'), ...Array(flood.repeats).fill(flood.body.toString()).join('').split('\n'), ...flood.tail.toString().split('\n')].filter(Boolean);
  const c0 = process.cpuUsage();
  let sink = 0;
  for (const l of lines) sink += JSON.parse(l) ? 1 : 0;
  const cpu = process.cpuUsage(c0);
  if (sink !== lines.length) throw new Error('parse');
  return { cpuUs: (cpu.user + cpu.system) / lines.length };
}

/** Events per run: about 40 MB of stream, between 20,000 (or `n` if less) and `n`. */
export function eventsFor(recording, size, n) {
  const probe = buildFlood(recording, { events: 2000, size });
  return Math.max(Math.min(n, 20_000), Math.min(n, Math.round(40e6 / (probe.bytes / probe.events))));
}

/** The host with a history (in a temporary folder), for the sizes in `historySizes`. */
const historySide = (core, s, size, n, root) => inFolder(root, 'run', (historyDir) => hostSide(core, s, size, n, { historyDir }));

export async function run({ n = 150_000, rounds = 5, warmup = true, streams = STREAMS.map((s) => s.label), sizes = EVENT_SIZES, historySizes = [90], rpc = true, rates = REAL_RATES, ...opts } = {}) {
  const core = loadCore(opts);
  const figures = [];
  const rows = [];
  const rateRows = [];
  const root = mkdtempSync(path.join(os.tmpdir(), 'rpc-bench-events-'));
  try {
    const bundle = createRequire(import.meta.url)(await buildFloorReader(root));
    const floor = bundle.floorReader;
    await runStreams({ core, n, rounds, warmup, streams, sizes, historySizes, rpc, root, figures, rows, floor, bundle });
    await runRates({ core, n, rounds, warmup, rates, figures, rateRows, floor, bundle });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return { figures, tables: [eventsTable(rows), ...(rateRows.length ? [ratesTable(rateRows)] : [])], rows, rateRows };
}

/** The real-pace rows: the main thread's CPU per event, medians, and the per-pair ratio's median. */
export function ratesTable(rows) {
  const head = ['stream, as recorded, one line per write', 'events/s', "main thread's CPU µs/event host · bare", 'host/bare', 'floor/bare', 'floor with the store/bare'];
  const body = rows.map((r) => [r.label, r.rate.toLocaleString('en'), `${r2(r.host)} · ${r2(r.bare)}`, r2(r.ratio), r2(r.floorRatio), r2(r.storeFloorRatio ?? null)]);
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...body.map((c) => `| ${c.join(' | ')} |`)].join('\n');
}

async function runStreams({ core, n, rounds, warmup, streams, sizes, historySizes, rpc, root, figures, rows, floor, bundle }) {
  for (const s of STREAMS.filter((x) => streams.includes(x.label))) {
    const recording = loadRecording(s.recording);
    for (const size of sizes) {
      const events = eventsFor(recording, size, n);
      const flood = buildFlood(recording, { events, size, tau1: s.extra.includes('1') });
      const bytes = Math.round(flood.bytes / flood.events);
      const sides = { host: () => hostSide(core, s, size, events), bare: () => bareSide(s, size, events) };
      if (s.dialect === 'pi' && rpc) sides.rpc = () => rpcSide(s, size, events);
      if (historySizes.includes(size)) {
        sides.hist = historySide(core, s, size, events, root);
        sides.histFloor = floorHistorySide(bundle, s, size, events, root);
        sides.histStoreFloor = floorHistorySide(bundle, s, size, events, root, true);
        sides.deliveryFloor = floorHistorySide(bundle, s, size, events, root, true, true);
      }
      if (FLOOR_SIZES.includes(size)) {
        sides.floor = () => floorSide(floor, s, size, events);
        sides.storeFloor = () => floorSide(floor, s, size, events, 0, bundle.floorStore());
      }
      const names = Object.keys(sides);
      const results = Object.fromEntries(names.map((k) => [k, []]));
      if (warmup) for (const side of names) await sides[side]();
      const parse = [];
      for (let r = 0; r < rounds; r++) {
        const order = names.map((_, i) => names[(i + r) % names.length]);
        for (const side of order) {
          const m = await sides[side]();
          if (m.events !== flood.events) throw new Error(`${s.label} ${size}: ${side} saw ${m.events} events of ${flood.events}`);
          results[side].push(m);
          log(`  events ${s.label} ${size} ${r + 1}/${rounds} ${side.padEnd(10)} ${String(Math.round(m.rate)).padStart(7)} events/s  ${m.cpuUsPerEvent.toFixed(2)} µs CPU/event`);
        }
        parse.push(parseAlone(flood).cpuUs);
      }
      const label = `${s.label}, ${size === 'real' ? 'as recorded' : `${size} B deltas`} (${bytes} B/event)`;
      const pairs = (other, key) => results.host.map((p, i) => ({ product: p[key], baseline: results[other][i][key] }));
      const ratio = (ps) => summary(ps.map((p) => p.product / p.baseline)).median;
      const bare = pairs('bare', 'rate');
      const note = `${flood.events} events/run`;
      figures.push(figure({ bench: 'events', name: `${label}: events/s, host vs bare reader`, unit: 'events/s', better: 'higher', digits: 0, pairs: bare, baselineName: 'LF split + JSON.parse, same pipe', goal: '≥ 0.8×', met: ratio(bare) >= 0.8, note }));
      const cpuBare = pairs('bare', 'cpuUsPerEvent');
      figures.push(figure({ bench: 'events', name: `${label}: CPU µs/event, host vs bare reader`, unit: 'µs', better: 'lower', digits: 2, pairs: cpuBare, baselineName: 'LF split + JSON.parse' }));
      // The main thread's own CPU: what a worker takes from the editor's extension host thread.
      const mainBare = pairs('bare', 'mainCpuUsPerEvent');
      figures.push(figure({ bench: 'events', name: `${label}: main thread's CPU µs/event, host vs bare reader`, unit: 'µs', better: 'lower', digits: 2, pairs: mainBare, baselineName: 'LF split + JSON.parse' }));
      // A floor beside the bare reader (the main thread's CPU), as a figure; its ratio, or null when that side did not run.
      const floorFigure = (side, name, floorNote) => {
        if (!results[side]) return null;
        const fp = results[side].map((p, i) => ({ product: p.mainCpuUsPerEvent, baseline: results.bare[i].mainCpuUsPerEvent }));
        figures.push(figure({ bench: 'events', name: `${label}: ${name}`, unit: 'µs', better: 'lower', digits: 2, pairs: fp, baselineName: 'LF split + JSON.parse', note: floorNote }));
        return ratio(fp);
      };
      let histRatio = null;
      if (results.hist) {
        const hist = results.hist.map((p, i) => ({ product: p.mainCpuUsPerEvent, baseline: results.bare[i].mainCpuUsPerEvent }));
        histRatio = ratio(hist);
        figures.push(figure({ bench: 'events', name: `${label}: main thread's CPU µs/event incl. the history's writes, host with history vs bare reader`, unit: 'µs', better: 'lower', digits: 2, pairs: hist, baselineName: 'LF split + JSON.parse', goal: '≤ 1.60×', met: histRatio <= 1.6 }));
      }
      const histFloorRatio = floorFigure('histFloor', FLOOR_HISTORY_NAME, FLOOR_HISTORY_NOTE);
      const histStoreFloorRatio = floorFigure('histStoreFloor', FLOOR_HISTORY_STORE_NAME, FLOOR_HISTORY_STORE_NOTE);
      const deliveryFloorRatio = floorFigure('deliveryFloor', FLOOR_DELIVERY_NAME, FLOOR_DELIVERY_NOTE);
      const floorRatio = floorFigure('floor', FLOOR_NAME, FLOOR_NOTE);
      const storeFloorRatio = floorFigure('storeFloor', STORE_FLOOR_NAME, STORE_FLOOR_NOTE);
      const cpuParse = results.host.map((p, i) => ({ product: p.cpuUsPerEvent, baseline: parse[i] }));
      figures.push(figure({ bench: 'events', name: `${label}: CPU µs/event, host vs JSON.parse alone`, unit: 'µs', better: 'lower', digits: 2, pairs: cpuParse, baselineName: 'JSON.parse of the same lines, in memory', goal: '≤ 1.25×', met: ratio(cpuParse) <= 1.25 }));
      let rpcRatio = null;
      if (results.rpc) {
        const rp = pairs('rpc', 'rate');
        rpcRatio = ratio(rp);
        figures.push(figure({ bench: 'events', name: `${label}: events/s, host vs pi's RpcClient`, unit: 'events/s', better: 'higher', digits: 0, pairs: rp, baselineName: "pi's own RpcClient", goal: '≥ 1×', met: rpcRatio >= 1 }));
      }
      const med = (side, key) => summary(results[side].map((m) => m[key])).median;
      rows.push({
        stream: s.label, size: size === 'real' ? 'as recorded' : `${size} B`, bytes, events: flood.events,
        host: med('host', 'rate'), bare: med('bare', 'rate'), ratio: ratio(bare), rpc: results.rpc ? med('rpc', 'rate') : null, rpcRatio,
        hostCpu: med('host', 'cpuUsPerEvent'), bareCpu: med('bare', 'cpuUsPerEvent'), rpcCpu: results.rpc ? med('rpc', 'cpuUsPerEvent') : null, parseCpu: summary(parse).median, parseRatio: ratio(cpuParse),
        mainRatio: ratio(mainBare), histRatio, histFloorRatio, histStoreFloorRatio, deliveryFloorRatio, floorRatio, storeFloorRatio,
      });
    }
  }
}

const r0 = (v) => (v === null ? '–' : Math.round(v).toLocaleString('en'));
const r2 = (v) => (v === null ? '–' : v.toFixed(2));

/** The issue's table: one row per stream and size, medians of the rounds, ratios per pair. */
export function eventsTable(rows) {
  const head = ['stream', 'deltas', 'B/event', 'host ev/s', 'bare ev/s', 'host/bare', 'RpcClient ev/s', 'host/RpcClient', 'CPU µs/event host · bare · RpcClient · JSON.parse', 'host/JSON.parse', 'main thread CPU host/bare', 'the same, history on', 'its floor', 'its floor with the store', 'its floor with the store and delivery', 'floor/bare', 'floor with the store/bare'];
  const body = rows.map((r) => [r.stream, r.size, String(r.bytes), r0(r.host), r0(r.bare), r2(r.ratio), r0(r.rpc), r2(r.rpcRatio), `${r2(r.hostCpu)} · ${r2(r.bareCpu)} · ${r2(r.rpcCpu)} · ${r2(r.parseCpu)}`, r2(r.parseRatio), r2(r.mainRatio), r2(r.histRatio), r2(r.histFloorRatio), r2(r.histStoreFloorRatio), r2(r.deliveryFloorRatio), r2(r.floorRatio), r2(r.storeFloorRatio)]);
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...body.map((c) => `| ${c.join(' | ')} |`)].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (k, d) => (process.argv.includes(k) ? process.argv[process.argv.indexOf(k) + 1] : d);
  const out = await run({
    n: Number(arg('--n', 150000)), rounds: Number(arg('--rounds', 5)),
    streams: arg('--streams', STREAMS.map((s) => s.label).join(';')).split(';'),
    sizes: arg('--sizes', EVENT_SIZES.join(',')).split(',').map((x) => (x === 'real' ? x : Number(x))),
    rpc: !process.argv.includes('--no-rpc'),
    rates: process.argv.includes('--no-rates') ? [] : REAL_RATES.filter((r) => arg('--rates', REAL_RATES.map((x) => x.label).join(';')).split(';').includes(r.label)),
    historySizes: arg('--history-sizes', '90').split(',').map((x) => (x === 'real' ? x : Number(x))),
  });
  for (const t of out.tables) console.log(`${t}\n`);
  console.log(`load ${os.loadavg().map((v) => v.toFixed(2)).join(' ')}`);
}
