#!/usr/bin/env node
// The .vsix as a user gets it: `npm run package` builds it, code-server installs it into a
// throw-away extensions dir (`--install-extension`), and code-server is started WITHOUT an
// extensionDevelopmentPath pointing at the repo; scripts/package-check/index.cjs then runs in its
// extension host and checks that the installed copy is the one loaded, that it activates on
// its first command, and that it registers every contributed command.
//
// The .vsix itself is checked first: vsce packages it without a warning, it is under
// MAX_VSIX_BYTES, and `vsce ls` lists only the files it needs. Then it is installed into each
// code-server (the engines floor and today's VS Code), where the checks also start its demo worker.
//
// CLI: node scripts/test-package.mjs [--timeout-min 15] [--no-carrier] [--code-server floor,current]
//      (leaves rpc-workers.vsix in the repo root; --no-carrier shows that code-server then
//      ignores extensionTestsPath: the run times out)
// Prints `HOST-TOTALS passed=N failed=N pending=N`, exits 0 only when every check passed.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync, statSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, isMain } from './lib/paths.mjs';
import { buildExtension } from './lib/build.mjs';
import { cleanup } from './lib/proc.mjs';
import { makeSandbox, codeServerCommand } from './lib/code-server.mjs';
import { runInCodeServer, DEFAULT_TIMEOUT_MS } from './run-host-tests.mjs';
import { CODE_SERVERS, CURRENT_VERSION, FLOOR_VERSION, resolveCodeServerVersion } from './ensure-code-server.mjs';

const VSIX = join(repoRoot, 'rpc-workers.vsix');
const CHECK_SUITE = join(repoRoot, 'scripts', 'package-check', 'index.cjs');
// 466 KiB at 0.4.1 with the walkthrough: bundles ~300 KiB, codicons 156 KiB. Twice that is a bug.
const MAX_VSIX_BYTES = 1024 * 1024;

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

/**
 * What `vsce ls` says the .vsix carries, against what it must carry and nothing else: the
 * manifest, the docs a gallery page shows, the bundles and the media. Returns the problems.
 */
export function checkPackageFiles(files) {
  const problems = [];
  const allowed = [/^package\.json$/, /^README\.md$/, /^CHANGELOG\.md$/, /^LICENSE$/, /^dist\/[^/]+\.js$/, /^media\/[^/]+\.(svg|png|css)$/,
    /^media\/codicons\/codicon\.(css|ttf)$/, /^media\/walkthrough\/[^/]+\.md$/];
  for (const f of files) if (!allowed.some((re) => re.test(f))) problems.push(`ships ${f}, which the extension does not need`);
  for (const must of REQUIRED_FILES) if (!files.includes(must)) problems.push(`does not ship ${must}`);
  return problems;
}

/** Files the .vsix must carry: the manifest names them (main, the demo worker, the icons). */
export const REQUIRED_FILES = ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE', 'dist/extension.js', 'dist/extension-main.js', 'dist/extension-later.js', 'dist/core.js', 'dist/demo-worker.js',
  'dist/pi-guard.js', 'dist/webview.js', 'dist/zod-mini.js', 'media/rpc-workers.svg', 'media/icon.png', 'media/eventLog.css', 'media/codicons/codicon.css', 'media/codicons/codicon.ttf'];

/** Every file the manifest names (icon, walkthrough media) must ship too. */
export function manifestFiles(manifest) {
  const out = [manifest.icon];
  for (const w of manifest.contributes?.walkthroughs ?? []) {
    for (const step of w.steps ?? []) {
      const m = step.media ?? {};
      for (const f of [m.markdown, m.svg, typeof m.image === 'string' ? m.image : null]) if (f) out.push(f);
    }
  }
  return out.filter(Boolean);
}

/**
 * Build the .vsix (no vsce warning allowed), check what it carries (`vsce ls`), then install it
 * into each code-server of `codeServers` and run the checks there. Resolves to one result per
 * step: `{ row, t0, totals, exitCode?, error? }`, the first (row 'vsix') for the package itself.
 */
export async function runPackageTest({ timeoutMs = DEFAULT_TIMEOUT_MS, carrier = true, codeServers = [FLOOR_VERSION, CURRENT_VERSION] } = {}) {
  const t0 = Date.now();
  const out = [];
  console.log('[package] npm run package');
  rmSync(VSIX, { force: true });
  try {
    const vsixStep = { row: 'vsix', t0, totals: { passed: 0, failed: 0, pending: 0, failures: [] }, exitCode: 0 };
    out.push(vsixStep);
    const count = (name, problems) => {
      if (problems.length) { vsixStep.totals.failed++; vsixStep.totals.failures.push(`${name}: ${problems[0]}`); console.log(`  ✘ ${name}\n      ${problems.join('\n      ')}`); }
      else { vsixStep.totals.passed++; console.log(`  ✔ ${name}`); }
    };
    const built = run('npm', ['run', 'package'], 'npm run package');
    if (!existsSync(VSIX)) throw new Error(`npm run package made no ${VSIX}:\n${built.slice(-2000)}`);
    const size = statSync(VSIX).size;
    console.log(`[package] built ${VSIX} (${(size / 1024).toFixed(0)} KiB) in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    count('vsce packages it without a warning', built.split('\n').filter((l) => /^\s*(WARNING|warning)\b|\bWARN\b/.test(l)));
    count(`the .vsix is at most ${MAX_VSIX_BYTES / 1024} KiB (${(size / 1024).toFixed(0)} KiB)`, size > MAX_VSIX_BYTES ? [`${size} bytes: check .vscodeignore`] : []);
    // vsce runs vscode:prepublish: what it packed is the production build, whatever dist/ held before.
    count('its bundles are the production build (vscode:prepublish ran)', REQUIRED_FILES.filter((f) => f.endsWith('.js')).filter((f) => readFileSync(join(repoRoot, f), 'utf8').includes('//# sourceMappingURL=')).map((f) => `${f} is the development build`));
    const listed = run('npx', ['--no-install', 'vsce', 'ls', '--no-dependencies'], 'vsce ls').split('\n').map((l) => l.trim()).filter((l) => l && !/^(WARNING|INFO|Executing prepublish)/.test(l));
    console.log(`[package] vsce ls: ${listed.join(' ')}`);
    const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
    count('carries only the files it needs (vsce ls)', [
      ...checkPackageFiles(listed),
      ...manifestFiles(manifest).filter((f) => !listed.includes(f)).map((f) => `does not ship ${f}, which package.json names`),
    ]);
    vsixStep.seconds = (Date.now() - t0) / 1000;
    for (const version of codeServers) {
      const t1 = Date.now();
      const row = `VS Code ${CODE_SERVERS[version].vscode}`;
      try {
        const r = await installAndCheck({ version, carrier, timeoutMs: timeoutMs - (Date.now() - t0) });
        out.push({ ...r, row, t0: t1, seconds: (Date.now() - t1) / 1000 });
      } catch (err) {
        console.error(`[package] on ${row}: ${err.message}`);
        out.push({ row, t0: t1, totals: null, error: err.message, seconds: (Date.now() - t1) / 1000 });
      }
    }
    return out;
  } catch (err) {
    // What failed is the package itself (the build, vsce ls, a code-server that would not install it).
    let step = out.find((r) => r.row === 'vsix');
    if (!step) { step = { row: 'vsix', t0 }; out.push(step); }
    Object.assign(step, { totals: null, error: err.message, seconds: (Date.now() - t0) / 1000 });
    return out;
  } finally {
    // `npm run package` left the minified production bundles in dist/; put the dev build back.
    buildExtension({ typecheck: false, quiet: true });
  }
}

/** Install the built .vsix into a fresh profile of code-server `version` and run the checks in it. */
async function installAndCheck({ version, carrier, timeoutMs }) {
  // An empty folder: nothing in it (like .pi/agents) activates the extension by itself.
  const sandbox = makeSandbox({ prefix: 'package', workspaceFrom: null });
  sandbox.workspace = join(sandbox.root, 'empty-workspace');
  mkdirSync(sandbox.workspace);
  const vsix = join(sandbox.root, 'rpc-workers.vsix');
  copyFileSync(VSIX, vsix);
  const [node, args] = await codeServerCommand([
    '--user-data-dir', sandbox.userDataDir, '--extensions-dir', sandbox.extensionsDir, '--install-extension', vsix,
  ], { quiet: true, version });
  console.log(run(node, args, `code-server ${version} --install-extension`).trim().split('\n').map((l) => `[package ${version}] ${l}`).join('\n'));
  const installed = readdirSync(sandbox.extensionsDir).filter((d) => d.startsWith('rpc-workers.rpc-workers-'));
  if (installed.length !== 1) throw new Error(`expected one installed rpc-workers.rpc-workers-* in ${sandbox.extensionsDir}, found: ${readdirSync(sandbox.extensionsDir).join(', ')}`);
  return runInCodeServer({
    sandbox,
    codeServer: version,
    extensionDevelopmentPath: carrier ? makeCarrierExtension(join(sandbox.root, 'carrier')) : null,
    extensionTestsPath: CHECK_SUITE,
    env: { RPC_WORKERS_EXPECT_EXTENSIONS_DIR: sandbox.extensionsDir },
    timeoutMs,
    label: `package ${version}`,
  });
}

if (isMain(import.meta.url)) {
  let code = 1;
  try {
    const argv = process.argv.slice(2);
    const i = argv.indexOf('--timeout-min');
    const j = argv.indexOf('--code-server');
    const runs = await runPackageTest({
      carrier: !argv.includes('--no-carrier'),
      timeoutMs: i >= 0 ? Number(argv[i + 1]) * 60_000 : DEFAULT_TIMEOUT_MS,
      ...(j >= 0 ? { codeServers: argv[j + 1].split(',').map((n) => resolveCodeServerVersion(n)) } : {}),
    });
    code = 0;
    for (const r of runs) {
      const t = r.totals;
      console.log(t ? `[package] ${r.row}: passed=${t.passed} failed=${t.failed} pending=${t.pending} in ${r.seconds.toFixed(1)} s` : `[package] ${r.row}: no totals (${r.error ?? `exit ${r.exitCode}`})`);
      if (!(r.exitCode === 0 && t && t.failed === 0 && t.passed > 0)) code = 1;
    }
  } catch (err) {
    console.error(`[package] ${err.message}`);
  }
  await cleanup();
  process.exit(code);
}
