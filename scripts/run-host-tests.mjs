#!/usr/bin/env node
// Runs the extension-host suite (test/host/, bundled to dist-test/host/index.js) in a real VS Code
// extension host, on one of two hosts:
//   electron     desktop VS Code through @vscode/test-electron's runTests, when
//                VSCODE_EXECUTABLE_PATH names an installed VS Code (nothing is downloaded);
//   code-server  code-server's web workbench in headless Chromium (playwright-core), the
//                suite passed as the workbench's `payload` (extensionDevelopmentPath +
//                extensionTestsPath); the exit code is what window.codeAutomationExit reports.
// Either way: a throw-away user-data dir, extensions dir and workspace (a copy of
// test/workspace), the extension host's console on this terminal, an overall timeout, and
// everything stopped on every way out.
//
// CLI: node scripts/run-host-tests.mjs [--host auto|code-server|electron] [--no-build]
//        [--tests dist-test/host/index.js] [--extension <dir>] [--workspace <dir>]
//        [--timeout-min 15] [--grep <pattern>] [--code-server floor|current|4.x.y]
// Prints `HOST-TOTALS passed=N failed=N pending=N` (from the suite) and exits 0 only when the
// suite ran tests and none failed.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { format } from 'node:util';
import { repoRoot, isMain } from './lib/paths.mjs';
import { buildExtension } from './lib/build.mjs';
import { cleanup, onCleanup, killByEnvMarker } from './lib/proc.mjs';
import { makeSandbox, startCodeServer, launchBrowser, workbenchUrl, workbenchContext, logTail, SAMPLE_WORKSPACE } from './lib/code-server.mjs';

export const DEFAULT_TIMEOUT_MS = 15 * 60_000;
const TOTALS_RE = /HOST-TOTALS passed=(\d+) failed=(\d+) pending=(\d+)/;
// The workbench's own chatter that reaches codeAutomationLog too; shown with RPC_WORKERS_VERBOSE=1.
const NOISE = [/open-vsx\.org/, /^Creating a socket/, /^Resolv(ing|ed) connection token/, /^Updating additional builtin extensions cache/,
  /^\[Service Worker\]/, /^ChatSessionStore:/, /^Creation of workbench contribution/];

/** codeAutomationLog gets a console call's arguments as a JSON array (format string first). */
export function formatAutomationLog(message) {
  let args = [message];
  if (typeof message === 'string') {
    try { const parsed = JSON.parse(message); if (Array.isArray(parsed)) args = parsed; } catch { /* plain text */ }
  } else if (Array.isArray(message)) args = message;
  return format(...args);
}

/** Which host can run here: 'electron' when VSCODE_EXECUTABLE_PATH is set, else 'code-server'. */
export function pickHost(requested = 'auto') {
  if (requested !== 'auto') return requested;
  return process.env.VSCODE_EXECUTABLE_PATH ? 'electron' : 'code-server';
}

const colorEnv = () => (process.stdout.isTTY && !process.env.NO_COLOR ? '1' : '0');

function readStats(file) {
  try { const s = JSON.parse(readFileSync(file, 'utf8')); return { passed: s.passed, failed: s.failed, pending: s.pending, failures: Array.isArray(s.failures) ? s.failures : [] }; } catch { return null; }
}

function withTimeout(promise, ms, what) {
  let timer;
  const t = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`TIMEOUT: ${what} did not finish within ${Math.round(ms / 60000 * 10) / 10} min; stopping everything`)), ms);
  });
  return Promise.race([promise, t]).finally(() => clearTimeout(timer));
}

/**
 * Run an extensionTestsPath suite in code-server + Chromium. Resolves to
 * `{ exitCode, totals, logLines }`. `extensionDevelopmentPath` may be null (installed extensions
 * only; see scripts/test-package.mjs).
 */
export async function runInCodeServer({
  extensionDevelopmentPath = repoRoot, extensionTestsPath, workspaceFrom = SAMPLE_WORKSPACE, settings = {},
  sandbox = null, env = {}, timeoutMs = DEFAULT_TIMEOUT_MS, label = 'host', quietLog = false, codeServer,
}) {
  const box = sandbox ?? makeSandbox({ settings, workspaceFrom, prefix: label });
  const verbose = process.env.RPC_WORKERS_VERBOSE === '1';
  const statsFile = join(box.root, 'host-stats.json');
  let server = null;
  let browser = null;
  const t0 = Date.now();
  try {
    server = await startCodeServer({ sandbox: box, version: codeServer, env: { RPC_WORKERS_COLOR: colorEnv(), ...env, RPC_WORKERS_STATS_FILE: statsFile } });
    console.log(`[${label}] code-server ${server.codeServer.version} (VS Code ${server.codeServer.vscode}) ${server.origin} up in ${((Date.now() - t0) / 1000).toFixed(1)} s (log: ${server.logFile})`);
    browser = await launchBrowser();
    const context = await workbenchContext(browser, server.codeServer, { viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    let lineTotals = null;
    const logLines = [];
    let settle;
    const exited = new Promise((res, rej) => { settle = { res, rej }; });
    await page.exposeFunction('codeAutomationLog', (type, message) => {
      const text = formatAutomationLog(message);
      const noise = !verbose && NOISE.some((re) => re.test(text));
      for (const line of text.split('\n')) {
        logLines.push(line);
        const m = TOTALS_RE.exec(line);
        if (m) lineTotals = { passed: +m[1], failed: +m[2], pending: +m[3] };
        if (!quietLog && !noise) console.log(type === 'error' ? `[${label}:error] ${line}` : line);
      }
    });
    await page.exposeFunction('codeAutomationExit', (code) => settle.res(Number(code)));
    page.on('crash', () => settle.rej(new Error('the workbench page crashed')));
    page.on('pageerror', (err) => console.error(`[${label}:page] ${err.message}`));
    // The browser's own console (webview frames included), when asked: a page that stays blank says why here.
    if (verbose) page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') console.log(`[${label}:browser:${m.type()}] ${m.text()} (${m.location()?.url ?? ''})`); });
    server.child.once('exit', (code, sig) => settle.rej(new Error(`code-server exited (${code ?? sig}) during the run:\n${logTail(server.logFile)}`)));
    const url = workbenchUrl({ origin: server.origin, folder: box.workspace, payload: { extensionDevelopmentPath, extensionTestsPath } });
    console.log(`[${label}] opening the workbench: ${url}`);
    await page.goto(url, { waitUntil: 'domcontentloaded' });
    const exitCode = await withTimeout(exited, Math.max(1000, timeoutMs - (Date.now() - t0)), `the ${label} suite`);
    const fileTotals = readStats(statsFile);
    if (verbose) console.log(`[${label}] totals from ${fileTotals ? 'the stats file' : 'the HOST-TOTALS line'}`);
    const totals = fileTotals ?? lineTotals;
    console.log(`[${label}] codeAutomationExit(${exitCode}) after ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    return { exitCode, totals, logLines, seconds: (Date.now() - t0) / 1000 };
  } finally {
    if (browser) await browser.close();
    if (server) await server.stop();
    if (!sandbox) box.remove();
  }
}

/** Run the suite in desktop VS Code (VSCODE_EXECUTABLE_PATH) via @vscode/test-electron. */
export async function runInElectron({
  extensionDevelopmentPath = repoRoot, extensionTestsPath, workspaceFrom = SAMPLE_WORKSPACE, settings = {},
  timeoutMs = DEFAULT_TIMEOUT_MS, label = 'host',
}) {
  const vscodeExecutablePath = process.env.VSCODE_EXECUTABLE_PATH;
  if (!vscodeExecutablePath || !existsSync(vscodeExecutablePath)) {
    throw new Error(`VSCODE_EXECUTABLE_PATH does not name an existing VS Code executable: ${vscodeExecutablePath}`);
  }
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    console.warn(`[${label}] no DISPLAY: desktop VS Code needs one (e.g. run under xvfb-run)`);
  }
  const { runTests } = await import('@vscode/test-electron');
  const box = makeSandbox({ settings, workspaceFrom, prefix: label });
  const statsFile = join(box.root, 'host-stats.json');
  const runId = randomBytes(8).toString('hex');
  // runTests does not hand out its child: every process of this run carries RPC_WORKERS_RUN_ID,
  // and whatever is left of them is killed on the way out.
  const reap = () => killByEnvMarker('RPC_WORKERS_RUN_ID', runId);
  const unregister = onCleanup(reap);
  const t0 = Date.now();
  try {
    let exitCode = 0;
    try {
      await withTimeout(runTests({
        vscodeExecutablePath,
        extensionDevelopmentPath,
        extensionTestsPath,
        launchArgs: [box.workspace, '--user-data-dir', box.userDataDir, '--extensions-dir', box.extensionsDir, '--disable-extensions'],
        extensionTestsEnv: { RPC_WORKERS_COLOR: colorEnv(), RPC_WORKERS_STATS_FILE: statsFile, RPC_WORKERS_RUN_ID: runId },
      }), timeoutMs, `the ${label} suite`);
    } catch (err) {
      if (typeof err?.code === 'number') exitCode = err.code; else throw err;
    }
    return { exitCode, totals: readStats(statsFile), seconds: (Date.now() - t0) / 1000 };
  } finally {
    reap();
    unregister();
    box.remove();
  }
}

/**
 * Run the host suite on the chosen host. Resolves `{ host, exitCode, totals, seconds }`; `totals`
 * is null when the suite never reported (crash, timeout before the end).
 */
export async function runHostTests({ host = 'auto', extensionTestsPath = join(repoRoot, 'dist-test', 'host', 'index.js'), ...rest } = {}) {
  const chosen = pickHost(host);
  if (!existsSync(extensionTestsPath)) throw new Error(`the host suite is not built: ${extensionTestsPath} (run node esbuild.mjs)`);
  console.log(`[host] running the extension-host suite on ${chosen === 'electron' ? `desktop VS Code (${process.env.VSCODE_EXECUTABLE_PATH})` : 'code-server + headless Chromium'}`);
  const r = chosen === 'electron'
    ? await runInElectron({ extensionTestsPath, ...rest })
    : chosen === 'code-server'
      ? await runInCodeServer({ extensionTestsPath, ...rest })
      : (() => { throw new Error(`unknown host: ${chosen}`); })();
  return { host: chosen, ...r };
}

function parseArgs(argv) {
  const o = { host: 'auto', build: true, timeoutMs: DEFAULT_TIMEOUT_MS };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => { if (i + 1 >= argv.length) throw new Error(`${a} needs a value`); return argv[++i]; };
    if (a === '--host') o.host = next();
    else if (a === '--no-build') o.build = false;
    else if (a === '--tests') o.extensionTestsPath = resolve(next());
    else if (a === '--extension') o.extensionDevelopmentPath = resolve(next());
    else if (a === '--workspace') o.workspaceFrom = resolve(next());
    else if (a === '--timeout-min') o.timeoutMs = Number(next()) * 60_000;
    else if (a === '--grep') process.env.RPC_WORKERS_HOST_GREP = next();
    else if (a === '--code-server') o.codeServer = next();
    else throw new Error(`unknown argument: ${a}`);
  }
  return o;
}

if (isMain(import.meta.url)) {
  let code = 1;
  try {
    const { build, ...opts } = parseArgs(process.argv.slice(2));
    if (build && !buildExtension()) throw new Error('build failed');
    const r = await runHostTests(opts);
    const t = r.totals;
    if (!t) console.error(`[host] the suite reported no totals (exit ${r.exitCode})`);
    else console.log(`[host] ${r.host}: passed=${t.passed} failed=${t.failed} pending=${t.pending} in ${r.seconds.toFixed(1)} s`);
    code = r.exitCode === 0 && t && t.failed === 0 && t.passed + t.pending > 0 ? 0 : 1;
  } catch (err) {
    console.error(`[host] ${err.message}`);
  }
  await cleanup();
  process.exit(code);
}
