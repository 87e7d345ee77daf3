#!/usr/bin/env node
// `npm run bench` (after `node esbuild.mjs`): every benchmark, one table on stdout, the same
// figures as JSON in bench/results.json (not committed). Each figure is the product measured
// beside a baseline in the same run, on the same worker program, interleaved, as
// min / median / p95 and as a per-pair ratio (product / baseline); no figure asserts a speed.
//
//   node bench/run.mjs [--only abort,throughput,memory,startup,webview,tau,history,events,handover,acp,stall,pastlog,hostactivation|issue24] [--quick]
//                      [--out bench/results.json] [--markdown]
// --only issue24: the benchmarks issue 24's table reads, then that table (bench/issue24.mjs); a
// full run prints it after the full table too.
// --quick: small N everywhere (what test/unit/bench.smoke.test.ts runs), for a look in seconds.
// Progress goes to stderr; the table (Markdown with --markdown) to stdout.
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, distDir, log } from './lib/common.mjs';
import { NEEDS, OVERRIDES, issue24Table } from './issue24.mjs';

export const BENCHMARKS = ['abort', 'throughput', 'memory', 'startup', 'webview', 'tau', 'history', 'events', 'handover', 'acp', 'stall', 'pastlog', 'hostactivation'];

/** Full sizes (the issue's) and the small ones the smoke test runs. */
export const SIZES = {
  full: {
    abort: { fakeCount: 50, piCount: 10 },
    throughput: { n: 200_000, rounds: 5 },
    memory: { n: 1_000_000, rounds: 1 },
    // Activation: 30 fresh processes a variant, as its figures are a few ms and the machine's noise about one.
    startup: { fakeCount: 20, piCount: 5, activations: 30 },
    webview: { n: 100_000, rounds: 3 },
    tau: { abortCount: 10, startCount: 5, streamRounds: 5, words: 3000 },
    history: { n: 200_000, rounds: 5 },
    events: { n: 150_000, rounds: 5 },
    handover: { n: 150_000, rounds: 5 },
    acp: { n: 150_000, rounds: 5 },
    stall: { n: 60_000, rounds: 3 },
    pastlog: { n: 100_000, rounds: 5, pageRounds: 3 },
    // A window (a new extension host) takes seconds: 12 of each kind; their medians moved by a few ms between runs here.
    hostactivation: { windows: 12 },
  },
  quick: {
    abort: { fakeCount: 2, piCount: 1 },
    throughput: { n: 2_000, rounds: 1, warmup: false },
    memory: { n: 20_000, every: 5_000 },
    startup: { fakeCount: 1, piCount: 1, activations: 1 },
    webview: { n: 2_000, rounds: 1, batchSizes: [5000, 500] },
    tau: { abortCount: 1, startCount: 1, streamRounds: 1, words: 300 },
    history: { n: 2_000, rounds: 1, warmup: false },
    events: { n: 2_000, rounds: 1, warmup: false, sizes: [90] },
    handover: { n: 2_000, rounds: 1, warmup: false },
    acp: { n: 2_000, rounds: 1, warmup: false, sizes: [90] },
    stall: { n: 2_000, rounds: 1, warmup: false },
    pastlog: { n: 3_000, rounds: 1, pageRounds: 1 },
    hostactivation: { windows: 1 },
  },
};

export async function runAll({ only = BENCHMARKS, quick = false, dist, overrides = {} } = {}) {
  const started = new Date();
  const figures = [];
  const tables = [];
  const errors = [];
  const timings = {};
  const loads = {};
  for (const name of only) {
    const t0 = performance.now();
    loads[name] = Math.round(os.loadavg()[0] * 100) / 100;
    log(`== ${name}`);
    try {
      const mod = await import(pathToFileURL(path.join(ROOT, 'bench', `${name}.mjs`)).href);
      const out = await mod.run({ ...SIZES[quick ? 'quick' : 'full'][name], ...overrides[name], dist });
      figures.push(...out.figures);
      if (out.tables) tables.push(...out.tables);
    } catch (error) {
      errors.push({ bench: name, error: String(error?.stack ?? error) });
      log(`  ${name} FAILED: ${error?.stack ?? error}`);
    }
    timings[name] = Math.round((performance.now() - t0) / 100) / 10;
  }
  return {
    command: `node bench/run.mjs${quick ? ' --quick' : ''}${only.length < BENCHMARKS.length ? ` --only ${only.join(',')}` : ''}`,
    started: started.toISOString(), seconds: timings, loads,
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model ?? null, loadavg: os.loadavg().map((v) => Math.round(v * 100) / 100), node: process.version, platform: `${process.platform} ${os.release()}` },
    dist: dist ?? distDir(),
    figures, tables, errors,
  };
}

const fmt = (v) => (v === null || v === undefined || Number.isNaN(v) ? '–' : typeof v === 'number' ? (Math.abs(v) >= 1000 ? Math.round(v).toLocaleString('en') : String(v)) : String(v));
const trio = (s) => (s ? `${fmt(s.min)} / ${fmt(s.median)} / ${fmt(s.p95)}` : '–');

/** One table: each figure's product and baseline (min / median / p95) and the per-pair ratio. */
export function table(results, { markdown = false } = {}) {
  const head = ['#', 'benchmark', 'unit', 'product min / median / p95', 'baseline min / median / p95', 'ratio median (min–p95)', 'goal', 'met'];
  const order = Object.fromEntries(BENCHMARKS.map((b, i) => [b, i + 1]));
  const rows = results.figures.map((f) => [
    String(order[f.bench] ?? ''), f.name + (f.baselineName ? ` — vs ${f.baselineName}` : ''), f.unit, trio(f.product), trio(f.baseline),
    f.ratio ? `${fmt(f.ratio.median)} (${fmt(f.ratio.min)}–${fmt(f.ratio.p95)})` : '–',
    f.goal ?? '', f.met === null || f.met === undefined ? '' : f.met ? 'yes' : 'NO',
  ]);
  for (const e of results.errors) rows.push([String(order[e.bench] ?? ''), `${e.bench}: FAILED (${e.error.split('\n')[0]})`, '', '', '', '', '', 'NO']);
  if (markdown) {
    const esc = (c) => c.replace(/\|/g, '\\|');
    return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(esc).join(' | ')} |`)].join('\n');
  }
  const widths = head.map((h, i) => Math.min(90, Math.max(h.length, ...rows.map((r) => r[i].length))));
  const line = (r) => r.map((c, i) => (c.length > widths[i] ? c.slice(0, widths[i] - 1) + '…' : c.padEnd(widths[i]))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const argv = process.argv.slice(2);
  const arg = (k) => (argv.includes(k) ? argv[argv.indexOf(k) + 1] : undefined);
  const asked = arg('--only') ? arg('--only').split(',') : BENCHMARKS;
  // `issue24`: the benchmarks issue 24's table reads (activation only, of start-up).
  const issue24 = asked.includes('issue24');
  const only = issue24 ? [...new Set([...asked.filter((b) => b !== 'issue24'), ...NEEDS])] : asked;
  const unknown = only.filter((b) => !BENCHMARKS.includes(b));
  if (unknown.length) {
    console.error(`unknown benchmark(s): ${unknown.join(', ')} (known: ${BENCHMARKS.join(', ')})`);
    process.exit(2);
  }
  const results = await runAll({ only, quick: argv.includes('--quick'), overrides: issue24 && !asked.includes('startup') ? OVERRIDES : {} });
  const out = arg('--out') ?? path.join(ROOT, 'bench/results.json');
  writeFileSync(out, JSON.stringify(results, null, 2) + '\n');
  console.log(table(results, { markdown: argv.includes('--markdown') }));
  // A benchmark's own summary (the event path's dialect × size table), after the figures.
  for (const t of results.tables) console.log(`\n${t}`);
  if (issue24 || NEEDS.every((b) => only.includes(b))) console.log(`\n${issue24Table(results, { markdown: argv.includes('--markdown') })}`);
  console.log(`\n${results.command} · ${results.started} · ${results.machine.cpus} CPUs, load ${results.machine.loadavg.join(' ')} · node ${results.machine.node}`);
  console.log(`figures: ${path.relative(process.cwd(), out)}`);
  process.exit(results.errors.length ? 1 : 0);
}
