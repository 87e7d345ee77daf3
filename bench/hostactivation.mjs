// Activation in a real extension host: code-server's (the current VS Code), timed by VS Code
// itself. bench/startup.mjs times the bundle in plain Node under a vscode stub, where Node has
// not yet loaded what an extension host has (perf_hooks, AbortController, node:os, node:vm ...)
// and `vscode` is a stub; here the minified build is loaded by the extension host as a user's
// window loads it, and the figures are VS Code's own performance marks around the require of its
// entry (load) and its activate() (bench/lib/host-activation-runner.cjs), beside two extensions
// activated in the same window, in turn before and after it: a trivial one, and the floor
// (bench/lib/host-activation-floor.cjs), which asks VS Code at activation for what ours asks and
// does nothing else, so that what ours takes beyond it is its own. A first window of a build (no
// code cache: its folder emptied before the window) and a later one (the cache the window before
// it wrote) alternate, each in a new window (a new extension host) of one code-server.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBundles } from './lib/build.mjs';
import { ROOT, figure, log, round } from './lib/common.mjs';
import { codeServerCommand, launchBrowser, makeSandbox, startCodeServer, workbenchContext, workbenchUrl } from '../scripts/lib/code-server.mjs';
import { formatAutomationLog } from '../scripts/run-host-tests.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PACKAGE = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const OURS = `${PACKAGE.publisher}.${PACKAGE.name}`;
const TRIVIAL = 'rpc-workers-bench.trivial';
const FLOOR = 'rpc-workers-bench.floor';
const LINE = /^HOST-ACTIVATION (\{.*\})$/;

/** A .vsix of `files` (package.json first) in `dir`, packed by vsce. */
function pack(dir, files) {
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries({ ...files, 'README.md': 'A benchmark\'s extension.\n' })) writeFileSync(path.join(dir, name), text);
  const vsix = `${dir}.vsix`;
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '-o', vsix], { cwd: dir, stdio: 'pipe' });
  return vsix;
}

/**
 * The extension as a .vsix would hold it (package.json, media, the minified bundles), and the two
 * measured beside it, as .vsix files (the workbench takes one extension under development): a
 * trivial one, and the floor (bench/lib/host-activation-floor.cjs) with ours's views under ids of its own.
 */
async function extensions(root) {
  const ours = path.join(root, 'rpc-workers');
  mkdirSync(ours, { recursive: true });
  cpSync(path.join(ROOT, 'package.json'), path.join(ours, 'package.json'));
  cpSync(path.join(ROOT, 'media'), path.join(ours, 'media'), { recursive: true });
  await buildBundles(path.join(ours, 'dist'), { production: true });
  const manifest = (name, contributes = {}) => JSON.stringify({
    name, publisher: 'rpc-workers-bench', version: '0.0.1', engines: { vscode: PACKAGE.engines.vscode }, main: './extension.js', activationEvents: [], contributes,
  });
  const renamed = (v) => JSON.parse(JSON.stringify(v).replaceAll('"rpcWorkers', '"rpcWorkersFloor').replaceAll('media/rpc-workers.svg', 'icon.svg'));
  const trivial = pack(path.join(root, 'trivial'), { 'package.json': manifest('trivial'), 'extension.js': 'exports.activate = () => ({}); exports.deactivate = () => {};\n' });
  const floor = pack(path.join(root, 'floor'), {
    'package.json': manifest('floor', { viewsContainers: renamed(PACKAGE.contributes.viewsContainers), views: renamed(PACKAGE.contributes.views) }),
    'extension.js': readFileSync(path.join(HERE, 'lib', 'host-activation-floor.cjs'), 'utf8'),
    'icon.svg': readFileSync(path.join(ROOT, 'media', 'rpc-workers.svg'), 'utf8'),
  });
  return { ours, vsixes: [trivial, floor] };
}

/** One window: opens the workbench with ours under development (the two others are installed), waits for the runner's line and its exit. */
async function oneWindow(browser, server, { runnerDir, devPath, folder }, window) {
  writeFileSync(path.join(runnerDir, 'window.json'), JSON.stringify(window));
  const context = await workbenchContext(browser, server.codeServer);
  try {
    const page = await context.newPage();
    let result = null;
    const lines = [];
    const exited = new Promise((resolve, reject) => {
      page.exposeFunction('codeAutomationExit', (code) => resolve(Number(code))).catch(reject);
      page.on('crash', () => reject(new Error('the workbench page crashed')));
    });
    await page.exposeFunction('codeAutomationLog', (_type, message) => {
      for (const line of formatAutomationLog(message).split('\n')) {
        lines.push(line);
        const m = LINE.exec(line.trim());
        if (m) result = JSON.parse(m[1]);
      }
    });
    const url = workbenchUrl({ origin: server.origin, folder, payload: { extensionDevelopmentPath: devPath, extensionTestsPath: path.join(runnerDir, 'host-activation-runner.cjs') } });
    await page.goto(url, { waitUntil: 'domcontentloaded' });
    let timer;
    const code = await Promise.race([exited, new Promise((_, reject) => { timer = setTimeout(() => reject(new Error('a window did not finish within 120 s')), 120_000); })]).finally(() => clearTimeout(timer));
    if (code !== 0 || !result) throw new Error(`the window (${window.kind}) ended with ${code}${result ? '' : ', no HOST-ACTIVATION line'}:\n${lines.slice(-20).join('\n')}`);
    return result;
  } finally {
    await context.close().catch(() => {});
  }
}

export async function run({ windows = 12 } = {}) {
  const box = makeSandbox({ prefix: 'bench-host-activation', workspaceFrom: null });
  const server = { stop: async () => {} };
  let browser = null;
  try {
    const folder = path.join(box.root, 'workspace');
    mkdirSync(folder);
    const { ours, vsixes } = await extensions(path.join(box.root, 'extensions-under-test'));
    for (const vsix of vsixes) {
      const [node, args] = await codeServerCommand(['--user-data-dir', box.userDataDir, '--extensions-dir', box.extensionsDir, '--install-extension', vsix], { quiet: true, version: 'current' });
      execFileSync(node, args, { stdio: 'pipe' });
    }
    const runnerDir = path.join(box.root, 'runner');
    mkdirSync(runnerDir);
    cpSync(path.join(HERE, 'lib', 'host-activation-runner.cjs'), path.join(runnerDir, 'host-activation-runner.cjs'));
    const cacheDir = path.join(box.userDataDir, 'User', 'globalStorage', OURS, 'code-cache');
    Object.assign(server, await startCodeServer({ sandbox: box, folder, version: 'current', quiet: true }));
    browser = await launchBrowser();
    const where = { runnerDir, devPath: ours, folder };
    const vscodeVersion = server.codeServer.vscode;
    log(`  host activation: code-server ${server.codeServer.version} (VS Code ${vscodeVersion}), ${windows} windows of each kind`);
    const runs = { first: [], later: [] };
    // One pair more, first, not counted: the server's first window warms what it serves.
    for (let i = -1; i < windows; i++) {
      for (const kind of ['first', 'later']) {
        if (kind === 'first') rmSync(cacheDir, { recursive: true, force: true });
        // Each of the three first, second and third in turn; ours first in the uncounted window, whose runner learns its commands for the floor.
        const turn = (i + 1) * 2 + (kind === 'later' ? 1 : 0);
        const order = [0, 1, 2].map((k) => [OURS, TRIVIAL, FLOOR][(k + turn) % 3]);
        const r = await oneWindow(browser, server, where, { kind, order, ids: { ours: OURS, trivial: TRIVIAL, floor: FLOOR }, entry: path.join(ours, 'dist', 'extension.js') });
        const expected = kind === 'first' ? 'none' : 'used';
        if (r.codeCache !== expected) throw new Error(`host activation, ${kind} window: the code cache was ${r.codeCache}, expected ${expected}`);
        if (i >= 0) runs[kind].push(r);
      }
    }
    const figures = [];
    for (const [kind, label] of [['first', 'a first window (no code cache yet)'], ['later', 'later windows (code cache)']]) {
      for (const key of ['loadMs', 'activateMs']) {
        figures.push(figure({
          bench: 'hostactivation', name: `activation in a real extension host (code-server, VS Code ${vscodeVersion}), minified, ${label}: ${key === 'loadMs' ? 'load (require)' : 'activate()'}`, unit: 'ms', better: 'lower',
          pairs: runs[kind].map((r) => ({ product: r.ours[key], baseline: r.trivial[key] })),
          baselineName: 'a trivial extension, same window', note: `VS Code's own marks (willLoadExtensionCode … didActivateExtension), ${runs[kind].length} windows, a new extension host each`,
        }));
      }
      const total = (x) => x.loadMs + x.activateMs;
      figures.push(figure({
        bench: 'hostactivation', name: `activation in a real extension host (code-server, VS Code ${vscodeVersion}), minified, ${label}: its floor, load + activate() of an extension asking VS Code for the same and nothing else`, unit: 'ms', better: 'lower',
        pairs: runs[kind].map((r) => ({ product: total(r.floor), baseline: total(r.trivial) })),
        baselineName: 'a trivial extension, same window', note: `bench/lib/host-activation-floor.cjs: the vscode API, a log channel, the settings read once, ${runs[kind][0]?.commands ?? '?'} commands, the views, two status bar items, two content providers`,
      }));
      const f = figures.slice(-3);
      log(`  host activation, ${kind} window: load ${round(f[0].product.median, 2)} + activate() ${round(f[1].product.median, 2)} ms; its floor ${round(f[2].product.median, 2)} ms; trivial ${round(f[2].baseline.median, 2)} ms`);
    }
    return { figures };
  } finally {
    await browser?.close();
    await server.stop();
    box.remove();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (k, d) => (process.argv.includes(k) ? process.argv[process.argv.indexOf(k) + 1] : d);
  const out = await run({ windows: Number(arg('--windows', 12)) });
  for (const f of out.figures) console.log(`${f.name}: ${f.product.median} ${f.unit} vs ${f.baseline.median} (${f.product.min}–${f.product.p95})`);
  process.exit(0);
}
