// What ensure-code-server.mjs needs from the system before code-server installs: its Debian
// packages (apt-get only when one is missing), and @vscode/ripgrep's download cache filled with
// Debian's rg, so that the install downloads nothing from GitHub.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeTempDir } from './paths.mjs';
import { say } from './say.mjs';

export const APT_PACKAGES = ['libkrb5-dev', 'ripgrep', 'chromium'];
// What code-server 4.100.3's lib/vscode pins: @vscode/ripgrep 1.15.11 downloads ripgrep v13.0.0-10.
const RIPGREP_PKG_VERSION = '1.15.11';
const RIPGREP_RELEASE = 'v13.0.0-10';

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
