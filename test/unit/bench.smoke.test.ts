// Every benchmark of bench/ run with tiny N, so none can rot: each must produce its figures and
// they must be sane (counts match, numbers finite). No speed is asserted here, ever: these
// machines are shared and absolute times vary; `npm run bench` is where speed is measured.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../helpers/supervisor';

interface Summary { n: number; min: number; median: number; p95: number; max: number }
interface Figure {
  bench: string; name: string; unit: string; product: Summary; baseline: Summary | null;
  ratio: Summary | null; diff: Summary | null; goal: string | null; met: boolean | null;
}
interface Results { figures: Figure[]; errors: Array<{ bench: string; error: string }> }

// The bench scripts are plain .mjs; imported by URL so the type checker leaves them alone.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an untyped .mjs module, read by shape
const load = (file: string): Promise<any> => import(pathToFileURL(path.join(ROOT, 'bench', file)).href);

function sane(f: Figure): void {
  const what = `${f.bench}: ${f.name}`;
  assert.ok(f.product.n >= 1, `${what}: no product samples`);
  for (const k of ['min', 'median', 'p95'] as const) assert.ok(Number.isFinite(f.product[k]), `${what}: product ${k} is ${f.product[k]}`);
  assert.ok(f.product.min <= f.product.median && f.product.median <= f.product.p95, `${what}: min ≤ median ≤ p95`);
  if (f.baseline) {
    assert.equal(f.baseline.n, f.product.n, `${what}: as many baseline samples as product ones`);
    assert.ok(Number.isFinite(f.baseline.median), `${what}: baseline median is ${f.baseline.median}`);
  }
  // A pair whose baseline is 0 (no long task at all, say) has no finite ratio.
  if (f.ratio) assert.ok(f.baseline && f.ratio.n <= f.product.n, `${what}: at most one ratio per pair`);
}

describe('benchmarks (smoke: tiny N, figures produced and sane, no speed asserted)', function () {
  this.timeout(10 * 60_000);
  let dist: string;
  let runner: { runAll: (o: object) => Promise<Results>; table: (r: Results, o?: object) => string; SIZES: Record<string, Record<string, object>> };

  let quiet: string | undefined;
  before(async function () {
    this.timeout(120_000);
    quiet = process.env.BENCH_QUIET;
    process.env.BENCH_QUIET = '1';
    // The bundles of the sources as they are now, in a directory of this test's own.
    dist = mkdtempSync(path.join(tmpdir(), 'rpc-workers-bench-smoke-'));
    await (await load('lib/build.mjs')).buildBundles(dist);
    runner = await load('run.mjs');
  });
  after(() => {
    rmSync(dist, { recursive: true, force: true });
    if (quiet === undefined) delete process.env.BENCH_QUIET;
    else process.env.BENCH_QUIET = quiet;
  });

  it('abort → settled: every abort lands and is paired with a bare one', async () => {
    const { figures } = await (await load('abort.mjs')).run({ ...runner.SIZES.quick.abort, dist });
    assert.deepEqual([...new Set(figures.map((f: Figure) => f.name.split(':')[0]))], ['fake worker (pi)', 'fake worker (tau)', 'real pi 0.73.1 + mock LLM', 'real pi 1.6.0 + mock LLM']);
    for (const f of figures) {
      sane(f);
      const sizes = runner.SIZES.quick.abort as { fakeCount: number; piCount: number };
      assert.equal(f.product.n, f.name.startsWith('real') ? sizes.piCount : sizes.fakeCount);
      assert.ok(f.diff && Number.isFinite(f.diff.median));
      if (f.name.includes("host's own time")) {
        assert.equal(typeof f.met, 'boolean');
        assert.ok(f.product.min >= 0, 'the host\'s own time is a duration');
      }
    }
    assert.equal(figures.length, 8, 'end to end and the host\'s own time, for each worker');
  });

  it('throughput: the host, the raw reader and RpcClient see the same number of events', async () => {
    const { figures, detail } = await (await load('throughput.mjs')).run({ ...runner.SIZES.quick.throughput, dist });
    for (const f of figures) sane(f);
    for (const key of ['fake/pi', 'fake/tau', 'replay/pi', 'replay/tau']) {
      const d = detail[key];
      assert.ok(d, `no results for ${key}`);
      const counts = new Set(Object.values(d).flat().map((m) => (m as { events: number }).events));
      assert.equal(counts.size, 1, `${key}: event counts differ between the sides: ${[...counts].join(', ')}`);
      assert.ok([...counts][0] > 2000, `${key}: too few events`);
    }
    assert.ok(figures.some((f: Figure) => f.name.includes('RpcClient')));
  });

  it('memory: heap sampled through the run, the store at its bound', async () => {
    const { figures, detail } = await (await load('memory.mjs')).run({ ...runner.SIZES.quick.memory, dist });
    for (const f of figures) sane(f);
    const product = detail.product[0];
    assert.ok(product.events >= 20_000);
    assert.equal(product.heldByStore, 10_000, 'the store holds its bound');
    assert.ok(product.samples.length >= 4);
  });

  it('start-up: host and bare starts, activation under the vscode stub, bundle sizes', async () => {
    const { figures } = await (await load('startup.mjs')).run({ ...runner.SIZES.quick.startup, dist });
    for (const f of figures) sane(f);
    const names = figures.map((f: Figure) => f.name);
    assert.deepEqual(names.filter((n: string) => n.startsWith('real pi')).map((n: string) => n.split(':')[0]), ['real pi 0.73.1', 'real pi 1.6.0']);
    assert.ok(names.some((n: string) => n.includes('activate()')));
    // A first window (no code cache) and later windows (from the cache), each measured as such.
    for (const window of ['a first window (no code cache yet)', 'later windows (code cache)']) assert.ok(names.includes(`activation, minified extension.js (.vsix), ${window}: activate()`), window);
    for (const bundle of ['extension.js', 'core.js', 'webview.js']) assert.ok(names.some((n: string) => n.endsWith(`minified/${bundle}`)), bundle);
  });

  it('event-log rendering: every event reaches the page, the DOM count is read', async () => {
    const { figures, detail } = await (await load('webview.mjs')).run({ ...runner.SIZES.quick.webview, dist });
    for (const f of figures) sane(f);
    assert.ok(detail.product[0].rendered, 'the page reported what it drew');
    assert.equal(detail.product[0].rendered.events, 2_000);
    assert.ok(detail.product[0].domNodes > detail.bare[0].domNodes);
  });

  it('real τ: abort, start-up and a streamed reply, each paired with a bare script on the same τ', async () => {
    const { figures } = await (await load('tau.mjs')).run({ ...runner.SIZES.quick.tau, dist });
    for (const f of figures) sane(f);
    assert.deepEqual(figures.map((f: Figure) => f.name.split(':')[0]), [
      'real τ 0.15.0 + mock LLM', 'real τ 0.15.0 + mock LLM', 'real τ 0.15.0', 'real τ 0.15.0', 'real τ 0.15.0',
    ]);
    for (const f of figures) assert.ok(f.baseline, `${f.name}: a baseline in the same run`);
  });

  it('history: with and without persistence the host sees the same events, and the disk catches up', async () => {
    const { figures, detail } = await (await load('history.mjs')).run({ ...runner.SIZES.quick.history, dist });
    for (const f of figures) sane(f);
    assert.equal(figures.length, 4, 'events/s and CPU per event, for pi and τ');
    for (const dialect of ['pi', 'tau']) {
      const { on, off } = detail[dialect] as { on: Array<{ events: number; drainMs: number }>; off: Array<{ events: number }> };
      assert.deepEqual(on.map((m) => m.events), off.map((m) => m.events), `${dialect}: the same events either way`);
      assert.ok(on[0].events > 2000);
      assert.ok(on.every((m) => Number.isFinite(m.drainMs) && m.drainMs >= 0));
    }
  });

  it('the event path: every recorded stream flooded, the host, the bare reader and RpcClient count the same events', async () => {
    const { figures, rows, tables } = await (await load('events.mjs')).run({ ...runner.SIZES.quick.events, dist });
    for (const f of figures) sane(f);
    // events.mjs throws when a side sees another count than the flood holds; here, every stream ran.
    assert.deepEqual(rows.map((r: { stream: string }) => r.stream), ['τ 1.x', 'τ 3.x (real τ 0.15.0)', 'pi 0.73.1', 'pi 1.6.0']);
    for (const r of rows) assert.ok(r.events >= 2_000, `${r.stream}: ${r.events} events`);
    assert.equal(figures.filter((f: Figure) => f.name.includes('RpcClient')).length, 2, 'both pis beside their own RpcClient');
    // The floor (the product's framer and codec alone) ran beside every 90 B flood and real-pace run, and counted every event.
    const floors = figures.filter((f: Figure) => f.name.includes('floor (the product'));
    assert.deepEqual(floors.map((f: Figure) => f.name.split(',')[0].split(':')[0]), ['τ 1.x', 'τ 3.x (real τ 0.15.0)', 'pi 0.73.1', 'pi 1.6.0', 'τ 3.x (real τ 0.15.0)', 'pi 1.6.0']);
    for (const r of rows) assert.ok(r.floorRatio > 0, `${r.stream}: floor ratio ${r.floorRatio}`);
    // The floor with the store (framer, codec and event store) beside each floor.
    const storeFloors = figures.filter((f: Figure) => f.name.includes('floor with the store ('));
    assert.deepEqual(storeFloors.map((f: Figure) => f.name.split(': ')[0]), floors.map((f: Figure) => f.name.split(': ')[0]));
    for (const r of rows) assert.ok(r.storeFloorRatio > 0, `${r.stream}: store floor ratio ${r.storeFloorRatio}`);
    // And the floor with the history (framer, codec and history store) beside every host with a history.
    const withHistory = (kind: string) => figures.filter((f: Figure) => f.name.includes(kind)).map((f: Figure) => f.name.split(',')[0]);
    assert.deepEqual(withHistory('floor with the history'), withHistory('host with history'));
    assert.equal(withHistory('floor with the history').length, 4);
    assert.deepEqual(withHistory('floor with the store and the history'), withHistory('host with history'));
    assert.deepEqual(withHistory('floor with the store, the history and delivery'), withHistory('host with history'));
    for (const r of rows) assert.ok(r.histFloorRatio > 0, `${r.stream}: history floor ratio ${r.histFloorRatio}`);
    for (const r of rows) assert.ok(r.deliveryFloorRatio > 0, `${r.stream}: delivery floor ratio ${r.deliveryFloorRatio}`);
    assert.equal(tables[0].split('\n').length, 2 + rows.length);
  });

  it('the ACP event path: the flood, and at real agents\' pace the host, the bare reader and both floors, every event counted', async () => {
    const acp = await load('acp.mjs');
    const { figures, rateRows, tables } = await acp.run({ ...runner.SIZES.quick.acp, dist });
    for (const f of figures) sane(f);
    assert.ok(figures.some((f: Figure) => f.name.startsWith('ACP (claude-agent-acp 0.101.0 recorded), 90 B chunks')), 'the flood ran');
    // acp.mjs throws when a side of a paced round counted other than the flood's updates and the prompt's answer.
    const labels = acp.ACP_RATES.map((r: { label: string }) => r.label);
    assert.deepEqual(rateRows.map((r: { label: string }) => r.label), labels);
    const { buildFlood } = await load('lib/acp-flood-agent.mjs');
    for (const r of rateRows) {
      assert.equal(r.events, buildFlood((runner.SIZES.quick.acp as { n: number }).n).events + 1, `${r.label}: every update and the answer`);
      assert.ok(r.ratio > 0 && r.floorRatio > 0 && r.storeFloorRatio > 0, `${r.label}: host ${r.ratio}, floor ${r.floorRatio}, floor with the store ${r.storeFloorRatio}`);
    }
    const paced = figures.filter((f: Figure) => f.name.includes('one line per write'));
    const kind = (f: Figure) => (f.name.includes('floor (the product') ? 'floor' : f.name.includes('floor with the store (') ? 'store' : 'host');
    assert.deepEqual(paced.map((f: Figure) => [f.name.split(',')[0], kind(f)]), labels.flatMap((l: string) => [[l, 'host'], [l, 'floor'], [l, 'store']]));
    assert.equal(tables[0].split('\n').length, 2 + rateRows.length);
    // Issue 24's real-pace row and its floor find ACP's paced figures, not its flood.
    const rows = (await load('issue24.mjs')).issue24Rows({ figures, seconds: { acp: 1 }, loads: {} }) as string[][];
    const pace = rows.findIndex((r) => r[0].startsWith('real τ / pi / ACP'));
    const atPace = rows.slice(pace, pace + 2 * labels.length).map((r) => r[1].split(':')[0]);
    assert.deepEqual(atPace, [...labels, ...labels].map((l: string) => `${l}, as recorded, at ${acp.ACP_RATES.find((x: { label: string }) => x.label === l).rate.toLocaleString('en')} events/s one line per write`));
    assert.match(rows[pace + labels.length][0], /its floor:/);
    assert.match(rows[pace + 2 * labels.length][0], /its floor with the store/);
    // ACP's flood has its floor too, beside the host's row.
    const flood = rows.findIndex((r) => r[0].includes('ACP flood'));
    const next = rows.findIndex((r, i) => i > flood && r[0] !== '');
    assert.match(rows[next][0], /its floor/);
    assert.match(rows[next][1], /^ACP \(claude-agent-acp 0\.101\.0 recorded\), 90 B chunks: [\d.]+×$/);
    const storeFloor = rows.findIndex((r, i) => i > next && r[0] !== '');
    assert.match(rows[storeFloor][0], /its floor with the store/);
    assert.match(rows[storeFloor][1], /^ACP \(claude-agent-acp 0\.101\.0 recorded\), 90 B chunks: [\d.]+×$/);
    // And ACP joins the history row: the host with a history and the floor with the history, at 90 B.
    const history = rows.findIndex((r) => r[0].startsWith('the same, with history on'));
    const historyFloor = rows.findIndex((r, i) => i > history && r[0] !== '');
    assert.match(rows[history][1], /^ACP \(claude-agent-acp 0\.101\.0 recorded\), 90 B chunks: [\d.]+×$/);
    assert.match(rows[historyFloor][0], /its floor with the history/);
    assert.match(rows[historyFloor][1], /^ACP \(claude-agent-acp 0\.101\.0 recorded\), 90 B chunks: [\d.]+×$/);
    const historyStoreFloor = rows.findIndex((r, i) => i > historyFloor && r[0] !== '');
    assert.match(rows[historyStoreFloor][0], /its floor with the store and the history/);
    assert.match(rows[historyStoreFloor][1], /^ACP \(claude-agent-acp 0\.101\.0 recorded\), 90 B chunks: [\d.]+×$/);
    const deliveryFloor = rows.findIndex((r, i) => i > historyStoreFloor && r[0] !== '');
    assert.match(rows[deliveryFloor][0], /its floor with the store, the history and delivery/);
    assert.match(rows[deliveryFloor][1], /^ACP \(claude-agent-acp 0\.101\.0 recorded\), 90 B chunks: [\d.]+×$/);
  });

  it('decoding off the main thread: bare, decode thread (with and without lines) and host count the same events', async () => {
    const { figures, rows, tables } = await (await load('handover.mjs')).run({ ...runner.SIZES.quick.handover, dist });
    for (const f of figures) sane(f);
    // handover.mjs throws when a side sees another count than the flood holds; here, every stream and side ran.
    const sides = ['bare', 'thread', 'thread+lines', 'host'];
    assert.deepEqual(rows.map((r: { side: string }) => r.side), [...sides, ...sides, ...sides]);
    for (const r of rows) {
      assert.ok(r.events >= 2_000, `${r.stream}: ${r.events} events`);
      // The main thread's own CPU is read from Linux's /proc.
      const keys = ['activeUsPerEvent', 'cpuUsPerEvent', 'rate', ...(process.platform === 'linux' ? ['mainCpuUsPerEvent'] : [])];
      for (const k of keys) assert.ok(r[k].median > 0, `${r.stream} ${r.side}: ${k} is ${r[k].median}`);
    }
    assert.equal(figures.length, 3 * 3 * 2, 'per stream, each side but bare beside bare: main-thread CPU and busy time');
    assert.equal(tables[0].split('\n').length, 2 + rows.length);
  });

  it('stalls: one and eight floods per dialect, host and bare reader, every event read', async () => {
    // stall.mjs throws when a side or round saw another count of events than the others.
    const { figures, rows, tables } = await (await load('stall.mjs')).run({ ...runner.SIZES.quick.stall, dist });
    for (const f of figures) sane(f);
    assert.deepEqual(rows.map((r: unknown[]) => r[0]), ['τ 3.x', 'pi 1.6.0', 'ACP']);
    assert.equal(figures.length, 3 * 3, 'per dialect: one flood max, eight floods p99 and max');
    assert.equal(tables[0].split('\n').length, 3 + rows.length, 'head, rule, rows, load');
  });

  it('a long past session: its first page beside the whole session, host and page (pastlog.mjs throws unless every event was read)', async () => {
    const { figures } = await (await load('pastlog.mjs')).run({ ...runner.SIZES.quick.pastlog, dist });
    for (const f of figures) sane(f);
    assert.equal(figures.length, 4, 'host: ready and longest hold; page: drawn and longest task');
  });

  it('activation in a real extension host: both kinds of window, VS Code\'s marks of ours and of its floor beside a trivial extension (the bench throws on a wrong code cache)', async function () {
    this.timeout(5 * 60_000);
    const results = await runner.runAll({ only: ['hostactivation'], quick: true, dist });
    assert.deepEqual(results.errors, []);
    for (const f of results.figures) sane(f);
    const floor = 'its floor, load + activate() of an extension asking VS Code for the same and nothing else';
    assert.deepEqual(results.figures.map((f: Figure) => f.name.split(', minified, ')[1]), [
      'a first window (no code cache yet): load (require)', 'a first window (no code cache yet): activate()', `a first window (no code cache yet): ${floor}`,
      'later windows (code cache): load (require)', 'later windows (code cache): activate()', `later windows (code cache): ${floor}`,
    ]);
    // Issue 24's table sums each window's two medians of ours against the goal, and shows the floor under them.
    const issue24 = (await load('issue24.mjs')).issue24Table(results);
    assert.equal(issue24.match(/load \+ activate\(\), medians summed: [\d.]+ ms/g)?.length, 2, issue24);
    assert.match(issue24, /its floor in that host[^\n]*a first window \(no code cache yet\): [\d.]+ ms/);
  });

  it('the table and the JSON have one row per figure', async () => {
    const results = await runner.runAll({ only: ['memory'], quick: true, dist });
    assert.deepEqual(results.errors, []);
    const text = runner.table(results);
    assert.equal(text.split('\n').length, 2 + results.figures.length);
    assert.equal(runner.table(results, { markdown: true }).split('\n').length, 2 + results.figures.length);
    assert.doesNotThrow(() => JSON.parse(JSON.stringify(results)));
    // Issue 24's table reads the run's figures by name: the store's row from memory.mjs, the rest not run.
    const issue24 = (await load('issue24.mjs')).issue24Table(results);
    assert.match(issue24, /store, bytes per stored event +event store[^\n]*: \d+ B/);
    assert.match(issue24, /longest event-loop stall, one full-speed flood +not run \(node bench\/run\.mjs --only stall\)/);
  });
});
