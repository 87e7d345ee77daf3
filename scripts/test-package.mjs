#!/usr/bin/env node
// The .vsix as a user gets it: `npm run package` builds it, code-server installs it into a
// throw-away extensions dir (`--install-extension`), and code-server is started WITHOUT an
// extensionDevelopmentPath pointing at the repo; scripts/package-check/index.cjs then runs in its
// extension host and checks that the installed copy is the one loaded, that it activates on
// its first command, and that it registers every contributed command.
//
// CLI: node scripts/test-package.mjs [--timeout-min 15] [--no-carrier]   (leaves rpc-workers.vsix in the repo root;
//      --no-carrier shows that code-server then ignores extensionTestsPath: the run times out)
// Prints `HOST-TOTALS passed=N failed=N pending=N`, exits 0 only when every check passed.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, rmSync, statSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, isMain } from './lib/paths.mjs';
import { buildExtension } from './lib/build.mjs';
import { cleanup } from './lib/proc.mjs';
import { makeSandbox, codeServerCommand } from './lib/code-server.mjs';
import { runInCodeServer, DEFAULT_TIMEOUT_MS } from './run-host-tests.mjs';

const VSIX = join(repoRoot, 'rpc-workers.vsix');
const CHECK_SUITE = join(repoRoot, 'scripts', 'package-check', 'index.cjs');
const MAX_VSIX_BYTES = 5 * 1024 * 1024;

function run(cmd, args, what, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', ...opts });
  if (r.status !== 0) throw new Error(`${what} failed (exit ${r.status ?? r.signal}):\n${(r.stdout + r.stderr).slice(-4000)}`);
  return r.stdout + r.stderr;
}

/**
 * An extension that is only there to satisfy the workbench: in code-server 1.100 the payload's
 * extensionTestsPath is ignored unless an extensionDevelopmentPath is given too (measured). This
 * one has another id and contributes nothing, so the extension under test still comes from the
 * installed .vsix.
 */
function makeCarrierExtension(dir) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({
    name: 'package-test-carrier', publisher: 'rpc-workers-test', version: '0.0.0',
    engines: { vscode: '^1.100.0' }, description: 'Carries the package test into the host; contributes nothing.',
  }, null, 2)}\n`);
  return dir;
}

export async function runPackageTest({ timeoutMs = DEFAULT_TIMEOUT_MS, carrier = true } = {}) {
  const t0 = Date.now();
  console.log('[package] npm run package');
  rmSync(VSIX, { force: true });
  try {
    const out = run('npm', ['run', 'package'], 'npm run package');
    if (!existsSync(VSIX)) throw new Error(`npm run package made no ${VSIX}:\n${out.slice(-2000)}`);
    const size = statSync(VSIX).size;
    console.log(`[package] built ${VSIX} (${(size / 1024).toFixed(0)} KiB) in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    if (size > MAX_VSIX_BYTES) throw new Error(`the .vsix is ${size} bytes, more than ${MAX_VSIX_BYTES}: check .vscodeignore`);
    // An empty folder: nothing in it (like .pi/agents) activates the extension by itself.
    const sandbox = makeSandbox({ prefix: 'package', workspaceFrom: null });
    sandbox.workspace = join(sandbox.root, 'empty-workspace');
    mkdirSync(sandbox.workspace);
    const vsix = join(sandbox.root, 'rpc-workers.vsix');
    copyFileSync(VSIX, vsix);
    const [node, args] = await codeServerCommand([
      '--user-data-dir', sandbox.userDataDir, '--extensions-dir', sandbox.extensionsDir, '--install-extension', vsix,
    ], { quiet: true });
    console.log(run(node, args, 'code-server --install-extension').trim().split('\n').map((l) => `[package] ${l}`).join('\n'));
    const installed = readdirSync(sandbox.extensionsDir).filter((d) => d.startsWith('rpc-workers.rpc-workers-'));
    if (installed.length !== 1) throw new Error(`expected one installed rpc-workers.rpc-workers-* in ${sandbox.extensionsDir}, found: ${readdirSync(sandbox.extensionsDir).join(', ')}`);
    const r = await runInCodeServer({
      sandbox,
      extensionDevelopmentPath: carrier ? makeCarrierExtension(join(sandbox.root, 'carrier')) : null,
      extensionTestsPath: CHECK_SUITE,
      env: { RPC_WORKERS_EXPECT_EXTENSIONS_DIR: sandbox.extensionsDir },
      timeoutMs: timeoutMs - (Date.now() - t0),
      label: 'package',
    });
    return { ...r, seconds: (Date.now() - t0) / 1000 };
  } finally {
    // `npm run package` left the minified production bundles in dist/; put the dev build back.
    buildExtension({ typecheck: false, quiet: true });
  }
}

if (isMain(import.meta.url)) {
  let code = 1;
  try {
    const argv = process.argv.slice(2);
    const i = argv.indexOf('--timeout-min');
    const r = await runPackageTest({
      carrier: !argv.includes('--no-carrier'),
      timeoutMs: i >= 0 ? Number(argv[i + 1]) * 60_000 : DEFAULT_TIMEOUT_MS,
    });
    const t = r.totals;
    console.log(t ? `[package] passed=${t.passed} failed=${t.failed} pending=${t.pending} in ${r.seconds.toFixed(1)} s` : `[package] no totals (exit ${r.exitCode})`);
    code = r.exitCode === 0 && t && t.failed === 0 && t.passed > 0 ? 0 : 1;
  } catch (err) {
    console.error(`[package] ${err.message}`);
  }
  await cleanup();
  process.exit(code);
}
