#!/usr/bin/env node
// Makes sure everything the extension-host tests need is on this machine, idempotently:
//   1. Debian packages: libkrb5-dev (code-server's `kerberos` module builds against it),
//      ripgrep (stands in for @vscode/ripgrep's GitHub download), chromium (drives the workbench).
//      apt-get runs only when one is missing.
//   2. @vscode/ripgrep's download cache, filled with Debian's rg (same version, 13.0.0).
//   3. code-server, pinned, in a cache dir outside the repo (see paths.mjs), reused on later
//      runs. A marker file records a completed, verified install; a half-done install is never
//      mistaken for one (it is built in a staging dir and renamed into place).
//
// CLI: node scripts/ensure-code-server.mjs [--system-only] [--quiet]
// Env: RPC_WORKERS_CACHE_DIR (cache location), CHROMIUM_PATH (browser binary).
import { spawnSync, spawn } from 'node:child_process';
import {
  existsSync, mkdirSync, readFileSync, writeFileSync, rmSync, renameSync, lstatSync, openSync, closeSync,
  statSync,
} from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { cacheDir, makeTempDir, isMain } from './lib/paths.mjs';

export const CODE_SERVER_VERSION = '4.100.3'; // newest code-server that runs on Node 20; bundles VS Code 1.100.3
export const APT_PACKAGES = ['libkrb5-dev', 'ripgrep', 'chromium'];
// What code-server 4.100.3's lib/vscode pins: @vscode/ripgrep 1.15.11 downloads ripgrep v13.0.0-10.
const RIPGREP_PKG_VERSION = '1.15.11';
const RIPGREP_RELEASE = 'v13.0.0-10';
const MARKER = '.rpc-workers-install.json';

const say = (quiet) => (msg) => { if (!quiet) console.log(`[ensure-code-server] ${msg}`); };

export function codeServerDir() {
  return join(cacheDir(), `code-server-${CODE_SERVER_VERSION}`);
}

export function codeServerBin(dir = codeServerDir()) {
  return join(dir, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
}

export function chromiumPath() {
  return process.env.CHROMIUM_PATH || '/usr/bin/chromium';
}

// ---------------------------------------------------------------------------------------------
// 1. Debian packages

function dpkgInstalled(pkg) {
  const r = spawnSync('dpkg-query', ['-W', '-f=${db:Status-Abbrev}', pkg], { encoding: 'utf8' });
  if (r.error) return null; // no dpkg: not Debian, can't tell
  return r.status === 0 && r.stdout.startsWith('ii');
}

export function ensureSystemPackages({ packages = APT_PACKAGES, quiet = false } = {}) {
  const log = say(quiet);
  const state = packages.map((p) => [p, dpkgInstalled(p)]);
  if (state.some(([, s]) => s === null)) {
    log('dpkg-query not found: not a Debian machine, assuming the system packages are provided');
    return;
  }
  const missing = state.filter(([, s]) => !s).map(([p]) => p);
  if (missing.length === 0) { log(`system packages present: ${packages.join(' ')}`); return; }
  const asRoot = process.getuid?.() === 0;
  const sudo = asRoot ? [] : ['sudo', '-n'];
  if (!asRoot && spawnSync('sudo', ['-n', 'true']).status !== 0) {
    throw new Error(`missing Debian packages: ${missing.join(' ')}; install them as root: apt-get install -y ${missing.join(' ')}`);
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const run = (args) => {
    const [cmd, ...rest] = [...sudo, ...args];
    log(`$ ${[cmd, ...rest].join(' ')}`);
    const r = spawnSync(cmd, rest, { stdio: ['ignore', 'inherit', 'inherit'], env });
    if (r.status !== 0) throw new Error(`${args.join(' ')} failed (exit ${r.status ?? r.signal})`);
  };
  log(`installing missing Debian packages: ${missing.join(' ')}`);
  run(['apt-get', '-o', 'DPkg::Lock::Timeout=600', 'update']);
  run(['apt-get', '-o', 'DPkg::Lock::Timeout=600', 'install', '-y', ...missing]);
}

// ---------------------------------------------------------------------------------------------
// 2. ripgrep download cache

export function ensureRipgrepCache({ quiet = false } = {}) {
  const log = say(quiet);
  const target = { x64: 'x86_64-unknown-linux-musl', arm64: 'aarch64-unknown-linux-musl' }[process.arch];
  if (process.platform !== 'linux' || !target) {
    log(`no ripgrep cache for ${process.platform}/${process.arch}; @vscode/ripgrep will try its own download`);
    return;
  }
  const dir = join(tmpdir(), `vscode-ripgrep-cache-${RIPGREP_PKG_VERSION}`);
  const file = join(dir, `ripgrep-${RIPGREP_RELEASE}-${target}.tar.gz`);
  if (existsSync(file) && statSync(file).size > 0) { log(`ripgrep cache present: ${file}`); return; }
  const rg = spawnSync('sh', ['-c', 'command -v rg'], { encoding: 'utf8' }).stdout.trim();
  if (!rg) throw new Error('rg (Debian package ripgrep) not found; it is needed to fill the @vscode/ripgrep cache');
  mkdirSync(dir, { recursive: true });
  const stage = makeTempDir('rg');
  try {
    spawnSync('cp', [rg, join(stage, 'rg')]);
    const tmpFile = `${file}.${process.pid}`;
    const r = spawnSync('tar', ['-czf', tmpFile, '-C', stage, 'rg']);
    if (r.status !== 0) throw new Error(`tar failed: ${r.stderr}`);
    renameSync(tmpFile, file);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
  log(`ripgrep cache written from ${rg}: ${file}`);
}

// ---------------------------------------------------------------------------------------------
// 3. code-server

// Files that exist only when every install step really ran (postinstall, native builds).
const REQUIRED = [
  'node_modules/code-server/out/node/entry.js',
  'node_modules/argon2/lib/binding/napi-v3/argon2.node',
  'node_modules/code-server/lib/vscode/node_modules.asar', // made by code-server's postinstall.sh
  'node_modules/code-server/lib/vscode/node_modules/node-pty/build/Release/pty.node',
  'node_modules/code-server/lib/vscode/node_modules/@vscode/spdlog/build/Release/spdlog.node',
  'node_modules/code-server/lib/vscode/node_modules/kerberos/build/Release/kerberos.node',
  'node_modules/code-server/lib/vscode/node_modules/native-watchdog/build/Release/watchdog.node',
  'node_modules/code-server/lib/vscode/node_modules/@vscode/ripgrep/bin/rg',
];

function missingFiles(dir) {
  return REQUIRED.filter((rel) => { try { lstatSync(join(dir, rel)); return false; } catch { return true; } });
}

/** Why `code-server --version` does not answer as expected, or null when it does. */
function versionProblem(dir) {
  const r = spawnSync(process.execPath, [codeServerBin(dir), '--version'], { encoding: 'utf8', timeout: 120_000 });
  if (r.status === 0 && r.stdout.startsWith(`${CODE_SERVER_VERSION} `)) return null;
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim().split('\n').slice(-15).join('\n');
  return `${r.error ? r.error.message : `exit ${r.status ?? r.signal}`}${out ? `; it printed:\n${out}` : ' and printed nothing'}`;
}

const versionOk = (dir) => versionProblem(dir) === null;

function readMarker(dir) {
  try { return JSON.parse(readFileSync(join(dir, MARKER), 'utf8')); } catch { return null; }
}

function markerValid(dir) {
  const m = readMarker(dir);
  return !!m && m.version === CODE_SERVER_VERSION && m.nodeMajor === nodeMajor() && m.arch === process.arch
    && existsSync(codeServerBin(dir));
}

const nodeMajor = () => Number(process.versions.node.split('.')[0]);

function writeMarker(dir, extra) {
  writeFileSync(join(dir, MARKER), `${JSON.stringify({
    version: CODE_SERVER_VERSION, nodeMajor: nodeMajor(), node: process.version, arch: process.arch,
    completedAt: new Date().toISOString(), ...extra,
  }, null, 2)}\n`);
}

async function withLock(lockDir, log, fn) {
  const deadline = Date.now() + 30 * 60_000;
  for (;;) {
    try {
      mkdirSync(lockDir);
      writeFileSync(join(lockDir, 'pid'), String(process.pid));
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      let holder = NaN;
      try { holder = Number(readFileSync(join(lockDir, 'pid'), 'utf8')); } catch { /* being written */ }
      let alive = false;
      if (holder) { try { process.kill(holder, 0); alive = true; } catch { alive = false; } }
      if (holder && !alive) { log(`removing stale install lock of pid ${holder}`); rmSync(lockDir, { recursive: true, force: true }); continue; }
      if (Date.now() > deadline) throw new Error(`gave up waiting for the install lock ${lockDir} (held by pid ${holder})`);
      log(`another install is running (pid ${holder || '?'}); waiting...`);
      await new Promise((r) => setTimeout(r, 5000));
    }
  }
  try { return await fn(); } finally { rmSync(lockDir, { recursive: true, force: true }); }
}

/** Run a command with output to `logFile`; a heartbeat line every 30 s; tail of the log on failure. */
function runLogged(cmd, args, { cwd, env, logFile, log, what }) {
  return new Promise((resolve, reject) => {
    const fd = openSync(logFile, 'a');
    const started = Date.now();
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', fd, fd] });
    closeSync(fd);
    const beat = setInterval(() => log(`${what}: still running (${Math.round((Date.now() - started) / 1000)} s, log: ${logFile})`), 30_000);
    const stopChild = () => { try { child.kill('SIGTERM'); } catch { /* gone */ } };
    process.once('exit', stopChild);
    child.on('error', (err) => { clearInterval(beat); reject(err); });
    child.on('exit', (code, signal) => {
      clearInterval(beat);
      process.removeListener('exit', stopChild);
      if (code === 0) return resolve();
      const tail = readFileSync(logFile, 'utf8').split('\n').slice(-40).join('\n');
      reject(new Error(`${what} failed (exit ${code ?? signal}); last lines of ${logFile}:\n${tail}`));
    });
  });
}

async function install(dir, log) {
  const stage = `${dir}.partial-${process.pid}`;
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(stage, { recursive: true });
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify({
    name: 'rpc-workers-code-server-cache',
    private: true,
    dependencies: { 'code-server': CODE_SERVER_VERSION },
    // npm 11's install-script policy: these two have install scripts we need (code-server's
    // postinstall installs VS Code's own dependencies under lib/vscode; argon2 builds natively).
    allowScripts: { 'code-server': true, argon2: true },
  }, null, 2)}\n`);
  const logFile = join(stage, 'install.log');
  const env = {
    ...process.env,
    npm_config_unsafe_perm: 'true', // code-server's postinstall refuses to run as root without it
    npm_config_yes: 'true', // node-pty's install calls `npx node-gyp`, which would wait for a yes
    npm_config_strict_allow_scripts: 'false', // the nested lib/vscode install has no allowScripts of its own
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  };
  log(`installing code-server@${CODE_SERVER_VERSION} into ${dir} (takes about 8 minutes; log: ${logFile})`);
  const started = Date.now();
  await runLogged('npm', ['install', '--no-save'], { cwd: stage, env, logFile, log, what: 'npm install code-server' });
  // If the install-script policy (or anything else) skipped a step, redo it explicitly.
  let missing = missingFiles(stage);
  if (missing.length) {
    log(`after npm install these are missing, running the install scripts again: ${missing.join(', ')}`);
    const cs = join(stage, 'node_modules', 'code-server');
    if (!existsSync(join(cs, 'lib', 'vscode', 'node_modules.asar'))) {
      await runLogged('sh', ['./postinstall.sh'], {
        cwd: cs, env: { ...env, npm_config_user_agent: `npm/11 node/${process.version} linux x64` }, logFile, log, what: 'code-server postinstall.sh',
      });
    }
    await runLogged('npm', ['rebuild'], { cwd: join(cs, 'lib', 'vscode'), env, logFile, log, what: 'npm rebuild (lib/vscode)' });
    await runLogged('npm', ['rebuild'], { cwd: stage, env, logFile, log, what: 'npm rebuild' });
    missing = missingFiles(stage);
    if (missing.length) throw new Error(`code-server install is incomplete, missing: ${missing.join(', ')} (log: ${logFile})`);
  }
  // A first run right after the install has been seen to fail once on a busy machine and pass
  // when run again: ask twice before giving up, and say what it answered.
  let problem = versionProblem(stage);
  if (problem) {
    log(`code-server --version did not answer as expected (${problem}); asking once more`);
    problem = versionProblem(stage);
  }
  if (problem) throw new Error(`installed code-server does not run: ${process.execPath} ${codeServerBin(stage)} --version: ${problem}`);
  const seconds = Math.round((Date.now() - started) / 1000);
  writeMarker(stage, { seconds });
  rmSync(dir, { recursive: true, force: true });
  renameSync(stage, dir);
  log(`code-server installed in ${seconds} s`);
}

/**
 * Ensure code-server is installed and verified. Returns `{ bin, dir, version, reused, seconds }`;
 * `bin` is a JS entry point to run with `process.execPath`.
 */
export async function ensureCodeServer({ quiet = false, system = true } = {}) {
  const log = say(quiet);
  const t0 = Date.now();
  const dir = codeServerDir();
  const result = (reused) => ({ bin: codeServerBin(dir), dir, version: CODE_SERVER_VERSION, reused, seconds: (Date.now() - t0) / 1000 });
  if (system) ensureSystemPackages({ quiet });
  if (markerValid(dir)) { log(`code-server ${CODE_SERVER_VERSION} reused from ${dir}`); return result(true); }
  mkdirSync(cacheDir(), { recursive: true });
  return withLock(`${dir}.lock`, log, async () => {
    if (markerValid(dir)) { log(`code-server ${CODE_SERVER_VERSION} reused from ${dir}`); return result(true); }
    // An install made before markers existed (or by hand): adopt it if it verifies.
    if (existsSync(dir) && missingFiles(dir).length === 0 && versionOk(dir)) {
      writeMarker(dir, { adopted: true });
      log(`verified the existing install in ${dir} and marked it complete`);
      return result(true);
    }
    ensureRipgrepCache({ quiet });
    await install(dir, log);
    return result(false);
  });
}

if (isMain(import.meta.url)) {
  const quiet = process.argv.includes('--quiet');
  try {
    if (process.argv.includes('--system-only')) {
      ensureSystemPackages({ quiet });
    } else {
      const r = await ensureCodeServer({ quiet });
      console.log(`code-server ${r.version}: ${r.bin} (${r.reused ? 'reused' : 'installed'}, ${r.seconds.toFixed(1)} s)`);
    }
  } catch (err) {
    console.error(`[ensure-code-server] ${err.message}`);
    process.exit(1);
  }
}
