// code-server + headless Chromium, the pieces every runner shares (host tests, the package
// test, the UI driver, `npm start`). Everything started here is registered with proc.mjs and
// stopped on every way out.
import { createServer } from 'node:net';
import { cpSync, mkdirSync, rmSync, writeFileSync, createWriteStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { ensureCodeServer, chromiumPath } from '../ensure-code-server.mjs';
import { spawnManaged, onCleanup, findByEnvMarker, killByEnvMarker } from './proc.mjs';
import { makeTempDir, repoRoot } from './paths.mjs';

export const SAMPLE_WORKSPACE = join(repoRoot, 'test', 'workspace');

/** Settings for a throw-away profile: quiet, no trust dialog, nothing that calls home. */
export const DEFAULT_SETTINGS = {
  'security.workspace.trust.enabled': false,
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'git.enabled': false,
  'window.restoreWindows': 'none',
  // In a browser VS Code saves every edit after a second (files.autoSave: afterDelay); the desktop
  // does not. Off, as on the desktop, so that a test of what the extension saves sees only its saves.
  'files.autoSave': 'off',
  // VS Code 1.10x+ opens the Chat view in the secondary side bar by default; it takes ~300 px of
  // every screenshot and is no part of what is tested. (Unknown keys are ignored by 1.100.)
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'chat.disableAIFeatures': true,
};

/** A free TCP port on 127.0.0.1 (the OS picks it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => { const { port } = srv.address(); srv.close(() => resolve(port)); });
  });
}

/** Is `port` on 127.0.0.1 free right now? */
export function portFree(port) {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/**
 * A throw-away root with `user-data/` (settings applied), `extensions/` and, when `workspaceFrom`
 * is given, `workspace/` (a copy of it). Removed on cleanup unless RPC_WORKERS_KEEP_TMP=1.
 */
export function makeSandbox({ settings = {}, workspaceFrom = SAMPLE_WORKSPACE, prefix = 'run' } = {}) {
  const root = makeTempDir(prefix);
  const userDataDir = join(root, 'user-data');
  const extensionsDir = join(root, 'extensions');
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  writeFileSync(join(userDataDir, 'User', 'settings.json'), `${JSON.stringify({ ...DEFAULT_SETTINGS, ...settings }, null, 2)}\n`);
  let workspace = null;
  if (workspaceFrom) {
    workspace = join(root, 'workspace');
    cpSync(workspaceFrom, workspace, { recursive: true });
  }
  const remove = () => { if (process.env.RPC_WORKERS_KEEP_TMP !== '1') rmSync(root, { recursive: true, force: true }); };
  onCleanup(remove);
  return { root, userDataDir, extensionsDir, workspace, remove };
}

/**
 * The `code-server` command line, as [command, args] (code-server is a JS entry point run on its
 * own Node). `version`: 'floor', 'current' or a version (see ensure-code-server.mjs).
 */
export async function codeServerCommand(args, { quiet = false, version } = {}) {
  const cs = await ensureCodeServer({ quiet, version });
  return [cs.node, [cs.bin, ...args]];
}

/**
 * Start code-server on 127.0.0.1 and wait until it listens. `port` omitted: a free one (and a
 * retry if it was taken meanwhile). Output goes to `<sandbox>/code-server.log`; with `echo`
 * (or RPC_WORKERS_VERBOSE=1) it is also printed. `version`: which code-server (default
 * RPC_WORKERS_CODE_SERVER, else the floor). Returns
 * `{ port, origin, stop(), child, logFile, runId, codeServer }` (`codeServer`: what
 * ensureCodeServer answered: version, vscode, payloadNeedsSmokeDriver, ...).
 */
export async function startCodeServer({ sandbox, folder = sandbox.workspace, port, env = {}, echo = process.env.RPC_WORKERS_VERBOSE === '1', quiet = false, timeoutMs = 90_000, version }) {
  const fixedPort = port != null;
  const cs = await ensureCodeServer({ quiet, version });
  const logFile = join(sandbox.root, 'code-server.log');
  for (let attempt = 1; ; attempt++) {
    const p = fixedPort ? Number(port) : await freePort();
    const runId = randomBytes(8).toString('hex');
    const args = [
      cs.bin, '--bind-addr', `127.0.0.1:${p}`, '--auth', 'none', '--disable-telemetry', '--disable-update-check',
      '--disable-getting-started-override', '--ignore-last-opened',
      '--config', join(sandbox.root, 'code-server-config.yaml'),
      '--user-data-dir', sandbox.userDataDir, '--extensions-dir', sandbox.extensionsDir,
      ...(folder ? [folder] : []),
    ];
    writeFileSync(join(sandbox.root, 'code-server-config.yaml'), 'auth: none\ncert: false\n');
    const child = spawnManaged(cs.node, args, {
      env: { ...process.env, ...env, RPC_WORKERS_RUN_ID: runId },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = createWriteStream(logFile, { flags: 'a' });
    let seen = '';
    const ready = new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`code-server did not report listening within ${timeoutMs / 1000} s`)), timeoutMs);
      const onData = (chunk) => {
        const text = chunk.toString();
        out.write(text);
        if (echo) process.stdout.write(text.replace(/^(?=.)/gm, '[code-server] '));
        if (seen.length < 20_000) seen += text;
        if (/HTTP server listening on/.test(seen)) { clearTimeout(timer); resolve(); }
        if (/EADDRINUSE/.test(seen)) { clearTimeout(timer); reject(Object.assign(new Error(`port ${p} is in use`), { code: 'EADDRINUSE' })); }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.once('exit', (code, sig) => { clearTimeout(timer); reject(new Error(`code-server exited (${code ?? sig}) before listening:\n${seen.slice(-3000)}`)); });
    });
    const stop = async () => {
      await child.stop();
      // The workers' watchdog ends them and itself once the host is gone (a poll, then up to 2 s):
      // it is given that long before what is left counts as left over.
      for (const until = Date.now() + 3000; findByEnvMarker('RPC_WORKERS_RUN_ID', runId).length && Date.now() < until; ) await new Promise((r) => setTimeout(r, 50));
      const described = [];
      const stray = killByEnvMarker('RPC_WORKERS_RUN_ID', runId, described);
      if (stray.length) console.error(`[code-server] killed ${stray.length} leftover process(es) of this run: ${described.join('; ')}`);
      out.end();
    };
    try {
      await ready;
      return { port: p, origin: `http://127.0.0.1:${p}`, stop, child, logFile, runId, codeServer: cs };
    } catch (err) {
      await stop();
      if (err.code === 'EADDRINUSE' && !fixedPort && attempt < 4) continue;
      throw err;
    }
  }
}

/** The last `n` lines of code-server's log, for error messages. */
export function logTail(logFile, n = 30) {
  try { return readFileSync(logFile, 'utf8').split('\n').slice(-n).join('\n'); } catch { return ''; }
}

/**
 * The workbench URL. `payload` is an object of VS Code payload keys (extensionDevelopmentPath,
 * extensionTestsPath) whose values are absolute paths on this machine; they become
 * vscode-remote:// URIs of this server.
 */
export function workbenchUrl({ origin, folder, payload = {} }) {
  const host = origin.replace(/^https?:\/\//, '');
  const params = new URLSearchParams();
  if (folder) params.set('folder', folder);
  const pairs = Object.entries(payload).filter(([, v]) => v != null).map(([k, v]) => [k, `vscode-remote://${host}${v}`]);
  let url = `${origin}/?${params.toString().replace(/%2F/g, '/')}`;
  if (pairs.length) url += `&payload=${encodeURIComponent(JSON.stringify(pairs))}`;
  return url;
}

/**
 * Make the workbench page honour the URL payload's extensionDevelopmentPath / extensionTestsPath
 * where the built workbench ignores them unless its smoke-test driver is on (VS Code 1.139).
 * code-server refuses --enable-smoke-test-driver, and rewriting the served page makes Chromium
 * block its WebSocket; so the flag is put into the page's configuration (the data-settings of
 * #vscode-workbench-web-configuration) as the workbench reads it, from an init script that runs
 * before any script of the page.
 */
/* global Element -- the init script runs in the workbench page, where Element is a global */
export async function enablePayloadInPage(context) {
  await context.addInitScript(() => {
    const getAttribute = Element.prototype.getAttribute;
    Element.prototype.getAttribute = function patchedGetAttribute(name) {
      const value = getAttribute.call(this, name);
      if (name !== 'data-settings' || this.id !== 'vscode-workbench-web-configuration' || !value) return value;
      try {
        const config = JSON.parse(value);
        config.developmentOptions = { ...(config.developmentOptions ?? {}), enableSmokeTestDriver: true };
        return JSON.stringify(config);
      } catch {
        return value;
      }
    };
  });
}

/** A browser context for a workbench of `codeServer` (what startCodeServer answered). */
export async function workbenchContext(browser, codeServer, options = {}) {
  const context = await browser.browser.newContext(options);
  if (codeServer?.payloadNeedsSmokeDriver) await enablePayloadInPage(context);
  return context;
}

export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage',
];

/** Headless Debian Chromium through playwright-core; closed on cleanup. */
export async function launchBrowser({ headless = true } = {}) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: chromiumPath(), headless, args: CHROMIUM_ARGS,
    // Our own handlers (proc.mjs) close it; playwright's exit hook stays as a last resort.
    handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false,
  });
  const unregister = onCleanup(() => browser.close().catch(() => {}));
  const close = async () => { unregister(); await browser.close().catch(() => {}); };
  return { browser, close };
}
