// 12. Open Log / Resume of a 100,000-event past session (issue 24): what it costs until the log
// shows its first page, on the host and in the page, beside what it cost to read and show the
// session in one piece, measured in the same run, interleaved round by round.
//   host   the product: store.pages + PastLog.open (the newest page read backwards in slices)
//          and the page's events slimmed for posting; the baseline: store.read of the whole
//          session and all of it slimmed, as Open Log did before. Measured: the time until the
//          page's messages are ready, and the longest the thread was held at once (the gap
//          between two setImmediate turns, in this process).
//   page   the real webview bundle in headless Chromium (bench/webview.mjs's page) fed the
//          first page, against the whole session in the host's replay batches: time until the
//          page reports everything drawn, and its longest task (Long Tasks API, over 50 ms only).
// The session is a real demo-worker session written by the host's history, its turns repeated
// to 100,000 events (bench/lib/long-session.mjs).
//   node bench/run.mjs --only pastlog [--quick]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, distDir, figure, loadCore, log, round, summary } from './lib/common.mjs';
import { demoSession, inflateSession } from './lib/long-session.mjs';
import { ARGS, CHROMIUM, bundleHostSide, onePage } from './webview.mjs';

const PROMPTS = ['hello, what can you do?', 'read the file README.md and tell me about it', 'remember the word kumquat'];

/** The host side's own code (no VS Code in it): the past log and the page's slimming. */
const hostSide = () => bundleHostSide("export { PastLog, PAGE_EVENTS } from './src/ui/eventLog/pastLog'; export { slimEvent } from './src/protocol/messages'; export { REPLAY_CHUNK } from './src/ui/eventLog/logSession';");

/** Runs `work` while a setImmediate ticker records the longest gap between two turns of the loop. */
async function timed(work) {
  let last = performance.now();
  let longest = 0;
  let going = true;
  const tick = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (going) setImmediate(tick);
  };
  setImmediate(tick);
  const t0 = performance.now();
  const out = await work();
  const ms = performance.now() - t0;
  going = false;
  tick();
  return { ms, longestMs: longest, out };
}

export async function run({ n = 100_000, rounds = 5, pageRounds = 3, ...opts } = {}) {
  const core = loadCore(opts);
  const side = await hostSide();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rpc-bench-pastlog-'));
  const figures = [];
  try {
    const id = await demoSession(core, dir, path.join(distDir(opts), 'demo-worker.js'), PROMPTS);
    const bytes = inflateSession(dir, id, n);
    log(`  pastlog: a ${n.toLocaleString('en')}-event session, ${(bytes / 2 ** 20).toFixed(1)} MiB (${Math.round(bytes / n)} B per event)`);
    // The host's own store: it reads the worker's lines back through their dialect's codec.
    const reader = core.createSupervisor({ historyDir: dir });
    const store = reader.history.store;
    const slim = (events) => events.map((e) => side.slimEvent(e));
    const sides = {
      // Open Log as it was: the whole session read, and all of it slimmed for the page.
      whole: async () => {
        const r = await store.read(id);
        if (r.status !== 'read') throw new Error(r.error);
        return slim(r.events);
      },
      pages: async () => {
        const r = await store.pages(id);
        if (r.status !== 'read') throw new Error(r.error);
        const pastLog = await side.PastLog.open(r.pages, r.dropped);
        return slim(pastLog.view().events);
      },
    };
    const host = { whole: [], pages: [] };
    let shown = { whole: [], pages: [] };
    for (let r = 0; r < rounds; r++) {
      for (const name of r % 2 ? ['pages', 'whole'] : ['whole', 'pages']) {
        const m = await timed(sides[name]);
        host[name].push(m);
        shown[name] = m.out;
        log(`  pastlog host ${r + 1}/${rounds} ${name.padEnd(5)} ${round(m.ms, 1)} ms, longest hold ${round(m.longestMs, 1)} ms, ${m.out.length} events for the page`);
      }
    }
    if (shown.whole.length !== n) throw new Error(`the whole read gave ${shown.whole.length} events, not ${n}`);
    const pairs = (key) => host.pages.map((p, i) => ({ product: p[key], baseline: host.whole[i][key] }));
    figures.push(figure({
      bench: 'pastlog', name: `Open Log of a ${n.toLocaleString('en')}-event past session, host: first page ready to post`, unit: 'ms', better: 'lower', digits: 1,
      pairs: pairs('ms'), baselineName: 'the whole session read and slimmed (Open Log before)', note: `${Math.round(bytes / n)} B per event on disk; first page ${shown.pages.length} events`,
    }));
    figures.push(figure({
      bench: 'pastlog', name: `Open Log of a ${n.toLocaleString('en')}-event past session, host: longest hold of the thread`, unit: 'ms', better: 'lower', digits: 1,
      pairs: pairs('longestMs'), baselineName: 'the whole session read and slimmed', goal: 'no task over 50 ms', met: Math.max(...host.pages.map((p) => p.longestMs)) <= 50,
    }));
    figures.push(...await pageSide(opts, side, shown, pageRounds, host));
    await reader.dispose();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { figures };
}

/** The page: the first page against the whole session, each in the host's replay batches. */
async function pageSide(opts, side, shown, rounds, host) {
  const worker = { workerId: 'history:bench', name: 'Demo worker', status: 'stopped', streaming: false, compacting: false, model: null, dialect: 'tau', pid: null };
  const webviewJs = readFileSync(path.join(distDir(opts), 'webview.js'), 'utf8');
  const css = readFileSync(path.join(ROOT, 'media/eventLog.css'), 'utf8');
  const batchesOf = (events) => {
    const out = [];
    for (let i = 0; i < events.length; i += side.REPLAY_CHUNK) out.push({ type: 'events', workerId: worker.workerId, events: events.slice(i, i + side.REPLAY_CHUNK) });
    return out;
  };
  const feeds = { whole: batchesOf(shown.whole), pages: batchesOf(shown.pages) };
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
  const page = { whole: [], pages: [] };
  try {
    for (let r = 0; r < rounds; r++) {
      for (const name of r % 2 ? ['pages', 'whole'] : ['whole', 'pages']) {
        const m = await onePage(browser, { mode: 'product', webviewJs, css, batches: feeds[name], total: shown[name].length, worker });
        page[name].push(m);
        log(`  pastlog page ${r + 1}/${rounds} ${name.padEnd(5)} drawn in ${round(m.totalMs, 0)} ms, longest task ${round(m.longestTaskMs, 0)} ms (${m.longTasks} over 50 ms)`);
      }
    }
  } finally {
    await browser.close();
  }
  const pairs = (key) => page.pages.map((p, i) => ({ product: p[key], baseline: page.whole[i][key] }));
  const median = (xs) => summary(xs).median;
  const first = median(host.pages.map((m) => m.ms)) + median(page.pages.map((m) => m.totalMs));
  return [
    figure({
      bench: 'pastlog', name: 'Open Log, page: first page drawn', unit: 'ms', better: 'lower', digits: 0, pairs: pairs('totalMs'),
      baselineName: 'the whole session drawn (Open Log before)',
      goal: 'first page ≤ 300 ms (host + page)', met: first <= 300, note: `host median + page median = ${Math.round(first)} ms`,
    }),
    figure({
      bench: 'pastlog', name: 'Open Log, page: longest main-thread task', unit: 'ms', better: 'lower', digits: 0, pairs: pairs('longestTaskMs'),
      baselineName: 'the whole session drawn', goal: 'no task over 50 ms', met: page.pages.every((p) => p.longestTaskMs <= 50),
      note: 'from the Long Tasks API, which sees only tasks over 50 ms (0: none was)',
    }),
  ];
}
