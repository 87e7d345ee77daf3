// 5. Event-log rendering: the real webview bundle (dist/webview.js) in headless Chromium
// (playwright-core), fed N events (default 100,000) in the batches the host sends in a flood
// (FLUSH_EVENTS per message, slimmed by the host's own slimEvent). The events are what the host
// delivered for a fake pi worker's `events` run. A dedicated Worker in the page posts the
// batches back to back (so serialization is off the page's thread, as in VS Code, and each
// batch arrives as a message task of its own), dispatched to the page as a window message event
// in that task, deserialized once, as a webview receives it.
// Measured: total time until the page reports everything drawn, the longest main-thread task
// (PerformanceObserver 'longtask'), DOM nodes at the end; beside a bare page that only receives
// the same messages (the transport's own cost).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, distDir, fakeSpec, figure, loadCore, log, round } from './lib/common.mjs';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

/** Host-side modules (`contents`: their exports, from the repository root), bundled with `vscode` stubbed. */
export async function bundleHostSide(contents) {
  const esbuild = await import('esbuild');
  const dir = mkdtempSync(path.join(tmpdir(), 'rpc-workers-bench-ui-'));
  const out = path.join(dir, 'log.cjs');
  await esbuild.build({
    stdin: { contents, resolveDir: ROOT, loader: 'ts' },
    bundle: true, platform: 'node', format: 'cjs', outfile: out, logLevel: 'error',
    alias: { vscode: path.join(ROOT, 'bench/lib/vscode-stub.cjs') },
  });
  const mod = createRequire(import.meta.url)(out);
  rmSync(dir, { recursive: true, force: true });
  return mod;
}

/** The host side's own code: slimEvent and the flush size. */
const hostSide = () => bundleHostSide("export { slimEvent } from './src/protocol/messages'; export { FLUSH_EVENTS } from './src/ui/eventLog/logSession';");

/** N events as the host delivers them for a fake pi worker (`prompt_sent` first), slimmed. */
async function collectEvents(core, n, slimEvent) {
  const host = core.createSupervisor();
  try {
    const started = await host.start(fakeSpec('pi'));
    if (started.status !== 'started') throw new Error(started.error);
    const events = [];
    let done;
    const full = new Promise((r) => (done = r));
    host.onEvent((_id, e) => {
      if (events.length < n) events.push(slimEvent(e));
      if (events.length === n) done();
    });
    await host.prompt(started.workerId, `events ${Math.ceil(n / 1.5)}`);
    await full;
    return events;
  } finally {
    await host.dispose();
  }
}

const STUB = `
  window.__posted = [];
  window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__posted.push(m), getState: () => undefined, setState: () => {} });
  window.__longtasks = [];
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longtasks.push({ start: e.startTime, ms: e.duration }); }).observe({ type: 'longtask', buffered: true });
`;

// Runs in the page: a Worker posts the batches, a relay turns them into window messages.
async function feed({ source, total, mode }) {
  const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
  await new Promise((r) => (worker.onmessage = (e) => e.data === 'ready' && r()));
  const app = document.getElementById('app');
  const done = new Promise((resolve) => {
    if (mode === 'bare') {
      let n = 0;
      window.addEventListener('message', (e) => {
        if (e.data?.type !== 'events') return;
        n += e.data.events.length;
        if (n >= total) resolve(performance.now());
      });
    } else {
      const check = () => app?.dataset.settled === String(total) && resolve(performance.now());
      new MutationObserver(check).observe(app, { attributes: true, attributeFilter: ['data-settled'] });
    }
  });
  // The batch is deserialized once, here, and handed on in the same task (no second clone).
  worker.onmessage = (e) => window.dispatchEvent(new MessageEvent('message', { data: e.data }));
  await new Promise((r) => setTimeout(r, 300)); // let the page settle after the reset
  window.__longtasks.length = 0;
  const t0 = performance.now();
  worker.postMessage('go');
  const t1 = await done;
  await new Promise((r) => setTimeout(r, 200)); // let the last long task be reported
  const tasks = window.__longtasks.filter((t) => t.start >= t0 - 1);
  return {
    totalMs: t1 - t0,
    longestTaskMs: tasks.reduce((m, t) => Math.max(m, t.ms), 0),
    longTasks: tasks.length,
    longTaskMs: tasks.reduce((s, t) => s + t.ms, 0),
    domNodes: document.getElementsByTagName('*').length,
    rendered: window.__posted.filter((m) => m.type === 'rendered').at(-1) ?? null,
  };
}

export async function onePage(browser, { mode, webviewJs, css, batches, total, worker }) {
  const page = await browser.newPage({ viewport: { width: 420, height: 900 } });
  try {
    // No CSP here (the webview's forbids eval): nothing in dist/webview.js evals (zod/mini has no
    // compiled fast path), so the page runs the same code paths as in VS Code.
    await page.setContent(`<!DOCTYPE html><html><head><meta charset="UTF-8"><style>${css}</style></head><body><div id="app" class="app"></div></body></html>`);
    await page.addScriptTag({ content: STUB });
    if (mode === 'product') await page.addScriptTag({ content: webviewJs });
    // The selected worker, as the host's replay sends it first.
    await page.evaluate((w) => {
      window.postMessage({ type: 'reset', worker: w, evicted: 0, storeLimit: 10000 }, '*');
      window.postMessage({ type: 'workers', workers: [{ workerId: w.workerId, name: w.name, status: w.status }], selected: w.workerId }, '*');
    }, worker);
    // BENCH_TRACE=dir: a Chrome trace of each product page, to see what a long task was made of.
    const trace = mode === 'product' && process.env.BENCH_TRACE ? path.join(process.env.BENCH_TRACE, `webview-${batches[0].events.length}-${Date.now()}.json`) : null;
    if (trace) await browser.startTracing(page, { path: trace, categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'blink.user_timing'] });
    const source = `const batches = ${JSON.stringify(batches)};
      onmessage = () => { for (const b of batches) postMessage(b); };
      postMessage('ready');`;
    const result = await page.evaluate(feed, { source, total, mode });
    if (trace) {
      await browser.stopTracing();
      log(`  trace: ${trace}`);
    }
    return result;
  } finally {
    await page.close();
  }
}

/**
 * `batchSizes`: the host's flush size first (the figures with goals); others (default 5000, the
 * flush size before 0.1.1) are the same feed cut differently, for comparison.
 */
export async function run({ n = 100_000, rounds = 3, batchSizes, ...opts } = {}) {
  const core = loadCore(opts);
  const { slimEvent, FLUSH_EVENTS } = await hostSide();
  const events = await collectEvents(core, n, slimEvent);
  const worker = { workerId: 'w1-bench', name: 'fake pi', status: 'running', streaming: true, compacting: false, model: 'fake/fake-1', dialect: 'pi', pid: 1 };
  const webviewJs = readFileSync(path.join(distDir(opts), 'webview.js'), 'utf8');
  const css = readFileSync(path.join(ROOT, 'media/eventLog.css'), 'utf8');
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
  const sizes = [...new Set(batchSizes ?? [FLUSH_EVENTS, 5000])];
  const figures = [];
  const detail = {};
  try {
    for (const size of sizes) {
      const batches = [];
      for (let i = 0; i < events.length; i += size) batches.push({ type: 'events', workerId: worker.workerId, events: events.slice(i, i + size) });
      const results = { product: [], bare: [] };
      for (let r = 0; r < rounds; r++) {
        for (const mode of r % 2 ? ['bare', 'product'] : ['product', 'bare']) {
          const m = await onePage(browser, { mode, webviewJs, css, batches, total: events.length, worker });
          results[mode].push(m);
          const t = m.rendered ? ` (page: validate ${m.rendered.validateMs} ms, fold ${m.rendered.foldMs} ms, draw ${m.rendered.drawMs} ms)` : '';
          log(`  webview ${size}/batch ${mode} ${r + 1}/${rounds}: ${round(m.totalMs, 0)} ms, longest task ${round(m.longestTaskMs, 0)} ms (${m.longTasks} over 50 ms), ${m.domNodes} DOM nodes${t}`);
        }
      }
      detail[size] = results;
      figures.push(...webviewFigures(results, { events, batches, size, host: size === FLUSH_EVENTS }));
    }
  } finally {
    await browser.close();
  }
  return { figures, detail: { ...detail[sizes[0]], bySize: detail } };
}

function webviewFigures(results, { events, batches, size, host }) {
  const pairs = (key) => results.product.map((p, i) => ({ product: p[key], baseline: results.bare[i][key] }));
  const longest = Math.max(...results.product.map((p) => p.longestTaskMs));
  const last = results.product.at(-1);
  const label = `${events.length.toLocaleString('en')} events in ${batches.length} batches of ${size}${host ? ' (the host\'s flush size)' : ' (for comparison)'}`;
  const page = (p) => (p.rendered ? `validate ${p.rendered.validateMs}, fold ${p.rendered.foldMs}, draw ${p.rendered.drawMs} ms` : '?');
  const figures = [
    figure({
      bench: 'webview', name: `event log, ${label}: total time to drawn`, unit: 'ms', better: 'lower', digits: 0, pairs: pairs('totalMs'),
      baselineName: 'bare page receiving the same messages', note: `the page's own account per run: ${results.product.map(page).join('; ')}`,
    }),
    figure({
      bench: 'webview', name: `event log, ${label}: longest main-thread task`, unit: 'ms', better: 'lower', digits: 0, pairs: pairs('longestTaskMs'),
      baselineName: 'bare page receiving the same messages', goal: host ? 'no task over 50 ms' : null, met: host ? longest <= 50 : null,
      // The Long Tasks API reports tasks over 50 ms only: a 0 says none was, not that tasks took no time.
      note: `from the Long Tasks API, which sees only tasks over 50 ms (0: none was); tasks over 50 ms per run: ${results.product.map((p) => p.longTasks).join(', ')} (bare: ${results.bare.map((p) => p.longTasks).join(', ')})`,
    }),
    figure({
      bench: 'webview', name: `event log, ${label}: DOM nodes at the end`, unit: 'nodes', better: 'lower', digits: 0, pairs: pairs('domNodes'),
      baselineName: 'bare page', goal: host ? 'DOM bounded' : null, met: host ? results.product.every((p) => p.domNodes < 20_000) : null,
      note: last.rendered ? `the page reported ${last.rendered.rows} rows, ${last.rendered.entries} entries for ${last.rendered.events} events` : null,
    }),
  ];
  // The page's own account: checking and folding the batches beside drawing them (issue 16).
  const own = results.product.filter((p) => p.rendered).map((p) => ({ product: p.rendered.validateMs + p.rendered.foldMs, baseline: p.rendered.drawMs }));
  if (own.length) {
    const ratios = own.map((p) => p.product / p.baseline).sort((a, b) => a - b);
    figures.push(figure({
      bench: 'webview', name: `event log, ${label}: validate + fold vs draw, the page's own time`, unit: 'ms', better: 'lower', digits: 0, pairs: own,
      baselineName: 'drawing the same batches', goal: host ? 'validate + fold ≤ draw' : null, met: host ? ratios[(ratios.length - 1) >> 1] <= 1 : null,
      note: `validate ms per run: ${results.product.map((p) => p.rendered?.validateMs ?? '?').join(', ')}; per event ${(results.product[0].rendered ? (1000 * results.product[0].rendered.validateMs) / events.length : NaN).toFixed(2)} µs`,
    }));
  }
  return figures;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (k, d) => (process.argv.includes(k) ? process.argv[process.argv.indexOf(k) + 1] : d);
  const out = await run({ n: Number(arg('--n', 100000)), rounds: Number(arg('--rounds', 3)) });
  for (const f of out.figures) console.log(`${f.name}: ${JSON.stringify(f.product)} vs ${JSON.stringify(f.baseline)} ${f.note ?? ''}`);
}
